import { describe, expect, it } from 'vitest';
import { formatIssues, SchemaValidators, type LoadedDocument, type OpenApiDocument } from '../../generators/index.ts';

function inline(schemas: Record<string, unknown>, version: '3.0' | '3.1' = '3.0'): SchemaValidators {
  const document: OpenApiDocument = {
    openapi: version === '3.0' ? '3.0.3' : '3.1.0',
    info: { title: 'inline', version: '1' },
    paths: {},
    components: { schemas },
  };
  const loaded: LoadedDocument = { name: 'inline', source: 'inline.yaml', version, document, sha256: 'f'.repeat(64), repairs: [] };
  return new SchemaValidators(loaded);
}
const at = (name: string) => `/components/schemas/${name}`;

describe('OpenAPI 3.0 schema semantics', () => {
  const v = inline({
    Nullable: { type: 'string', nullable: true },
    NullableEnum: { type: 'string', enum: ['a', 'b'], nullable: true },
    NullableRef: { allOf: [{ $ref: '#/components/schemas/Int32' }], nullable: true },
    NotNullable: { type: 'string' },
    Int32: { type: 'integer', format: 'int32' },
    Int64: { type: 'integer', format: 'int64' },
    Exclusive: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: false },
    When: { type: 'string', format: 'date-time' },
    Bytes: { type: 'string', format: 'byte' },
    Binary: { type: 'string', format: 'binary' },
    Custom: { type: 'string', format: 'party-id', 'x-vendor-rule': { anything: true }, example: 'not checked' },
    Open: { type: 'object', properties: { a: { type: 'string' } } },
    Pet: {
      oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
      discriminator: { propertyName: 'kind', mapping: { cat: '#/components/schemas/Cat', dog: 'Dog' } },
    },
    Cat: { type: 'object', required: ['kind', 'lives'], properties: { kind: { type: 'string' }, lives: { type: 'integer' } } },
    Dog: { type: 'object', required: ['kind'], properties: { kind: { type: 'string' }, good: { type: 'boolean' } } },
    Tree: { type: 'object', required: ['children'], properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Tree' } } } },
  });

  it('treats nullable as "null is also allowed", for plain, enum and composed schemas', () => {
    expect(v.validate(at('Nullable'), null).valid).toBe(true);
    expect(v.validate(at('NotNullable'), null).valid).toBe(false);
    expect(v.validate(at('NullableEnum'), null).valid).toBe(true);
    expect(v.validate(at('NullableEnum'), 'c').valid).toBe(false);
    expect(v.validate(at('NullableRef'), null).valid).toBe(true);
    expect(v.validate(at('NullableRef'), 2 ** 31).valid).toBe(false);
  });

  it('enforces the int32 and int64 ranges and integrality', () => {
    expect(v.validate(at('Int32'), 2147483647).valid).toBe(true);
    expect(v.validate(at('Int32'), 2147483648).valid).toBe(false);
    expect(v.validate(at('Int32'), -2147483649).valid).toBe(false);
    expect(v.validate(at('Int64'), 2 ** 53).valid).toBe(true);
    expect(v.validate(at('Int64'), 1e19).valid).toBe(false);
    expect(v.validate(at('Int64'), 1.5).valid).toBe(false);
    expect(v.validate(at('Int64'), '12').valid).toBe(false);
  });

  it('reads boolean exclusiveMinimum/exclusiveMaximum the 3.0 way', () => {
    expect(v.validate(at('Exclusive'), 0).valid).toBe(false);
    expect(v.validate(at('Exclusive'), 0.001).valid).toBe(true);
    expect(v.validate(at('Exclusive'), 10).valid).toBe(true);
  });

  it('checks date-time and byte formats, accepts any binary, and ignores unknown formats and x- keywords', () => {
    expect(v.validate(at('When'), '2025-03-01T12:00:00.123456Z').valid).toBe(true);
    expect(v.validate(at('When'), '2025-03-01 noon').valid).toBe(false);
    expect(v.validate(at('Bytes'), 'aGVsbG8=').valid).toBe(true);
    expect(v.validate(at('Bytes'), 'not base64!').valid).toBe(false);
    expect(v.validate(at('Binary'), '\u0000\u0001').valid).toBe(true);
    expect(v.validate(at('Custom'), 'anything').valid).toBe(true);
  });

  it('allows extra properties unless a schema forbids them', () => {
    expect(v.validate(at('Open'), { a: 'x', extra: 1 }).valid).toBe(true);
  });

  it('selects the one-of branch by discriminator, with explicit and short mappings', () => {
    expect(v.validate(at('Pet'), { kind: 'cat', lives: 9 }).valid).toBe(true);
    expect(v.validate(at('Pet'), { kind: 'dog' }).valid).toBe(true);
    const missing = v.validate(at('Pet'), { kind: 'cat' });
    expect(missing.valid).toBe(false);
    expect(formatIssues(missing)).toContain("is missing required property 'lives'");
    const unknown = v.validate(at('Pet'), { kind: 'fish' });
    expect(unknown.issues[0]).toMatchObject({ pointer: '/kind', message: 'must be one of ["cat","dog"]' });
  });

  it('supports recursive schemas', () => {
    expect(v.validate(at('Tree'), { children: [{ children: [{ children: [] }] }] }).valid).toBe(true);
    const r = v.validate(at('Tree'), { children: [{ children: [{}] }] });
    expect(r.issues[0]).toMatchObject({ pointer: '/children/0/children/0', message: "is missing required property 'children'" });
    expect(r.issues[0]!.schemaPointer).toContain('/components/schemas/Tree');
  });

  it('compiles each schema once and reuses it', () => {
    expect(v.validatorAt(at('Tree'))).toBe(v.validatorAt(at('Tree')));
  });

  it('says where no schema exists', () => {
    expect(() => v.validatorAt(at('Nope'))).toThrow(/inline\.yaml: no schema at #\/components\/schemas\/Nope/);
  });
});

describe('OpenAPI 3.1 schema semantics', () => {
  it('uses type arrays and numeric exclusive bounds', () => {
    const v = inline({ N: { type: ['string', 'null'] }, E: { type: 'number', exclusiveMaximum: 5 } }, '3.1');
    expect(v.validate(at('N'), null).valid).toBe(true);
    expect(v.validate(at('N'), 1).valid).toBe(false);
    expect(v.validate(at('E'), 5).valid).toBe(false);
    expect(v.validate(at('E'), 4.9).valid).toBe(true);
  });
});
