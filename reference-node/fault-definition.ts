// What a fault of the reference node is, and the helper each interface declares its faults with. Apart from
// the catalog (faults.ts), which imports the interfaces' fault files, so that those files import no catalog.
import type { GenericCheck, InterfaceName } from '../common/vocabulary.ts';

/** Where a break shows to the checks derived from the OpenAPI documents. */
export interface GenericExpectation {
  /** operationIds of the interface's built-in document; omitted: any operation of that document. */
  readonly operations?: readonly string[];
  /** Omitted: any of the generic checks. */
  readonly checks?: readonly GenericCheck[];
}

/** A fault as its interface declares it, under its name. */
export interface FaultSpec {
  /** Rule family of the description (paging, ownership filter, event trees, ...). */
  readonly family: string;
  /** The rule it breaks, in a sentence. */
  readonly breaks: string;
  /**
   * The numbers of the description's sentences it breaks (description/sentences/), one where it breaks one:
   * docs/traceability.md counts a sentence proven when a fault citing it is caught by a requirement citing it.
   */
  readonly cites: readonly string[];
  /**
   * Rule requirements of the description (ids, exact) that must fail on a node with this fault. The
   * WebSocket twins of those that have one (`<id>-WS`) must fail too, unless `httpOnly`.
   */
  readonly rules: readonly string[];
  /** The fault is switched in code only the HTTP endpoint runs: the WebSocket twins of its rules keep passing. */
  readonly httpOnly?: true;
  /** Where the break also shows to the checks derived from the OpenAPI documents. */
  readonly generic?: GenericExpectation;
  /**
   * operationId of the interface's built-in document whose every valid request the fault refuses: the
   * requirement that confirms the operation must fail, and any requirement that calls it may.
   */
  readonly refuses?: string;
  /**
   * Settings of the node that shows the fault, where the default ones leave its window to the machine's speed:
   * a duplicate must arrive while a submission is processed, so that node processes for a second, which no
   * loaded machine's scheduling outlasts.
   */
  readonly node?: { readonly walletProcessingMs?: number };
}

export interface FaultDefinition<Name extends string = string> extends FaultSpec {
  readonly name: Name;
  readonly interface: InterfaceName;
}

/**
 * The faults of one interface, in declaration order, from one `as const` literal keyed by fault name: the
 * keys become the interface's union of fault names. A key without the interface's prefix does not compile
 * (it is typed `never`).
 */
export function declareFaults<I extends InterfaceName, T extends Record<`${I}-${string}`, FaultSpec>>(
  iface: I,
  specs: T & Record<Exclude<keyof T, `${I}-${string}`>, never>,
): ReadonlyArray<FaultDefinition<Extract<keyof T, string>>> {
  return named<FaultSpec, Extract<keyof T, string>>(iface, specs);
}

/**
 * A deviation: what production nodes really put on the wire where it bends the letter of the description
 * (facts of the real network). A node with one switched on must not fail any MUST requirement; the SHOULD
 * requirements that report the deviation are its findings.
 */
export interface DeviationSpec {
  /** Rule family of the description it touches. */
  readonly family: string;
  /** What real nodes do, in a sentence. */
  readonly behaviour: string;
  /** SHOULD requirements (ids, exact) that report it; none where the description leaves it open. */
  readonly findings: readonly string[];
  /**
   * operationIds of the interface's built-in document whose answers it changes: its proof runs the
   * requirements that call them (and its findings), not the whole catalog. Omitted: any operation's answer
   * may show it (an error body every operation sends), so the proof runs the interface's whole catalog.
   */
  readonly operations?: readonly string[];
  /** Requirements (ids, exact) that become unsupported: the deviation stops serving an operation they need. */
  readonly unsupported?: readonly string[];
  /** Requirements (ids, exact) left without data to judge: the deviation hides what they look at (skipped). */
  readonly skipped?: readonly string[];
}

export interface DeviationDefinition<Name extends string = string> extends DeviationSpec {
  readonly name: Name;
  readonly interface: InterfaceName;
}

/** The deviations of one interface, declared like its faults (see declareFaults). */
export function declareDeviations<I extends InterfaceName, T extends Record<`${I}-${string}`, DeviationSpec>>(
  iface: I,
  specs: T & Record<Exclude<keyof T, `${I}-${string}`>, never>,
): ReadonlyArray<DeviationDefinition<Extract<keyof T, string>>> {
  return named<DeviationSpec, Extract<keyof T, string>>(iface, specs);
}

/**
 * A divergence: one node of a network telling a different story than the others in one field, while keeping
 * every rule of the description (no run against that node alone can notice). Only comparing it with another
 * node of the network shows it (`cn-conformance compare`); the detection matrix leaves it out.
 */
export interface DivergenceSpec {
  /** Rule family of the description it touches. */
  readonly family: string;
  /** What differs, in a sentence. */
  readonly breaks: string;
  /** Where a comparison with another node shows it: a read and the JSON pointer within its answer. */
  readonly shows: string;
}

export interface DivergenceDefinition<Name extends string = string> extends DivergenceSpec {
  readonly name: Name;
  readonly interface: InterfaceName;
}

/** The divergences of one interface, declared like its faults (see declareFaults). */
export function declareDivergences<I extends InterfaceName, T extends Record<`${I}-${string}`, DivergenceSpec>>(
  iface: I,
  specs: T & Record<Exclude<keyof T, `${I}-${string}`>, never>,
): ReadonlyArray<DivergenceDefinition<Extract<keyof T, string>>> {
  return named<DivergenceSpec, Extract<keyof T, string>>(iface, specs);
}

/** Each spec under its key, with the key as its name and the interface it belongs to. */
function named<S, N extends string>(iface: InterfaceName, specs: object): ReadonlyArray<S & { name: N; interface: InterfaceName }> {
  return Object.entries(specs as Record<string, S>).map(([name, spec]) => ({ name: name as N, interface: iface, ...spec }));
}
