// GET /v1/domains/{domain_id}/parties/{party_id}/participant-id: every participant id is PAR::id::fingerprint,
// a party hosted on several participants is answered with all of them, and the participants answered include
// those the ledger showed hosting the party.
import type { Requirement } from '../../engine/model.ts';
import { defineRules, rule } from '../../engine/requirement.ts';
import { acceptedLookups, participantIdPath } from '../../interfaces/scan/common.ts';

/** PAR, then a non-empty id, then a fingerprint without colons. */
const PARTICIPANT_ID = /^PAR::.+::[^:]+$/;

const participantIds = rule({
  id: 'SCAN-PARTICIPANT-ID-FORMAT',
  cites: ['C.participant-id.2'],
  needs: ['domainId', 'partyIds'],
  tags: ['parties'],
  confirms: 'getPartyToParticipantV1',
  async check(ctx) {
    const domain = ctx.fixtures.domainId;
    // A party may be hosted on another synchronizer than fixtures.domainId: a 404 for some is no refusal.
    const found = await acceptedLookups(
      ctx,
      ctx.fixtures.partyIds,
      (party) => ctx.scan.get(participantIdPath(domain, party)),
      (party) =>
        `the participants hosting ${party} on ${domain} (fixtures.partyIds and fixtures.domainId; discovery: validators and holding owners of the ACS snapshot, the synchronizer of the scan's updates)`,
    );
    for (const { key: party, x, body } of found) {
      const ids = body.participant_ids;
      if (!Array.isArray(ids)) ctx.expect(x).fail(`${party}: participant_ids is not an array`, '/participant_ids');
      const k = ids.findIndex((id: unknown) => typeof id !== 'string' || !PARTICIPANT_ID.test(id));
      if (k >= 0) ctx.expect(x).fail(`${party}: participant id ${JSON.stringify(ids[k])} is not of the form PAR::id::fingerprint`, `/participant_ids/${k}`);
    }
  },
});

// A party hosted on several participants: the v1 lookup lists each of them, so at least two distinct ids.
const multiHosted = rule({
  id: 'SCAN-PARTICIPANT-ID-MULTI-HOSTED',
  cites: ['C.participant-id.1'],
  needs: ['domainId', 'multiHostedParty'],
  tags: ['parties'],
  async check(ctx) {
    const party = ctx.fixtures.multiHostedParty;
    const x = await ctx.scan.get(participantIdPath(ctx.fixtures.domainId, party));
    // Its hosting may be on another synchronizer than fixtures.domainId: nothing to judge there.
    if (x.status === 404) ctx.skip(`the multi-hosted fixture party ${party} is not known on fixtures.domainId (404)`);
    const ids = ctx.expect(x, `participant ids of the multi-hosted fixture party ${party}`).status(200).object().participant_ids;
    if (!Array.isArray(ids)) ctx.expect(x).fail(`${party}: participant_ids is not an array`, '/participant_ids');
    const distinct = new Set(ids.map((id: unknown) => JSON.stringify(id)));
    if (distinct.size < 2)
      ctx
        .expect(x)
        .fail(
          `${party} is hosted on several participants, yet participant_ids lists ${distinct.size} participant(s): ${JSON.stringify(ids)}`,
          '/participant_ids',
        );
  },
});

/** Parties whose hosting is looked up: enough to see a wrong host, few enough to stay fast. */
const HOSTED_SAMPLE = 6;

// The participants answered for a party are those hosting it: among them every participant the ledger's
// topology events showed hosting it on that synchronizer (and not revoked since). A synchronizer the scan
// does not know the party on (404: one the scan does not follow) is not judged.
const hostsSeen = rule({
  id: 'SCAN-PARTICIPANT-ID-HOSTS-SEEN',
  cites: ['C.participant-id.1'],
  needs: ['partyHosting'],
  tags: ['parties'],
  async check(ctx) {
    let judged = 0;
    for (const { party, synchronizerId, participants } of ctx.fixtures.partyHosting.slice(0, HOSTED_SAMPLE)) {
      const x = await ctx.scan.get(participantIdPath(synchronizerId, party));
      if (x.status === 404) continue;
      const ids = ctx.expect(x, `the participants hosting ${party} on ${synchronizerId} (fixtures.partyHosting)`).status(200).object().participant_ids;
      if (!Array.isArray(ids)) continue; // its shape is SCAN-PARTICIPANT-ID-FORMAT's
      judged++;
      const missing = participants.filter((p) => !ids.includes(p));
      if (missing.length > 0)
        ctx
          .expect(x)
          .fail(
            `${party} is hosted on ${missing.join(', ')} on ${synchronizerId} (fixtures.partyHosting; discovery: the ledger's participant authorization events), yet participant_ids lists ${JSON.stringify(ids)}`,
            '/participant_ids',
          );
    }
    if (judged === 0) ctx.skip('the scan knows none of the parties of fixtures.partyHosting on their synchronizers (all answered 404)');
  },
});

export const PARTICIPANT_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'scan', operations: ['getPartyToParticipantV1'] }, [
  participantIds,
  multiHosted,
  hostsSeen,
]);
