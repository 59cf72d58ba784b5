// The SHOULD requirements of the deviation policy, one set per interface: what production nodes send where
// it bends the letter of the description is tolerated by every MUST judgement (generators/judge-response.ts)
// and reported here, from every answer the run's checks received (the answer log), after they all ran.
import type { InterfaceName } from '../common/vocabulary.ts';
import type { AnswerNote } from '../engine/answers/answer-projection.ts';
import type { CheckContext } from '../engine/model.ts';
import type { RuleOf } from '../engine/requirement.ts';

/** What an interface's file states of each record: its id (written out there) and the description's sentences it cites. */
export interface PolicyRecords<I extends InterfaceName> {
  /** `<IFACE>-ANSWERS-NULL-FOR-ABSENT`, citing the description's words for an absent optional value. */
  nullForAbsent: { id: RuleOf<I>['id']; cites: readonly string[] };
  /** `<IFACE>-ANSWERS-PLAIN-TEXT-404`, citing the description's words for the error body of a 404. */
  plainText404: { id: RuleOf<I>['id']; cites: readonly string[] };
}

const listed = (notes: readonly AnswerNote[]) =>
  notes
    .slice(0, 5)
    .map((n) => `${n.operationId} (${n.message}${n.count > 1 ? `, ${n.count} answers` : ''}; received by ${n.receivedBy})`)
    .join('; ') + (notes.length > 5 ? `; and ${notes.length - 5} more operations` : '');

/** Fails with the notes; skips when `judged` is 0 (the run showed nothing to judge, which is no pass). */
function review(ctx: CheckContext, judged: number, nothing: string, notes: readonly AnswerNote[], what: string): void {
  const first = notes[0];
  if (first) ctx.fail(`${what}: ${listed(notes)}`, first.evidence);
  if (judged === 0) ctx.skip(nothing);
}

/** The interface's two records of the policy, for its file to define (`defineRequirements`). */
export function answerPolicyRecords<I extends InterfaceName>(iface: I, records: PolicyRecords<I>): RuleOf<I>[] {
  const common = { level: 'SHOULD' as const, operations: [], phase: 'review' as const };
  return [
    {
      ...common,
      ...records.nullForAbsent,
      tags: ['answers', 'deviation-policy', 'null'],
      async check(ctx) {
        review(
          ctx,
          ctx.answers.bodiesJudgedFor(iface),
          `no JSON body of the ${iface} interface was judged in this run`,
          ctx.answers.nullsFor(iface),
          'answers carry null where the property is optional and should be absent',
        );
      },
    },
    {
      ...common,
      ...records.plainText404,
      tags: ['answers', 'deviation-policy', 'errors'],
      async check(ctx) {
        review(
          ctx,
          ctx.answers.notFoundJudgedFor(iface),
          `no 404 of a served ${iface} operation was judged in this run`,
          ctx.answers.plainText404For(iface),
          'operations that are served answered a 404 without the documented JSON error body',
        );
      },
    },
  ];
}
