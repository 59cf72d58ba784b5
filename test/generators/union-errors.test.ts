import fc from 'fast-check';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileSpec, formatIssues, judgeResponse, SchemaValidators, validValue, type LoadedDocument, type OpenApiDocument } from '../../generators/index.ts';

// A made-up feed in the style of the ledger's: each item wraps one update kind under its own key, a
// transaction's events wrap one event kind, and a created event's payload is told apart by a discriminator.
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const wrapper = (key: string, schema: unknown) => ({ type: 'object', required: [key], properties: { [key]: schema } });
const schemas = {
  Feed: { type: 'array', items: { type: 'object', properties: { update: ref('Update') } } },
  Update: {
    oneOf: [
      wrapper('Checkpoint', ref('Checkpoint')),
      wrapper('Move', ref('Move')),
      wrapper('Tx', { type: 'object', required: ['value'], properties: { value: ref('Tx') } }),
    ],
  },
  Checkpoint: { type: 'object', required: ['offset'], properties: { offset: { type: 'integer' } } },
  Move: { type: 'object', required: ['from', 'to'], properties: { from: { type: 'string' }, to: { type: 'string' } } },
  Tx: {
    type: 'object',
    required: ['id', 'events'],
    properties: { id: { type: 'string' }, events: { type: 'array', items: ref('Event') }, last: { allOf: [ref('Event')], nullable: true } },
  },
  Event: { oneOf: [wrapper('Created', ref('Created')), wrapper('Archived', ref('Archived')), wrapper('Exercised', ref('Exercised'))] },
  Created: {
    type: 'object',
    required: ['cid', 'delta', 'payload'],
    properties: { cid: { type: 'string' }, delta: { type: 'boolean' }, payload: ref('Payload') },
  },
  Archived: { type: 'object', required: ['cid'], properties: { cid: { type: 'string' } } },
  Exercised: { type: 'object', required: ['cid', 'choice'], properties: { cid: { type: 'string' }, choice: { type: 'string' } } },
  Payload: { oneOf: [ref('Coin'), ref('Note')], discriminator: { propertyName: 'kind', mapping: { coin: ref('Coin').$ref, note: ref('Note').$ref } } },
  Coin: { type: 'object', required: ['kind', 'amount'], properties: { kind: { type: 'string' }, amount: { type: 'number' } } },
  Note: { type: 'object', required: ['kind', 'text'], properties: { kind: { type: 'string' }, text: { type: 'string' } } },
  // Told apart by a one-value enum on `shape`, with no discriminator object.
  Shape: {
    oneOf: [
      { type: 'object', required: ['shape', 'r'], properties: { shape: { type: 'string', enum: ['circle'] }, r: { type: 'number' } } },
      { type: 'object', required: ['shape', 'side'], properties: { shape: { type: 'string', enum: ['square'] }, side: { type: 'number' } } },
    ],
  },
  // Open branches a value can fit both of.
  Overlap: {
    oneOf: [
      { title: 'WithA', type: 'object', properties: { a: { type: 'string' } } },
      { title: 'WithB', type: 'object', properties: { b: { type: 'string' } } },
    ],
  },
  // Nothing tells these apart: every branch's errors stay.
  Loose: {
    anyOf: [
      { type: 'object', required: ['a'], properties: { a: { type: 'string' } } },
      { type: 'object', required: ['a'], properties: { a: { type: 'integer' } } },
    ],
  },
};

function validators(): SchemaValidators {
  const document: OpenApiDocument = { openapi: '3.0.3', info: { title: 'unions', version: '1' }, paths: {}, components: { schemas } };
  const loaded: LoadedDocument = { name: 'unions', source: 'unions.yaml', version: '3.0', document, sha256: 'e'.repeat(64), repairs: [] };
  return new SchemaValidators(loaded);
}
const at = (name: string) => `/components/schemas/${name}`;

const created = (over: Record<string, unknown> = {}) => ({ cid: 'c1', delta: true, payload: { kind: 'coin', amount: 1 }, ...over });
const tx = (events: unknown[], extra: Record<string, unknown> = {}) => [{ update: { Tx: { value: { id: 't1', events, ...extra } } } }];
const { delta: _delta, ...noDelta } = created();

