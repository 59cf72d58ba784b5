// Key order as written on the wire. JSON.parse reorders integer-like keys, so a rule about the order of an
// object's keys is read from the raw text with this small parser, which keeps every object's keys in order.

export type Ordered = null | boolean | number | string | Ordered[] | { keys: string[]; values: Map<string, Ordered> };

const isOrderedObject = (v: Ordered | undefined): v is { keys: string[]; values: Map<string, Ordered> } =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parses JSON text keeping key order; throws SyntaxError on invalid text. */
export function parseOrdered(text: string): Ordered {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i]!)) i++;
  };
  const fail = (what: string): never => {
    throw new SyntaxError(`${what} at ${i}`);
  };
  const str = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= text.length) fail('unterminated string');
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (): Ordered => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const keys: string[] = [];
      const values = new Map<string, Ordered>();
      ws();
      if (text[i] === '}') {
        i++;
        return { keys, values };
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a key');
        const k = str();
        ws();
        if (text[i] !== ':') fail('expected :');
        i++;
        keys.push(k);
        values.set(k, value());
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return { keys, values };
        }
        fail('expected , or }');
      }
    }
    if (c === '[') {
      i++;
      const out: Ordered[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return out;
      }
      for (;;) {
        out.push(value());
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return out;
        }
        fail('expected , or ]');
      }
    }
    if (c === '"') return str();
    const m = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    if (!m) return fail('unexpected token');
    i += m[0].length;
    return JSON.parse(m[0]) as Ordered;
  };
  const out = value();
  ws();
  if (i !== text.length) fail('trailing text');
  return out;
}

/** Keys of the object at `path` in the raw JSON text, in the order written; undefined when there is none. */
export function keysInTextOrder(text: string, path: readonly string[]): string[] | undefined {
  let node: Ordered | undefined;
  try {
    node = parseOrdered(text);
  } catch {
    return undefined;
  }
  for (const p of path) {
    if (!isOrderedObject(node)) return undefined;
    node = node.values.get(p);
  }
  return isOrderedObject(node) ? node.keys : undefined;
}
