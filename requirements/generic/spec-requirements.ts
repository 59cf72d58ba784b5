// Requirements derived from an OpenAPI document, for every operation of every loaded document (ours or a
// user's): answers are documented and schema-valid, invalid input is refused with a documented 4xx, and
// secured operations refuse requests without credentials.
import fc from 'fast-check';
import {
  findResponse,
  operationRelations,
  refusalLeftOpen,
  invalidRequest,
  requestTarget,
  validRequest,
  type CompiledSpec,
  type GeneratedRequest,
  type OperationSpec,
} from '../../generators/index.ts';
import { INTERFACES } from '../../common/vocabulary.ts';
import type { Client, Exchange } from '../../engine/transport/http.ts';
import type { CheckContext, GenericCheck, InterfaceName, Requirement } from '../../engine/model.ts';
import { defineRequirements, type RequirementInput } from '../../engine/requirement.ts';
import { bounded, withFixtures } from './request-values.ts';
import { GENERIC_CITES } from './cited-sentences.ts';
import { NOT_SERVED_STATUSES, notServed, unsupportedReason } from '../../engine/served.ts';

/** getHoldingsStateV1 -> GET-HOLDINGS-STATE-V1 */
export function operationSlug(operationId: string): string {
  return operationId
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toUpperCase();
}

/**
 * The id of a generic requirement: GENERIC-SCAN-GET-HOLDINGS-STATE-V1-INVALID-INPUT. With `*` for the slug
 * and no probe it is the pattern of a group of them (GENERIC-SCAN-*).
 */
export function genericId(iface: InterfaceName, slug: string, probe?: GenericCheck): string {
  return `GENERIC-${iface.toUpperCase()}-${slug}${probe ? `-${probe.toUpperCase()}` : ''}`;
}

const isInterface = (name: string): name is InterfaceName => (INTERFACES as readonly string[]).includes(name);

const mutates = (op: OperationSpec) => op.extensions['x-cn-mutates'] === true;
const section = (op: OperationSpec) =>
  typeof op.extensions['x-cn-source'] === 'string' ? (op.extensions['x-cn-source'] as string) : `${op.method.toUpperCase()} ${op.fullPath}`;

async function send(client: Client, op: OperationSpec, req: GeneratedRequest, auth: 'default' | 'none' = 'default') {
  const path = requestTarget(op, req).slice(op.serverPrefix.length);
  return client.request(op.method.toUpperCase(), path, {
    auth,
    headers: req.headers,
    ...(req.rawBody !== undefined
      ? { rawBody: req.rawBody, contentType: req.contentType }
      : req.body !== undefined
        ? { body: req.body, contentType: req.contentType }
        : {}),
  });
}

const clientFor = (ctx: CheckContext, name: InterfaceName): Client => ctx[name];

/**
 * The answers to requests that do not depend on one another, in the order of the requests, sent all at once
 * (a remote target then costs one round trip, not one per request). Each answer is judged on its own, so the
 * order writes land in changes no judgement; a check that writes still has the target to itself.
 */
async function* answersInOrder(client: Client, op: OperationSpec, requests: readonly GeneratedRequest[]): AsyncGenerator<[GeneratedRequest, Exchange]> {
  const sent = requests.map((req) => send(client, op, req));
  // A check that stops early leaves the rest unread; a refusal among them (the budget) is then no one's.
  for (const x of sent) x.catch(() => {});
  for (const [i, req] of requests.entries()) yield [req, await sent[i]!];
}

/** Where an operation is called: the key under which a swapped-in document's operation meets the built-in one. */
export const operationKey = (op: Pick<OperationSpec, 'method' | 'fullPath'>) => `${op.method.toUpperCase()} ${op.fullPath.replace(/\{[^}]*\}/g, '{}')}`;

/**
 * `builtinIds`: operationIds of the built-in document by operationKey, when the user swapped in another one.
 * An operation found there keeps the built-in id's name (GENERIC-SCAN-GET-UPDATES-V2-...) whatever the
 * swapped-in document calls it, so waivers and diffs keep working across documents.
 */
