// What the suite keeps of what a target sends, whatever carried it: a body up to the run's size bound (only an
// excerpt beyond it), JSON no deeper than a walk of it can go, and excerpts for evidence.

/** Bytes of a body kept as evidence (and all that is kept of a body beyond the bound). */
export const EXCERPT_BYTES = 2048;

/**
 * A copy of the start of a string. A plain slice may share the whole string's memory (V8 keeps slices as
 * views of their parent), so evidence kept until the report would pin every body it quotes.
 */
export function excerpt(text: string, max: number): string {
  return Buffer.from(text.slice(0, max), 'utf8').toString('utf8');
}

/**
 * Reads a body up to `max` bytes. A larger one (`declared` larger, or found so while reading) is cut: only its
 * first EXCERPT_BYTES are kept, so a huge body costs at most `max` bytes while it is read and nothing after.
 * `declared`: the size the sender announced (NaN: none).
 */
export async function readBounded(
  body: AsyncIterable<Buffer> & { destroy(): unknown },
  declared: number,
  max: number,
): Promise<{ bytes: Buffer; truncated: boolean; received: number }> {
  const limit = declared > max ? EXCERPT_BYTES : max;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.byteLength;
    if (size > limit) {
      body.destroy();
      return { bytes: Buffer.concat(chunks, Math.min(size, EXCERPT_BYTES)), truncated: true, received: Math.max(size, declared || 0) };
    }
  }
  if (declared > max) return { bytes: Buffer.concat(chunks, Math.min(size, EXCERPT_BYTES)), truncated: true, received: Math.max(size, declared) };
  return { bytes: Buffer.concat(chunks), truncated: false, received: size };
}

/**
 * Nesting of JSON values a body may have. The documents' records nest a few dozen levels at most; far deeper
 * text still parses, but every recursive walk of the value (JSON.stringify, schema validation) would overflow
 * the stack, so such a body is judged by its depth instead.
 */
export const MAX_JSON_DEPTH = 512;

/** Whether an answer's body nests too deep: as found when it was read, or found now. */
export const bodyTooDeep = (x: { text: string; deep?: boolean }): boolean => x.deep ?? nestedTooDeep(x.text);

/** True when the JSON text nests arrays and objects deeper than MAX_JSON_DEPTH (strings are skipped). */
export function nestedTooDeep(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: skipped to its closing quote, the next one after an even run of backslashes (indexOf, not a
      // loop over every character: strings are most of a body's bytes, and every answer is measured).
      for (;;) {
        i = text.indexOf('"', i + 1);
        if (i < 0) return false;
        let k = i - 1;
        while (text.charCodeAt(k) === 0x5c) k--;
        if ((i - 1 - k) % 2 === 0) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
