// Waivers: failures a team has accepted for a while. A waived failure does not fail the gate, but it is
// never hidden: it is reported as "waived" with its reason, and waivers that expired or whose requirement
// now passes are reported so they can be removed.
import { didYouMean } from '../engine/did-you-mean.ts';
import type { RequirementResult } from '../engine/engine.ts';

export interface Waiver {
  id: string;
  reason: string;
  /** Last day (YYYY-MM-DD, inclusive) the waiver applies. */
  expires: string;
}

export interface WaiverNotes {
  expired: Waiver[];
  /** Waivers whose requirement passed: no longer needed. */
  stale: Waiver[];
  /** Waivers naming a requirement of the catalog that this run did not select. */
  unknown: Waiver[];
}

export class WaiverFileError extends Error {}

export function parseWaivers(text: string, source: string): Waiver[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new WaiverFileError(`${source}: not JSON: ${(e as Error).message}`);
  }
  const list = Array.isArray(data) ? data : (data as { waivers?: unknown })?.waivers;
  if (!Array.isArray(list)) throw new WaiverFileError(`${source}: expected a list of {id, reason, expires} (or {"waivers": [...]})`);
  return list.map((w, i) => {
    const x = w as Partial<Waiver>;
    if (typeof x.id !== 'string' || !x.id) throw new WaiverFileError(`${source}: waiver ${i} has no id`);
    if (typeof x.reason !== 'string' || !x.reason.trim()) throw new WaiverFileError(`${source}: waiver ${x.id} has no reason`);
    if (typeof x.expires !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(x.expires) || Number.isNaN(Date.parse(x.expires)))
      throw new WaiverFileError(`${source}: waiver ${x.id} needs an expiry date YYYY-MM-DD`);
    return { id: x.id, reason: x.reason, expires: x.expires };
  });
}

/** The first waiver naming no requirement of the catalog (a typo, or a requirement since renamed), with a likely meant id. */
export function waiverOutsideCatalog(waivers: readonly Waiver[], ids: readonly string[]): { waiver: Waiver; guess?: string } | undefined {
  const known = new Set(ids);
  const waiver = waivers.find((w) => !known.has(w.id));
  return waiver ? { waiver, guess: didYouMean(waiver.id, ids) } : undefined;
}

export function applyWaivers(results: RequirementResult[], waivers: Waiver[], today: Date): { results: RequirementResult[]; notes: WaiverNotes } {
  const day = today.toISOString().slice(0, 10);
  const notes: WaiverNotes = { expired: [], stale: [], unknown: [] };
  const byId = new Map(waivers.map((w) => [w.id, w]));
  for (const w of waivers) {
    const r = results.find((x) => x.id === w.id);
    if (!r) notes.unknown.push(w);
    else if (w.expires < day) notes.expired.push(w);
    else if (r.status === 'passed') notes.stale.push(w);
  }
  const out = results.map((r) => {
    const w = byId.get(r.id);
    if (!w || r.status !== 'failed' || w.expires < day) return r;
    return { ...r, status: 'waived' as const, reason: `${r.reason} (waived until ${w.expires}: ${w.reason})` };
  });
  return { results: out, notes };
}
