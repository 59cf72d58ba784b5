// The mediator's verdict on a transaction of the world: one view per root node (and a sub-view under the first
// root when it has several children), the traffic its envelopes cost, and app activity where a coupon was
// created. Apart from world.ts, which attaches one to every transaction it builds.
import type { Party, Participant, TransactionUpdate, TxNode, Verdict, View } from './model.ts';
import { derivedHex } from './rng.ts';

/** What of the world a verdict is made from. */
export interface VerdictWorld {
  readonly seed: number;
  readonly dso: Party;
  readonly ledgerParticipant: Participant;
  informees(node: TxNode): string[];
  round(index: number): number;
}

export function verdictFor(w: VerdictWorld, tx: TransactionUpdate): Verdict {
  const views: View[] = tx.rootNodeIds.map((r, k) => ({
    viewId: k,
    informees: w.informees(tx.nodes[r]!),
    confirmingParties: [{ parties: [w.dso.id], threshold: 1 }],
    subViews: [] as number[],
    viewHash: derivedHex(w.seed, `view:${tx.index}:${k}`, 32),
  }));
  const root0 = tx.nodes[tx.rootNodeIds[0]!]!;
  if (root0.kind === 'exercised' && root0.children.length > 1) {
    const sub = views.length;
    views.push({
      viewId: sub,
      informees: w.informees(tx.nodes[root0.children[0]!]!),
      confirmingParties: [{ parties: tx.submitters, threshold: 1 }],
      subViews: [],
      viewHash: derivedHex(w.seed, `view:${tx.index}:${sub}`, 32),
    });
    views[0]!.subViews.push(sub);
  }
  const envelopes = views.map((v) => ({ trafficCost: 200 + v.viewId * 17, viewIds: [v.viewId] }));
  const hasCoupon = tx.nodes.some((n) => n.kind === 'created' && n.contract.templateId.endsWith('AppRewardCoupon'));
  return {
    updateId: tx.updateId,
    migrationId: tx.migrationId,
    domainId: tx.synchronizerId,
    recordTimeMicros: tx.recordTimeMicros,
    finalizationTimeMicros: tx.recordTimeMicros + 120_000,
    submittingParties: tx.submitters,
    submittingParticipantUid: w.ledgerParticipant.id.slice(5),
    result: 'VERDICT_RESULT_ACCEPTED',
    mediatorGroup: 0,
    views,
    rootViews: tx.rootNodeIds.map((_, k) => k),
    trafficSummary: { totalTrafficCost: envelopes.reduce((s, e) => s + e.trafficCost, 0), envelopes },
    appActivity: hasCoupon ? { roundNumber: w.round(tx.index), records: tx.submitters.map((p) => ({ party: p, weight: 1 + (tx.index % 5) })) } : undefined,
  };
}
