// ISO 8601 timestamps as the interfaces write them, read exactly (nanoseconds): shared by the record facts
// of the documents (generators/) and the scan rules.

const ISO = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/i;

/** An ISO 8601 / RFC 3339 timestamp in nanoseconds since the epoch (exact, whatever the precision), or undefined. */
export function timeNanos(text: unknown): bigint | undefined {
  if (typeof text !== 'string') return undefined;
  const m = ISO.exec(text);
  if (!m) return undefined;
  const seconds = Date.parse(`${m[1]}${m[3]!.toUpperCase()}`);
  if (Number.isNaN(seconds)) return undefined;
  return BigInt(seconds) * 1_000_000n + BigInt((m[2] ?? '').padEnd(9, '0'));
}
