import { createServer, type Server } from 'node:http';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { buildCatalog, compileSpec, loadDocument, SchemaValidators, SpecLoadError } from '../../generators/index.ts';

const fixtures = fileURLToPath(new URL('../fixtures/', import.meta.url));
const multiFile = join(fixtures, 'multi-file/api.yaml');
const treeResponse = '/paths/~1v0~1trees~1{tree_id}/get/responses/200/content/application~1json/schema';

describe('loading a multi-file document with relative $refs and cycles', () => {
  it('bundles external YAML and JSON files into one document with internal refs only', async () => {
    const loaded = await loadDocument(multiFile);
    expect(loaded.version).toBe('3.0');
    expect(loaded.name).toBe('api');
    expect(loaded.sha256).toMatch(/^[0-9a-f]{64}$/);
    const refs = JSON.stringify(loaded.document).match(/"\$ref":"[^"]*"/g) ?? [];
    expect(refs.length).toBeGreaterThan(0);
    for (const r of refs) expect(r).toMatch(/"\$ref":"#\//);
  });

  it('builds a catalog that follows parameter and response refs across files', async () => {
    const catalog = buildCatalog(await loadDocument(multiFile));
    const op = catalog.byId.get('getTree')!;
    expect(op.fullPath).toBe('/api/tree/v0/trees/{tree_id}');
    expect(op.parameters.map((p) => `${p.in}:${p.name}:${p.required}`)).toEqual(['path:tree_id:true', 'query:depth:false']);
    expect(op.responses.map((r) => r.status)).toEqual(['200', '404']);
    expect(op.responses[1]!.content[0]!.examples[0]!.value).toEqual({ error: 'not found' });
    expect(catalog.byId.get('plantForest')!.requestBody?.required).toBe(true);
  });

  it('validates recursive values through the cycle, with the pointer of a deep violation', async () => {
    const validators = new SchemaValidators(await loadDocument(multiFile));
    expect(validators.compileAll()).toBeGreaterThanOrEqual(4);
    const deep = { label: 'a', children: [{ label: 'b', children: [{ label: 'c', children: [] }] }], parent_link: { target: { label: 'p', children: [] } } };
    expect(validators.validate(treeResponse, deep).valid).toBe(true);
    const broken = structuredClone(deep);
    broken.children[0]!.children[0]!.label = '';
    const result = validators.validate(treeResponse, broken);
    expect(result.valid).toBe(false);
    expect(result.issues[0]!.pointer).toBe('/children/0/children/0/label');
    const linkBroken = { ...deep, parent_link: { target: { label: 'p' } } };
    expect(validators.validate(treeResponse, linkBroken).issues[0]).toMatchObject({
      pointer: '/parent_link/target',
      message: "is missing required property 'children'",
    });
  });

  it('loads a document from a URL, including its relative external refs', async () => {
    const server: Server = createServer(async (req, res) => {
      try {
        const body = await readFile(join(fixtures, 'multi-file', decodeURIComponent(req.url ?? '/')));
        res.writeHead(200, { 'content-type': req.url?.endsWith('.json') ? 'application/json' : 'application/yaml' }).end(body);
      } catch {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as AddressInfo;
      const spec = await compileSpec(`http://127.0.0.1:${port}/api.yaml`, { name: 'remote', timeoutMs: 5000 });
      expect(spec.loaded.source).toBe(`http://127.0.0.1:${port}/api.yaml`);
      expect(spec.loaded.files).toBeUndefined();
      // What a URL serves may change: it is read and compiled every time.
      expect(await compileSpec(`http://127.0.0.1:${port}/api.yaml`, { name: 'remote', timeoutMs: 5000 })).not.toBe(spec);
      expect(spec.catalog.operations.map((o) => o.id).sort()).toEqual(['getTree', 'plantForest']);
      expect(spec.validators.validate(treeResponse, { label: 'x', children: [] }).valid).toBe(true);
    } finally {
      server.close();
    }
  });
});

describe('a document compiled once per process', () => {
  it('is used again while every file it was read from holds the same bytes, and compiled again when one changes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cn-compiled-once-'));
    await cp(join(fixtures, 'multi-file'), dir, { recursive: true });
    const root = join(dir, 'api.yaml');
    const first = await compileSpec(root, { name: 'memo' });
    expect(first.loaded.files).toEqual(['api.yaml', 'schemas/common.json', 'schemas/tree.yaml', 'schemas/link.yaml'].map((f) => join(dir, f)));
    expect(await compileSpec(root, { name: 'memo' })).toBe(first);
    // Another name is another document in the report: compiled apart.
    expect(await compileSpec(root, { name: 'other' })).not.toBe(first);

    // A file the root refers to changes: the document is compiled again and says so.
    const tree = join(dir, 'schemas/tree.yaml');
    await writeFile(tree, (await readFile(tree, 'utf8')).replace('minLength: 1', 'minLength: 2'));
    const second = await compileSpec(root, { name: 'memo' });
    expect(second).not.toBe(first);
    expect(first.validators.validate(treeResponse, { label: 'x', children: [] }).valid).toBe(true);
    expect(second.validators.validate(treeResponse, { label: 'x', children: [] }).valid).toBe(false);
    expect(await compileSpec(root, { name: 'memo' })).toBe(second);

    // The root changes: compiled again.
    await writeFile(root, (await readFile(root, 'utf8')).replace('getTree', 'fetchTree'));
    const third = await compileSpec(root, { name: 'memo' });
    expect(third.catalog.byId.has('fetchTree')).toBe(true);
  });
});

