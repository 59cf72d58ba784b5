// GET /v0/synchronizer-identities/{domain_id_prefix}: the sequencer and mediator of a synchronizer and their
// identity transactions.
import { isObject, isStringArray } from '../../common/json.ts';
import type { Requirement } from '../../engine/model.ts';
import { defineRules, rule } from '../../engine/requirement.ts';
import { acceptedObject, enc } from '../../interfaces/scan/common.ts';

const OP = 'getSynchronizerIdentities';
const WHERE_FROM = "fixtures.domainId; discovery: the synchronizer_id of the scan's own updates";
const path = (prefix: string) => `/v0/synchronizer-identities/${enc(prefix)}`;

/**
 * A proper prefix of a synchronizer id `name::fingerprint` that no other synchronizer's id starts with: the id
 * less the last character of its fingerprint (two synchronizers' namespaces do not share all but one digit).
 * Undefined for an id of another form, or with a fingerprint too short to tell synchronizers apart by it.
 */
function ownPrefix(id: string): string | undefined {
  const at = id.lastIndexOf('::');
  return at > 0 && id.length - at - 2 >= 16 ? id.slice(0, -1) : undefined;
}

export const SYNCHRONIZER_IDENTITIES_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  {
    interface: 'scan',
    operations: [OP],
  },
  [
    rule({
      id: 'SCAN-SYNCHRONIZER-IDENTITIES',
      cites: ['C.sync-identities.2'],
      needs: ['domainId'],
      tags: ['misc'],
      confirms: OP,
      async check(ctx) {
        // The whole id is a prefix of itself.
        const x = await ctx.scan.get(`/v0/synchronizer-identities/${enc(ctx.fixtures.domainId)}`);
        const body = acceptedObject(ctx, x, `the identities of ${ctx.fixtures.domainId}, by its whole id (${WHERE_FROM})`);
        const bad = [
          ...['sequencer_id', 'mediator_id'].filter((f) => typeof body[f] !== 'string'),
          ...['sequencer_identity_transactions', 'mediator_identity_transactions'].filter((f) => !isStringArray(body[f])),
        ];
        if (bad.length > 0) ctx.expect(x).fail(`fields missing or of the wrong type: ${bad.join(', ')}`, `/${bad[0]}`);
      },
    }),
    rule({
      id: 'SCAN-SYNCHRONIZER-IDENTITIES-PREFIX',
      // The parameter is only named a prefix (here and in the official document): advice, not a promise.
      level: 'SHOULD',
      cites: ['C.sync-identities.1'],
      needs: ['domainId'],
      tags: ['misc'],
      async check(ctx) {
        const id = ctx.fixtures.domainId;
        const whole = ctx
          .expect(await ctx.scan.get(`/v0/synchronizer-identities/${enc(id)}`), `identities of fixture synchronizer ${id}`)
          .status(200)
          .object();
        // Only an answer that names the identities shows the whole id was found (its shape: SCAN-SYNCHRONIZER-IDENTITIES).
        if (typeof whole.sequencer_id !== 'string' || typeof whole.mediator_id !== 'string')
          ctx.skip(`the identities of ${id} name no sequencer_id and mediator_id: nothing found by the whole id to look for by a prefix`);
        // The part before the namespace (e.g. global-domain of global-domain::1220...), else the id less its last character.
        const prefix = id.includes('::') ? id.slice(0, id.indexOf('::')) : id.slice(0, -1);
        if (prefix === '') ctx.skip(`fixtures.domainId ${JSON.stringify(id)} has no proper non-empty prefix`);
        // Another synchronizer may share the prefix, so the identities found by it are not compared.
        const x = await ctx.scan.get(`/v0/synchronizer-identities/${enc(prefix)}`);
        const found = ctx
          .expect(x, `${JSON.stringify(prefix)} is a prefix of the synchronizer id ${id}, which is found by its whole id`)
          .status(200)
          .object();
        if (typeof found.sequencer_id !== 'string' || typeof found.mediator_id !== 'string')
          ctx.expect(x).fail(`the identities found by the prefix ${JSON.stringify(prefix)} name no sequencer_id and mediator_id`, '/sequencer_id');
      },
    }),
    rule({
      id: 'SCAN-SYNCHRONIZER-IDENTITIES-OF-PREFIX',
      cites: ['C.sync-identities.1'],
      needs: ['domainId'],
      tags: ['misc'],
      async check(ctx) {
        const id = ctx.fixtures.domainId;
        const prefix = ownPrefix(id);
        if (prefix === undefined) return ctx.skip(`fixtures.domainId ${JSON.stringify(id)} is not of the form name::fingerprint: no prefix is its alone`);
        // The whole id's answer is SCAN-SYNCHRONIZER-IDENTITIES's to judge; here it is what the prefix must find.
        const mine = ctx
          .expect(await ctx.scan.get(path(id)), `the identities of ${id}, by its whole id (${WHERE_FROM})`)
          .status(200)
          .object();
        if (typeof mine.sequencer_id !== 'string' || typeof mine.mediator_id !== 'string')
          ctx.skip(`the identities of ${id} name no sequencer_id and mediator_id: nothing to compare what a prefix finds with`);
        // Finding a synchronizer by a prefix is advice (SCAN-SYNCHRONIZER-IDENTITIES-PREFIX): only an answer with
        // identities is judged, and it can only be about the one synchronizer whose id starts with that prefix.
        const x = await ctx.scan.get(path(prefix));
        const found = x.status === 200 ? ctx.expect(x).json() : undefined;
        if (!isObject(found) || typeof found.sequencer_id !== 'string' || typeof found.mediator_id !== 'string')
          ctx.skip(`the prefix ${JSON.stringify(prefix)} finds no identities (answered ${x.status}): nothing found to judge`);
        for (const field of ['sequencer_id', 'mediator_id'])
          if (found[field] !== mine[field])
            ctx
              .expect(x)
              .fail(
                `the prefix ${JSON.stringify(prefix)}, which only ${id} starts with, finds ${field} ${JSON.stringify(found[field])}; the whole id finds ${JSON.stringify(mine[field])}: the identities found are another synchronizer's`,
                `/${field}`,
              );
      },
    }),
  ],
);
