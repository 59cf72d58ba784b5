// A record fact is judged on every answer that carries its record: for each operation whose successful
// response reaches the record schema ($ref reachability), for each path to it inside the body, a record that
// breaks the fact, placed after a valid one where the path crosses a list, fails validation with that fact.
// Every record the description states a fact of names it in the document.
import { describe, expect, it } from 'vitest';
import { isObject } from '../../common/json.ts';
import { RECORD_FACTS, type RecordFactName } from '../../generators/record-facts.ts';
import { recordCarriers, type Step } from '../../generators/record-carriers.ts';
import { builtinSpec, BUILTIN_NAMES } from '../support/builtin-specs.ts';

type Rec = Record<string, unknown>;
const events = (r: Rec) => r.events_by_id as Record<string, Rec>;
const firstEvent = (r: Rec) => Object.keys(events(r))[0]!;

/** One way to break each fact, given a valid record (a new fact needs one here). */
const BREAK: Record<RecordFactName, (r: Rec) => void> = {
  'tree-roots-known': (r) => void (r.root_event_ids as unknown[]).push('#no-such-event:0'),
  'tree-children-known': (r) => void (events(r)[firstEvent(r)]!.child_event_ids = ['#no-such-event:1']),
  'tree-all-reachable': (r) => void (events(r)['#orphan:0'] = { event_type: 'exercised_event', event_id: '#orphan:0', child_event_ids: [] }),
  'tree-created-event-id': (r) => {
    const key = Object.keys(events(r)).find((k) => 'create_arguments' in events(r)[k]!);
    if (key) events(r)[key]!.event_id = `${key}-other`;
    else {
      events(r)['#created:9'] = { event_type: 'created_event', event_id: '#created:8', create_arguments: {} };
      (r.root_event_ids as unknown[]).push('#created:9');
    }
  },
  'tree-created-at-effective': (r) => {
    r.effective_at = '2025-01-01T00:00:00.000001Z';
    events(r)['#created:7'] = { event_type: 'created_event', event_id: '#created:7', created_at: '2025-01-01T00:00:00.000251Z', create_arguments: {} };
    (r.root_event_ids as unknown[]).push('#created:7');
  },
  'tree-event-types': (r) => void delete events(r)[firstEvent(r)]!.event_type,
  'record-time-micros': (r) => void (r.record_time = '2025-01-01T00:00:00.1234567Z'),
  'effective-at-iso': (r) => void (r.effective_at = 'yesterday'),
  'external-hash-omitted': (r) => void (r.external_transaction_hash = null),
  'faucet-round-arithmetic': (r) => void (r.numRoundsMissed = (r.numRoundsMissed as number) + 3),
  'ans-url-http': (r) => void (r.url = 'ftp://example.com'),
  'participant-ids-form': (r) => void (r.participant_ids as unknown[]).push('MED::mediator::1220ab'),
};

/** The values at a path of a body (all elements of a list, all values of a map). */
function valuesAt(body: unknown, path: readonly Step[]): unknown[] {
  if (path.length === 0) return [body];
  const [step, ...rest] = path;
  if ('property' in step!) return isObject(body) && step.property in body ? valuesAt(body[step.property], rest) : [];
  const inner = 'items' in step! ? (Array.isArray(body) ? body : []) : isObject(body) ? Object.values(body) : [];
  return inner.flatMap((v) => valuesAt(v, rest));
}

/** A copy of the body with `record` placed at the path (after the elements a list already has), and where. */
function placed(body: unknown, path: readonly Step[], record: unknown): { body: unknown; at: string } {
  if (path.length === 0) return { body: record, at: '' };
  const [step, ...rest] = path;
  if ('property' in step!) {
    const obj = isObject(body) ? { ...body } : {};
    const inner = placed(obj[step.property], rest, record);
    obj[step.property] = inner.body;
    return { body: obj, at: `/${step.property}${inner.at}` };
  }
  if ('items' in step!) {
    const arr = Array.isArray(body) ? [...body] : [];
    const inner = placed(undefined, rest, record);
    arr.push(inner.body);
    return { body: arr, at: `/${arr.length - 1}${inner.at}` };
  }
  const map = isObject(body) ? { ...body } : {};
  const inner = placed(undefined, rest, record);
  map['zz-record-fact'] = inner.body;
  return { body: map, at: `/zz-record-fact${inner.at}` };
}

describe('record facts are judged on every answer that carries the record', async () => {
  const specs = Object.fromEntries(await Promise.all(BUILTIN_NAMES.map(async (n) => [n, await builtinSpec(n)] as const)));

  it('every record the description states a fact of names it in its document', () => {
    for (const [name, fact] of Object.entries(RECORD_FACTS))
      for (const [iface, records] of Object.entries(fact.records))
        for (const record of records) {
          const schema = (specs[iface as keyof typeof specs]!.loaded.document as unknown as { components: { schemas: Record<string, Rec> } }).components
            .schemas[record];
          expect(schema?.['x-cn-record-facts'], `${iface} ${record} names ${name}`).toContain(name);
        }
  });

  for (const iface of BUILTIN_NAMES) {
    it(`${iface}: a record breaking a fact fails the answer of every carrier, at every path`, () => {
      const spec = specs[iface]!;
      const carriers = recordCarriers(spec);
      // Valid instances of each record, from any carrier's example.
      const samples = new Map<string, unknown[]>();
      for (const c of carriers) {
        const examples = spec.catalog.byId
          .get(c.operationId)!
          .responses.find((r) => r.status === c.status)!
          .content.find((m) => m.contentType === c.contentType)!.examples;
        for (const e of examples) for (const p of c.paths) samples.set(c.record, [...(samples.get(c.record) ?? []), ...valuesAt(e.value, p).filter(isObject)]);
      }
      let judged = 0;
      for (const c of carriers) {
        const media = spec.catalog.byId
          .get(c.operationId)!
          .responses.find((r) => r.status === c.status)!
          .content.find((m) => m.contentType === c.contentType)!;
        const base = media.examples[0]?.value;
        expect(spec.validators.validate(c.schemaPointer, base).valid, `${c.operationId} example is valid`).toBe(true);
        for (const path of c.paths) {
          const valid = valuesAt(base, path).find(isObject) ?? samples.get(c.record)?.[0];
          expect(valid, `a valid ${c.record} in some example, to break for ${c.operationId}`).toBeDefined();
          for (const fact of c.facts as RecordFactName[]) {
            const broken = structuredClone(valid) as Rec;
            BREAK[fact](broken);
            const { body, at } = placed(base, path, broken);
            const issues = spec.validators
              .validate(c.schemaPointer, body)
              .issues.filter((i) => i.keyword === 'cnRecordFacts' && i.message.includes(`record fact ${fact})`));
            expect(
              issues.some((i) => i.pointer.startsWith(at)),
              `${c.operationId} ${c.status}: ${c.record} at ${at} breaking ${fact} is judged`,
            ).toBe(true);
            judged++;
          }
        }
      }
      if (iface === 'scan') expect(judged).toBeGreaterThan(0);
    });
  }
});