describe('OpenAPI 3.1 documents', () => {
  it('validate with JSON Schema 2020-12 semantics and ignore vendor keywords', async () => {
    const spec = await compileSpec(join(fixtures, 'openapi-31.yaml'));
    expect(spec.loaded.version).toBe('3.1');
    const ptr = '/components/schemas/Item';
    expect(spec.validators.validate(ptr, { id: 1, note: null }).valid).toBe(true);
    expect(spec.validators.validate(ptr, { id: 1, note: 'n', score: 0.5 }).valid).toBe(true);
    expect(spec.validators.validate(ptr, { id: 1, note: 'n', score: 0 }).valid).toBe(false);
    expect(spec.validators.validate(ptr, { id: 1.5, note: 'n' }).valid).toBe(false);
  });
});

describe('unusable documents fail with the file and the JSON pointer', () => {
  it('names the file and the offending pointer of an invalid document', async () => {
    const file = join(fixtures, 'broken/not-openapi.yaml');
    const error = await loadDocument(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpecLoadError);
    const e = error as SpecLoadError;
    expect(e.source).toBe(file);
    expect(e.message).toContain(file);
    expect(e.message).toContain('#/paths/~1a/get/responses/200');
    expect(e.message).toMatch(/description/);
  });

  it('names the file and pointer of a $ref that does not resolve', async () => {
    const error = (await loadDocument(join(fixtures, 'broken/missing-ref.yaml')).catch((e: unknown) => e)) as SpecLoadError;
    expect(error).toBeInstanceOf(SpecLoadError);
    expect(error.message).toContain('missing-ref-target.yaml');
    expect(error.message).toContain('DoesNotExist');
  });

  it('refuses Swagger 2.0 with a clear reason', async () => {
    const error = (await loadDocument(join(fixtures, 'broken/swagger-2.json')).catch((e: unknown) => e)) as SpecLoadError;
    expect(error).toBeInstanceOf(SpecLoadError);
    expect(error.message).toMatch(/swagger-2\.json at #\/openapi: only OpenAPI 3\.0\.x and 3\.1\.x .*Swagger 2\.0/);
  });

  it('reports a file that does not exist', async () => {
    const error = (await loadDocument(join(fixtures, 'nope.yaml')).catch((e: unknown) => e)) as SpecLoadError;
    expect(error).toBeInstanceOf(SpecLoadError);
    expect(error.message).toMatch(/nope\.yaml: cannot read the document: .*ENOENT/);
  });

  it('reports an unreachable URL within the timeout', async () => {
    const error = (await loadDocument('http://127.0.0.1:9/spec.yaml', { timeoutMs: 2000 }).catch((e: unknown) => e)) as SpecLoadError;
    expect(error).toBeInstanceOf(SpecLoadError);
    expect(error.message).toContain('http://127.0.0.1:9/spec.yaml: cannot read the document');
  });
});