describe('a failed union reports the branch the value selects', () => {
  const v = validators();

  it('leaves valid values valid', () => {
    expect(v.validate(at('Feed'), tx([{ Created: created() }, { Archived: { cid: 'c0' } }], { last: null })).valid).toBe(true);
    expect(v.validate(at('Feed'), [{ update: { Checkpoint: { offset: 3 } } }]).valid).toBe(true);
    expect(v.validate(at('Shape'), { shape: 'square', side: 2 }).valid).toBe(true);
  });

  it('leads with the missing property inside the branch named by the key, through nested one-key unions', () => {
    const r = v.validate(at('Feed'), tx([{ Archived: { cid: 'c0' } }, { Created: noDelta }]));
    expect(r.valid).toBe(false);
    expect(r.issues).toEqual([expect.objectContaining({ pointer: '/0/update/Tx/value/events/1/Created', message: "is missing required property 'delta'" })]);
    expect(formatIssues(r)).toMatch(/^\/0\/update\/Tx\/value\/events\/1\/Created is missing required property 'delta' \(\d+ schema errors in all/);
    expect(formatIssues(r)).not.toMatch(/Checkpoint|Archived'|Exercised|exactly one/);
    // Nothing is lost: the unreduced list still holds every branch's errors.
    expect(r.unreduced!.map((i) => i.message)).toEqual(
      expect.arrayContaining(["is missing required property 'Checkpoint'", "is missing required property 'delta'"]),
    );
  });

  it('follows a discriminator inside a one-key union to the selected payload', () => {
    const r = v.validate(at('Feed'), tx([{ Created: created({ payload: { kind: 'note' } }) }]));
    expect(formatIssues(r)).toMatch(/^\/0\/update\/Tx\/value\/events\/0\/Created\/payload is missing required property 'text' \(/);
    expect(r.issues).toHaveLength(1);
  });

  it('selects by a one-value enum property and says in one line when the value selects no branch', () => {
    expect(formatIssues(v.validate(at('Shape'), { shape: 'circle' }))).toMatch(/^\(root\) is missing required property 'r' \(/);
    expect(v.validate(at('Shape'), { shape: 'hexagon', r: 1 }).issues).toEqual([
      expect.objectContaining({ pointer: '', message: 'matches none of the 2 branches: expected shape one of "circle", "square" (got "hexagon")' }),
    ]);
    expect(v.validate(at('Shape'), { r: 1 }).issues[0]!.message).toBe(
      'matches none of the 2 branches: expected shape one of "circle", "square" (shape is missing)',
    );
  });

  it('says in one line when no key of the union is present, or the keys of several', () => {
    const none = v.validate(at('Feed'), tx([{ Deleted: { cid: 'c0' } }]));
    expect(formatIssues(none)).toMatch(
      /^\/0\/update\/Tx\/value\/events\/0 matches none of the 3 branches: expected one of keys Created, Archived, Exercised \(/,
    );
    expect(none.issues).toHaveLength(1);
    const two = v.validate(at('Feed'), tx([{ Created: created(), Archived: { cid: 'c0' } }]));
    expect(two.issues.map((i) => i.message)).toEqual(['matches none of the 3 branches: has the keys of 2 of them (Created, Archived); expected one']);
    expect(v.validate(at('Feed'), [{ update: 'Tx' }]).issues.map((i) => i.message)).toEqual(['matches none of the 3 branches: expected object, got string']);
  });

  it('names the branches a oneOf value fits more than one of', () => {
    expect(v.validate(at('Overlap'), { a: 'x' }).issues.map((i) => i.message)).toEqual(['matches 2 of the 2 branches (WithA, WithB); exactly one must match']);
  });

  it('judges a nullable union that is not null as the union', () => {
    const r = v.validate(at('Feed'), tx([], { last: { Exercised: { cid: 'c0' } } }));
    expect(r.issues.map((i) => `${i.pointer} ${i.message}`)).toEqual(["/0/update/Tx/value/last/Exercised is missing required property 'choice'"]);
  });

  it('keeps every branch of a union nothing tells apart, and what sits beside a union', () => {
    const loose = v.validate(at('Loose'), { a: true });
    expect(loose.issues.map((i) => i.message)).toEqual(['must be string', 'must be integer', 'must match a schema in anyOf']);
    expect(loose.unreduced).toBeUndefined();
    const beside = v.validate(at('Feed'), tx([{ Created: noDelta }], { id: 7 }));
    expect(beside.issues.map((i) => `${i.pointer} ${i.message}`).sort()).toEqual(
      ["/0/update/Tx/value/events/0/Created is missing required property 'delta'", '/0/update/Tx/value/id must be string'].sort(),
    );
  });
});

/** Every object of a value with its keys, for dropping one of them. */
function objects(v: unknown, out: Array<Record<string, unknown>> = []): Array<Record<string, unknown>> {
  if (Array.isArray(v)) for (const x of v) objects(x, out);
  else if (typeof v === 'object' && v !== null) {
    out.push(v as Record<string, unknown>);
    for (const x of Object.values(v)) objects(x, out);
  }
  return out;
}

describe('the reduction changes the report only', () => {
  const v = validators();
  it('keeps a value invalid exactly when ajv says so, with at least one issue, each from the raw list or a one-line summary', () => {
    const feed = validValue(v.document, v.schemaAt(at('Feed')));
    fc.assert(
      fc.property(feed, fc.nat(), fc.nat(), (value, pick, keyPick) => {
        const broken = structuredClone(value);
        const objs = objects(broken);
        const target = objs[pick % Math.max(objs.length, 1)];
        const keys = target ? Object.keys(target) : [];
        if (target && keys.length) delete target[keys[keyPick % keys.length]!];
        const r = v.validate(at('Feed'), broken);
        expect(r.valid).toBe(v.validatorAt(at('Feed'))(broken));
        expect(r.issues.length > 0).toBe(!r.valid);
        const raw = new Set((r.unreduced ?? r.issues).map((i) => `${i.pointer} ${i.message}`));
        for (const i of r.issues) expect(raw.has(`${i.pointer} ${i.message}`) || i.message.startsWith('matches ')).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe('the answer judge on an update page of the built-in ledger document', async () => {
  const spec = await compileSpec(fileURLToPath(new URL('../../specs/ledger-api.yaml', import.meta.url)));
  const party = 'p1::1220aa';
  const event = {
    offset: 5,
    nodeId: 0,
    contractId: '00aa',
    templateId: 'pkg:Mod:T',
    createArgument: {},
    witnessParties: [party],
    signatories: [party],
    createdAt: '2025-06-01T00:00:00Z',
    packageName: 'pkg',
    representativePackageId: 'pkg',
  };
  const page = (created: Record<string, unknown>) => [
    {
      update: {
        Transaction: {
          value: {
            updateId: 'u1',
            effectiveAt: '2025-06-01T00:00:00Z',
            offset: 5,
            synchronizerId: 's::1220bb',
            recordTime: '2025-06-01T00:00:00Z',
            events: [{ CreatedEvent: created }],
          },
        },
      },
    },
  ];
  const answer = (body: unknown) => ({ status: 200, contentType: 'application/json', text: JSON.stringify(body) });

  it('leads with the missing acsDelta of a created event, not the update kinds the item is not', () => {
    expect(judgeResponse(spec, 'getUpdates', answer(page({ ...event, acsDelta: true }))).problems).toEqual([]);
    const j = judgeResponse(spec, 'getUpdates', answer(page(event)), { strict: true });
    expect(j.problems[0]).toMatch(
      /violates the schema: \/0\/update\/Transaction\/value\/events\/0\/CreatedEvent is missing required property 'acsDelta' \(\d+ schema errors in all/,
    );
    expect(j.problems[0]).not.toMatch(/OffsetCheckpoint|Reassignment|TopologyTransaction|ArchivedEvent|ExercisedEvent/);
    expect(j.pointer).toBe('/0/update/Transaction/value/events/0/CreatedEvent');
    // A release line that predates the property still finds it in the unreduced issues.
    expect(judgeResponse(spec, 'getUpdates', answer(page(event)), { notRequired: ['acsDelta'] })).toMatchObject({ problems: [], notApplicable: ['acsDelta'] });
  });
});
