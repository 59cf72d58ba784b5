// int64 fields beyond 2^53. JSON.parse reads every number as a double, so an integer above
// Number.MAX_SAFE_INTEGER arrives rounded (9007199254740993 reads as 9007199254740992). The decision:
// - such a value is conformant wherever the document says int64: schema validation accepts any integer in
//   the int64 range, however large (generators/openapi-to-json-schema.ts), so size alone is never a failure;
// - equality and non-strict order survive the rounding without false alarms (rounding is monotonic: equal
//   values stay equal, a <= b stays d(a) <= d(b)); they may only miss a difference below the rounding step;
// - strict order and arithmetic do not: two neighbours may round to one value, a sum may round away. Checks
//   doing those leave values that are not exact out of the judgement (or skip) instead of failing them.

/** True when every value is an integer a double holds exactly (|v| <= 2^53 - 1). */
export const exactIntegers = (...values: unknown[]): boolean => values.every((v) => Number.isSafeInteger(v));

/**
 * An int64 field as JSON.parse reads it: any integer, however large (beyond 2^53 it arrives rounded, which
 * by the decision above is no failure). Not common/json.ts `isInt`, which wants a value a double holds
 * exactly: a conformant int64 above 2^53 would fail a shape rule with it.
 */
export const isInt64 = (v: unknown): v is number => Number.isInteger(v);
export const isInt64Array = (v: unknown): v is number[] => Array.isArray(v) && v.every(isInt64);
