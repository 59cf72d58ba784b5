// The depth measure every answer's body goes through (engine/transport/bounds.ts): brackets count only outside
// strings, and a string ends at the first quote after an even run of backslashes.
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestedTooDeep } from '../../engine/transport/bounds.ts';

const nested = (levels: number, inner = '') => '['.repeat(levels) + inner + ']'.repeat(levels);

describe('nestedTooDeep', () => {
  it('is false at the bound and true one above it, for arrays and objects alike', () => {
    expect(nestedTooDeep(nested(MAX_JSON_DEPTH - 1))).toBe(false);
    expect(nestedTooDeep(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(nestedTooDeep(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(nestedTooDeep('{"a":'.repeat(MAX_JSON_DEPTH + 1) + '1' + '}'.repeat(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(nestedTooDeep(nested(100_000))).toBe(true);
  });

  it('does not count brackets inside strings, however the strings escape their quotes', () => {
    const brackets = '['.repeat(MAX_JSON_DEPTH + 1);
    expect(nestedTooDeep(`["${brackets}"]`)).toBe(false);
    // An escaped quote does not end the string; an escaped backslash before a quote does.
    expect(nestedTooDeep(`["a\\"${brackets}"]`)).toBe(false);
    expect(nestedTooDeep(`["a\\\\\\"${brackets}"]`)).toBe(false);
    expect(nestedTooDeep(`["a\\\\", ${nested(MAX_JSON_DEPTH + 1)}]`)).toBe(true);
    expect(nestedTooDeep(`["\\\\\\\\", ${nested(MAX_JSON_DEPTH)}]`)).toBe(true);
    expect(nestedTooDeep(`["\\\\\\\\", ${nested(MAX_JSON_DEPTH - 1)}]`)).toBe(false);
  });

  it('ends without an answer of depth at a string that never closes', () => {
    expect(nestedTooDeep(`["${'['.repeat(MAX_JSON_DEPTH + 1)}`)).toBe(false);
    expect(nestedTooDeep('"\\"')).toBe(false);
    expect(nestedTooDeep('')).toBe(false);
  });
});
