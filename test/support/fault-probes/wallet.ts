// The wallet faults' probes: each returns true when the fault's broken rule is visible on the node, with
// requests of its own (every call uses fresh tracking ids, so a node the matrix ran on serves them as well).
import { expect } from 'vitest';
import type { RunningReferenceNode } from '../../../reference-node/index.ts';
import type { WalletFaultName } from '../../../reference-node/wallet/faults.ts';
import { PURCHASE_DELAY_MICROS } from '../../../reference-node/wallet/ledger-timing.ts';
import { builtinSpec } from '../builtin-specs.ts';
import { responseProblems, type ObservedResponse } from '../response-conformance.ts';
import { buy, buyBody, dso, offerStatus, participantOf, partyByHint, tokenOf, traffic, whileProcessingSlowly } from '../wallet-requests.ts';
import type { InterfaceProbes, Probe } from './probe.ts';

let probe = 0;
const fresh = (label: string) => `probe-${label}-${++probe}`;
/** How much a completed purchase of `amount` for validator3 raised its participant's total_purchased. */
async function boughtFor(n: RunningReferenceNode, label: string, amount: number): Promise<number> {
  const member = participantOf(n, 'validator3');
  const before = traffic(n, member).totalPurchased;
  const body = buyBody(n, fresh(label), { receiving_validator_party_id: partyByHint(n, 'validator3'), traffic_amount: amount });
  expect((await buy(n, tokenOf(n, 'alice-wallet'), body)).status).toBe(200);
  n.context.clock.advance(PURCHASE_DELAY_MICROS);
  return traffic(n, member).totalPurchased - before;
}

const OBSERVE: Record<WalletFaultName, Probe> = {
  'wallet-tracking-id-not-exactly-once': async (n) => {
    const id = fresh('once');
    const first = await buy(n, tokenOf(n, 'alice-wallet'), buyBody(n, id));
    const second = await buy(n, tokenOf(n, 'alice-wallet'), buyBody(n, id));
    return first.status === 200 && second.status === 200 && first.text !== second.text;
  },
  'wallet-processing-answered-409': async (n) => {
    const id = fresh('concurrent');
    // Sent at once while a submission takes a second: the duplicate arrives while the first is processed.
    const pair = await whileProcessingSlowly(n, () => Promise.all([0, 1].map(() => buy(n, tokenOf(n, 'alice-wallet'), buyBody(n, id)))));
    return pair.some((r) => r.status === 409);
  },
  'wallet-dso-party-id-other': async (n) => ((await dso(n)).json() as { dso_party_id: string }).dso_party_id !== n.context.world.dso.id,
  'wallet-created-answered-429': async (n) => {
    const id = fresh('created');
    const first = await buy(n, tokenOf(n, 'alice-wallet'), buyBody(n, id));
    return first.status === 200 && (await buy(n, tokenOf(n, 'alice-wallet'), buyBody(n, id))).status === 429;
  },
  'wallet-failed-command-blocks-retry': async (n) => {
    const id = fresh('retry');
    await buy(n, tokenOf(n, 'alice-wallet'), buyBody(n, id, { expires_at: 1 }));
    return (await buy(n, tokenOf(n, 'alice-wallet'), buyBody(n, id))).status === 409;
  },
  'wallet-no-auth-required': async (n) =>
    (await offerStatus(n, undefined, 'offer-created-1')).status === 200 && (await buy(n, undefined, buyBody(n, fresh('noauth')))).status === 200,
  'wallet-multi-hosted-accepted': async (n) =>
    (await buy(n, tokenOf(n, 'alice-wallet'), buyBody(n, fresh('multi'), { receiving_validator_party_id: n.context.world.multiHostedParty.id }))).status ===
    200,
  'wallet-bad-input-500': async (n) =>
    (await buy(n, tokenOf(n, 'alice-wallet'), { tracking_id: fresh('bad') })).status === 500 &&
    (await buy(n, tokenOf(n, 'alice-wallet'), undefined, '{nope')).status === 500,
  'wallet-transfer-status-missing-field': async (n) => {
    const bodies = await Promise.all(
      ['offer-created-1', 'offer-accepted-1', 'offer-completed-1'].map(async (id) => (await offerStatus(n, tokenOf(n, 'alice-wallet'), id)).json() as object),
    );
    return bodies.every((b) => !('contract_id' in b));
  },
  'wallet-transfer-status-extra-field': async (n) => {
    const body = (await offerStatus(n, tokenOf(n, 'alice-wallet'), 'offer-failed-expired')).json() as object;
    return 'transaction_id' in body && 'contract_id' in body;
  },
  'wallet-status-unknown-200': async (n) => (await offerStatus(n, tokenOf(n, 'alice-wallet'), fresh('unknown-offer'))).status === 200,
  'wallet-other-users-offer-visible': async (n) => (await offerStatus(n, tokenOf(n, 'alice-wallet'), 'offer-bob-created')).status === 200,
  'wallet-error-body-shape': async (n) => {
    const body = (await offerStatus(n, tokenOf(n, 'alice-wallet'), 'no-such-offer')).json() as object;
    return !('error' in body) && 'message' in body;
  },
  'wallet-error-message-nested': async (n) => {
    const body = (await offerStatus(n, tokenOf(n, 'alice-wallet'), 'no-such-offer')).json() as { error?: unknown };
    return typeof body.error === 'object' && body.error !== null;
  },
  'wallet-dso-requires-auth': async (n) => (await dso(n)).status === 401,
  'wallet-buy-traffic-created-answered-500': async (n) => {
    // Answered 500, yet the request exists: a resubmission of the tracking id is a duplicate.
    const id = fresh('created-500');
    const first = await buy(n, tokenOf(n, 'alice-wallet'), buyBody(n, id));
    const again = await buy(n, tokenOf(n, 'alice-wallet'), buyBody(n, id));
    return first.status === 500 && again.status === 409;
  },
  'wallet-buy-traffic-contract-id-camel-case': async (n) => {
    const body = (await buy(n, tokenOf(n, 'alice-wallet'), buyBody(n, fresh('camel')))).json() as object;
    return 'requestContractId' in body && !('request_contract_id' in body);
  },
  'wallet-status-lookup-no-auth': async (n) =>
    (await offerStatus(n, undefined, 'offer-created-1')).status === 200 && (await buy(n, undefined, buyBody(n, fresh('noauth-buy')))).status === 401,
  'wallet-token-signature-unchecked': async (n) => {
    const [header, payload, signature] = tokenOf(n, 'alice-wallet').split('.');
    return (await offerStatus(n, `${header}.${payload}.${'A'.repeat(signature!.length)}`, 'offer-created-1')).status === 200;
  },
  'wallet-dso-party-id-as-text': async (n) => /^text\/plain/.test((await dso(n)).contentType ?? ''),
  'wallet-transfer-status-as-text': async (n) =>
    /^text\/plain/.test((await offerStatus(n, tokenOf(n, 'alice-wallet'), 'offer-failed-expired')).contentType ?? ''),
  'wallet-traffic-credited-in-kilobytes': async (n) => (await boughtFor(n, 'kilobytes', 777_000)) === 777,
  'wallet-traffic-credited-to-other-participant': async (n) => (await boughtFor(n, 'other', 777_000)) === 0,
  'wallet-failed-offer-revived': async (n) => {
    // The world's record says failed; a lookup after an earlier one (the matrix's, or this probe's first) says otherwise.
    const lookup = async () => ((await offerStatus(n, tokenOf(n, 'alice-wallet'), 'offer-failed-expired')).json() as { status?: unknown }).status;
    await lookup();
    return (await lookup()) !== 'failed';
  },
  'wallet-offer-expired-reported-rejected': async (n) =>
    ((await offerStatus(n, tokenOf(n, 'alice-wallet'), 'offer-failed-expired')).json() as { failure_kind?: unknown }).failure_kind === 'rejected',
  'wallet-offer-created-foreign-transaction': (n) => misreported(n, 'offer-created-1', 'transaction_id'),
  'wallet-offer-accepted-names-offer': (n) => misreported(n, 'offer-accepted-1', 'contract_id'),
  'wallet-offer-completed-sender-change': (n) => misreported(n, 'offer-completed-1', 'contract_id'),
  'wallet-status-of-previous-offer': (n) => misreported(n, 'offer-accepted-1', 'contract_id'),
};

