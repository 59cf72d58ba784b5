// Differences grouped by cause. One diverging contract shows in the ACS, the holdings pages, the update
// history and each encoding of its events, every time at another pointer; a node that refuses a route
// refuses it for every id. So a cause is: the same values of the same contract (or, outside any contract, at
// the same pointer), or the same statuses (and error codes) of the same route. Every listed difference
// belongs to exactly one cause, which names each read and pointer it shows at.
import { isObject, type Json } from '../../common/json.ts';
import type { NodeAnswer } from './answers.ts';
import { contractOf, type Difference } from './differences.ts';

export interface Cause {
  kind: Difference['kind'];
  /** The contract its differences are in, when they are in one. */
  contract?: string;
  /** For another status: the route read (its path with ids as placeholders), method and interface. */
  route?: string;
  /** The values (for another status: each node's status), as the first of its differences has them. */
  a?: Json;
  b?: Json;
  /** Reads it shows in, and its differences in all. */
  reads: number;
  differences: number;
  /** Every difference of the cause: its read (the index in the result's reads) and its pointer. */
  at: Array<{ read: number; pointer: string }>;
}

/** What grouping needs of a read's outcome (see ReadOutcome). */
export interface Grouped {
  read: { interface: string; method: string; path: string; route?: string };
  differences: Difference[];
  answers?: { a?: NodeAnswer; b?: NodeAnswer };
}

const routeOf = (o: Grouped) => `${o.read.method} ${o.read.interface} ${o.read.route ?? o.read.path}`;

function keyOf(o: Grouped, d: Difference): string {
  const values = `${JSON.stringify(d.a)} ${JSON.stringify(d.b)}`;
  if (d.kind === 'status') return `status ${routeOf(o)} ${values} ${o.answers?.a?.code ?? ''} ${o.answers?.b?.code ?? ''}`;
  if (!d.contract) return `${d.kind} ${d.pointer} ${values}`;
  // A record of a contract on one side only is one cause whatever shape each read gives it (ACS, holdings,
  // history); records of other events of that contract (an exercise) are other causes.
  const record = d.a ?? d.b;
  if (contractOf(record) !== d.contract) return `${d.kind} ${d.contract} ${values}`;
  return `${d.kind} ${d.contract} ${isObject(record) && typeof record.event_id === 'string' ? record.event_id : ''}`;
}

/** The causes of the differences, those seen most often first (then in the order the reads came). */
export function groupByCause(outcomes: readonly Grouped[]): Cause[] {
  const causes = new Map<string, Cause & { seen: Set<number> }>();
  outcomes.forEach((o, read) => {
    for (const d of o.differences) {
      const key = keyOf(o, d);
      let cause = causes.get(key);
      if (!cause) {
        cause = {
          kind: d.kind,
          ...(d.contract ? { contract: d.contract } : {}),
          ...(d.kind === 'status' ? { route: routeOf(o) } : {}),
          ...(d.a !== undefined ? { a: d.a } : {}),
          ...(d.b !== undefined ? { b: d.b } : {}),
          reads: 0,
          differences: 0,
          at: [],
          seen: new Set(),
        };
        causes.set(key, cause);
      }
      cause.seen.add(read);
      cause.at.push({ read, pointer: d.pointer });
    }
  });
  return [...causes.values()]
    .map(({ seen, ...c }) => ({ ...c, reads: seen.size, differences: c.at.length }))
    .sort((x, y) => y.differences - x.differences || y.reads - x.reads);
}
