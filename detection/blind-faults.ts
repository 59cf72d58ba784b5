// The blind faults (reference-node/blind/) in the detection matrix, once their round is closed. Their authors
// named no requirement, so what each must make fail is stated here, by the suite's side, after the round was
// scored and its survivors closed by class (docs/detection.md): the requirements of the rule it breaks that
// fail on it. From then on `npm run detection` holds each to that, exactly, like a fault of the catalog. A
// blind fault judged to break no rule the suite may enforce (what real nodes do) is held like a deviation:
// no MUST requirement may fail on it.
import type { DeviationDefinition, FaultDefinition } from '../reference-node/fault-definition.ts';
import { BLIND_FAULTS, type BlindFault } from '../reference-node/faults.ts';
import { BLIND_CAUGHT_BY, type BlindExpectation } from './blind-caught-by.ts';

const family = (f: BlindFault) => `blind round ${f.round}`;

/** The blind faults whose rounds are closed, as the matrix runs them: faults with rules, and the non-violations as deviations. */
export function blindInMatrix(faults: readonly BlindFault[] = BLIND_FAULTS): { faults: FaultDefinition[]; deviations: DeviationDefinition[] } {
  const out = { faults: [] as FaultDefinition[], deviations: [] as DeviationDefinition[] };
  for (const f of faults) {
    const e = BLIND_CAUGHT_BY[f.name];
    if (!e) continue;
    // A fault that leaves the channels as they are breaks the HTTP answers only: the rules' WebSocket twins keep theirs.
    const httpOnly = f.rewriteChannel ? {} : { httpOnly: true as const };
    if ('rules' in e)
      out.faults.push({ name: f.name, interface: f.interface, family: family(f), breaks: f.breaks, cites: f.cites, rules: e.rules, ...httpOnly });
    else out.deviations.push({ name: f.name, interface: f.interface, family: family(f), behaviour: e.notAViolation, findings: [] });
  }
  return out;
}

/** Blind faults of closed rounds without an expectation (a round is closed when any of its faults has one). */
export function blindWithoutExpectation(faults: readonly BlindFault[] = BLIND_FAULTS): string[] {
  const closed = new Set(faults.filter((f) => BLIND_CAUGHT_BY[f.name]).map((f) => f.round));
  return faults.filter((f) => closed.has(f.round) && !BLIND_CAUGHT_BY[f.name]).map((f) => f.name);
}

/**
 * The source of blind-caught-by.ts with `scored` recorded over `known`: a caught fault expects exactly the
 * requirements that failed on it; a survivor keeps what it had (none: it stays open); a fault judged no
 * violation keeps its reason.
 */
export function caughtBySource(
  known: Readonly<Record<string, BlindExpectation>>,
  scored: ReadonlyArray<{ fault: string; caught: boolean; failed: ReadonlyArray<{ id: string }> }>,
  header: string,
): string {
  const merged: Record<string, BlindExpectation> = { ...known };
  for (const o of scored) {
    const was = known[o.fault];
    if (o.caught && !(was && 'notAViolation' in was)) merged[o.fault] = { rules: o.failed.map((f) => f.id).sort() };
  }
  const order = BLIND_FAULTS.map((f) => f.name).filter((n) => merged[n]);
  const entries = order.map((n) => `  ${JSON.stringify(n)}: ${JSON.stringify(merged[n])},`);
  return `${header}\nexport const BLIND_CAUGHT_BY: Readonly<Record<string, BlindExpectation>> = {\n${entries.join('\n')}\n};\n`;
}
