// The strictness comparison: every place where our document refuses what an official one allows. The two
// fixture documents (test/fixtures/strictness/) hold one case per kind of finding, and places where ours is
// as loose or looser, which must stay silent.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_SPECS, blockingFindings, compareStrictness, loadDocument, type StrictnessReport } from '../../generators/index.ts';
import { cliInProcess } from '../support/cli-in-process.ts';

const fixtures = fileURLToPath(new URL('../fixtures/strictness/', import.meta.url));
const oursPath = join(fixtures, 'ours.yaml');
const theirsPath = join(fixtures, 'theirs.yaml');

let report: StrictnessReport;
beforeAll(async () => {
  report = compareStrictness(await loadDocument(oursPath), [await loadDocument(theirsPath)]);
});

/** One line per finding: "operation side part pointer kind". */
const lines = (r: StrictnessReport, operation?: string) =>
  r.findings.filter((f) => operation === undefined || f.operation === operation).map((f) => `${f.side} ${f.part} ${f.pointer || '/'} ${f.kind}`);

describe('operations', () => {
  it('are matched by method and path, whatever the server prefix and the path parameter names', () => {
    expect(report.matched.map((m) => `${m.operation}->${m.theirOperation}`)).toEqual(['getThing->fetchThing', 'createThing->postThing']);
    expect(report.unmatched).toEqual([{ operation: 'onlyOurs', endpoint: 'GET /api/demo/v0/only-ours' }]);
  });

  it('compare an error status with their range or default answer when they have no exact one', () => {
    expect(lines(report, 'getThing')).toContain('response 404 (their default) /error required');
    expect(lines(report, 'getThing')).toContain('response 500 (their default) /error required');
  });

  it('follow their cross-file $ref, bundled as a percent-encoded pointer under a path template', () => {
    // Unresolved, their error body would read as "anything" and this would be a type finding instead.
    expect(lines(report, 'createThing')).toContain('response 400 /error required');
    expect(lines(report, 'createThing').filter((l) => l.startsWith('response 400'))).toEqual(['response 400 /error required']);
  });
});

describe('each kind of finding', () => {
  it.each([
    ['required: a property theirs leaves optional', 'response 200 /name required', 'required', 'optional'],
    ['required: a property theirs does not list', 'response 200 /label required', 'required', 'not listed (allowed, not required)'],
    ['required: through their allOf', 'response 200 /mixed/extra_field required', 'required', 'optional'],
    ['type: theirs string|integer, ours integer', 'response 200 /id type', 'integer', 'integer|string'],
    ['type: of every extra property', 'response 200 /labels/* type', 'string', 'integer|string'],
    ['enum: a value of theirs missing', 'response 200 /status enum', '["active","retired"]', '["active","retired","pending"]'],
    ['enum: theirs has none', 'response 200 /kind enum', '["a","b"]', 'any string'],
    ['additional properties: a property theirs defines', 'response 200 /extra/b additional-properties', 'not allowed (additionalProperties: false)', 'defined'],
    ['additional properties: others', 'response 200 /extra additional-properties', 'no other property', 'others allowed'],
    ['format', 'response 200 /created_at format', 'date-time', 'none'],
    ['pattern', 'response 200 /code pattern', '^[A-Z]+$', 'none'],
    ['bound: an exclusive minimum where theirs is inclusive', 'response 200 /score bound', '> 0', '>= 0'],
    ['bound: of every item', 'response 200 /tags/0 bound', 'maxLength 10', 'no maxLength'],
    ['bound: multipleOf', 'response 200 /size bound', 'multipleOf 4', 'multipleOf 2'],
    ['variant: a discriminator value ours has no branch for', 'response 200 /shape variant', 'Circle | Square', 'Triangle'],
    ['variant: a one-key branch ours lacks', 'response 200 /wrapper variant', '{A} | {B}', '{C}'],
    ['undecided: unions whose branches cannot be told apart', 'response 200 /mystery undecided', '#1 | #2 | #3', '#1'],
  ])('%s', (_, line, ours, theirs) => {
    const found = report.findings.filter((f) => `${f.side} ${f.part} ${f.pointer} ${f.kind}` === line);
    expect(found.length, `${line} in\n${lines(report).join('\n')}`).toBeGreaterThan(0);
    expect(found[0]).toMatchObject({ ours, theirs });
  });

  it('bounds of arrays: minItems, maxItems, uniqueItems', () => {
    expect(report.findings.filter((f) => f.pointer === '/tags' && f.kind === 'bound').map((f) => f.ours)).toEqual(['minItems 1', 'maxItems 5', 'uniqueItems']);
  });

  it('inside matched branches, with the way they were matched', () => {
    expect(report.findings.find((f) => f.pointer === '/shape/radius')).toMatchObject({ kind: 'required', note: expect.stringMatching(/Circle .*kind circle/) });
    expect(report.findings.find((f) => f.pointer === '/wrapper/A')).toMatchObject({ kind: 'type', ours: 'integer', theirs: 'string' });
  });

  it('requests: parameters (path by position, headers by any case) and bodies', () => {
    expect(lines(report, 'getThing').filter((l) => l.startsWith('request'))).toEqual([
      'request path parameter "id" / type',
      'request query parameter "verbose" / required',
      'request query parameter "page_size" / format',
      'request query parameter "page_size" / bound',
      'request header parameter "X-Trace" / required',
      'request query parameter "only_ours" / type',
    ]);
    expect(report.findings.find((f) => f.part === 'query parameter "only_ours"')?.theirs).toMatch(/^no such parameter/);
    expect(lines(report, 'createThing').filter((l) => l.startsWith('request'))).toEqual([
      'request body / required',
      'request body /name required',
      'request body /name bound',
    ]);
  });

  it('null: informational at a property ours leaves optional in an answer, blocking where ours requires it', () => {
    expect(report.findings.find((f) => f.pointer === '/note')).toMatchObject({ kind: 'nullable', optional: true });
    expect(report.findings.find((f) => f.pointer === '/owner')).toMatchObject({ kind: 'nullable', optional: false });
    const blocking = blockingFindings(report);
    expect(blocking.some((f) => f.pointer === '/owner')).toBe(true);
    expect(blocking.some((f) => f.pointer === '/note')).toBe(false);
    expect(blockingFindings(report, { nullable: true }).some((f) => f.pointer === '/note')).toBe(true);
  });

  it('a rule the description states (x-cn-stricter-than-official) is named with its sentence and does not block', () => {
    const hash = report.findings.find((f) => f.pointer === '/hash');
    expect(hash).toMatchObject({ kind: 'pattern', excused: 'the description gives the hash as hex-encoded' });
    expect(blockingFindings(report)).not.toContain(hash);
  });
});

