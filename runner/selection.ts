// The requirements a run judges. A selection that is empty, or an --only pattern that matches nothing, is a
// usage error: a gate that judges nothing must not look green.
import { matches, select, type RunSelection } from '../engine/engine.ts';
import type { Requirement } from '../engine/model.ts';
import { UsageError } from './usage-error.ts';

export interface SelectionInput extends RunSelection {
  only: string[];
  skip: string[];
  /** How the user gave --only (a flag, a variable, a config key), for the message. */
  onlyOrigin?: string;
}

export function selectRequirements(all: readonly Requirement[], s: SelectionInput): Requirement[] {
  for (const p of s.only) {
    if (!all.some((r) => matches(r, [p])))
      throw new UsageError(
        `${s.onlyOrigin ?? '--only'} pattern "${p}" matches no requirement; \`cn-conformance list\` shows the ids (patterns match ids, tags and interfaces, * is a wildcard)`,
      );
  }
  const selected = select(all, s);
  if (selected.length === 0) {
    const given = [...s.only.map((p) => `--only ${p}`), ...s.skip.map((p) => `--skip ${p}`), ...(s.level === 'must' ? ['--level must'] : [])].join(' ');
    throw new UsageError(
      `the selection is empty: ${given || 'no requirement is loaded'} leaves no requirement to run; widen --only or narrow --skip (\`cn-conformance list\` shows the ids)`,
    );
  }
  return selected;
}
