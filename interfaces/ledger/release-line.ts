// The release line of the ledger node under test, read once per run from GET /v2/version: what a later line
// introduced (acsDelta and representativePackageId on events, required from 3.5 on) does not apply to a node
// of an earlier one (see engine/answers/release-policy.ts).
import { isObject } from '../../common/json.ts';
import { releaseBefore, releaseNumbers } from '../../common/releases.ts';
import { type Client, type Exchange, RequestNotSent } from '../../engine/transport/http.ts';
import { CheckSkipped } from '../../engine/model.ts';
import type { ReleaseLine } from '../../engine/answers/release-policy.ts';
import type { CheckContext } from '../../engine/model.ts';

export type { ReleaseLine };

/** What the helpers need of a check's context. */
export type ReleaseLineContext = Pick<CheckContext, 'ledger' | 'shared'>;

const CACHE_KEY = 'ledger-release-line';

/** `3.4.9`, `3.5.0-snapshot.20250101.1`, `v3.4` -> {major, minor}; anything else -> undefined. */
export function parseReleaseLine(version: unknown): ReleaseLine | undefined {
  if (typeof version !== 'string') return undefined;
  const n = releaseNumbers(version);
  return n && n.length >= 2 ? { major: n[0]!, minor: n[1]!, version: version.trim() } : undefined;
}

/**
 * The target's release line, or undefined when the run has no ledger URL or GET /v2/version does not state
 * one (not a 200 JSON answer with a `version` of the form major.minor...). One request per run, outside the
 * request budget (like the credentials preflight, which reads the same endpoint).
 */
export function ledgerReleaseLine(ctx: ReleaseLineContext): Promise<ReleaseLine | undefined> {
  return ctx.shared(CACHE_KEY, async () => {
    let client: Client;
    try {
      client = ctx.ledger;
    } catch (e) {
      if (e instanceof CheckSkipped) return undefined; // no ledger URL in this run
      throw e;
    }
    let x: Exchange;
    try {
      x = await client.get('/v2/version', { unbudgeted: true });
    } catch (e) {
      // The suite's request could not leave: the line is unknown; the requirements that need the ledger end as errors.
      if (e instanceof RequestNotSent) return undefined;
      throw e;
    }
    if (x.status !== 200 || x.truncated) return undefined;
    try {
      const body: unknown = JSON.parse(x.text);
      return parseReleaseLine(isObject(body) ? body.version : undefined);
    } catch {
      return undefined;
    }
  });
}

/**
 * Whether the target is known to be of a release line before `line` (e.g. '3.5'): then what `line`
 * introduced is not applicable to it. A line the target does not state counts as current (the rule applies).
 */
export async function predates(ctx: ReleaseLineContext, line: `${number}.${number}`): Promise<boolean> {
  const r = await ledgerReleaseLine(ctx);
  return r !== undefined && releaseBefore(r.version, line) === true;
}
