// The one way a requirement record is written, for every interface and for the document-derived checks:
// each record states what it is (kind, level, interface, operations); the builder only fills in the two
// fields with an obvious default (mutates: false, needs: []) and stamps the file that defines it.
import { dirname, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FixtureName } from './fixtures.ts';
import type { Requirement } from './model.ts';

/**
 * A record as a file writes it: every field of the requirement but the file it is defined in (stamped by the
 * builder), with tags always given and `mutates` (default false) and `needs` (default []) optional.
 */
export type RequirementInput = Omit<Requirement, 'definedIn' | 'mutates' | 'needs' | 'tags'> & {
  tags: string[];
  mutates?: boolean;
  needs?: FixtureName[];
};

/** The repository root: the parent of the folder of this file. */
const REPOSITORY_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

/** A module's path relative to the repository root, with forward slashes (e.g. suites/scan/ans.ts). */
export function repositoryPath(moduleUrl: string): string {
  return relative(REPOSITORY_ROOT, fileURLToPath(moduleUrl)).split(sep).join('/');
}

/**
 * The records of one file, in the order given: `defineRequirements(import.meta.url, [...])`. A generic
 * requirement names its probe and a rule none, and an operation a rule confirms is one it calls; anything
 * else is a mistake of the record, refused at load.
 */
export function defineRequirements(moduleUrl: string, records: readonly RequirementInput[]): Requirement[] {
  const definedIn = repositoryPath(moduleUrl);
  return records.map((r) => {
    if ((r.kind === 'generic') !== (r.probe !== undefined)) {
      throw new Error(`${definedIn}: requirement ${r.id} is a ${r.kind} requirement ${r.probe === undefined ? 'without' : 'with'} a probe`);
    }
    // A positive requirement is a rule of the description that calls the operation it confirms.
    if (r.confirms !== undefined && (r.kind !== 'rule' || !r.operations.includes(r.confirms))) {
      throw new Error(`${definedIn}: requirement ${r.id} confirms ${r.confirms}, which is not among its operations (or it is no rule)`);
    }
    const { mutates = false, needs = [], ...rest } = r;
    return { ...rest, mutates, needs, definedIn };
  });
}
