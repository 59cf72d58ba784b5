// Wallet sources. The user's transfer offers come from its own listing and from the ledger's history (the
// wallet's TransferOffer contracts), their states from the status endpoint; offers between two other
// parties are another user's, which this wallet must not know. With mutations allowed, the run creates an
// offer of its own, tracked by an id naming the run, and waits until the wallet reports it.
import { setTimeout as sleep } from 'node:timers/promises';
import { isObject, type Json } from '../../common/json.ts';
import type { OfferSeen } from '../../engine/discovery/findings.ts';
import { endpointOf } from '../../common/vocabulary.ts';
import { distinct, found, type Source } from '../../engine/discovery/source.ts';
import { statusPath } from './support.ts';

const KEEP = 20;
const STATES = ['created', 'accepted', 'completed', 'failed'] as const;
type State = (typeof STATES)[number];
/** Pause between status polls of an offer the wallet has not processed yet. */
const POLL_MS = 250;
const DAY_MICROS = 86_400_000_000;

const listed: Source = {
  id: 'wallet-transfer-offers',
  interface: 'wallet',
  what: "the user's open transfer offers",
  provides: ['transferOffers'],
  async run(r, f) {
    const body = await r.json('GET', '/v0/wallet/transfer-offers');
    if (!Array.isArray(body?.offers)) return;
    const offers: OfferSeen[] = [];
    for (const c of Array.isArray(body?.offers) ? body.offers : []) {
      const p: Json = c?.payload;
      if (typeof p?.trackingId === 'string' && typeof p.sender === 'string' && typeof p.receiver === 'string')
        offers.push({ trackingId: p.trackingId, sender: p.sender, receiver: p.receiver });
    }
    // Two open offers that share exactly one party name the user, when the ledger did not.
    f.facts.walletParty ??= commonParty(offers);
    f.learn('listedOffers', offers, `${offers.length} open offer(s) of the user`);
  },
};

function commonParty(offers: OfferSeen[]): string | undefined {
  if (offers.length < 2) return undefined;
  const shared = [offers[0]!.sender, offers[0]!.receiver].filter((p) => offers.every((o) => o.sender === p || o.receiver === p));
  return shared.length === 1 ? shared[0] : undefined;
}

const create: Source = {
  id: 'wallet-create-transfer-offer',
  interface: 'wallet',
  what: 'a transfer offer of this run (tracking id named after the run), then its status until the wallet knows it',
  provides: ['transferOffers'],
  pages: 12,
  mutates: true,
  async run(r, f, env) {
    const me = f.facts.walletParty;
    const receiver = distinct([...(f.fixtures.validatorIds ?? []), ...(f.fixtures.holdingOwners ?? []), ...(f.facts.localParties ?? [])], 1000).find(
      (p) => p !== me,
    );
    if (!receiver) return void r.fall('unusable answer', 'no party other than the user is known to offer a transfer to');
    const trackingId = `cnc-${env.runId}-offer-1`;
    const body = await r.json('POST', '/v0/wallet/transfer-offers', {
      body: {
        receiver_party_id: receiver,
        amount: '0.0001',
        description: `cn-conformance run ${env.runId}: a transfer offer for the status checks`,
        expires_at: env.now().getTime() * 1000 + DAY_MICROS,
        tracking_id: trackingId,
      },
    });
    if (!isObject(body)) return;
    // The status endpoint answers 404 until the wallet has processed the offer.
    while (r.pages < r.bounds.pages && r.elapsedMs < r.bounds.ms) {
      const status = await r.json('POST', statusPath(trackingId));
      if (typeof status?.status === 'string') break;
      await sleep(POLL_MS);
    }
    f.learn('createdOffers', [...(f.facts.createdOffers ?? []), trackingId], `the offer it created (${trackingId})`);
  },
};

const states: Source = {
  id: 'wallet-transfer-offer-states',
  interface: 'wallet',
  what: "the states of the user's offers (status endpoint); offers between two other parties as another user's",
  provides: ['transferOffers', 'otherUserTransferOffers'],
  pages: KEEP,
  async run(r, f) {
    const me = f.facts.walletParty;
    const seen = [...(f.facts.offers ?? []), ...(f.facts.listedOffers ?? [])];
    if (me) {
      const between = (offers: OfferSeen[] = []) => offers.filter((o) => o.sender !== me && o.receiver !== me).map((o) => o.trackingId);
      const others = distinct([...between(f.facts.offers), ...between(f.facts.listedOffers)], KEEP);
      const fromLedger = new Set(between(f.facts.offers));
      const listedToo = others.some((id) => !fromLedger.has(id));
      // The ledger's stream (read by the ledger sources) showed them, or the wallet's own listing did: the origin
      // names the interface that answered, whichever source takes the ids.
      f.set(
        'otherUserTransferOffers',
        others,
        fromLedger.size > 0
          ? found(
              'ledger',
              'POST',
              '/v2/updates',
              '/*/update/Transaction/value/events/*/CreatedEvent/createArgument/trackingId',
              `offers between two parties other than the wallet user${listedToo ? `; and ones ${endpointOf('wallet', 'GET', '/v0/wallet/transfer-offers')} listed` : ''}`,
            )
          : found(
              'wallet',
              'GET',
              '/v0/wallet/transfer-offers',
              '/offers/*/payload/trackingId',
              'listed offers between two parties other than the wallet user',
            ),
      );
    }
    const own = distinct([...(f.facts.createdOffers ?? []), ...seen.filter((o) => o.sender === me).map((o) => o.trackingId)], KEEP);
    const byState: Partial<Record<State, string[]>> = {};
    for (const id of own) {
      const status = (await r.json('POST', statusPath(id)))?.status;
      if (STATES.includes(status)) (byState[status as State] ??= []).push(id);
    }
    const created = f.facts.createdOffers?.length ? 'with the offer this run created; ' : '';
    f.set(
      'transferOffers',
      byState,
      found('wallet', 'POST', '/v0/wallet/transfer-offers/{tracking_id}/status', '/status', `${created}offers the user sent, by the state the wallet reports`),
    );
  },
};

/** In the order they run (after the ledger's, which find the user's party and the history's offers). */
export const WALLET_SOURCES: readonly Source[] = [listed, create, states];