/** Whether the status of the world's offer reports another `field` than the world's record of it. */
async function misreported(n: RunningReferenceNode, trackingId: string, field: string): Promise<boolean> {
  const body = (await offerStatus(n, tokenOf(n, 'alice-wallet'), trackingId)).json() as Record<string, unknown>;
  const offer = n.context.world.transferOffers.find((o) => o.trackingId === trackingId)!;
  return typeof body[field] === 'string' && body[field] !== offer.status[field];
}

/** The answers of every operation to requests a fault does not concern: the world's offers, the DSO party, a purchase. */
async function battery(n: RunningReferenceNode): Promise<string[]> {
  const spec = await builtinSpec('wallet');
  const alice = tokenOf(n, 'alice-wallet');
  const problems: string[] = [];
  const judge = (op: string, res: ObservedResponse) => problems.push(...responseProblems(spec, op, res).map((p) => `${op} ${res.status}: ${p}`));
  judge('getDsoPartyId', await dso(n));
  for (const o of n.context.world.transferOffers) judge('getTransferOfferStatus', await offerStatus(n, alice, o.trackingId));
  judge('createBuyTrafficRequest', await buy(n, alice, buyBody(n, fresh('conformant'))));
  return problems;
}

export const WALLET_PROBES: InterfaceProbes = {
  probes: OBSERVE,
  battery,
  // Faults whose rule is about the schema itself (a required field dropped, the error key renamed, a status
  // the endpoint does not document).
  documentFaults: new Set<WalletFaultName>([
    'wallet-transfer-status-missing-field',
    'wallet-error-body-shape',
    'wallet-error-message-nested',
    'wallet-dso-requires-auth',
    'wallet-buy-traffic-contract-id-camel-case',
    'wallet-dso-party-id-as-text',
    'wallet-transfer-status-as-text',
  ]),
};
