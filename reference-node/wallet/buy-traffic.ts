// Buy-traffic requests of one node: exactly-once submission per wallet user and tracking id, and the
// life of each request contract under the ledger clock.
//
// A submission holds its tracking id "processing" while the command runs (a duplicate meanwhile: 429).
// The command either fails without buying traffic (expires_at not after the ledger time: the tracking id
// is free again) or creates the request contract (later duplicates: 409). The wallet automation then buys
// the traffic PURCHASE_DELAY after creation if that is before expires_at; otherwise the request expires
// at expires_at and nothing is bought.
import { setTimeout as sleep } from 'node:timers/promises';
import type { NodeContext } from '../context.ts';
import { derivedHex } from '../world/rng.ts';
import type { BuyTrafficBody } from './buy-traffic-body.ts';
import { PURCHASE_DELAY_MICROS } from './ledger-timing.ts';
import type { PurchasedTraffic } from './member-traffic.ts';

export interface RequestContract {
  contractId: string;
  user: string;
  trackingId: string;
  participantId: string;
  domainId: string;
  trafficAmount: number;
  createdAtMicros: number;
  expiresAtMicros: number;
  /** When the automation buys the traffic; undefined when the request expires first. */
  purchasedAtMicros?: number;
}

export type RequestState = 'created' | 'succeeded' | 'expired';

type Submission = { phase: 'processing' } | { phase: 'created'; contract: RequestContract } | { phase: 'failed' };

/** What the status lookup of a buy-traffic request tells (the shape of the official document's status answer). */
export type RequestStatus = { status: 'created' } | { status: 'completed'; transaction_id: string } | { status: 'failed'; failure_reason: 'expired' };

export type SubmitOutcome = { status: 200; contract: RequestContract } | { status: 400 | 409 | 429; message: string };

export class BuyTrafficRequests {
  private readonly submissions = new Map<string, Submission>();
  /** Request contracts created per submission key (more than one only under the exactly-once fault). */
  private readonly created = new Map<string, RequestContract[]>();

  constructor(
    private readonly ctx: NodeContext,
    private readonly traffic: PurchasedTraffic,
  ) {}

  async submit(user: string, body: BuyTrafficBody): Promise<SubmitOutcome> {
    const key = JSON.stringify([user, body.trackingId]);
    const exactlyOnce = !this.ctx.faults.has('wallet-tracking-id-not-exactly-once');
    const earlier = this.submissions.get(key);
    if (earlier && exactlyOnce) {
      // wallet-created-answered-429: a duplicate of a request already created is answered as if still processed.
      const processing = earlier.phase === 'processing' || (earlier.phase === 'created' && this.ctx.faults.has('wallet-created-answered-429'));
      if (processing && !this.ctx.faults.has('wallet-processing-answered-409')) {
        return { status: 429, message: `A buy traffic request with tracking id ${body.trackingId} is being processed; check its status before resubmitting` };
      }
      return {
        status: 409,
        message: `A buy traffic request with tracking id ${body.trackingId} was already created; check its status instead of resubmitting`,
      };
    }
    if (exactlyOnce) this.submissions.set(key, { phase: 'processing' });

    await sleep(this.ctx.settings.walletProcessingMs);

    const now = this.ctx.clock.now();
    if (body.expiresAtMicros <= now) {
      // The command fails before creating anything: no traffic is bought, so the tracking id is free again.
      if (exactlyOnce) {
        if (this.ctx.faults.has('wallet-failed-command-blocks-retry')) this.submissions.set(key, { phase: 'failed' });
        else this.submissions.delete(key);
      }
      return {
        status: 400,
        message: `Buy traffic request command failed: expires_at ${body.expiresAtMicros} is not after the ledger time ${now}; the request expired and no traffic was purchased`,
      };
    }
    const contract = this.create(key, user, body, now);
    if (exactlyOnce) this.submissions.set(key, { phase: 'created', contract });
    return { status: 200, contract };
  }

  /** The status of the user's request with this tracking id; undefined while none was created. */
  status(user: string, trackingId: string): RequestStatus | undefined {
    // The latest request contract of the tracking id (under the exactly-once fault there may be several).
    const contract = this.created.get(JSON.stringify([user, trackingId]))?.at(-1);
    if (!contract) return undefined;
    switch (BuyTrafficRequests.stateAt(contract, this.ctx.clock.now())) {
      case 'created':
        return { status: 'created' };
      case 'succeeded':
        return { status: 'completed', transaction_id: '1220' + derivedHex(this.ctx.settings.seed, `buy-traffic-purchase:${contract.contractId}`, 32) };
      case 'expired':
        return { status: 'failed', failure_reason: 'expired' };
    }
  }

  /** State of a request contract at ledger time `now`. */
  static stateAt(contract: RequestContract, now: number): RequestState {
    if (contract.purchasedAtMicros !== undefined) return now >= contract.purchasedAtMicros ? 'succeeded' : 'created';
    return now >= contract.expiresAtMicros ? 'expired' : 'created';
  }

  private create(key: string, user: string, body: BuyTrafficBody, now: number): RequestContract {
    const previous = this.created.get(key) ?? [];
    // Deterministic for seed, user and tracking id; the attempt number only varies under the exactly-once fault.
    const label = `buy-traffic-request:${user}:${body.trackingId}${previous.length > 0 ? `:${previous.length}` : ''}`;
    const purchaseAt = now + PURCHASE_DELAY_MICROS;
    const succeeds = purchaseAt < body.expiresAtMicros;
    const contract: RequestContract = {
      contractId: '00' + derivedHex(this.ctx.settings.seed, label, 36),
      user,
      trackingId: body.trackingId,
      participantId: body.participantId,
      domainId: body.domainId,
      trafficAmount: body.trafficAmount,
      createdAtMicros: now,
      expiresAtMicros: body.expiresAtMicros,
      purchasedAtMicros: succeeds ? purchaseAt : undefined,
    };
    this.created.set(key, [...previous, contract]);
    if (contract.purchasedAtMicros !== undefined) this.credit(contract, contract.purchasedAtMicros);
    return contract;
  }

  /** The purchase raises the hosting participant's purchased traffic by the amount, in bytes. */
  private credit(contract: RequestContract, atMicros: number): void {
    let member = contract.participantId;
    let amount = contract.trafficAmount;
    if (this.ctx.faults.has('wallet-traffic-credited-in-kilobytes')) amount = Math.floor(amount / 1000);
    if (this.ctx.faults.has('wallet-traffic-credited-to-other-participant'))
      member = this.ctx.world.participants.find((p) => p.id !== member && this.ctx.world.memberTraffic.has(p.id))?.id ?? member;
    this.traffic.add(member, amount, atMicros);
  }
}
