// Time on the simulated network is counted in microseconds since the epoch, written as ISO 8601 with
// microsecond resolution (as the scan and ledger interfaces write record times).
import { MadeOnce } from './made-once.ts';

export const GENESIS_MICROS = Date.UTC(2025, 0, 6, 9, 0, 0) * 1000;
/** Spacing of consecutive updates; deliberately not a round number so microsecond digits vary. */
export const UPDATE_SPACING_MICROS = 1_000_037;

// The same few thousand instants are written again in every answer that holds them (a stream's record times,
// its events' created-at): written once, then looked up.
const written = new MadeOnce(100_000, (micros: number) => {
  const millis = Math.floor(micros / 1000);
  const rest = micros - millis * 1000;
  return new Date(millis).toISOString().replace('Z', `${String(rest).padStart(3, '0')}Z`);
});

export function isoMicros(micros: number): string {
  return written.get(micros);
}

/** Parses an RFC 3339 timestamp to microseconds, keeping up to 6 fractional digits; NaN if invalid. */
export function parseMicros(text: string): number {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/i.exec(text);
  if (!m) return Number.NaN;
  const base = Date.parse(`${m[1]}${m[3]}`);
  if (Number.isNaN(base)) return Number.NaN;
  const frac = (m[2] ?? '').padEnd(6, '0').slice(0, 6);
  return base * 1000 + Number(frac);
}
