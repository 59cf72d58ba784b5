// The one way a requirement record is written, for every interface and for the document-derived checks.
// A file of rules states its shared header once (`defineRules`: the interface, and the operations and
// cited sentences where all its records share them); each record then says only what is its own. A rule
// cites the description's sentences it enforces by number (description/) and the builder quotes its section
// and sentence from them, so no sentence is written twice. The defaults (kind rule, level MUST, mutates
// false, needs []) are spelled here and nowhere else. The builder also stamps the file that defines each record.
import { dirname, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { InterfaceName } from '../common/vocabulary.ts';
import { quote, unknownSentences } from '../description/cite.ts';
import type { FixtureName } from './fixtures.ts';
import type { CheckContext, Level, Requirement } from './model.ts';

/**
 * A record as the builder takes it: every field of the requirement but the file it is defined in (stamped by
 * the builder), with tags always given and `mutates` (default false) and `needs` (default []) optional. A
 * rule cites sentences and writes no section or sentence (the builder quotes them); a generic requirement
 * writes its own (what its probe judges of its operation) and cites what it enforces of the description.
 */
export type RequirementInput = Omit<Requirement, 'definedIn' | 'mutates' | 'needs' | 'tags' | 'cites' | 'section' | 'sentence'> & {
  tags: string[];
  mutates?: boolean;
  needs?: FixtureName[];
  cites?: readonly string[];
  section?: string;
  sentence?: string;
};

/** What the records of one file of rules share, stated once. */
export interface RuleHeader<I extends InterfaceName> {
  interface: I;
  /** The operations of every record of the file, unless a record names its own. */
  operations?: string[];
  /** The sentences every record of the file cites (by number, description/), unless a record cites its own. */
  cites?: readonly string[];
  /**
   * The variants no record of the file applies to, and why (Requirement.variants), where all its records
   * share the reason; a record's own `variants` adds to it (its reason wins for an axis value both name).
   */
  variants?: Requirement['variants'];
  /**
   * The WebSocket channel (a path, e.g. /v2/updates) that carries the same stream as the file's operations:
   * each rule of the file gets a twin, `<id>-WS`, running the same check with its stream reads over the
   * channel (Requirement.transport), so that a rule is stated once and judged on both transports.
   */
  webSocketTwins?: string;
}

/** What a rule says of itself: everything but its file's header, the defaults and (for `needs`) the fixtures it reads. */
type RuleBody<K extends FixtureName> = Omit<
  RequirementInput,
  'kind' | 'probe' | 'interface' | 'level' | 'operations' | 'cites' | 'section' | 'sentence' | 'id' | 'needs' | 'check'
> & {
  level?: Level;
  operations?: string[];
  /** The numbers of the description's sentences it enforces, e.g. ['C.holdings-v1.3']: its section and sentence quote them. */
  cites?: readonly string[];
  /** The fixtures the check reads: the check runs only when they are all there, and its `ctx.fixtures` says so. */
  needs?: readonly K[];
  /** false: no WebSocket twin, although its file has them (a rule of what only HTTP has, or one another record judges over the channel). */
  webSocketTwin?: false;
  check(ctx: CheckContext<K>): Promise<void>;
};

/**
 * A rule of the description as its file writes it: its id (with its interface's prefix, e.g. SCAN-...), the
 * sentences it cites, the check and whatever is not the file's header or a default. A rule that needs fixtures is
 * written with `rule({...})`, which types its `ctx.fixtures` by its `needs`: a record written without it
 * can name no fixture.
 */
export type RuleOf<I extends InterfaceName> = RuleRecord<`${Uppercase<I>}-${string}`>;

type RuleRecord<Id extends string> = RuleBody<never> & { id: Id; needs?: readonly [] };

/**
 * A rule whose check reads fixtures: `rule({ id, needs: ['svParties'], ..., check(ctx) { ctx.fixtures.svParties } })`.
 * The check sees each fixture it names as present (the engine skips it when one is missing), so no check
 * asserts one with `!`. Once typed, the record is a rule like any other (its needs travel with it). A part
 * of a record that several rules share (all but the id, say) is written the same way.
 */
export function rule<
  const K extends FixtureName,
  const Id extends string = never,
  R extends Omit<Partial<RuleBody<K>>, 'needs' | 'check'> = Omit<Partial<RuleBody<K>>, 'needs' | 'check'>,
>(r: R & { id?: Id; needs: readonly K[]; check(ctx: CheckContext<K>): Promise<void> }): TypedRule<R, Id> {
  return r as unknown as TypedRule<R, Id>;
}

/** A record (or a part of one) once `rule` typed its check: its needs no longer show in its type. */
type TypedRule<R, Id extends string> = Omit<R, 'id' | 'needs' | 'check'> &
  Pick<RuleRecord<string>, 'needs' | 'check'> &
  ([Id] extends [never] ? unknown : { id: Id });

/** The repository root: the parent of the folder of this file (dist/ in the compiled package, which mirrors it). */
const REPOSITORY_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

/**
 * A module's source path relative to the repository root, with forward slashes (e.g. requirements/scan/ans.ts):
 * a compiled module names the source it was compiled from, so reports and docs read alike from either.
 */
export function repositoryPath(moduleUrl: string): string {
  return relative(REPOSITORY_ROOT, fileURLToPath(moduleUrl)).split(sep).join('/').replace(/\.js$/, '.ts');
}

/** The rules of one file, in the order given: `defineRules(import.meta.url, { interface: 'scan' }, [...])`. */
export function defineRules<I extends InterfaceName>(moduleUrl: string, header: RuleHeader<I>, records: readonly RuleOf<I>[]): Requirement[] {
  const where = repositoryPath(moduleUrl);
  const untwinned = new Set<string>();
  const defined = defineRequirements(
    moduleUrl,
    records.map((r) => {
      const operations = r.operations ?? header.operations;
      const cites = r.cites ?? header.cites;
      if (!operations || !cites?.length)
        throw new Error(`${where}: rule ${r.id} has no ${operations ? 'cited sentence' : 'operations'}, nor its file's header`);
      const { id, needs, webSocketTwin, ...own } = r as RuleBody<FixtureName> & { id: string };
      if (webSocketTwin === false) untwinned.add(id);
      const variants = mergeVariants(header.variants, r.variants);
      return {
        id,
        kind: 'rule',
        level: r.level ?? 'MUST',
        interface: header.interface,
        operations,
        ...own,
        cites,
        needs: needs && [...needs],
        ...(variants && { variants }),
      };
    }),
  );
  const channel = header.webSocketTwins;
  return channel ? defined.flatMap((r) => (untwinned.has(r.id) ? [r] : [r, webSocketTwin(r, channel)])) : defined;
}

/**
 * The rule judged over the WebSocket channel: its check, reading the stream over `channel`. It calls no HTTP
 * operation (its operations are empty: nothing it sends is an OpenAPI exchange), so it confirms none and
 * excuses no variant of one.
 */
function webSocketTwin(r: Requirement, channel: string): Requirement {
  const { confirms: _confirms, variants: _variants, ...rest } = r;
  return { ...rest, id: `${r.id}-WS`, operations: [], channels: [channel], transport: 'websocket', twinOf: r.id, tags: [...(r.tags ?? []), 'websocket'] };
}

/** A file's excluded variants with a record's own: an axis excused whole by either stays whole. */
function mergeVariants(file: Requirement['variants'], own: Requirement['variants']): Requirement['variants'] {
  if (!file || !own) return own ?? file;
  const out: Record<string, string | Readonly<Record<string, string>>> = { ...file };
  for (const [axis, why] of Object.entries(own)) {
    const theirs = out[axis];
    out[axis] = typeof why === 'string' || theirs === undefined ? why : typeof theirs === 'string' ? theirs : { ...theirs, ...why };
  }
  return out;
}

/**
 * The records of one file, in the order given: `defineRequirements(import.meta.url, [...])`. A generic
 * requirement names its probe and a rule none, an operation a rule confirms is one it calls, a rule cites
 * sentences and writes none, and every number cited is a sentence's; anything else is a mistake of the
 * record, refused at load.
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
    const { mutates = false, needs = [], cites = [], ...rest } = r;
    const unknown = unknownSentences(cites);
    if (unknown.length > 0)
      throw new Error(`${definedIn}: requirement ${r.id} cites ${unknown.join(', ')}: no sentence of the description (description/) has that number`);
    return { ...rest, ...quoted(definedIn, r, cites), cites: [...cites], mutates, needs, definedIn };
  });
}

/** A rule's section and sentence, quoted from the sentences it cites; a generic requirement's own. */
function quoted(definedIn: string, r: RequirementInput, cites: readonly string[]): { section: string; sentence: string } {
  if (r.kind === 'generic') {
    if (r.section === undefined || r.sentence === undefined) throw new Error(`${definedIn}: generic requirement ${r.id} has no section or sentence`);
    return { section: r.section, sentence: r.sentence };
  }
  if (r.section !== undefined || r.sentence !== undefined)
    throw new Error(`${definedIn}: rule ${r.id} writes its own section or sentence; it cites the description's sentences, which the builder quotes`);
  if (cites.length === 0) throw new Error(`${definedIn}: rule ${r.id} cites no sentence of the description`);
  return quote(cites);
}
