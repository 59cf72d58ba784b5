// The reference node's Daml values: each kind in the two scan encodings (compact_json and protobuf_json, the
// ledger API's Value in proto3 JSON), the world's values all typed by its packages, and one update in both
// encodings through the scan interface.
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '../../common/json.ts';
import { compactJson, encodeValue, protobufJson } from '../../reference-node/scan/daml-values.ts';
import { buildContext, buildServer } from '../../reference-node/server.ts';
import { choiceTypes, enumType, record, T, templateType, variant, type DamlType } from '../../reference-node/world/daml-types.ts';
import { openMiningRound } from '../../reference-node/world/dso-governance.ts';
import type { Contract, TxNode } from '../../reference-node/world/model.ts';
import { readValue } from '../../reference-node/world/typed-values.ts';

const packageIds = (name: string) => `pkg(${name})`;
const both = (type: DamlType | undefined, json: unknown) => {
  const typed = readValue(type, json);
  return { compact: compactJson(typed), protobuf: protobufJson(typed, packageIds) };
};
const id = (module: string, entity: string) => ({ packageId: 'pkg(p)', moduleName: module, entityName: entity });

describe('each value kind in both encodings', () => {
  it.each([
    ['unit', T.unit, {}, { unit: {} }],
    ['bool', T.bool, false, { bool: false }],
    ['int64', T.int64, '42', { int64: '42' }],
    ['numeric', T.numeric, '5.0000000000', { numeric: '5.0000000000' }],
    ['text', T.text, '17', { text: '17' }],
    ['party', T.party, 'alice::1220ab', { party: 'alice::1220ab' }],
    ['contractId', T.contractId, '00abcd', { contractId: '00abcd' }],
    ['timestamp', T.timestamp, '2025-01-06T09:00:00.000123Z', { timestamp: '1736154000000123' }],
    ['date', T.date, '2025-01-06', { date: 20094 }],
    ['list', T.list(T.party), ['a::1', 'b::1'], { list: { elements: [{ party: 'a::1' }, { party: 'b::1' }] } }],
    ['empty list', T.list(T.party), [], { list: {} }],
    ['optional none', T.optional(T.int64), null, { optional: {} }],
    ['optional some', T.optional(T.int64), '3', { optional: { value: { int64: '3' } } }],
    ['nested optional', T.optional(T.optional(T.text)), [null], { optional: { value: { optional: {} } } }],
    ['textMap', T.textMap(T.numeric), { a: '1.0' }, { textMap: { entries: [{ key: 'a', value: { numeric: '1.0' } }] } }],
    ['genMap', T.genMap(T.party, T.bool), [['a::1', true]], { genMap: { entries: [{ key: { party: 'a::1' }, value: { bool: true } }] } }],
    ['enum', enumType('p', 'M:Unit', ['A', 'B']), 'B', { enum: { enumId: id('M', 'Unit'), constructor: 'B' } }],
    [
      'variant',
      variant('p', 'M.N:V', { Left: T.int64, Right: T.text }),
      { tag: 'Right', value: 'x' },
      { variant: { variantId: id('M.N', 'V'), constructor: 'Right', value: { text: 'x' } } },
    ],
    [
      'record',
      record('p', 'M:R', { owner: T.party, round: record('p', 'M:Round', { number: T.int64 }) }),
      { round: { number: '7' }, owner: 'o::1' },
      {
        record: {
          recordId: id('M', 'R'),
          fields: [
            { label: 'owner', value: { party: 'o::1' } },
            { label: 'round', value: { record: { recordId: id('M', 'Round'), fields: [{ label: 'number', value: { int64: '7' } }] } } },
          ],
        },
      },
    ],
    ['record without fields', record('p', 'M:Empty', {}), {}, { record: { recordId: id('M', 'Empty') } }],
  ] as Array<[string, DamlType, unknown, Json]>)('%s', (_, type, json, protobuf) => {
    const r = both(type, json);
    expect(r.protobuf).toEqual(protobuf);
    // compact_json is the value as given (fields in declaration order for records).
    expect(r.compact).toEqual(json);
  });

  it('values of no known type are read by their JSON shape, without ids', () => {
    expect(both(undefined, { a: 'x', n: null }).protobuf).toEqual({
      record: {
        fields: [
          { label: 'a', value: { text: 'x' } },
          { label: 'n', value: { optional: {} } },
        ],
      },
    });
  });

  it('a value that does not fit its type is reported and read by its shape', () => {
    const problems: string[] = [];
    expect(readValue(T.int64, true, (p) => problems.push(p))).toEqual({ kind: 'bool', value: true });
    expect(encodeValue(T.party, 'p::1', 'compact', packageIds)).toBe('p::1');
    expect(problems).toHaveLength(1);
  });
});

