// An older node is judged on the path its release has: an operation the description says moved (the scan's
// reward-accounting root hash, to /v0/internal/... in 0.6.5) is asked at its old path of a node that states
// an earlier release. The checks keep asking the document's path; the interface's client sends the old one.
import { releaseBefore } from '../common/releases.ts';
import type { InterfaceName } from '../common/vocabulary.ts';
import { DATED_OPERATIONS } from '../description/versions.ts';
import type { StatedReleases } from '../engine/release-applicability.ts';
import type { Client } from '../engine/transport/http.ts';
import type { CompiledSpec } from '../generators/index.ts';
import { templatePattern } from '../common/path-template.ts';

interface Move {
  pattern: RegExp;
  /** The old path with `$1`, `$2`... for the path parameters, in order. */
  to: string;
  note: string;
}

function moves(iface: InterfaceName, spec: CompiledSpec | undefined, releases: StatedReleases): Move[] {
  const stated = releases[iface];
  if (!stated || !spec) return [];
  const out: Move[] = [];
  for (const d of DATED_OPERATIONS) {
    if (d.interface !== iface || !d.movedFrom || releaseBefore(stated.version, d.movedFrom.until) !== true) continue;
    const op = spec.catalog.byId.get(d.operation);
    if (!op) continue;
    let n = 0;
    out.push({
      pattern: templatePattern(op.path),
      to: d.movedFrom.path.replace(/\{[^}]+\}/g, () => `$${++n}`),
      note: `${iface}: release ${stated.version} is judged on ${d.operation} at ${d.movedFrom.path}, its path before ${d.movedFrom.until}`,
    });
  }
  return out;
}

/** The clients sending moved operations to the paths of the releases their nodes state, and a note per move. */
export function atReleasePaths(
  clients: Partial<Record<InterfaceName, Client>>,
  specs: Partial<Record<InterfaceName, CompiledSpec>>,
  releases: StatedReleases,
): { clients: Partial<Record<InterfaceName, Client>>; notes: string[] } {
  const out: Partial<Record<InterfaceName, Client>> = { ...clients };
  const notes: string[] = [];
  for (const [iface, client] of Object.entries(clients) as Array<[InterfaceName, Client]>) {
    const found = moves(iface, specs[iface], releases);
    if (found.length === 0) continue;
    notes.push(...found.map((m) => m.note));
    out[iface] = client.relocated((path) => {
      const [bare, query] = splitQuery(path);
      const m = found.find((x) => x.pattern.test(bare));
      return m ? bare.replace(m.pattern, m.to) + query : path;
    });
  }
  return { clients: out, notes };
}

const splitQuery = (path: string): [string, string] => {
  const i = path.indexOf('?');
  return i < 0 ? [path, ''] : [path.slice(0, i), path.slice(i)];
};
