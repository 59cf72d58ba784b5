// The variant axes of the documents (x-cn-variants) and how an exchange shows its value on each.
import { describe, expect, it } from 'vitest';
import { classifyVariants, variantAxes, versionFamilies, type VariantExchange } from '../../generators/variant-axes.ts';
import type { OperationSpec } from '../../generators/index.ts';
import { builtinDocumentsOnce } from '../support/builtin-specs.ts';

const op = (axes: unknown): OperationSpec => ({ id: 'op', extensions: { 'x-cn-variants': axes } }) as unknown as OperationSpec;
const exchange = (query: string, body?: unknown, answer?: unknown): VariantExchange => ({
  query: new URLSearchParams(query),
  body: body as never,
  answer: answer as never,
});

describe('x-cn-variants', () => {
  it('parses in every shipped document, each axis with a reason and at least two values', async () => {
    const { specs } = await builtinDocumentsOnce();
    const declared = Object.values(specs).flatMap((s) => s!.catalog.operations.flatMap((o) => variantAxes(o).map((a) => `${o.id} ${a.axis}`)));
    expect(declared).toEqual(
      expect.arrayContaining([
        'getUpdates transaction-shape',
        'getUpdates parties',
        'getUpdateByIdV0 record-type',
        'getEventById value-encoding',
        'listAnsEntries name-prefix',
        'getHoldingsStateV0 record-time-match',
      ]),
    );
  });

  it('groups the versions of one path (x-cn-version-of), and refuses a family of one or a name that is none', async () => {
    const { specs } = await builtinDocumentsOnce();
    expect(Object.fromEntries(versionFamilies(specs.scan!.catalog.operations))).toEqual({
      'holdings-state': ['getHoldingsStateV0', 'getHoldingsStateV1', 'getHoldingsStateV2'],
      'update-by-id': ['getUpdateByIdV0', 'getUpdateByIdV2'],
    });
    const versioned = (id: string, family: unknown) => ({ id, extensions: { 'x-cn-version-of': family } }) as unknown as OperationSpec;
    expect(() => versionFamilies([versioned('a', 'f')])).toThrow(/x-cn-version-of f: a is its only version/);
    expect(() => versionFamilies([versioned('a', 3), versioned('b', 3)])).toThrow(/a: x-cn-version-of is not a family name/);
  });

  it('refuses a malformed declaration, naming the operation', () => {
    expect(() => variantAxes(op({ axis: 'a' }))).toThrow(/op: x-cn-variants is not a list/);
    expect(() => variantAxes(op([{ axis: 'a', why: 'w', values: { x: { query: 'q', present: true } } }]))).toThrow(/fewer than two/);
    expect(() => variantAxes(op([{ axis: 'a', why: 'w', values: { x: { present: true }, y: { query: 'q', present: true } } }]))).toThrow(/one place/);
  });

  it('classifies by query, body (with wildcards and sizes) and answer; the first value that holds wins', () => {
    const axes = variantAxes(
      op([
        {
          axis: 'prefix',
          why: 'w',
          values: {
            absent: [
              { query: 'p', present: false },
              { query: 'p', is: '' },
            ],
            given: { query: 'p', present: true },
          },
        },
        {
          axis: 'entries',
          why: 'w',
          values: { several: { body: '/f/*/cumulative', size: '>=2' }, one: { body: '/f/*/cumulative', size: '1' } },
        },
        { axis: 'type', why: 'w', values: { tx: { answer: '/events_by_id', present: true }, re: { answer: '/event', present: true } } },
      ]),
    );
    expect(classifyVariants(axes, exchange(''))).toEqual({ prefix: 'absent' });
    expect(classifyVariants(axes, exchange('p='))).toEqual({ prefix: 'absent' });
    expect(classifyVariants(axes, exchange('p=a', { f: { x: { cumulative: [1] }, y: { cumulative: [1, 2] } } }, { event: {} }))).toEqual({
      prefix: 'given',
      entries: 'several',
      type: 're',
    });
    expect(classifyVariants(axes, exchange('p=a', { f: { x: { cumulative: [1] } } }, { events_by_id: {} }))).toEqual({
      prefix: 'given',
      entries: 'one',
      type: 'tx',
    });
  });
});