describe('the world and the scan interface', () => {
  const ctx = buildContext({ seed: 3, scale: 0.02 });
  const w = ctx.world;

  it('every contract and choice value of the world fits the type its package gives it, and compact_json is it as held', () => {
    const problems: string[] = [];
    const check = (what: string, type: DamlType | undefined, json: unknown) => {
      if (!type) return problems.push(`${what}: no type`);
      const typed = readValue(type, json, (p) => problems.push(`${what}: ${p}`));
      if (!isDeepStrictEqual(compactJson(typed), json)) problems.push(`${what}: compact_json ${JSON.stringify(compactJson(typed))}`);
    };
    const contract = (c: Contract) => check(c.templateId, templateType(c.templateId), c.createArguments);
    const node = (n: TxNode) => {
      if (n.kind === 'created') return contract(n.contract);
      const types = choiceTypes(n.templateId, n.choice);
      check(`${n.choice} argument`, types?.argument, n.choiceArgument);
      check(`${n.choice} result`, types?.result, n.exerciseResult);
    };
    const updates = [...Array.from({ length: w.count }, (_, i) => w.getUpdate(i)), ...w.ledgerOnly.values()];
    for (const u of updates) {
      if (u.kind === 'transaction') u.nodes.forEach(node);
      else if (u.kind !== 'topology') contract(u.contract);
    }
    w.governance.referenceContracts.forEach(contract);
    contract(openMiningRound(w, 2));
    expect(problems).toEqual([]);
  });

  let app: Awaited<ReturnType<typeof buildServer>>;
  beforeAll(async () => {
    app = await buildServer(ctx);
  });
  afterAll(() => app?.close());

  it('an update in compact_json and protobuf_json: one typed value, two renderings', async () => {
    const tx = Array.from({ length: w.count }, (_, i) => w.getUpdate(i)).find(
      (u) => u.kind === 'transaction' && u.nodes.some((n) => n.kind === 'created' && n.contract.templateId.endsWith(':Splice.Amulet:Amulet')),
    )!;
    const get = async (q: string) => (await app.inject({ method: 'GET', url: `/api/scan/v2/updates/${tx.updateId}${q}` })).json() as Json;
    const [compact, protobuf] = await Promise.all([get(''), get('?daml_value_encoding=protobuf_json')]);
    const amulet = (body: Json) => Object.values(body.events_by_id as Json).find((e: Json) => String(e.template_id).endsWith(':Amulet')) as Json;
    const c = amulet(compact).create_arguments;
    const p = amulet(protobuf).create_arguments.record;
    expect(p.recordId).toEqual({ packageId: w.amuletPackage, moduleName: 'Splice.Amulet', entityName: 'Amulet' });
    const field = (label: string) => p.fields.find((f: Json) => f.label === label).value;
    expect(field('owner')).toEqual({ party: c.owner });
    const amount = field('amount').record.fields;
    expect(amount[0]).toEqual({ label: 'initialAmount', value: { numeric: c.amount.initialAmount } });
    expect(amount[1].value.record.fields[0]).toEqual({ label: 'number', value: { int64: c.amount.createdAt.number } });
    // The exercise that created it: its argument and result typed by the choice.
    const exercised = Object.values(protobuf.events_by_id as Json).find((e: Json) => e.event_type === 'exercised_event') as Json;
    expect(exercised.choice_argument.record.recordId.entityName).toBe(exercised.choice);
    expect(JSON.stringify(exercised.exercise_result)).toContain('"contractId"');
    const bad = await app.inject({ method: 'GET', url: `/api/scan/v2/updates/${tx.updateId}?daml_value_encoding=xml` });
    expect(bad.statusCode).toBe(400);
  });
});
