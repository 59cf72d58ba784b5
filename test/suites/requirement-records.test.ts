// An id leads to its file: every requirement record names the file that defines it, a rule's id is written
// there literally, and the id's second segment names the file (or folder) under requirements/<interface>/. The
// kind of a requirement is its `kind` (and a generic one's check its `probe`), never read from a tag or an id.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GENERIC_CHECKS, INTERFACES } from '../../common/vocabulary.ts';
import { catalog, DESCRIPTION_REQUIREMENTS } from '../../requirements/catalog.ts';
import { genericId, genericRequirements, operationSlug } from '../../requirements/generic/spec-requirements.ts';
import type { Requirement } from '../../engine/model.ts';
import { FIXTURE_HELP } from '../../engine/fixtures.ts';
import { defineRequirements, defineRules, repositoryPath, rule as typedRule, type RuleOf } from '../../engine/requirement.ts';
import { BUILTIN_NAMES, builtinDocumentsOnce, builtinSpec } from '../support/builtin-specs.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const source = (definedIn: string) => readFileSync(join(ROOT, definedIn), 'utf8');
const tsFiles = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
  );

/** The first hyphen-word of the first path component under requirements/<interface>/: a file stem or a folder. */
function fileWord(r: Requirement): string | undefined {
  const prefix = `requirements/${r.interface}/`;
  if (!r.definedIn.startsWith(prefix)) return undefined;
  const first = r.definedIn.slice(prefix.length).split('/')[0]!.replace(/\.ts$/, '');
  return first.split('-')[0];
}

async function builtinGeneric(): Promise<Requirement[]> {
  const out: Requirement[] = [];
  for (const name of BUILTIN_NAMES) out.push(...genericRequirements(name, await builtinSpec(name)));
  return out;
}

