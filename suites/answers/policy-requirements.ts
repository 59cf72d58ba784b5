// The SHOULD requirements of the deviation policy, one set per interface: what production nodes send where
// it bends the letter of the description is tolerated by every MUST judgement (generators/judge-response.ts)
// and reported here, from every answer the run's checks received (the answer log), after they all ran.
import type { InterfaceName } from '../../common/vocabulary.ts';
import type { AnswerNote } from './answer-log.ts';
import type { CheckContext, Requirement } from '../model.ts';
import { defineRequirements } from '../requirement.ts';

export interface PolicySentences {
  section: string;
  /** The description's words for an absent optional value. */
  nullForAbsent: string;
  /** The description's words for the error body of a 404. */
  errorBody: string;
}

const listed = (notes: readonly AnswerNote[]) =>
  notes
    .slice(0, 5)
    .map((n) => `${n.operationId} (${n.message}${n.count > 1 ? `, ${n.count} answers` : ''}; received by ${n.receivedBy})`)
    .join('; ') + (notes.length > 5 ? `; and ${notes.length - 5} more operations` : '');

function review(ctx: CheckContext, iface: InterfaceName, notes: readonly AnswerNote[], what: string): void {
  if (ctx.answers.judgedFor(iface) === 0) ctx.skip(`no answer of the ${iface} interface was judged in this run (select requirements that call it)`);
  const first = notes[0];
  if (first) ctx.fail(`${what}: ${listed(notes)}`, first.evidence);
}

/** `<IFACE>-ANSWERS-NULL-FOR-ABSENT` and `<IFACE>-ANSWERS-PLAIN-TEXT-404`, defined in the file `moduleUrl`. */
export function answerPolicyRequirements(moduleUrl: string, iface: InterfaceName, sentences: PolicySentences): Requirement[] {
  const prefix = iface.toUpperCase();
  const common = { kind: 'rule' as const, level: 'SHOULD' as const, interface: iface, operations: [], section: sentences.section, phase: 'review' as const };
  return defineRequirements(moduleUrl, [
    {
      ...common,
      id: `${prefix}-ANSWERS-NULL-FOR-ABSENT`,
      sentence: sentences.nullForAbsent,
      tags: ['answers', 'deviation-policy', 'null'],
      async check(ctx) {
        review(ctx, iface, ctx.answers.nullsFor(iface), 'answers carry null where the property is optional and should be absent');
      },
    },
    {
      ...common,
      id: `${prefix}-ANSWERS-PLAIN-TEXT-404`,
      sentence: sentences.errorBody,
      tags: ['answers', 'deviation-policy', 'errors'],
      async check(ctx) {
        review(ctx, iface, ctx.answers.plainText404For(iface), 'operations that are served answered a 404 without the documented JSON error body');
      },
    },
  ]);
}