export function genericRequirements(specName: string, spec: CompiledSpec, builtinIds?: ReadonlyMap<string, string>): Requirement[] {
  if (!isInterface(specName)) return [];
  const iface = specName;
  const out: RequirementInput[] = [];
  for (const op of spec.catalog.operations) {
    const builtinId = builtinIds?.get(operationKey(op)) ?? op.id;
    const slug = operationSlug(builtinId);
    const cites = (probe: GenericCheck) => GENERIC_CITES[iface][builtinId]?.[probe] ?? [];
    const common = {
      kind: 'generic' as const,
      level: 'MUST' as const,
      interface: iface,
      operations: [op.id],
      section: section(op),
      mutates: mutates(op),
      needs: [],
      tags: ['generic', specName],
    };

    out.push({
      ...common,
      id: genericId(iface, slug, 'responses'),
      probe: 'responses',
      cites: cites('responses'),
      sentence: 'Every answer has a documented status and content type, and a body valid against the schema documented for them.',
      async check(ctx) {
        const client = clientFor(ctx, iface);
        const generated = fc.sample(validRequest(op, spec.validators), { numRuns: ctx.runs, seed: ctx.seed });
        // The first request uses the run's fixtures, so real ids reach real data.
        const requests = [withFixtures(op, generated[0]!, ctx.fixtures), ...generated].map((r) => bounded(op, r));
        // Answers that say "not served" are judged once another answer shows the operation is served; when
        // none does, the operation is absent here and nothing can be judged.
        let pending: Exchange[] = [];
        let served = false;
        for await (const [, x] of answersInOrder(client, op, requests)) {
          if (!served && notServed(spec, op, x)) {
            pending.push(x);
            continue;
          }
          served = true;
          for (const p of [...pending, x]) ctx.conforms(op.id, p, iface);
          pending = [];
        }
        if (!served)
          ctx.unsupported(unsupportedReason(op, notServed(spec, op, pending[0]!)!, `every valid request (${pending.length})`), { exchange: pending[0] });
      },
      // Once the run is over, every answer of the operation the rules' checks received is judged too.
      reviewAnswers(ctx) {
        const received = ctx.answers.breakOf(iface, op.id);
        if (received)
          ctx.fail(
            `an answer ${received.receivedBy} received breaks the document: ${received.message}${received.count > 1 ? ` (${received.count} such answers in the run)` : ''}`,
            received.evidence,
          );
      },
    });

    // The relations the document states between an answer and its request: judged on every answer of the
    // operation any check of the run received (every version, mode and encoding its requests used).
    const relations = operationRelations(spec.loaded.document, op);
    if (relations.length > 0) {
      out.push({
        ...common,
        id: genericId(iface, slug, 'relations'),
        probe: 'relations',
        cites: [...new Set(relations.flatMap((r) => r.cites))],
        phase: 'review',
        exclusive: false,
        sentence: `Every successful answer keeps the relations its document states to its request: ${[...new Set(relations.map((r) => `${r.kind} ${r.request.in} ${r.request.name} at /${r.at.join('/')}`))].join('; ')}.`,
        async check(ctx) {
          const broken = ctx.answers.relationBreakOf(iface, op.id);
          if (broken)
            ctx.fail(
              `an answer ${broken.receivedBy} received breaks a relation to its request: ${broken.message}${broken.count > 1 ? ` (${broken.count} such answers in the run)` : ''}`,
              broken.evidence,
            );
          if (ctx.answers.relationsJudgedFor(iface, op.id) === 0) {
            // No answer to judge, because the release the node states has no such operation: nothing is missing.
            const late = ctx.notOfRelease(op.id);
            if (late) ctx.notApplicable(late);
            ctx.skip(`no successful answer of ${op.id} in this run carried both sides of a relation its document states`);
          }
        },
      });
    }

    const invalid = invalidRequest(op, spec.validators);
    if (invalid) {
      out.push({
        ...common,
        id: genericId(iface, slug, 'invalid-input'),
        probe: 'invalid-input',
        cites: cites('invalid-input'),
        // A conformant target refuses every request: it shares the target even for an operation that writes.
        exclusive: false,
        sentence: 'Input that breaks the documented request schema is refused with a documented 4xx status and error body, never 2xx or 5xx.',
        async check(ctx) {
          const client = clientFor(ctx, iface);
          const requests = fc.sample(invalid, { numRuns: ctx.runs, seed: ctx.seed }).map((r) => bounded(op, withFixturesKeepingBreak(op, r, ctx)));
          let servedProven = false;
          for await (const [req, x] of answersInOrder(client, op, requests)) {
            // Refused as if the operation were absent: a valid request tells whether it is.
            if (!servedProven && notServed(spec, op, x)) {
              const valid = await send(client, op, validProbe(op, spec, ctx));
              const why = notServed(spec, op, valid);
              if (why) ctx.unsupported(unsupportedReason(op, why), { exchange: valid });
              servedProven = true;
            }
            if (x.status === 0) ctx.expect(x).fail(`no answer to an invalid request (${req.mutation?.detail}): ${x.error}`);
            if (x.status < 400 || x.status >= 500)
              ctx.expect(x).fail(`invalid request (${req.mutation?.detail}) answered ${x.status}; a documented 4xx is required`);
            const answer = { status: x.status, contentType: x.headers['content-type'], text: x.text };
            if (!findResponse(op, x.status) && !refusalLeftOpen(op, answer))
              ctx.expect(x).fail(`invalid request (${req.mutation?.detail}) answered ${x.status}, which is not documented`);
            ctx.conforms(op.id, x, iface);
          }
        },
      });
    }

    const secured = op.security.length > 0 && !op.authOptional;
    if (secured) {
      out.push({
        ...common,
        id: genericId(iface, slug, 'credentials-required'),
        probe: 'credentials-required',
        cites: cites('credentials-required'),
        // A conformant target refuses the request: it shares the target even for an operation that writes.
        exclusive: false,
        sentence: 'A secured operation refuses a request that carries no credentials.',
        async check(ctx) {
          const client = clientFor(ctx, iface);
          const req = validProbe(op, spec, ctx);
          const x = await send(client, op, req, 'none');
          if (x.status === 0) ctx.expect(x).fail(`no answer: ${x.error}`);
          // A node that does not serve the operation refuses it before asking for credentials; the same
          // request with credentials tells whether that is so.
          if (NOT_SERVED_STATUSES.has(x.status)) {
            const withCredentials = await send(client, op, req);
            const why = notServed(spec, op, withCredentials);
            if (why) ctx.unsupported(unsupportedReason(op, why, 'the same request with credentials'), { exchange: withCredentials });
          }
          if (x.status !== 401 && x.status !== 403) ctx.expect(x).fail(`a request without credentials was answered ${x.status}; 401 or 403 is required`);
        },
      });
    }
  }
  return defineRequirements(import.meta.url, out);
}

/** One valid request as a user would send it: the run's fixture ids, waiting parameters kept short. */
function validProbe(op: OperationSpec, spec: CompiledSpec, ctx: CheckContext): GeneratedRequest {
  const [req] = fc.sample(validRequest(op, spec.validators), { numRuns: 1, seed: ctx.seed });
  return bounded(op, withFixtures(op, req!, ctx.fixtures));
}

// Fixture ids make invalid requests reach the rule being broken instead of failing on an unknown id,
// except for the parameter the mutation broke.
function withFixturesKeepingBreak(op: OperationSpec, req: GeneratedRequest, ctx: CheckContext): GeneratedRequest {
  const broken = req.mutation?.parameter;
  const filled = withFixtures({ ...op, parameters: op.parameters.filter((p) => p.name !== broken) }, req, ctx.fixtures);
  return { ...filled, mutation: req.mutation };
}