describe('requirement records', () => {
  it('every rule is defined where its id says: literally, in requirements/<interface>/<second segment>...', () => {
    expect(DESCRIPTION_REQUIREMENTS.length).toBeGreaterThan(90);
    const wrong: string[] = [];
    for (const r of DESCRIPTION_REQUIREMENTS) {
      expect(existsSync(join(ROOT, r.definedIn)), `${r.id}: ${r.definedIn}`).toBe(true);
      // A WebSocket twin is its rule's record, judged over the channel: the rule is written out there.
      expect(source(r.definedIn), `${r.id} is not written out in ${r.definedIn}`).toContain(`id: '${r.twinOf ?? r.id}'`);
      const [prefix, second] = r.id.split('-');
      expect(prefix, r.id).toBe(r.interface.toUpperCase());
      if (fileWord(r)?.toUpperCase() !== second) wrong.push(`${r.id} in ${r.definedIn}`);
    }
    expect(wrong).toEqual([]);
  });

  it('rules are rules: kind rule, no probe, no generic tag', () => {
    for (const r of DESCRIPTION_REQUIREMENTS) {
      expect(r.kind, r.id).toBe('rule');
      expect(r.probe, r.id).toBeUndefined();
      expect(r.tags ?? [], r.id).not.toContain('generic');
    }
  });

  it('the generic requirements of the built-in documents are defined in requirements/generic/, with a probe that makes their id', async () => {
    const generic = await builtinGeneric();
    expect(generic.length).toBeGreaterThan(40);
    const probes = new Set<string>();
    for (const r of generic) {
      expect(r.kind, r.id).toBe('generic');
      expect(r.definedIn, r.id).toMatch(/^requirements\/generic\/[^/]+\.ts$/);
      expect(existsSync(join(ROOT, r.definedIn)), r.definedIn).toBe(true);
      expect(GENERIC_CHECKS, r.id).toContain(r.probe);
      expect(r.operations, r.id).toHaveLength(1);
      expect(r.id).toBe(genericId(r.interface, operationSlug(r.operations[0]!), r.probe!));
      // The tag stays: users select them with --only generic.
      expect(r.tags, r.id).toEqual(['generic', r.interface]);
      probes.add(r.probe!);
    }
    expect([...probes].sort()).toEqual([...GENERIC_CHECKS].sort());
  });

  it('the catalog of the built-in documents holds each id once, generic ones first', async () => {
    const specs = Object.fromEntries(await Promise.all(BUILTIN_NAMES.map(async (n) => [n, await builtinSpec(n)] as const)));
    const all = catalog(specs);
    expect(new Set(all.map((r) => r.id)).size).toBe(all.length);
    const firstRule = all.findIndex((r) => r.kind === 'rule');
    expect(all.slice(firstRule).every((r) => r.kind === 'rule')).toBe(true);
    expect(all.slice(firstRule)).toEqual(DESCRIPTION_REQUIREMENTS);
  });

  it('every operation of the built-in documents is confirmed by exactly one rule of its interface, which calls it', async () => {
    const wrong: string[] = [];
    for (const name of BUILTIN_NAMES)
      for (const op of (await builtinSpec(name)).catalog.operations) {
        const confirming = DESCRIPTION_REQUIREMENTS.filter((r) => r.confirms === op.id);
        if (confirming.length !== 1 || confirming[0]!.interface !== name) wrong.push(`${name} ${op.id}: ${confirming.map((r) => r.id).join(', ') || 'none'}`);
      }
    expect(wrong).toEqual([]);
    const operations = new Set<string>();
    for (const name of BUILTIN_NAMES) for (const op of (await builtinSpec(name)).catalog.operations) operations.add(op.id);
    for (const r of DESCRIPTION_REQUIREMENTS.filter((x) => x.confirms)) expect(operations.has(r.confirms!), r.id).toBe(true);
  });

  it('no misc.ts: every file of the record folders is named after what it holds', () => {
    const files = (dir: string): string[] =>
      readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(`${dir}/${e.name}`) : [`${dir}/${e.name}`]));
    const all = INTERFACES.flatMap((i) => files(`requirements/${i}`));
    expect(all.filter((f) => /(^|\/)misc\.ts$/.test(f))).toEqual([]);
    // Every file defining rules defines them through the one builder of rules, with its header stated once.
    for (const f of new Set(DESCRIPTION_REQUIREMENTS.map((r) => r.definedIn)))
      expect(source(f), f).toMatch(/defineRules\(\s*import\.meta\.url,\s*\{\s*interface: '/);
  });

  it("spell the defaults of a rule only in the builder: no product file but it writes kind: 'rule' or level: 'MUST'", () => {
    const product = ['engine', 'interfaces', 'requirements', 'traceability', 'runner', 'reporting', 'cli', 'detection']
      .flatMap(tsFiles)
      .filter((f) => f !== 'engine/requirement.ts');
    expect(product.filter((f) => /kind: 'rule'(,| as const)|level: 'MUST'(,| as const)/.test(source(f)))).toEqual([
      'requirements/generic/spec-requirements.ts',
    ]);
  });

  it('assert no fixture with `!`: a check reads what its needs name, typed present by rule()', () => {
    const fixtureNames = Object.keys(FIXTURE_HELP).join('|');
    const asserted = new RegExp(`\\b(fixtures\\.[A-Za-z]+|${fixtureNames})!`);
    const product = ['engine', 'interfaces', 'requirements', 'runner'].flatMap(tsFiles);
    expect(product.filter((f) => asserted.test(source(f)))).toEqual([]);
  });
});

describe('the rules of every interface', () => {
  it.each(INTERFACES)('%s: unique ids of its prefix, MUST or SHOULD, a section and a sentence, operations of its document', async (iface) => {
    const rules = DESCRIPTION_REQUIREMENTS.filter((r) => r.interface === iface);
    const spec = await builtinSpec(iface);
    expect(rules.length).toBeGreaterThan(0);
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length);
    for (const r of rules) {
      expect(r.id).toMatch(new RegExp(`^${iface.toUpperCase()}-[A-Z0-9]+(-[A-Z0-9]+)+$`));
      expect(['MUST', 'SHOULD']).toContain(r.level);
      expect(r.section.length, r.id).toBeGreaterThan(0);
      expect(r.sentence.length, r.id).toBeGreaterThan(0);
      // Only a review of the run's answers may name no operation (the deviation policy's are about every one),
      // and a record reading WebSocket channels only, which names those: channels of the interface's channel document.
      if (r.phase !== 'review') expect(r.operations.length + (r.channels?.length ?? 0), r.id).toBeGreaterThan(0);
      for (const op of r.operations) expect(spec.catalog.byId.has(op), `${r.id}: ${op}`).toBe(true);
      const channels = (await builtinDocumentsOnce()).channels.ledger!.channels.map((c) => c.path);
      for (const c of r.channels ?? []) expect(iface === 'ledger' && channels.includes(c), `${r.id}: ${c}`).toBe(true);
    }
  });
});

