// A comparison's differences as text, cause by cause (the console, junit.xml and compare.html share it): what
// differs and how often, what each node answered where their statuses differ (why one refused, and a curl
// line per node that reproduces the request as pasted), and the reads each cause shows in.
import type { Cause } from '../runner/compare/causes.ts';
import type { NodeAnswer } from '../runner/compare/answers.ts';
import type { CompareResult, ReadOutcome } from '../runner/compare/compare.ts';
import { queryString } from '../engine/transport/http.ts';

export const readLine = (o: ReadOutcome) => `${o.read.method} ${o.read.interface} ${o.read.path}${queryString(o.read.query)}`;

/** A value as JSON, cut at `max` characters (the console's lines). */
export const shownValue = (v: unknown, max = Number.POSITIVE_INFINITY) => {
  const text = v === undefined ? '(absent)' : JSON.stringify(v);
  return text.length > max ? `${text.slice(0, max)}…` : text;
};

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** One line per difference of a read: where, and both values. */
export function differenceLines(o: ReadOutcome, max?: number): string[] {
  const lines = o.differences.map((d) => `${d.pointer || '(whole answer)'} [${d.kind}]: A ${shownValue(d.a, max)} / B ${shownValue(d.b, max)}`);
  return o.truncated ? [...lines, '(more differences not listed)'] : lines;
}

/** The cause in one line: where it first shows, both values, the contract, and how often it shows. */
export function causeTitle(c: Cause, max?: number): string {
  if (c.kind === 'status') return `${c.route} [status]: A ${c.a} / B ${c.b}: ${plural(c.reads, 'read')}`;
  const often = `${plural(c.differences, 'difference')} in ${plural(c.reads, 'read')}`;
  const where = c.at[0]?.pointer || '(whole answer)';
  return `${where} [${c.kind}]: A ${shownValue(c.a, max)} / B ${shownValue(c.b, max)}${c.contract ? ` (contract ${c.contract})` : ''}: ${often}`;
}

type Side = readonly ['A' | 'B', NodeAnswer];

const sidesOf = (o: ReadOutcome): Side[] => (['a', 'b'] as const).flatMap((k) => (o.answers?.[k] ? [[k === 'a' ? 'A' : 'B', o.answers[k]] as const] : []));

/** A node's answer in a line: its status with why it refused (or the start of its body), or why none came. */
function toldLine([side, x]: Side, max: number): string {
  if (!x.response) return `${side}: no answer: ${x.error ?? 'none'}`;
  // A refusal's reason is shown whole (it is one bounded line): it is what the reader came for.
  const said = x.refusal ?? cut(x.response.bodyExcerpt.replace(/\s+/g, ' ').trim(), max);
  return `${side}: HTTP ${x.response.status} ${said}`.trimEnd();
}

/**
 * What each node answered to one read, then a curl line per node that reproduces its request. Curl lines
 * are never cut: they must run as pasted.
 */
export function answerLines(o: ReadOutcome, max = Number.POSITIVE_INFINITY): string[] {
  const sides = sidesOf(o);
  return [...sides.map((s) => toldLine(s, max)), ...sides.map(([side, x]) => `reproduce ${side}: ${x.curl}`)];
}

/** Why a node refused, for each node that answered with an error (a read's note says a node gave nothing, not why). */
export const refusalLines = (o: ReadOutcome): string[] =>
  sidesOf(o)
    .filter(([, x]) => x.response && x.refusal)
    .map((s) => toldLine(s, Number.POSITIVE_INFINITY));

/** The reads a cause shows in, each with the pointers it shows at there (unless that is the title's only). */
export function occurrenceLines(r: CompareResult, c: Cause): string[] {
  const pointers = new Map<number, string[]>();
  for (const at of c.at) (pointers.get(at.read) ?? pointers.set(at.read, []).get(at.read)!).push(at.pointer);
  const title = c.at[0]?.pointer;
  return [...pointers].map(([i, list]) => {
    const o = r.reads[i]!;
    const same = c.kind === 'status' || list.every((p) => p === title);
    return `${readLine(o)} (${o.read.what})${same ? '' : ` at ${list.join(', ')}`}`;
  });
}

/** The read whose answers stand for a cause's (its first). */
export const firstRead = (r: CompareResult, c: Cause): ReadOutcome | undefined => (c.at[0] ? r.reads[c.at[0].read] : undefined);
