// What the release a node states makes of an operation it does not serve. The description dates some
// operations (description/versions.ts): a node of a release before one's introduction has none, so a rule
// needing it does not apply there; a node of that release or later must have it, so not serving it breaks
// the versioning rule instead of leaving the rule unjudged. An undated operation, or a node that states no
// release, leaves the answer what it was: unsupported.
import { releaseBefore } from '../common/releases.ts';
import type { InterfaceName } from '../common/vocabulary.ts';
import { DATED_OPERATIONS } from '../description/versions.ts';
import type { StatedRelease } from './model.ts';

export type StatedReleases = Partial<Record<InterfaceName, StatedRelease>>;

export interface UnservedByRelease {
  /** false: the release predates the operation; true: the release has it. */
  applies: boolean;
  /** Which release decided it and why, in a clause. */
  reason: string;
}

export function unservedByRelease(operation: string, releases: StatedReleases | undefined): UnservedByRelease | undefined {
  const dated = DATED_OPERATIONS.find((d) => d.operation === operation && d.since !== undefined);
  const stated = dated && releases?.[dated.interface];
  if (!dated?.since || !stated) return undefined;
  const before = releaseBefore(stated.version, dated.since);
  if (before === undefined) return undefined;
  const node = `the ${dated.interface} states release ${stated.version} (${stated.request})`;
  return before
    ? { applies: false, reason: `not applicable: ${operation} came in ${dated.since}, and ${node}` }
    : { applies: true, reason: `${node}, which has ${operation} (since ${dated.since}), yet it is not served` };
}
