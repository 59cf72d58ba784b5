// POST /v0/admin/sv/voteresults: the DSO's closed vote requests. The only votes this network held are the
// accepted reward-weight updates of its SVs (world.svRewardWeights), served as DsoRules_CloseVoteRequestResult
// records in the compact Daml JSON encoding, reduced to the action, the requester, the completion and the
// outcome. Newest effective date first, as the official document orders them; the page token is an offset.
import type { FastifyInstance } from 'fastify';
import type { JsonObject } from '../../common/json.ts';
import type { NodeContext } from '../context.ts';
import { isoMicros } from '../world/time.ts';
import { bodyObject, integerField, pageSize, stringField, timestamp } from './params.ts';

const ACTION = 'SRARC_UpdateSvRewardWeight';
const MAX_LIMIT = 1000;
/** Each vote closed this long before its change took effect (the proposal's target effective time). */
const COMPLETED_BEFORE_MICROS = 120_000_000;

interface Result {
  effectiveAtMicros: number;
  requester: string;
  record: JsonObject;
}

function results(ctx: NodeContext): Result[] {
  const w = ctx.world;
  const requester = w.svParties[0]!.id;
  const all = [...w.svRewardWeights].flatMap(([svParty, changes]) =>
    changes.map((c) => ({
      effectiveAtMicros: c.effectiveAtMicros,
      requester,
      record: {
        request: {
          dso: w.dso.id,
          requester,
          action: { tag: 'ARC_DsoRules', value: { dsoAction: { tag: ACTION, value: { svParty, newRewardWeight: c.weight } } } },
          targetEffectiveAt: isoMicros(c.effectiveAtMicros),
        },
        completedAt: isoMicros(c.effectiveAtMicros - COMPLETED_BEFORE_MICROS),
        outcome: { tag: 'VRO_Accepted', value: { effectiveAt: isoMicros(c.effectiveAtMicros) } },
      },
    })),
  );
  return all.sort((a, b) => b.effectiveAtMicros - a.effectiveAtMicros);
}

export async function voteResultRoutes(app: FastifyInstance, ctx: NodeContext): Promise<void> {
  app.post('/v0/admin/sv/voteresults', async (req) => {
    const body = bodyObject(req.body);
    const limit = pageSize(body.limit, 'limit', MAX_LIMIT);
    const offset = integerField(body, 'pageToken', false) ?? 0;
    const actionName = stringField(body, 'actionName', false);
    const requester = stringField(body, 'requester', false);
    const fromText = stringField(body, 'effectiveFrom', false);
    const toText = stringField(body, 'effectiveTo', false);
    const from = fromText === undefined ? -Infinity : timestamp(fromText, 'effectiveFrom');
    const to = toText === undefined ? Infinity : timestamp(toText, 'effectiveTo');
    // Every vote held was accepted; `accepted: false` asks for none of them.
    const matching = results(ctx).filter(
      (r) =>
        body.accepted !== false &&
        (actionName === undefined || actionName === ACTION) &&
        (requester === undefined || requester === r.requester) &&
        r.effectiveAtMicros >= from &&
        r.effectiveAtMicros <= to,
    );
    const page = matching.slice(Math.max(0, offset), Math.max(0, offset) + limit);
    const next = offset + limit < matching.length ? { next_page_token: offset + limit } : {};
    return { dso_rules_vote_results: page.map((r) => r.record), ...next };
  });
}
