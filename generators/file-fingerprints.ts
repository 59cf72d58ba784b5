// What a compiled document was read from, by the bytes of each file: a document compiled once per process is
// used again only while every file it was read from (its root and the files its $refs name) holds the same
// bytes. Shared by the OpenAPI and the AsyncAPI compilers.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, resolve as resolvePath } from 'node:path';
import { parse } from 'yaml';
import { isObject } from '../common/json.ts';

/** The sha256 of each file, by path. */
export type Fingerprints = ReadonlyMap<string, string>;

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export async function fingerprints(files: readonly string[]): Promise<Fingerprints> {
  return new Map(await Promise.all(files.map(async (f) => [f, sha256(await readFile(f))] as const)));
}

/** Whether every file still holds the bytes it held (false when one can no longer be read). */
export async function unchanged(files: Fingerprints): Promise<boolean> {
  try {
    for (const [file, hash] of await fingerprints([...files.keys()])) if (files.get(file) !== hash) return false;
    return true;
  } catch {
    return false;
  }
}

/**
 * The local files a YAML or JSON document read from `path` names in its $refs, and those they name in turn,
 * `path` first. Bounded: at most `max` files. A file that cannot be read or parsed is listed (its parser
 * reports it); a $ref with a URL is not followed (a document with one is compiled every time by its caller).
 */
export async function referencedFiles(path: string, text: string, max = 100): Promise<{ files: string[]; remote: boolean }> {
  const files = [path];
  let remote = false;
  const texts = new Map([[path, text]]);
  for (let i = 0; i < files.length && files.length <= max; i++) {
    const file = files[i]!;
    let value: unknown;
    try {
      value = parse(texts.get(file) ?? (await readFile(file, 'utf8')));
    } catch {
      continue;
    }
    for (const ref of refsOf(value)) {
      const target = ref.split('#')[0]!;
      if (target === '') continue;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
        remote = true;
        continue;
      }
      const resolved = resolvePath(dirname(file), decoded(target));
      if (!files.includes(resolved)) files.push(resolved);
    }
  }
  return { files: files.slice(0, max), remote };
}

function decoded(target: string): string {
  try {
    return decodeURI(target);
  } catch {
    return target;
  }
}

/** Every $ref string of a parsed document (iteratively: a document may nest deeply). */
function refsOf(root: unknown): string[] {
  const out: string[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) for (const x of v) stack.push(x);
    else if (isObject(v)) {
      for (const [k, x] of Object.entries(v)) {
        if (k === '$ref' && typeof x === 'string') out.push(x);
        else stack.push(x);
      }
    }
  }
  return out;
}
