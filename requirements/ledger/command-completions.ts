// What a node of the ledger's release line 3.5 serves that an older one need not: the command-completions
// endpoint. The generic checks report an unserved operation as unsupported (an older node, a proxy); a node
// that states a line of 3.5 or later and does not serve it breaks the versioning rule.
import type { Requirement } from '../../engine/model.ts';
import { defineRules } from '../../engine/requirement.ts';
import { notServed } from '../../engine/served.ts';
import { IDLE_MS, readParties } from '../../interfaces/ledger/updates.ts';
import { ledgerReleaseLine, predates } from '../../interfaces/ledger/release-line.ts';

const OPERATION = 'getCommandCompletions';
const PATH = '/v2/commands/command-completions';

export const SINCE_3_5_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  {
    interface: 'ledger',
    operations: [OPERATION],
    cites: ['A.overview.16', 'X.versioning.2'],
  },
  [
    {
      id: 'LEDGER-COMMAND-COMPLETIONS-SINCE-3-5',
      tags: ['versioning'],
      async check(ctx) {
        const line = await ledgerReleaseLine(ctx);
        if (!line) return ctx.skip('GET /v2/version states no release line (a 200 JSON answer with a version of the form major.minor)');
        if (await predates(ctx, '3.5'))
          return ctx.notApplicable(`the target runs ${line.version} (GET /v2/version), before 3.5: the endpoint need not exist there`);
        const spec = ctx.spec('ledger');
        const op = spec.catalog.operations.find((o) => o.id === OPERATION);
        if (!op) return ctx.skip(`the ledger document in use has no operation ${OPERATION}`);
        // The request's shape is left open by the description: any answer but "no such operation" shows it is served.
        const x = await ctx.ledger.post(PATH, { parties: readParties(ctx), beginExclusive: 0 }, { query: { limit: 1, stream_idle_timeout_ms: IDLE_MS } });
        if (x.status === 0) ctx.expect(x).fail(`no answer to POST ${PATH}: ${x.error}`);
        const why = notServed(spec, op, x);
        if (why)
          ctx
            .expect(x)
            .fail(
              `the target states release line ${line.version} (GET /v2/version), yet does not serve POST ${PATH}, which exists since 3.5: a request was ${why}`,
            );
      },
    },
  ],
);
