// Requests to the reference node's wallet interface (/api/validator) and the world facts they are judged
// against: shared by the wallet interface's tests and the wallet faults' probes.
import type { RunningReferenceNode } from '../../reference-node/index.ts';
import { call } from './response-conformance.ts';

export const MINUTE = 60_000_000;

export type Res = Awaited<ReturnType<typeof call>>;

export const tokenOf = (n: RunningReferenceNode, user: 'alice-wallet' | 'bob-wallet') => n.credentials.walletUsers.find((u) => u.user === user)!.token;
export const partyByHint = (n: RunningReferenceNode, hint: string) => n.context.world.parties.find((p) => p.hint === hint)!.id;

export function buyBody(n: RunningReferenceNode, trackingId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    receiving_validator_party_id: partyByHint(n, 'validator1'),
    domain_id: n.context.world.synchronizers[0]!.id,
    traffic_amount: 2_000_000,
    tracking_id: trackingId,
    expires_at: n.context.clock.now() + 10 * MINUTE,
    ...overrides,
  };
}

export function buy(n: RunningReferenceNode, token: string | undefined, body: unknown, raw?: string): Promise<Res> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  return call(`${n.urls.validator}/v0/wallet/buy-traffic-requests`, {
    method: 'POST',
    headers,
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
}

export function offerStatus(n: RunningReferenceNode, token: string | undefined, trackingId: string, init: RequestInit = {}): Promise<Res> {
  const headers: Record<string, string> = { ...(init.headers as Record<string, string> | undefined) };
  if (token) headers.authorization = `Bearer ${token}`;
  return call(`${n.urls.validator}/v0/wallet/transfer-offers/${encodeURIComponent(trackingId)}/status`, { method: 'POST', ...init, headers });
}

/** The buy-traffic status lookup (not in wallet-api.yaml: the description does not show it; real nodes serve it). */
export function buyStatus(n: RunningReferenceNode, token: string, trackingId: string): Promise<Res> {
  const headers = { authorization: `Bearer ${token}` };
  return call(`${n.urls.validator}/v0/wallet/buy-traffic-requests/${encodeURIComponent(trackingId)}/status`, { method: 'POST', headers });
}

export const dso = (n: RunningReferenceNode, headers: Record<string, string> = {}) => call(`${n.urls.validator}/v0/scan-proxy/dso-party-id`, { headers });

export const traffic = (n: RunningReferenceNode, memberId: string) => ({ ...n.context.world.memberTraffic.get(memberId)! });
export const participantOf = (n: RunningReferenceNode, hint: string) => n.context.world.parties.find((p) => p.hint === hint)!.hostedOn[0]!;

/**
 * How long a submission is processed while `whileProcessingSlowly` runs: long enough that a duplicate sent
 * meanwhile arrives while it is, on however loaded a machine.
 */
export const SLOW_PROCESSING_MS = 1000;

/** Runs `f` while the node processes each submission for SLOW_PROCESSING_MS (its setting, read at each submission). */
export async function whileProcessingSlowly<T>(n: RunningReferenceNode, f: () => Promise<T>): Promise<T> {
  const before = n.context.settings.walletProcessingMs;
  n.context.settings.walletProcessingMs = SLOW_PROCESSING_MS;
  try {
    return await f();
  } finally {
    n.context.settings.walletProcessingMs = before;
  }
}
