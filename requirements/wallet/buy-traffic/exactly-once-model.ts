// Model-based check of exactly-once submission: seeded random sequences of submissions, resubmissions,
// concurrent submissions, already-expired submissions and status lookups over two tracking ids, judged
// against a model of what each tracking id may still become. The sequences of one run go to the node
// concurrently (each on its own tracking ids), so the check stays fast however slow creation is.
import fc from 'fast-check';
import type { Exchange } from '../../../engine/transport/http.ts';
import { CheckSkipped, type CheckContext, type Requirement } from '../../../engine/model.ts';
import { defineRules, rule } from '../../../engine/requirement.ts';
import { buy, buyBody, collision, isDuplicateAnswer, statusPath } from '../../../interfaces/wallet/support.ts';

type Kind = 'submit' | 'expired' | 'twice' | 'status';
interface Command {
  kind: Kind;
  t: 0 | 1;
}

/**
 * What the model knows of a tracking id: `free` (never created: unused, or only refused with a 4xx
 * other than 409/429), `created` (a request exists: every later submission must be refused), `unknown`
 * (after a 5xx or a 429 nobody can tell: any answer but a second acceptance is allowed). `used` tells whether the run
 * already submitted it, to tell a reused id from an earlier run apart from a broken rule.
 */
interface IdState {
  state: 'free' | 'created' | 'unknown';
  used: boolean;
}

const command: fc.Arbitrary<Command> = fc.record({
  kind: fc.oneof(
    { arbitrary: fc.constant<Kind>('submit'), weight: 3 },
    { arbitrary: fc.constant<Kind>('expired'), weight: 2 },
    { arbitrary: fc.constant<Kind>('twice'), weight: 1 },
    { arbitrary: fc.constant<Kind>('status'), weight: 1 },
  ),
  t: fc.constantFrom<0 | 1>(0, 1),
});
/** Each sequence ends with a submission of both ids (see `runSequence`), which shows the state each one ended in. */
const sequence = fc.array(command, { minLength: 2, maxLength: 4 });

const ok = (x: Exchange) => x.status >= 200 && x.status < 300;
const refusal = (x: Exchange) => x.status >= 400 && x.status < 500 && !isDuplicateAnswer(x);

