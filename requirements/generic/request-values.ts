// Turning a generated request into one a target can answer well: parameters the run has fixtures for get
// real ids, and the few parameters that make a server wait are kept short.
import type { GeneratedRequest, OperationSpec } from '../../generators/index.ts';
import type { Fixtures } from '../../engine/fixtures.ts';

/** Fixture value for a parameter, by the parameter names the three interfaces use. */
export function fixtureValue(name: string, f: Fixtures): string | string[] | undefined {
  switch (name) {
    case 'update_id':
      return f.transactionUpdateIds?.[0];
    case 'party':
      return f.preapprovalParties?.[0];
    case 'domain_id':
      return f.domainId;
    case 'member_id':
      return f.memberIds?.[0];
    case 'validator_ids':
      return f.validatorIds;
    case 'party_id':
      return f.partyIds?.[0];
    case 'domain_id_prefix':
      return f.domainId?.split('::')[0];
    case 'round_number':
      return f.rounds?.[0] === undefined ? undefined : String(f.rounds[0]);
    case 'tracking_id':
      return f.transferOffers?.created?.[0] ?? f.transferOffers?.failed?.[0];
    default:
      return undefined;
  }
}

/** The same request with fixture values in place of generated path and query parameters. */
export function withFixtures(op: OperationSpec, req: GeneratedRequest, f: Fixtures): GeneratedRequest {
  const out: GeneratedRequest = { ...req, pathParams: { ...req.pathParams }, query: [...req.query] };
  for (const p of op.parameters) {
    const v = fixtureValue(p.name, f);
    if (v === undefined) continue;
    if (p.in === 'path') out.pathParams[p.name] = Array.isArray(v) ? v[0]! : v;
    if (p.in === 'query') out.query = [...out.query.filter(([n]) => n !== p.name), ...(Array.isArray(v) ? v : [v]).map((x) => [p.name, x] as [string, string])];
  }
  return out;
}

// Parameters that make a server hold the answer open. Generated values could ask for hours; a check
// must not wait on them (and would fail a correct node on its own timeout).
const WAITING_PARAMETERS: Record<string, string> = { stream_idle_timeout_ms: '50' };

export function bounded(op: OperationSpec, req: GeneratedRequest): GeneratedRequest {
  // A parameter an invalid request broke on purpose stays broken: a correct node refuses it at once.
  const waiting = op.parameters.filter((p) => p.in === 'query' && p.name in WAITING_PARAMETERS && p.name !== req.mutation?.parameter);
  if (waiting.length === 0) return req;
  const names = new Set(waiting.map((p) => p.name));
  return { ...req, query: [...req.query.filter(([n]) => !names.has(n)), ...waiting.map((p) => [p.name, WAITING_PARAMETERS[p.name]!] as [string, string])] };
}
