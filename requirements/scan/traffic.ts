// GET /v0/domains/{domain_id}/members/{member_id}/traffic-status: the totals of a member's traffic and the
// refusal of a member id that is not of the form code::id::fingerprint (and no refusal of a mediator's id).
import { isObject, parseJson } from '../../common/json.ts';
import { isInt64 } from '../../engine/int64.ts';
import type { Requirement } from '../../engine/model.ts';
import { defineRules, rule } from '../../engine/requirement.ts';
import { acceptedLookups, enc, trafficStatusPath } from '../../interfaces/scan/common.ts';

const OP = 'getMemberTrafficStatus';

const totals = rule({
  id: 'SCAN-TRAFFIC-LIMIT-WITHIN-PURCHASED',
  operations: [OP],
  cites: ['R.scan.35', 'R.scan.36', 'C.traffic.2'],
  needs: ['domainId', 'memberIds'],
  tags: ['traffic'],
  confirms: OP,
  async check(ctx) {
    const domain = ctx.fixtures.domainId;
    const members = ctx.fixtures.memberIds;
    // A member may have no traffic state here (a mediator that never bought any): a 404 for some is no refusal,
    // nor for all when the only members known are mediators (a scan before 0.5.17 names no participant of a party).
    if (members.every((m) => m.startsWith('MED::'))) {
      const answers = await Promise.all(members.map((m) => ctx.scan.get(trafficStatusPath(domain, m))));
      if (answers.every((x) => x.status === 404))
        ctx.skip(
          `the only members known are mediators (${members.join(', ')}), and none has traffic state on ${domain} (404): give a participant in fixtures.memberIds`,
        );
    }
    const found = await acceptedLookups(
      ctx,
      ctx.fixtures.memberIds,
      (member) => ctx.scan.get(trafficStatusPath(domain, member)),
      (member) =>
        `the traffic status of ${member} on ${domain} (fixtures.memberIds and fixtures.domainId; discovery: participants hosting known parties and the mediator, on the synchronizer of the scan's updates)`,
    );
    for (const { key: member, x, body } of found) {
      const t = body.traffic_status;
      const consumed = t?.actual?.total_consumed;
      const limit = t?.actual?.total_limit;
      const purchased = t?.target?.total_purchased;
      if (!isObject(t) || !isInt64(consumed) || !isInt64(limit) || !isInt64(purchased))
        ctx.expect(x).fail(`${member}: traffic_status needs integer actual.total_consumed, actual.total_limit and target.total_purchased`, '/traffic_status');
      // Byte counts: none is negative.
      for (const [name, v, p] of [
        ['total_consumed', consumed, '/traffic_status/actual/total_consumed'],
        ['total_limit', limit, '/traffic_status/actual/total_limit'],
        ['total_purchased', purchased, '/traffic_status/target/total_purchased'],
      ] as const) {
        if (v < 0) ctx.expect(x).fail(`${member}: ${name} is negative (${v})`, p);
      }
      if (limit > purchased)
        ctx
          .expect(x)
          .fail(
            `${member}: total_limit ${limit} exceeds total_purchased ${purchased}; the limit only reaches what was purchased`,
            '/traffic_status/actual/total_limit',
          );
    }
  },
});

const memberIdChecked = rule({
  id: 'SCAN-TRAFFIC-MEMBER-ID-400',
  // The synchronizer's identities name the mediator whose member id is probed.
  operations: [OP, 'getSynchronizerIdentities'],
  cites: ['C.traffic.1', 'C.traffic.4', 'X.errors.9'],
  needs: ['domainId'],
  tags: ['traffic', 'validation'],
  async check(ctx) {
    for (const member of ['participant1', 'not a member id']) {
      const x = await ctx.scan.get(trafficStatusPath(ctx.fixtures.domainId, member));
      ctx.expect(x, `member id ${JSON.stringify(member)} is not of the form code::id::fingerprint`).status(400);
    }
    // The accepted side of the format: the synchronizer's own mediator, a MED member id, is no bad request
    // (404 stays open: the mediator may have no traffic state). Probed where the synchronizer names one.
    const ids = await ctx.scan.get(`/v0/synchronizer-identities/${enc(ctx.fixtures.domainId)}`);
    const mediator = ids.status === 200 ? parseJson(ids.text)?.mediator_id : undefined;
    if (typeof mediator === 'string' && mediator.startsWith('MED::')) {
      const x = await ctx.scan.get(trafficStatusPath(ctx.fixtures.domainId, mediator));
      ctx.expect(x, `member id ${mediator} (the synchronizer's mediator_id) is of the form MED::id::fingerprint`).status([200, 404]);
    }
  },
});

export const TRAFFIC_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'scan' }, [totals, memberIdChecked]);