describe('silence where ours accepts as much or more', () => {
  it.each([
    ['/ratio', 'number where theirs says integer'],
    ['/counter', 'int64 where theirs gives no format'],
    ['/either', 'the same union in another order (branches matched by type)'],
    ['/parent/', 'a recursive schema, walked once'],
  ])('%s: %s', (pointer) => {
    expect(report.findings.filter((f) => f.pointer === pointer || (pointer.endsWith('/') && f.pointer.startsWith(pointer)))).toEqual([]);
  });

  it('an answer where ours is looser than theirs', () => {
    expect(lines(report, 'createThing').filter((l) => l.startsWith('response 200'))).toEqual([]);
  });

  it('the project documents compared with themselves', async () => {
    for (const path of Object.values(BUILTIN_SPECS)) {
      const doc = await loadDocument(path);
      expect(compareStrictness(doc, [doc]).findings, path).toEqual([]);
    }
  });
});

describe('cn-conformance strictness', () => {
  it('lists what is stricter and exits 1', async () => {
    const o = await cliInProcess(['strictness', '--ours', oursPath, '--theirs', theirsPath]);
    expect(o.code).toBe(1);
    expect(o.stdout).toMatch(/^Stricter than theirs \(\d+\)$/m);
    expect(o.stdout).toMatch(/^ {4}answer 200 \/status: enum: ours \["active","retired"\]; theirs \["active","retired","pending"\]$/m);
    expect(o.stdout).toMatch(/^Stricter because the description says so \(1\)$/m);
    expect(o.stdout).toMatch(/^STRICTER: \d+ places/m);
  });

  it('exits 0 when ours is nowhere stricter, 2 on a usage error', async () => {
    const same = await cliInProcess(['strictness', '--ours', theirsPath, '--theirs', theirsPath]);
    expect(same.code, same.stdout + same.stderr).toBe(0);
    expect(same.stdout).toMatch(/^OK: ours is nowhere stricter than theirs$/m);
    expect((await cliInProcess(['strictness', '--ours', 'scan'])).code).toBe(2);
    const unrelated = await cliInProcess(['strictness', '--ours', 'scan', '--theirs', theirsPath]);
    expect(unrelated.code).toBe(2);
    expect(unrelated.stderr).toMatch(/no operation of scan is in/);
  });

  it('prints JSON with --json', async () => {
    const o = await cliInProcess(['strictness', '--ours', oursPath, '--theirs', theirsPath, '--json']);
    const parsed = JSON.parse(o.stdout) as StrictnessReport & { blocking: number };
    expect(parsed.findings.length).toBe(report.findings.length);
    expect(parsed.blocking).toBe(blockingFindings(report).length);
  });
});
