// Which variants of its operations each requirement exercised, read from the answer log of a run: the values
// of the axes (x-cn-variants, generators/variant-axes.ts) its exchanges showed, a shared read's counting for
// every requirement that asked for it. `missingVariants` compares them with the axes the documents declare and
// the values a record says do not apply to it: what is left is a variant the rule holds for but was not tried.
import type { CompiledSpec } from '../../generators/index.ts';
import { VERSION_AXIS, variantAxes, versionFamilies } from '../../generators/variant-axes.ts';
import type { InterfaceName, Requirement } from '../model.ts';
import type { Observation } from './answer-log.ts';

/** Requirement id -> operation id -> axis -> values its exchanges showed. */
export type Exercised = ReadonlyMap<string, ReadonlyMap<string, ReadonlyMap<string, ReadonlySet<string>>>>;

/** The variants each requirement exercised; `askedBy(key)`: the requirements that asked for a shared read. */
export function exercisedVariants(observations: readonly Observation[], askedBy: (key: string) => ReadonlyMap<string, number>): Exercised {
  const out = new Map<string, Map<string, Map<string, Set<string>>>>();
  for (const o of observations) {
    if (!o.variants) continue;
    const who = o.shared ? [...askedBy(o.shared).keys()] : [o.receivedBy];
    for (const id of who) {
      const ops = out.get(id) ?? new Map<string, Map<string, Set<string>>>();
      out.set(id, ops);
      const axes = ops.get(o.operationId) ?? new Map<string, Set<string>>();
      ops.set(o.operationId, axes);
      for (const [axis, value] of Object.entries(o.variants)) {
        const values = axes.get(axis) ?? new Set<string>();
        axes.set(axis, values);
        values.add(value);
      }
    }
  }
  return out;
}

export interface MissingVariant {
  requirement: string;
  operation: string;
  axis: string;
  /** The values the rule's exchanges did not show and its record does not exclude. */
  missing: string[];
  /** The values they showed. */
  exercised: string[];
}

/**
 * The variants a requirement's check did not exercise on an operation it called: for each axis of the
 * operation, the values its exchanges did not show, less those its record says do not apply. An operation the
 * requirement names but did not call in this run is not judged here (its calls are another test's business).
 */
export function missingVariants(
  requirements: readonly Requirement[],
  exercised: Exercised,
  specs: Partial<Record<InterfaceName, CompiledSpec>>,
): MissingVariant[] {
  const out: MissingVariant[] = [];
  // Rules only: a generic requirement judges the documents' schemas, and the answer log judges every answer
  // any rule received against them, whatever its variant; a review judges what the rules received.
  for (const r of requirements) {
    const ops = r.kind === 'rule' && r.phase !== 'review' ? exercised.get(r.id) : undefined;
    if (!ops) continue;
    for (const [opId, axes] of ops) {
      const op = specs[r.interface]?.catalog.byId.get(opId);
      if (!op) continue;
      for (const a of variantAxes(op)) {
        const excused = r.variants?.[a.axis];
        if (typeof excused === 'string') continue;
        const shown = axes.get(a.axis) ?? new Set<string>();
        const missing = a.values.map((v) => v.value).filter((v) => !shown.has(v) && !excused?.[v]);
        if (missing.length) out.push({ requirement: r.id, operation: opId, axis: a.axis, missing, exercised: [...shown] });
      }
    }
  }
  return out;
}

/** The version families (x-cn-version-of) of an interface's document. */
function familiesOf(specs: Partial<Record<InterfaceName, CompiledSpec>>, name: InterfaceName): Map<string, string[]> {
  return versionFamilies(specs[name]?.catalog.operations ?? []);
}

/**
 * The versions of an operation a rule names but not all of, without a word on why: each a line naming the
 * record, the versions it names and those it leaves out. Read from the records, not a run: a version the record
 * names is one its check calls (another test holds records to the operations their checks call).
 */
export function missingVersions(requirements: readonly Requirement[], specs: Partial<Record<InterfaceName, CompiledSpec>>): string[] {
  const out: string[] = [];
  for (const r of requirements) {
    if (r.kind !== 'rule') continue;
    const excused = r.variants?.[VERSION_AXIS];
    if (typeof excused === 'string') continue;
    for (const [family, members] of familiesOf(specs, r.interface)) {
      const named = members.filter((m) => r.operations.includes(m));
      if (named.length === 0) continue;
      const missing = members.filter((m) => !named.includes(m) && !excused?.[m]);
      if (missing.length) out.push(`${r.id}: ${family} on ${named.join(', ')}, not on ${missing.join(', ')}`);
    }
  }
  return out;
}

/** Values a record excludes that no axis of its operations has: a mistake of the record (a typo, an axis renamed). */
export function unknownExclusions(requirements: readonly Requirement[], specs: Partial<Record<InterfaceName, CompiledSpec>>): string[] {
  const out: string[] = [];
  for (const r of requirements) {
    if (!r.variants) continue;
    const families = [...familiesOf(specs, r.interface).values()].filter((m) => m.some((id) => r.operations.includes(id)));
    const axes = r.operations.flatMap((id) => {
      const op = specs[r.interface]?.catalog.byId.get(id);
      return op ? variantAxes(op) : [];
    });
    if (families.length) axes.push({ axis: VERSION_AXIS, why: '', values: families.flat().map((value) => ({ value, when: [] })) });
    for (const [axis, excused] of Object.entries(r.variants)) {
      const found = axes.filter((a) => a.axis === axis);
      if (found.length === 0) out.push(`${r.id}: variants names axis ${axis}, which no operation it calls declares`);
      else if (typeof excused !== 'string')
        for (const v of Object.keys(excused))
          if (!found.some((a) => a.values.some((x) => x.value === v))) out.push(`${r.id}: variants names ${axis}=${v}, no value of that axis`);
    }
  }
  return out;
}
