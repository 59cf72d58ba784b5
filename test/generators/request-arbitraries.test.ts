// Whole requests for every operation: valid ones satisfy the document, invalid ones break exactly the
// place their mutation names.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeParameter, invalidRequest, requestTarget, validRequest, type OperationSpec, type SchemaValidators } from '../../generators/index.ts';
import { builtinSpec, BUILTIN_NAMES } from '../support/builtin-specs.ts';

const SEED = 424242;

/** Reads a request back the way a server would and checks it against the document. */
function conforms(
  op: OperationSpec,
  validators: SchemaValidators,
  req: { pathParams: Record<string, string>; query: Array<[string, string]>; body?: unknown; rawBody?: string },
): string[] {
  const problems: string[] = [];
  for (const p of op.parameters) {
    const present = p.in === 'path' ? p.name in req.pathParams : p.in === 'query' ? req.query.some(([n]) => n === p.name) : true;
    if (p.required && !present) problems.push(`missing ${p.in} ${p.name}`);
    if (p.in === 'path' && present && req.pathParams[p.name] === '') problems.push(`empty path ${p.name}`);
  }
  if (op.requestBody?.required && req.body === undefined && req.rawBody === undefined) problems.push('missing body');
  const media = op.requestBody?.content.find((m) => /json/.test(m.contentType));
  if (media?.schemaPointer && req.body !== undefined) {
    const r = validators.validate(media.schemaPointer, req.body);
    if (!r.valid) problems.push(`body: ${JSON.stringify(r.issues[0])}`);
  }
  return problems;
}

for (const name of BUILTIN_NAMES) {
  const { catalog, validators } = await builtinSpec(name);
  describe(`${name}: generated requests`, () => {
    it.each(catalog.operations.map((o) => [o.id, o] as const))('%s: valid requests conform and fill every path parameter', (_id, op) => {
      fc.assert(
        fc.property(validRequest(op, validators), (req) => {
          expect(conforms(op, validators, req)).toEqual([]);
          expect(requestTarget(op, req)).not.toMatch(/[{}]/);
          expect(requestTarget(op, req).startsWith(op.serverPrefix)).toBe(true);
        }),
        { numRuns: 20, seed: SEED },
      );
    });
  });
}

describe('invalid requests', () => {
  it('break holdings requests in the body: missing fields, wrong types, empty owner list, malformed JSON', async () => {
    const { catalog, validators } = await builtinSpec('scan');
    const op = catalog.byId.get('getHoldingsStateV1')!;
    const arb = invalidRequest(op, validators)!;
    const kinds = new Set<string>();
    fc.assert(
      fc.property(arb, (req) => {
        expect(req.mutation?.location).toBe('body');
        kinds.add(req.mutation!.kind);
        if (req.rawBody !== undefined) expect(() => JSON.parse(req.rawBody!)).toThrow();
        else if (req.body === undefined) expect(req.mutation!.detail).toBe('required request body omitted');
        else expect(validators.validate(op.requestBody!.content[0]!.schemaPointer!, req.body).valid).toBe(false);
      }),
      { numRuns: 200, seed: SEED },
    );
    expect([...kinds].sort()).toEqual(['malformed-json', 'missing-required', 'out-of-range', 'unknown-enum', 'wrong-type']);
  });

  it('break typed parameters in a way their text form shows (integer path parameter, missing required query)', async () => {
    const { catalog, validators } = await builtinSpec('scan');
    const rootHash = catalog.byId.get('getRewardAccountingRootHash')!;
    fc.assert(
      fc.property(invalidRequest(rootHash, validators)!, (req) => {
        expect(req.mutation).toMatchObject({ location: 'path', parameter: 'round_number' });
        expect(req.pathParams.round_number).not.toMatch(/^-?\d+$/);
      }),
      { numRuns: 50, seed: SEED },
    );
    const faucets = catalog.byId.get('getValidatorFaucetsByValidator')!;
    const samples = fc.sample(invalidRequest(faucets, validators)!, { numRuns: 50, seed: SEED });
    expect(samples.some((r) => r.mutation?.kind === 'missing-required' && !r.query.some(([n]) => n === 'validator_ids'))).toBe(true);
  });

  it('exist for every operation with a JSON body, a required query parameter or a non-string parameter, and only then', async () => {
    // A plain string parameter has no break that survives the wire: any text is a string.
    const plainString = (validators: SchemaValidators, ptr?: string) => {
      const s = ptr ? (validators.schemaAt(ptr) as Record<string, unknown>) : {};
      return s.type === 'string' && !s.enum && !s.pattern && !s.format && s.maxLength === undefined;
    };
    for (const name of BUILTIN_NAMES) {
      const { catalog, validators } = await builtinSpec(name);
      for (const op of catalog.operations) {
        const arb = invalidRequest(op, validators);
        const breakable =
          op.requestBody?.content.some((m) => /json/.test(m.contentType)) ||
          op.parameters.some((p) => (p.in === 'query' && p.required) || (p.in !== 'cookie' && !plainString(validators, p.schemaPointer)));
        expect(arb !== null, op.id).toBe(Boolean(breakable));
      }
    }
  });

  it('break parameters only in ways a server reading the text can see', async () => {
    for (const name of BUILTIN_NAMES) {
      const { catalog, validators } = await builtinSpec(name);
      for (const op of catalog.operations) {
        const arb = invalidRequest(op, validators);
        if (!arb) continue;
        for (const req of fc.sample(arb, { numRuns: 30, seed: SEED })) {
          const m = req.mutation!;
          if (m.location === 'body' || m.kind === 'missing-required') continue;
          const p = op.parameters.find((x) => x.name === m.parameter)!;
          const texts =
            p.in === 'query' ? req.query.filter(([n]) => n === p.name).map(([, v]) => v) : [p.in === 'path' ? req.pathParams[p.name]! : req.headers[p.name]!];
          expect(texts.join(''), `${op.id} ${m.detail}`).not.toBe('');
          expect(
            validators.validate(p.schemaPointer!, decodeParameter(validators.document, validators.schemaAt(p.schemaPointer!), texts)).valid,
            `${op.id} ${m.detail}`,
          ).toBe(false);
        }
      }
    }
  });

  it('serialise exploded array query parameters as repeated pairs', async () => {
    const { catalog, validators } = await builtinSpec('scan');
    const faucets = catalog.byId.get('getValidatorFaucetsByValidator')!;
    const req = fc.sample(validRequest(faucets, validators), { numRuns: 30, seed: SEED }).find((r) => r.query.length > 1)!;
    expect(req.query.every(([n]) => n === 'validator_ids')).toBe(true);
    expect(requestTarget(faucets, req)).toMatch(/^\/api\/scan\/v0\/validators\/validator-faucets\?validator_ids=[^&]*&validator_ids=/);
  });
});