describe('defineRules', () => {
  const rule = { tags: [], async check() {} };

  it('takes the header once and fills in the defaults: kind rule, level MUST, mutates false, needs []', () => {
    const [a, b] = defineRules(import.meta.url, { interface: 'scan', operations: ['x'], cites: ['X.errors.9'] }, [
      { ...rule, id: 'SCAN-A' },
      { ...rule, id: 'SCAN-B', level: 'SHOULD', operations: ['y'], cites: ['C.ans.1'] },
    ]);
    expect(a).toMatchObject({
      id: 'SCAN-A',
      kind: 'rule',
      level: 'MUST',
      interface: 'scan',
      operations: ['x'],
      cites: ['X.errors.9'],
      mutates: false,
      needs: [],
    });
    expect(b).toMatchObject({ id: 'SCAN-B', level: 'SHOULD', operations: ['y'], cites: ['C.ans.1'] });
    expect(a!.definedIn).toBe('test/suites/requirement-records.test.ts');
  });

  it("quotes a rule's sentence and section from the sentences it cites: their texts, and their headings once each", () => {
    const [r] = defineRules(import.meta.url, { interface: 'scan', operations: ['x'] }, [
      { ...rule, id: 'SCAN-A', cites: ['C.ans.4', 'C.ans.5', 'X.errors.9'] },
    ]);
    expect(r!.sentence).toBe('`page_size` int32 required (maximum results; older non-expired entries first); Scan (general) | 400 | Bad request');
    expect(r!.section).toBe('Endpoints > C. Scan interface (`{scan_base_url}/api/scan`) > GET /v0/ans-entries; Errors');
  });

  it('keeps the needs of a rule() record, whose check reads them as present; a plain record names none', () => {
    const [a] = defineRules(import.meta.url, { interface: 'scan', operations: ['x'], cites: ['X.errors.9'] }, [
      typedRule({
        ...rule,
        id: 'SCAN-A',
        needs: ['svParties'],
        async check(ctx) {
          const first: string | undefined = ctx.fixtures.svParties[0];
          expect(first).toBeDefined();
        },
      }),
      // @ts-expect-error: a record that needs fixtures is written with rule(), which types its check by them
      { ...rule, id: 'SCAN-B', needs: ['svParties'] },
    ]);
    expect(a!.needs).toEqual(['svParties']);
  });

  it('refuses a rule with no operations or cited sentence, from itself or the header', () => {
    expect(() => defineRules(import.meta.url, { interface: 'wallet', cites: ['X.auth.1'] }, [{ ...rule, id: 'WALLET-X' }])).toThrow(
      /WALLET-X has no operations/,
    );
    expect(() => defineRules(import.meta.url, { interface: 'wallet', operations: ['x'] }, [{ ...rule, id: 'WALLET-X' }])).toThrow(
      /WALLET-X has no cited sentence/,
    );
    expect(() => defineRules(import.meta.url, { interface: 'wallet', operations: ['x'], cites: [] }, [{ ...rule, id: 'WALLET-X' }])).toThrow(
      /WALLET-X has no cited sentence/,
    );
  });

  it('refuses, at load, naming the file and the id, a citation of a number no sentence has', () => {
    expect(() =>
      defineRules(import.meta.url, { interface: 'wallet', operations: ['x'] }, [{ ...rule, id: 'WALLET-X', cites: ['X.auth.1', 'X.auth.99'] }]),
    ).toThrow('test/suites/requirement-records.test.ts: requirement WALLET-X cites X.auth.99: no sentence of the description (description/) has that number');
  });

  it('refuses a rule that writes its own sentence or section: it quotes what it cites', () => {
    const own = { ...rule, id: 'WALLET-X', cites: ['X.auth.1'], sentence: 'by hand' } as RuleOf<'wallet'>;
    expect(() => defineRules(import.meta.url, { interface: 'wallet', operations: ['x'] }, [own])).toThrow(/WALLET-X writes its own section or sentence/);
  });
});

describe('defineRequirements', () => {
  const base = { level: 'MUST' as const, interface: 'scan' as const, operations: ['x'], tags: [], async check() {} };

  it('stamps the defining file relative to the repository root and fills in mutates and needs', () => {
    const [r] = defineRequirements(import.meta.url, [{ ...base, id: 'SCAN-X', kind: 'rule', cites: ['X.errors.9'] }]);
    expect(r!.definedIn).toBe('test/suites/requirement-records.test.ts');
    expect(repositoryPath(new URL('../../requirements/scan/ans.ts', import.meta.url).href)).toBe('requirements/scan/ans.ts');
    expect({ mutates: r!.mutates, needs: r!.needs, kind: r!.kind }).toEqual({ mutates: false, needs: [], kind: 'rule' });
  });

  it('refuses a rule with a probe and a generic requirement without one', () => {
    expect(() => defineRequirements(import.meta.url, [{ ...base, id: 'SCAN-X', kind: 'rule', cites: ['X.errors.9'], probe: 'responses' }])).toThrow(
      /SCAN-X is a rule requirement with a probe/,
    );
    expect(() => defineRequirements(import.meta.url, [{ ...base, id: 'GENERIC-X', kind: 'generic', section: 's', sentence: 't' }])).toThrow(
      /GENERIC-X is a generic requirement without a probe/,
    );
  });

  it("keeps a generic requirement's own section and sentence (what its probe judges), and checks what it cites", () => {
    const generic = { ...base, id: 'GENERIC-X', kind: 'generic' as const, probe: 'responses' as const, section: 's', sentence: 't' };
    expect(defineRequirements(import.meta.url, [{ ...generic, cites: ['C.ans.6'] }])[0]).toMatchObject({ section: 's', sentence: 't', cites: ['C.ans.6'] });
    expect(defineRequirements(import.meta.url, [generic])[0]!.cites).toEqual([]);
    expect(() => defineRequirements(import.meta.url, [{ ...generic, cites: ['C.ans.60'] }])).toThrow(/GENERIC-X cites C.ans.60: no sentence/);
    expect(() => defineRequirements(import.meta.url, [{ ...generic, sentence: undefined }])).toThrow(/GENERIC-X has no section or sentence/);
  });
});