/** Runs one sequence; true when a submission was accepted (so the rule was exercised at all). */
async function runSequence(ctx: CheckContext, commands: Command[], prefix: string): Promise<boolean> {
  const ids = [`${prefix}-0`, `${prefix}-1`];
  const model: IdState[] = [
    { state: 'free', used: false },
    { state: 'free', used: false },
  ];
  const log: string[] = [];
  const fail = (message: string, x: Exchange): never => ctx.expect(x).fail(`${message} [sequence so far: ${log.join(', ')}]`);

  /** Judges the answers to submissions of one id sent together (one, or two at once). */
  const judge = (t: 0 | 1, answers: Exchange[], what: string) => {
    const m = model[t]!;
    const id = ids[t]!;
    log.push(`${what}(${t}) -> ${answers.map((x) => x.status).join('+')}`);
    for (const x of answers) if (x.status === 0) fail(`no answer to ${what} of tracking id ${id}: ${x.error}`, x);
    const accepted = answers.filter(ok);
    if (m.state === 'created' && accepted.length > 0)
      fail(`tracking id ${id} already has a request, yet ${what} was accepted (${accepted[0]!.status}): a second request for one tracking id`, accepted[0]!);
    if (accepted.length > 1) fail(`two submissions of tracking id ${id} sent together were both accepted: two requests for one tracking id`, accepted[1]!);
    if (m.state === 'free' && accepted.length === 0) {
      const duplicates = answers.filter(isDuplicateAnswer);
      // Refused as a duplicate although nothing was ever created: a 409 claims a creation that never
      // happened; a lone 429 claims a submission in processing when none is. (Of two sent together, one
      // may see the other in processing before that one is refused, so a 429 there is fine; two
      // duplicate answers including a 409, with neither accepted, are not.)
      const wrong = answers.length === 1 ? duplicates.length === 1 : duplicates.length === answers.length && duplicates.some((x) => x.status === 409);
      if (wrong) {
        if (!m.used) collision(ctx, duplicates[0]!, id);
        fail(
          `tracking id ${id} was never created (its earlier submissions were refused with 4xx, creating nothing), yet ${what} was refused as a duplicate (${duplicates.map((x) => x.status).join('+')})`,
          duplicates[0]!,
        );
      }
    }
    m.used = true;
    if (m.state === 'created') return;
    if (accepted.length === 1) m.state = 'created';
    else if (answers.every(refusal))
      return; // a 4xx refusal creates nothing
    else if (m.state === 'unknown' && answers.some((x) => x.status === 409)) m.state = 'created';
    else m.state = 'unknown'; // a 5xx, or a 429 whose other submission's fate is not known
  };

  const submit = (t: 0 | 1) => buy(ctx, buyBody(ctx, ids[t]!));
  for (const c of commands) {
    if (c.kind === 'submit') judge(c.t, [await submit(c.t)], 'submit');
    else if (c.kind === 'expired') judge(c.t, [await buy(ctx, buyBody(ctx, ids[c.t]!, { expires_at: 1 }))], 'submitExpired');
    else if (c.kind === 'twice') judge(c.t, await Promise.all([0, 1].map(() => buy(ctx, buyBody(ctx, ids[c.t]!)))), 'submitTwiceAtOnce');
    else {
      // A status lookup is a read: it must be answered, and must not change what the tracking id allows.
      const x = await ctx.wallet.post(statusPath(ids[c.t]!));
      log.push(`status(${c.t}) -> ${x.status}`);
      if (x.status === 0) fail(`no answer to a status lookup of tracking id ${ids[c.t]}: ${x.error}`, x);
    }
  }
  const last = await Promise.all([submit(0), submit(1)]);
  judge(0, [last[0]], 'submit');
  judge(1, [last[1]], 'submit');
  return model.some((m) => m.state === 'created');
}

export const EXACTLY_ONCE_MODEL_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  { interface: 'wallet', operations: ['createBuyTrafficRequest', 'getTransferOfferStatus'] },
  [
    rule({
      id: 'WALLET-BUY-TRAFFIC-EXACTLY-ONCE-MODEL',
      cites: ['T.tracking-id.1', 'T.tracking-id.2', 'B.buy-traffic.13', 'B.buy-traffic.15', 'B.buy-traffic.21', 'B.buy-traffic.22', 'X.errors.5'],
      mutates: true,
      needs: ['trafficReceiverParty', 'domainId'],
      tags: ['buy-traffic', 'exactly-once', 'model'],
      async check(ctx) {
        let run = 0;
        // One property run holds `ctx.runs` sequences, sent concurrently, each on its own two tracking ids.
        await ctx.property(
          fc.array(sequence, { minLength: ctx.runs, maxLength: ctx.runs }),
          async (sequences) => {
            run++;
            // Every sequence is let finish, so no request outlives the check; a reused id taints the whole run.
            const outcomes = await Promise.allSettled(sequences.map((s, i) => runSequence(ctx, s, `cnc-${ctx.runId}-model-${run}-${i}`)));
            const errors = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
            const first = errors.find((e) => e instanceof CheckSkipped) ?? errors[0];
            if (first !== undefined) throw first;
            // A target that accepts nothing cannot accept twice: that shows nothing about the rule.
            if (!outcomes.some((o) => o.status === 'fulfilled' && o.value))
              ctx.skip('no submission of any sequence was accepted, so no tracking id ever had a request to protect (see WALLET-BUY-TRAFFIC-CREATE)');
          },
          { runs: 1 },
        );
      },
    }),
  ],
);
