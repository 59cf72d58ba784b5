// The relations the documents state between an answer and its request (generators/relations.ts): found on
// every operation whose answer carries the annotated schema, judged only where both sides are present.
import { describe, expect, it } from 'vitest';
import { judgeRelations, operationRelations, type CompiledSpec } from '../../generators/index.ts';
import { unknownSentences } from '../../description/cite.ts';
import { BUILTIN_NAMES, builtinSpec } from '../support/builtin-specs.ts';

const ok = (url: string, body: unknown, requestBody?: unknown) => ({
  url,
  status: 200,
  body,
  requestBody: requestBody === undefined ? undefined : JSON.stringify(requestBody),
});

describe('relations of the built-in documents', async () => {
  const specs = Object.fromEntries(await Promise.all(BUILTIN_NAMES.map(async (n) => [n, await builtinSpec(n)] as const))) as Record<string, CompiledSpec>;
  const relationsOf = (iface: string, id: string) => {
    const spec = specs[iface]!;
    const op = spec.catalog.byId.get(id)!;
    return { op, relations: operationRelations(spec.loaded.document, op) };
  };

  it('are stated on every variant that carries the annotated schema, citing sentences of the description', () => {
    for (const id of ['getHoldingsStateV0', 'getHoldingsStateV1', 'getHoldingsStateV2']) {
      const kinds = relationsOf('scan', id).relations.map((r) => `${r.kind} ${r.request.name} /${r.at.join('/')}`);
      expect(kinds, id).toEqual(['echo /record_time /record_time', 'echo /migration_id /migration_id', 'count-at-most /page_size /created_events']);
    }
    expect(relationsOf('scan', 'getEventById').relations.map((r) => `/${r.at.join('/')}`)).toEqual(['/update/update_id', '/verdict/update_id']);
    for (const spec of Object.values(specs))
      for (const op of spec.catalog.operations)
        for (const r of operationRelations(spec.loaded.document, op)) expect(unknownSentences(r.cites), `${op.id} ${r.statedAt}`).toEqual([]);
  });

  it('an echo is the same text as the request, in every match mode', () => {
    const { op, relations } = relationsOf('scan', 'getHoldingsStateV1');
    const req = { migration_id: 1, record_time: '2025-01-06T09:20:40.545880Z', record_time_match: 'at_or_before', page_size: 2, owner_party_ids: ['a'] };
    const url = 'http://n/api/scan/v1/holdings/state';
    expect(judgeRelations(op, relations, ok(url, { record_time: req.record_time, migration_id: 1, created_events: [{}, {}] }, req))).toEqual({
      applied: 3,
      breaks: [],
    });
    const j = judgeRelations(op, relations, ok(url, { record_time: '2025-01-06T09:20:40.545Z', migration_id: 1, created_events: [{}, {}, {}] }, req));
    expect(j.breaks.map((b) => b.pointer)).toEqual(['/record_time', '/created_events']);
    expect(j.breaks[0]!.message).toMatch(/must be the same as the request's body \/record_time/);
  });

  it('a by-key answer is about the key in the path or body; an absent side leaves it open', () => {
    const events = relationsOf('scan', 'getEventById');
    const url = 'http://n/base/api/scan/v0/events/abc%3A1';
    expect(judgeRelations(events.op, events.relations, ok(url, { update: { update_id: 'abc:1' }, verdict: { update_id: 'abc:1' } })).breaks).toEqual([]);
    expect(judgeRelations(events.op, events.relations, ok(url, { verdict: { update_id: 'other' } })).breaks.map((b) => b.pointer)).toEqual([
      '/verdict/update_id',
    ]);
    expect(judgeRelations(events.op, events.relations, ok(url, {})).applied).toBe(0);
    const byContract = relationsOf('ledger', 'getEventsByContractId');
    const body = (id: string) => ({ created: { createdEvent: { contractId: id } } });
    expect(
      judgeRelations(byContract.op, byContract.relations, ok('http://n/v2/events/events-by-contract-id', body('c2'), { contractId: 'c1' })).breaks,
    ).toHaveLength(1);
    expect(
      judgeRelations(byContract.op, byContract.relations, ok('http://n/v2/events/events-by-contract-id', body('c1'), { contractId: 'c1' })).breaks,
    ).toEqual([]);
  });

  it('judges only successful answers, and counts, prefixes and lists only where the request names them', () => {
    const ans = relationsOf('scan', 'listAnsEntries');
    const entries = { entries: [{ name: 'alice.unverified.cns' }, { name: 'bob.cns' }] };
    expect(judgeRelations(ans.op, ans.relations, ok('http://n/api/scan/v0/ans-entries?page_size=5', entries)).breaks).toEqual([]);
    expect(
      judgeRelations(ans.op, ans.relations, ok('http://n/api/scan/v0/ans-entries?page_size=1&name_prefix=alice', entries)).breaks.map((b) => b.pointer),
    ).toEqual(['/entries', '/entries/1/name']);
    expect(judgeRelations(ans.op, ans.relations, { ...ok('http://n/api/scan/v0/ans-entries?page_size=1', entries), status: 404 }).applied).toBe(0);
    const faucets = relationsOf('scan', 'getValidatorFaucetsByValidator');
    const list = { validatorsReceivedFaucets: [{ validator: 'v1' }, { validator: 'v3' }] };
    const url = 'http://n/api/scan/v0/validators/validator-faucets?validator_ids=v1&validator_ids=v2';
    expect(judgeRelations(faucets.op, faucets.relations, ok(url, list)).breaks.map((b) => b.pointer)).toEqual(['/validatorsReceivedFaucets/1/validator']);
    const updates = relationsOf('ledger', 'getUpdates');
    expect(judgeRelations(updates.op, updates.relations, ok('http://n/v2/updates?limit=1', [{}, {}])).breaks).toHaveLength(1);
    expect(judgeRelations(updates.op, updates.relations, ok('http://n/v2/updates', [{}, {}])).applied).toBe(0);
  });
});
