// Every message a channel sends is one its document describes: an element of the channel's stream, or a
// JsCantonError (the channels' error form), judged by the loaded channel document (specs/ledger-channels.yaml,
// or the one given with --spec) under the deviation policy of the HTTP answers. Each channel is read once, in
// the forms that show the most records: the update stream in both shapes, the completion streams and the
// active contracts at the ledger end, and one refused request for the error message.
import type { Json } from '../../../common/json.ts';
import { CheckUnsupported, type CheckContext, type Requirement } from '../../../engine/model.ts';
import { defineRules, rule } from '../../../engine/requirement.ts';
import { describeChannel, parsed, summariseChannel, type ChannelOptions } from '../../../engine/transport/websocket.ts';
import { judgeMessage } from '../../../generators/channels/judge-message.ts';
import { ledgerEnd, PATHS } from '../../../interfaces/ledger/commands.ts';
import { UPDATES_CHANNEL } from '../../../interfaces/ledger/update-channel.ts';
import { ACS_DELTA, LEDGER_EFFECTS, PARTS, body, byParties, readParties, updateFormat } from '../../../interfaces/ledger/updates.ts';

const ACTIVE_CONTRACTS = '/v2/state/active-contracts';
/** Messages judged per read: enough to hold every kind of element the start of a stream shows. */
const PER_READ = 50;
/** How long an open-ended read waits for a next message before it counts the stream caught up. */
const IDLE_MS = 1_000;

/** The channel reads judged: each with what it asks for, in words. */
async function reads(ctx: CheckContext): Promise<Array<{ path: string; what: string; options: ChannelOptions }>> {
  const parties = readParties(ctx);
  const sample = { stopAfter: PER_READ, idleMs: IDLE_MS };
  const end = await ledgerEnd(ctx, undefined);
  return [
    {
      path: UPDATES_CHANNEL,
      what: 'the update stream (ACS delta)',
      options: { request: body({ beginExclusive: 0 }, updateFormat(parties, PARTS, ACS_DELTA)), ...sample },
    },
    {
      path: UPDATES_CHANNEL,
      what: 'the update stream (ledger effects)',
      options: { request: body({ beginExclusive: 0 }, updateFormat(parties, PARTS, LEDGER_EFFECTS)), ...sample },
    },
    { path: UPDATES_CHANNEL, what: 'a request that is not JSON (its error message)', options: { rawRequest: '{"beginExclusive": ', stopAfter: 1 } },
    { path: PATHS.completions, what: 'the completion stream', options: { request: { parties, beginExclusive: 0 }, ...sample } },
    { path: PATHS.commandCompletions, what: 'the command completion stream', options: { request: { parties, beginExclusive: 0 }, ...sample } },
    {
      path: ACTIVE_CONTRACTS,
      what: 'the active contracts at the ledger end',
      options: { request: { activeAtOffset: end, eventFormat: byParties(parties) }, ...sample },
    },
  ];
}

export const MESSAGE_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'ledger', operations: [] }, [
  rule({
    id: 'LEDGER-WEBSOCKET-MESSAGE-SCHEMA',
    cites: ['X.errors.3', 'S.service.3'],
    needs: ['ledgerParties'],
    tags: ['websocket', 'schema'],
    channels: [UPDATES_CHANNEL, PATHS.completions, PATHS.commandCompletions, ACTIVE_CONTRACTS],
    async check(ctx) {
      const document = ctx.channelDocument('ledger');
      const served: string[] = [];
      const unserved: string[] = [];
      let judged = 0;
      for (const r of await reads(ctx)) {
        if (!document.channels.some((c) => c.path === r.path)) continue;
        const x = await ctx.ledger.channel(r.path, r.options);
        const cite = summariseChannel(x);
        if (x.upgrade && [404, 405, 426, 501].includes(x.upgrade.status)) {
          unserved.push(`${r.path} (${x.upgrade.status})`);
          continue;
        }
        served.push(r.path);
        if (x.end === 'failed' && x.messages.length === 0) ctx.fail(`${r.what} over ${r.path} delivered nothing: ${describeChannel(x)}`, { exchange: cite });
        x.messages.forEach((m, i) => {
          const value = parsed(m);
          if (value === undefined) ctx.fail(`${r.what}: message ${i} of ${r.path} is not JSON text`, { exchange: cite, pointer: `/${i}` });
          const verdict = judgeMessage(document, r.path, value as Json, ctx.answerPolicy('ledger'));
          judged++;
          if (verdict.problems.length > 0)
            ctx.fail(`${r.what}: message ${i} of ${r.path} is not one the channel document describes: ${verdict.problems.join('; ')}`, {
              exchange: cite,
              pointer: `/${i}${verdict.pointer ?? ''}`,
            });
        });
      }
      if (served.length === 0 && unserved.length > 0)
        throw new CheckUnsupported(`the node serves none of the ledger's WebSocket channels: ${unserved.join(', ')} refused the upgrade`);
      if (judged === 0) ctx.skip(`the channels ${served.join(', ')} sent no message to judge`);
    },
  }),
]);
