// JSON bodies of the evidence laid out for reading: one token a line where a container opens, 2-space
// indentation. Only whitespace between tokens changes: every string, number and literal stays as the node
// wrote it (JSON.parse and JSON.stringify would round 2^53 + 1 and rewrite escapes, which is evidence lost).
// An excerpt cut at its bound is laid out too, when what there is of it is the start of a JSON value.

const PUNCTUATION = new Set(['{', '}', '[', ']', ':', ',']);
const LITERAL = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
/** What a cut literal may be: the start of a number or of true, false or null. */
const LITERAL_START = /^(?:-?(?:(?:0|[1-9]\d*)(?:\.\d*)?(?:[eE][+-]?\d*)?)?|t(?:r(?:ue?)?)?|f(?:a(?:l(?:se?)?)?)?|n(?:u(?:ll?)?)?)$/;
const SPACE = new Set([' ', '\t', '\n', '\r']);

/** The tokens of `text`, or undefined when it holds something JSON has no token for (a cut last token is kept when `cut`). */
function tokens(text: string, cut: boolean): string[] | undefined {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (SPACE.has(c)) {
      i++;
    } else if (PUNCTUATION.has(c)) {
      out.push(c);
      i++;
    } else if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (j >= text.length && !cut) return undefined;
      out.push(text.slice(i, j + 1));
      i = j + 1;
    } else {
      LITERAL.lastIndex = i;
      const m = LITERAL.exec(text);
      // A number runs to the next delimiter: "12ab" is no token, and a literal cut at the end may be a prefix.
      const end = m ? i + m[0].length : i;
      if (m && (end === text.length ? true : SPACE.has(text[end]!) || PUNCTUATION.has(text[end]!))) {
        out.push(m[0]);
        i = end;
      } else if (cut && LITERAL_START.test(text.slice(i))) {
        out.push(text.slice(i));
        i = text.length;
      } else return undefined;
    }
  }
  return out;
}

type Expect = 'value' | 'value-or-close' | 'key' | 'key-or-close' | 'colon' | 'comma-or-close' | 'end';

/** True when the tokens are a JSON value (or, when `cut`, the start of one). */
function grammatical(ts: string[], cut: boolean): boolean {
  const open: string[] = [];
  let expect: Expect = 'value';
  const close = (bracket: string) => {
    if (open.pop() !== bracket) return false;
    expect = open.length ? 'comma-or-close' : 'end';
    return true;
  };
  for (const t of ts) {
    const value = expect === 'value' || expect === 'value-or-close';
    if (t === '{' || t === '[') {
      if (!value) return false;
      open.push(t);
      expect = t === '{' ? 'key-or-close' : 'value-or-close';
    } else if (t === '}') {
      if (expect !== 'key-or-close' && !(expect === 'comma-or-close' && open.at(-1) === '{')) return false;
      if (!close('{')) return false;
    } else if (t === ']') {
      if (expect !== 'value-or-close' && !(expect === 'comma-or-close' && open.at(-1) === '[')) return false;
      if (!close('[')) return false;
    } else if (t === ',') {
      if (expect !== 'comma-or-close') return false;
      expect = open.at(-1) === '{' ? 'key' : 'value';
    } else if (t === ':') {
      if (expect !== 'colon') return false;
      expect = 'value';
    } else if (expect === 'key' || expect === 'key-or-close') {
      if (!t.startsWith('"')) return false;
      expect = 'colon';
    } else if (value) {
      expect = open.length ? 'comma-or-close' : 'end';
    } else return false;
  }
  return cut ? ts.length > 0 : expect === 'end';
}

/**
 * `text` laid out with 2-space indentation when it is JSON (or, when `cut`, the start of a JSON value);
 * undefined when it is not, so that it is shown as it is. A complete body must also parse.
 */
export function layoutJson(text: string, cut = false): string | undefined {
  if (!cut && safeParse(text) === false) return undefined;
  const ts = tokens(text, cut);
  if (!ts || !grammatical(ts, cut) || !(ts[0] === '{' || ts[0] === '[')) return undefined;
  let depth = 0;
  let out = '';
  const line = () => `\n${'  '.repeat(depth)}`;
  for (let k = 0; k < ts.length; k++) {
    const t = ts[k]!;
    const next = ts[k + 1];
    if ((t === '{' && next === '}') || (t === '[' && next === ']')) {
      out += t + next;
      k++;
    } else if (t === '{' || t === '[') {
      depth++;
      out += t + (next === undefined ? '' : line());
    } else if (t === '}' || t === ']') {
      depth--;
      out += line() + t;
    } else if (t === ',') out += t + line();
    else if (t === ':') out += ': ';
    else out += t;
  }
  return out;
}

function safeParse(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
