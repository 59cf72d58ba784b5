// Where each fixture of a run came from. A given fixture (the fixture file, the environment, the embedded
// node) always wins over a discovered one; a discovered one names the answer it was read from.
import type { InterfaceName } from '../../common/vocabulary.ts';
import type { FixtureName, Fixtures } from '../fixtures.ts';

export type FixtureOrigin =
  | { kind: 'given'; from: string }
  | {
      kind: 'discovered';
      /** The interface that answered: the ledger's paths have no prefix of their own, so the path alone may not say. */
      interface: InterfaceName;
      /**
       * "GET /api/scan/v0/dso": the operation (its path template under the interface's prefix, as its document
       * writes it: `{tracking_id}`) whose answer held it.
       */
      endpoint: string;
      /** JSON pointer into that answer (for lists: to the list, or to the first item taken). */
      pointer: string;
      /** What else it took (e.g. "with the wallet token", "created by this run"). */
      note?: string;
    };

/** One row of the fixture table of report.json, the HTML report and `plan`. */
export interface FixtureRow {
  name: FixtureName;
  /** The value as shown: secrets as ***, long lists cut (the count says how many). */
  shown: string;
  count?: number;
  origin: FixtureOrigin;
}

/** Fixtures whose values are secrets and never shown. */
const SECRET: ReadonlySet<FixtureName> = new Set(['ledgerLimitedToken', 'otherWalletUserToken']);
const SHOWN_ITEMS = 3;

export function fixtureRows(fixtures: Fixtures, origins: Partial<Record<FixtureName, FixtureOrigin>>): FixtureRow[] {
  const rows: FixtureRow[] = [];
  for (const [name, value] of Object.entries(fixtures) as Array<[FixtureName, unknown]>) {
    if (value === undefined) continue;
    const origin = origins[name] ?? { kind: 'given', from: 'the fixture file' };
    rows.push({ name, ...show(name, value), origin });
  }
  return rows.sort((a, b) => a.name.localeCompare(b.name));
}

function show(name: FixtureName, value: unknown): { shown: string; count?: number } {
  if (SECRET.has(name)) return { shown: '***' };
  if (Array.isArray(value)) {
    // An item that is a record (a reward-weight change) shows its values.
    const head = value.slice(0, SHOWN_ITEMS).map((v) => (typeof v === 'object' && v !== null ? Object.values(v).join(' ') : String(v)));
    return { shown: head.join(', ') + (value.length > SHOWN_ITEMS ? `, ... (${value.length} in all)` : ''), count: value.length };
  }
  if (typeof value === 'object' && value !== null) {
    const parts = Object.entries(value).map(([k, v]) => `${k}: ${Array.isArray(v) ? `${v.length} id(s)` : String(v)}`);
    return { shown: parts.join('; ') };
  }
  return { shown: String(value) };
}

/** "the scan's GET /api/scan/v0/dso /dso_rules/contract/payload/svs" or "fixture file cfg.json". */
export function describeOrigin(o: FixtureOrigin): string {
  if (o.kind === 'given') return o.from;
  return `the ${o.interface}'s ${o.endpoint}${o.pointer ? ` ${o.pointer}` : ''}${o.note ? ` (${o.note})` : ''}`;
}
