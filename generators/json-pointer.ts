// RFC 6901 JSON pointers: the one addressing scheme shared by documents, schemas and validation messages.

export function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function unescapeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

export function pointer(...tokens: Array<string | number>): string {
  return tokens.map((t) => '/' + escapeToken(String(t))).join('');
}

export function appendPointer(base: string, ...tokens: Array<string | number>): string {
  return base + pointer(...tokens);
}

/** Split "/a/b~1c" (or "#/a/b~1c") into its unescaped tokens. */
export function parsePointer(ptr: string): string[] {
  const p = ptr.startsWith('#') ? decodeURIComponent(ptr.slice(1)) : ptr;
  if (p === '') return [];
  if (!p.startsWith('/')) throw new Error(`not a JSON pointer: ${ptr}`);
  return p.slice(1).split('/').map(unescapeToken);
}

/** The value at `ptr` inside `root`, or undefined when any token is missing. */
export function resolvePointer(root: unknown, ptr: string): unknown {
  let node: unknown = root;
  for (const token of parsePointer(ptr)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}
