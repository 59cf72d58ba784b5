// The checks every wallet request body starts with: a JSON object with each required field present (not null),
// the text fields strings and the integer fields int64 integers. Anything else is a 400.
import { isObject, type JsonObject } from '../../common/json.ts';
import type { InvalidInputError } from './errors.ts';

const INT64_MIN = -(2 ** 63);
const INT64_MAX = 2 ** 63;

export function requiredFields(
  body: unknown,
  strings: readonly string[],
  integers: readonly string[],
  invalid: (message: string) => InvalidInputError,
): JsonObject {
  if (body === undefined) throw invalid('a JSON body is required');
  // A body of another content type arrives as bytes (a Buffer), which is no JSON object either.
  if (!isObject(body) || Buffer.isBuffer(body)) throw invalid('the body must be a JSON object');
  for (const f of [...strings, ...integers]) if (!(f in body) || body[f] === null) throw invalid(`field ${f} is required`);
  for (const f of strings) if (typeof body[f] !== 'string') throw invalid(`field ${f} must be a string`);
  for (const f of integers) {
    const v = body[f];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < INT64_MIN || v >= INT64_MAX) throw invalid(`field ${f} must be an int64 integer`);
  }
  return body;
}
