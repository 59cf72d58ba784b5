// What the target says of its own release: the ledger's GET /v2/version and the scan's and the validator's
// GET /version (served beside their APIs, `{version, commit_ts}` in the official documents; the description
// does not show them). Asked once each before the requirements, outside the request budget; whatever comes
// back (a refusal, a 404 of a node without the endpoint, no answer at all) is recorded as it came and never
// fails the run: a release the node does not state leaves every rule applicable.
import type { InterfaceName } from '../common/vocabulary.ts';
import type { Client, Exchange } from '../engine/transport/http.ts';
import { RequestNotSent } from '../engine/transport/http.ts';
import { isObject, parseJson } from '../common/json.ts';
import { introducedAfter } from '../description/versions.ts';
import type { StatedReleases } from '../engine/release-applicability.ts';

/** Each interface's version endpoint, relative to its prefix (the scan's is /api/scan/version, the validator's /api/validator/version). */
export const VERSION_PATHS: Record<InterfaceName, string> = { ledger: '/v2/version', scan: '/version', wallet: '/version' };

/** Bytes of a version answer's body the manifest keeps. */
const BODY_BYTES = 4096;

export interface VersionAnswer {
  interface: InterfaceName;
  /** Method and URL as sent. */
  request: string;
  answered: boolean;
  /** The status, when an answer came. */
  status?: number;
  /** The answer's body (its start, when long). */
  body?: string;
  /** Why no answer came. */
  error?: string;
}

/** `asked`: answers the run already has from a version endpoint (the ledger's release-line read), not asked again. */
export async function readNodeVersions(
  clients: Partial<Record<InterfaceName, Client>>,
  asked: Partial<Record<InterfaceName, Exchange>> = {},
): Promise<VersionAnswer[]> {
  const out: VersionAnswer[] = [];
  for (const name of ['ledger', 'scan', 'wallet'] as const) {
    const client = clients[name];
    if (!client) continue;
    const path = VERSION_PATHS[name];
    const request = `GET ${client.base}${path}`;
    try {
      const x = asked[name] ?? (await client.get(path, { unbudgeted: true }));
      if (x.status === 0) out.push({ interface: name, request, answered: false, error: x.error ?? 'no answer' });
      else out.push({ interface: name, request, answered: true, status: x.status, body: x.bytes.subarray(0, BODY_BYTES).toString('utf8') });
    } catch (e) {
      if (!(e instanceof RequestNotSent)) throw e;
      out.push({ interface: name, request, answered: false, error: e.message });
    }
  }
  return out;
}

/** What an interface states of its release, for the report: the version, or why none is known. */
export interface NodeRelease {
  interface: InterfaceName;
  /** The release the node states (`version` of a 200 JSON answer); absent when it states none. */
  version?: string;
  /** The request that asked. */
  request: string;
  /** Why no version is known: the answer's status, or that no answer came. */
  unstated?: string;
  /** Operations the description dates after the stated release ("name (since)"): a node of that release has none of them. */
  introducedAfter?: string[];
}

export function releaseOf(a: VersionAnswer): NodeRelease {
  const base = { interface: a.interface, request: a.request };
  if (!a.answered) return { ...base, unstated: `no answer (${a.error ?? 'no answer'})` };
  if (a.status !== 200) return { ...base, unstated: `answered ${a.status}` };
  const body = a.body === undefined ? undefined : parseJson(a.body);
  const version = isObject(body) ? body.version : undefined;
  if (typeof version !== 'string' || version.trim() === '') return { ...base, unstated: 'answered 200 without a version string' };
  const later = introducedAfter(a.interface, version.trim());
  return { ...base, version: version.trim(), ...(later.length ? { introducedAfter: later } : {}) };
}

/** The releases the nodes state, by interface, for the checks (ctx.release) and the engine's applicability. */
export function statedReleases(releases: readonly NodeRelease[]): StatedReleases {
  return Object.fromEntries(releases.filter((r) => r.version !== undefined).map((r) => [r.interface, { version: r.version!, request: r.request }]));
}
