// POST /v2/packages does the same as POST /v2/dars: it takes a DAR as /v2/dars does (with the same effect),
// and the same body gets the same verdict from both. Bytes that are no DAR are the body of the comparison, so
// a correct node uploads nothing (still a mutating request: it may store).
import { parseJson } from '../../common/json.ts';
import type { Exchange } from '../../engine/transport/http.ts';
import type { Requirement } from '../../engine/model.ts';
import { defineRules } from '../../engine/requirement.ts';
import { notServed, unsupportedReason } from '../../engine/served.ts';
import { NOT_A_DAR } from './package-reads.ts';
import { uploadAndConfirm } from './packages-dars.ts';
import { errorCode } from '../../interfaces/ledger/error-code.ts';

export const PACKAGE_UPLOAD_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  {
    interface: 'ledger',
  },
  [
    {
      id: 'LEDGER-PACKAGES-UPLOAD-TAKES-DAR',
      operations: ['listPackages', 'getPackage', 'uploadPackages', 'getPackageStatus'],
      confirms: 'uploadPackages',
      cites: ['A.overview.26', 'A.overview.30'],
      tags: ['packages', 'dars'],
      mutates: true,
      check: (ctx) => uploadAndConfirm(ctx, '/v2/packages'),
    },
    {
      id: 'LEDGER-PACKAGES-UPLOAD-SAME-AS-DARS',
      operations: ['uploadDar', 'uploadPackages'],
      cites: ['A.overview.30'],
      tags: ['packages'],
      mutates: true,
      async check(ctx) {
        const spec = ctx.spec('ledger');
        const send = (path: string) => ctx.ledger.request('POST', path, { rawBody: NOT_A_DAR, contentType: 'application/octet-stream' });
        const dars = await send('/v2/dars');
        const packages = await send('/v2/packages');
        for (const [id, path, x] of [
          ['uploadDar', '/v2/dars', dars],
          ['uploadPackages', '/v2/packages', packages],
        ] as const) {
          if (x.status === 0) ctx.expect(x).fail(`no answer to POST ${path}: ${x.error}`);
          const op = spec.catalog.operations.find((o) => o.id === id);
          const why = op && notServed(spec, op, x);
          if (op && why) ctx.unsupported(unsupportedReason(op, why, 'a body of bytes'), { exchange: x });
        }
        // Only answers that say something are compared: an acceptance with a JSON body, or a refusal with its error code.
        const comparable = (x: Exchange) =>
          x.status >= 200 && x.status < 300 ? parseJson(x.text) !== undefined : x.status >= 400 && errorCode(x) !== undefined;
        const opaque = [dars, packages].filter((x) => !comparable(x));
        if (opaque.length > 0)
          ctx.skip(
            `the answer${opaque.length > 1 ? 's' : ''} (${opaque.map((x) => x.status).join(', ')}) carry neither a JSON acceptance nor an error code to compare`,
          );
        if (packages.status !== dars.status)
          ctx
            .expect(packages)
            .fail(`the same bytes were answered ${dars.status} by POST /v2/dars and ${packages.status} by POST /v2/packages, which does the same`);
        const [darsCode, packagesCode] = [errorCode(dars), errorCode(packages)];
        if (dars.status >= 400 && darsCode !== packagesCode)
          ctx
            .expect(packages)
            .fail(
              `the same bytes were refused with error code ${darsCode ?? '(none)'} by POST /v2/dars and ${packagesCode ?? '(none)'} by POST /v2/packages, which does the same`,
              '/code',
            );
      },
    },
  ],
);
