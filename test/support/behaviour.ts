// What a run did, without what varies between two runs of the same code (timings, dates, ports, paths):
// the behaviour snapshots under test/__behaviour__ hold it, so a change of structure that changes a result,
// a reason, an evidence excerpt or a report field shows up as a diff.
const VARYING_KEYS = new Set(['durationMs', 'millis', 'startedAt', 'finishedAt', 'date']);
/** The checkout the run used (built-in documents are named by their path in it). */
const REPO = new URL('../../', import.meta.url).pathname.replace(/\/$/, '');

/** What a check created on the target is named after the run (its start time) and gets ids the target makes up. */
const normalizeCreated = (v: unknown) =>
  Array.isArray(v)
    ? v.map((s) => (typeof s === 'string' ? s.replace(/\bcnc-s(\d+)-\d{8}t\d{6}-/g, 'cnc-s$1-<run>-').replace(/"[0-9a-f]{40,}"/g, '"<id>"') : s))
    : v;

export function normalizeBehaviour(value: unknown, paths: readonly string[] = []): unknown {
  if (Array.isArray(value)) return value.map((v) => normalizeBehaviour(v, paths));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !VARYING_KEYS.has(k))
        .map(([k, v]) => [k, normalizeBehaviour(k === 'created' ? normalizeCreated(v) : v, paths)]),
    );
  }
  if (typeof value !== 'string') return value;
  let s = value;
  for (const p of paths) s = s.split(p).join('<dir>');
  s = s.split(REPO).join('<repo>');
  return s.replace(/(127\.0\.0\.1|localhost):\d+/g, '$1:<port>').replace(/\b\d+(\.\d+)? ?ms\b/g, '<ms>');
}

export const behaviourText = (value: unknown, paths: readonly string[] = []) => `${JSON.stringify(normalizeBehaviour(value, paths), null, 2)}\n`;
