// What a target's release line predates is not applicable to it: a node of the ledger's 3.4 line omits
// properties the 3.5 documents require (acsDelta, representativePackageId on events). The line is read once
// per run (GET /v2/version) and sets the policy the answers of the interface are judged under.
import type { AnswerPolicy } from '../../generators/index.ts';
import type { InterfaceName } from '../../common/vocabulary.ts';
import type { Client } from '../http.ts';

interface LaterRequirement {
  interface: InterfaceName;
  /** The release line (major, minor) from which the properties are required. */
  since: readonly [number, number];
  properties: readonly string[];
}

/** Facts of the release lines: properties each line made required (the description is for ledger line 3.5). */
export const LATER_REQUIRED: readonly LaterRequirement[] = [{ interface: 'ledger', since: [3, 5], properties: ['acsDelta', 'representativePackageId'] }];

export type ReleaseLine = readonly [number, number];

/** "3.4.9" -> [3, 4]; undefined when the text names no line. */
export function parseReleaseLine(version: unknown): ReleaseLine | undefined {
  const m = typeof version === 'string' ? /^(\d+)\.(\d+)/.exec(version) : null;
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

const before = (line: ReleaseLine, since: ReleaseLine) => line[0] < since[0] || (line[0] === since[0] && line[1] < since[1]);

/** The ledger's release line as GET /v2/version tells it, or undefined (no answer, no version). */
export async function ledgerReleaseLine(ledger: Client): Promise<{ line?: ReleaseLine; version?: string }> {
  const x = await ledger.get('/v2/version', { unbudgeted: true });
  if (x.status !== 200 || x.truncated) return {};
  try {
    const version = (JSON.parse(x.text) as { version?: unknown }).version;
    return typeof version === 'string' ? { line: parseReleaseLine(version), version } : {};
  } catch {
    return {};
  }
}

/**
 * The answer policy of each interface from its release line, with a note for each rule it predates. A line
 * that cannot be read is judged as the description's own (nothing exempted).
 */
export function releaseLinePolicies(lines: Partial<Record<InterfaceName, { line?: ReleaseLine; version?: string }>>): {
  policies: Partial<Record<InterfaceName, AnswerPolicy>>;
  notes: string[];
} {
  const policies: Partial<Record<InterfaceName, AnswerPolicy>> = {};
  const notes: string[] = [];
  for (const later of LATER_REQUIRED) {
    const known = lines[later.interface];
    if (!known?.line || !before(known.line, later.since)) continue;
    const policy = (policies[later.interface] ??= {});
    policy.notRequired = [...(policy.notRequired ?? []), ...later.properties];
    notes.push(
      `${later.interface}: release line ${known.version} (GET /v2/version) predates ${later.since.join('.')}: ${later.properties.join(', ')} (required from ${later.since.join('.')} on) are not applicable to its answers`,
    );
  }
  return { policies, notes };
}
