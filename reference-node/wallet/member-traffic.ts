// Traffic bought through the wallet, shown in the world's member traffic so that the scan interface
// reports it: total_purchased grows when the purchase happens, total_limit only once the purchase is
// incorporated. Both are functions of the ledger clock, so every reader sees the state at "now" without
// the wallet having to be called again.
import type { NodeContext } from '../context.ts';
import type { MemberTraffic } from '../world/model.ts';
import { INCORPORATION_DELAY_MICROS } from './ledger-timing.ts';

interface Purchase {
  amount: number;
  atMicros: number;
}

export class PurchasedTraffic {
  private readonly purchases = new Map<string, Purchase[]>();
  constructor(private readonly ctx: NodeContext) {}

  /** Records traffic bought for `memberId` at ledger time `atMicros` (possibly in the future). */
  add(memberId: string, amount: number, atMicros: number): void {
    let list = this.purchases.get(memberId);
    if (!list) {
      list = [];
      this.purchases.set(memberId, list);
      this.attach(memberId, list);
    }
    list.push({ amount, atMicros });
  }

  /** Replaces the member's purchased and limit values by clock-dependent ones on the same record. */
  private attach(memberId: string, list: Purchase[]): void {
    let record = this.ctx.world.memberTraffic.get(memberId);
    if (!record) {
      record = { totalConsumed: 0, totalLimit: 0, totalPurchased: 0 };
      this.ctx.world.memberTraffic.set(memberId, record);
    }
    const base = { purchased: record.totalPurchased, limit: record.totalLimit };
    const boughtBy = (delay: number) => {
      const now = this.ctx.clock.now();
      let sum = 0;
      for (const p of list) if (now >= p.atMicros + delay) sum += p.amount;
      return sum;
    };
    Object.defineProperties(record, {
      totalPurchased: {
        enumerable: true,
        configurable: true,
        get: () => base.purchased + boughtBy(0),
        set: (v: number) => void (base.purchased = v - boughtBy(0)),
      },
      totalLimit: {
        enumerable: true,
        configurable: true,
        get: () => base.limit + boughtBy(INCORPORATION_DELAY_MICROS),
        set: (v: number) => void (base.limit = v - boughtBy(INCORPORATION_DELAY_MICROS)),
      },
    } satisfies Record<keyof Pick<MemberTraffic, 'totalPurchased' | 'totalLimit'>, PropertyDescriptor>);
  }
}
