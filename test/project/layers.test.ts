// The house's layers point one way: common <- generators <- engine <- interfaces (each interface's wire code)
// <- requirements (the records) <- runner <- cli and reporting, with the description's numbered sentences
// below the engine (pure data: the records cite them), the reference node standing on its own (common only),
// the traceability table beside the records, and detection and the benchmark above the runner. No import
// runs back up a layer, and no files import each other in a loop.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** For each part of the product, the parts it may import (itself always). */
const MAY_IMPORT: Record<string, string[]> = {
  common: [],
  description: ['common'],
  generators: ['common'],
  'reference-node': ['common'],
  engine: ['common', 'description', 'generators'],
  interfaces: ['common', 'description', 'generators', 'engine'],
  requirements: ['common', 'description', 'generators', 'engine', 'interfaces'],
  traceability: ['common', 'description', 'engine'],
  runner: ['common', 'description', 'generators', 'engine', 'interfaces', 'requirements', 'reference-node'],
  reporting: ['common', 'description', 'generators', 'engine', 'requirements', 'runner'],
  detection: ['common', 'description', 'generators', 'engine', 'interfaces', 'requirements', 'traceability', 'runner', 'reference-node', 'reporting'],
  bench: ['common', 'description', 'generators', 'engine', 'interfaces', 'requirements', 'runner', 'reference-node', 'reporting'],
  cli: ['common', 'description', 'generators', 'engine', 'interfaces', 'requirements', 'traceability', 'runner', 'reference-node', 'reporting', 'detection'],
};

function sources(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return sources(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative import of a file (type-only ones too: they tie the files as much), as repository paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:^|\s)(?:import|export)\s[^'"]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)|^import\s+'([^']+)'/gm)].map(
    (m) => m[1] ?? m[2] ?? m[3]!,
  );
  return specifiers.filter((s) => s.startsWith('.')).map((s) => relative(root, resolve(root, dirname(file), s)));
}

const files = Object.keys(MAY_IMPORT).flatMap(sources);
const graph = new Map(files.map((f) => [f, importsOf(f).filter((target) => target.endsWith('.ts'))]));
const part = (file: string) => file.split('/')[0]!;

describe('the import graph of the product', () => {
  it('has no import against the layers', () => {
    const against = [...graph].flatMap(([file, targets]) =>
      targets.filter((t) => part(t) !== part(file) && !MAY_IMPORT[part(file)]!.includes(part(t))).map((t) => `${file} -> ${t}`),
    );
    expect(against).toEqual([]);
  });

  it("has no interface's requirements importing another's (their shared wire code is in interfaces/)", () => {
    const iface = (file: string) => /^requirements\/(ledger|wallet|scan|generic)\//.exec(file)?.[1];
    const across = [...graph].flatMap(([file, targets]) =>
      iface(file) ? targets.filter((t) => iface(t) && iface(t) !== iface(file)).map((t) => `${file} -> ${t}`) : [],
    );
    expect(across).toEqual([]);
  });

  it('has no circle', () => {
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        circles.push([...path.slice(path.indexOf(file)), file].join(' -> '));
        return;
      }
      state.set(file, 'open');
      for (const t of graph.get(file) ?? []) visit(t, [...path, file]);
      state.set(file, 'done');
    };
    for (const f of files) visit(f, []);
    expect(circles).toEqual([]);
  });

  it('is read whole: every import names a file that exists', () => {
    expect(files.length).toBeGreaterThan(100);
    expect([...graph].flatMap(([file, targets]) => targets.filter((t) => !graph.has(t) && !existsAsFile(t)).map((t) => `${file} -> ${t}`))).toEqual([]);
  });
});

describe('the size of the product files', () => {
  it('keeps every product file under 600 lines, and the run command a thin one', () => {
    const product = files.filter((f) => part(f) !== 'bench');
    const long = product.map((f) => [f, readFileSync(join(root, f), 'utf8').split('\n').length] as const).filter(([, n]) => n > 600);
    expect(long).toEqual([]);
    expect(readFileSync(join(root, 'cli/run.ts'), 'utf8').split('\n').length).toBeLessThanOrEqual(120);
  });
});

function existsAsFile(path: string): boolean {
  try {
    return statSync(join(root, path)).isFile();
  } catch {
    return false;
  }
}
