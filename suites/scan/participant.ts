// GET /v1/domains/{domain_id}/parties/{party_id}/participant-id: every participant id is PAR::id::fingerprint.
import type { Requirement } from '../model.ts';
import { defineRequirements, type RequirementInput } from '../requirement.ts';
import { enc, okObject, SECTION } from './common.ts';

/** PAR, then a non-empty id, then a fingerprint without colons. */
const PARTICIPANT_ID = /^PAR::.+::[^:]+$/;

const participantIds: RequirementInput = {
  id: 'SCAN-PARTICIPANT-ID-FORMAT',
  kind: 'rule',
  level: 'MUST',
  interface: 'scan',
  operations: ['getPartyToParticipantV1'],
  section: SECTION.participants,
  sentence: '200 `{participant_ids: string[]}`, each of the form `PAR::id::fingerprint`',
  needs: ['domainId', 'partyIds'],
  tags: ['parties'],
  async check(ctx) {
    let checked = 0;
    for (const party of ctx.fixtures.partyIds!) {
      const x = await ctx.scan.get(`/v1/domains/${enc(ctx.fixtures.domainId!)}/parties/${enc(party)}/participant-id`);
      if (x.status === 404) continue;
      const ids = okObject(ctx, x, `participant ids of fixture party ${party}`).participant_ids;
      if (!Array.isArray(ids)) ctx.fail(`${party}: participant_ids is not an array`, { exchange: x, pointer: '/participant_ids' });
      checked++;
      const k = ids.findIndex((id: unknown) => typeof id !== 'string' || !PARTICIPANT_ID.test(id));
      if (k >= 0)
        ctx.fail(`${party}: participant id ${JSON.stringify(ids[k])} is not of the form PAR::id::fingerprint`, {
          exchange: x,
          pointer: `/participant_ids/${k}`,
        });
    }
    if (checked === 0) ctx.skip('no fixture party is known on fixtures.domainId (all answered 404)');
  },
};

export const PARTICIPANT_REQUIREMENTS: Requirement[] = defineRequirements(import.meta.url, [participantIds]);
