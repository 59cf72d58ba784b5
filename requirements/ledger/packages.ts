// The package reads: GET /v2/packages lists the identifiers of the supported packages, and every package it
// lists is one the participant has: GET /v2/packages/{package-id} returns its contents and the status lookup
// does not call it unknown. Positive requirements: each sends requests built from the node's own listing.
import { createHash } from 'node:crypto';
import { isObject, pointer } from '../../common/json.ts';
import type { Requirement } from '../../engine/model.ts';
import { defineRules, rule } from '../../engine/requirement.ts';
import { predates } from '../../interfaces/ledger/release-line.ts';
import { eventsOf, sampleStream } from '../../interfaces/ledger/updates.ts';
import { getPackage, listPackages, onTheWay, packagePath, PACKAGES_PATH, someListedPackages } from './package-reads.ts';

/** The official document's packageStatus of a package the participant does not know (the protobuf default). */
export const UNKNOWN_STATUS = 'PACKAGE_STATUS_UNSPECIFIED';

export const PACKAGE_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'ledger' }, [
  {
    id: 'LEDGER-PACKAGES-LIST-IDENTIFIERS',
    operations: ['listPackages'],
    confirms: 'listPackages',
    cites: ['A.overview.28'],
    tags: ['packages'],
    async check(ctx) {
      const x = await ctx.ledger.get(PACKAGES_PATH);
      const body = ctx.accepted(x, 'the listing of the packages');
      const ids: unknown = isObject(body) ? body.packageIds : undefined;
      // Release line 3.4's document leaves packageIds optional (an empty list may be left out); 3.5's requires it.
      if (ids === undefined && (await predates(ctx, '3.5'))) return;
      if (!Array.isArray(ids))
        return ctx.expect(x).fail(`GET /v2/packages answered ${x.status} without a list of package identifiers (packageIds)`, '/packageIds');
      const bad = ids.findIndex((id) => typeof id !== 'string' || id === '');
      if (bad >= 0) ctx.expect(x).fail(`GET /v2/packages lists ${JSON.stringify(ids[bad])}, which is no package identifier`, pointer('packageIds', bad));
    },
  },
  rule({
    id: 'LEDGER-PACKAGES-LIST-HAS-STREAMED',
    operations: ['listPackages', 'getUpdates'],
    cites: ['A.overview.28'],
    needs: ['ledgerParties'],
    tags: ['packages'],
    // The stream is read only for the packages its events were made with, as the ledger parties see them.
    variants: {
      'transaction-shape': "the stream is read only for the package ids of its events (every event kind names one): the shapes are the stream rules'",
      parties: "the stream is read only for the package ids of the events the ledger parties see: the party modes are the stream rules'",
      cumulative: "the stream is read only for the package ids of its events, with one wildcard: the filter entries are the stream rules'",
    },
    // "All supported packages": the participant interpreted the transactions its parties' events come from, with
    // the packages their template ids name, so it has each of them (a name reference, #name:..., names none).
    check: (ctx) =>
      onTheWay(ctx, async (judge) => {
        const sample = await sampleStream(ctx, 1);
        const { x, ids } = await listPackages(ctx, judge);
        const listed = new Set(ids);
        const used = new Set<string>();
        for (const { ev } of eventsOf(sample.elements)) {
          const template = isObject(ev) ? ev.templateId : undefined;
          if (typeof template === 'string' && !template.startsWith('#') && template.includes(':')) used.add(template.slice(0, template.indexOf(':')));
        }
        const missing = [...used].filter((id) => !listed.has(id));
        if (missing.length > 0)
          ctx
            .expect(x)
            .fail(
              `GET /v2/packages does not list ${missing.join(', ')}, the package(s) of template ids of events the update stream of the ledger parties shows (the participant interpreted them with it)`,
              '/packageIds',
            );
      }),
  }),
  {
    id: 'LEDGER-PACKAGES-CONTENTS-OF-LISTED',
    operations: ['listPackages', 'getPackage'],
    confirms: 'getPackage',
    cites: ['A.overview.28', 'A.overview.32'],
    tags: ['packages'],
    check: (ctx) =>
      onTheWay(ctx, async (judge) => {
        const { ids } = await someListedPackages(ctx, judge);
        // Contents of ONE package, the one asked: a package id names its contents, so two listed ids answered
        // with the same bytes are an answer about another package (a lookup cached by less than its key).
        const seen = new Map<string, string>();
        for (const id of ids) {
          const x = await getPackage(ctx, ctx, id, `the contents of package ${id}, which GET /v2/packages lists`);
          if (x.received === 0)
            ctx.expect(x).fail(`GET ${packagePath(id)} answered ${x.status} with an empty body: no contents of a package GET /v2/packages lists`);
          const digest = createHash('sha256').update(x.bytes).digest('hex');
          const same = seen.get(digest);
          if (same !== undefined)
            ctx
              .expect(x)
              .fail(`GET ${packagePath(id)} answered the very bytes GET ${packagePath(same)} answered: the contents of another package than the one asked`);
          seen.set(digest, id);
        }
      }),
  },
  {
    id: 'LEDGER-PACKAGES-STATUS-OF-LISTED',
    operations: ['listPackages', 'getPackageStatus'],
    confirms: 'getPackageStatus',
    cites: ['A.overview.28', 'A.overview.34'],
    tags: ['packages'],
    check: (ctx) =>
      onTheWay(ctx, async (judge) => {
        const { ids } = await someListedPackages(ctx, judge);
        for (const id of ids) {
          const x = await ctx.ledger.get(`${packagePath(id)}/status`);
          const body = ctx.accepted(x, `the status of package ${id}, which GET /v2/packages lists`);
          // Only the official document's field is read; a status it does not state is not judged.
          if (isObject(body) && body.packageStatus === UNKNOWN_STATUS)
            ctx
              .expect(x)
              .fail(`the status lookup calls package ${id} ${UNKNOWN_STATUS} (unknown), though GET /v2/packages lists it as supported`, '/packageStatus');
        }
      }),
  },
]);
