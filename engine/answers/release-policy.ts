// What a target's release line predates is not applicable to it: a node of the ledger's 3.4 line omits
// properties the 3.5 documents require (acsDelta, representativePackageId on events). The line (read once per
// run, interfaces/ledger/release-line.ts) sets the policy the interface's answers are judged under.
import type { AnswerPolicy } from '../../generators/index.ts';
import { releaseBefore } from '../../common/releases.ts';
import type { InterfaceName } from '../../common/vocabulary.ts';

/** A node's release line, as its version states it (read by interfaces/ledger/release-line.ts). */
export interface ReleaseLine {
  readonly major: number;
  readonly minor: number;
  /** The version as the node states it (for evidence: "the target runs 3.4.9"). */
  readonly version: string;
}

interface LaterRequirement {
  interface: InterfaceName;
  /** The release line (major, minor) from which the properties are required. */
  since: readonly [number, number];
  properties: readonly string[];
}

/** Facts of the release lines: properties each line made required (the description is for ledger line 3.5). */
export const LATER_REQUIRED: readonly LaterRequirement[] = [{ interface: 'ledger', since: [3, 5], properties: ['acsDelta', 'representativePackageId'] }];

/**
 * The answer policy of each interface from its release line, with a note for each rule it predates. A line
 * that cannot be read is judged as the description's own (nothing exempted).
 */
export function releaseLinePolicies(lines: Partial<Record<InterfaceName, ReleaseLine>>): {
  policies: Partial<Record<InterfaceName, AnswerPolicy>>;
  notes: string[];
} {
  const policies: Partial<Record<InterfaceName, AnswerPolicy>> = {};
  const notes: string[] = [];
  for (const later of LATER_REQUIRED) {
    const line = lines[later.interface];
    if (!line || releaseBefore(line.version, later.since.join('.')) !== true) continue;
    const policy = (policies[later.interface] ??= {});
    policy.notRequired = [...(policy.notRequired ?? []), ...later.properties];
    const since = later.since.join('.');
    notes.push(
      `${later.interface}: the target runs ${line.version} (GET /v2/version), before ${since}: ${later.properties.join(', ')} (required from ${since} on) are not applicable to its answers`,
    );
  }
  return { policies, notes };
}
