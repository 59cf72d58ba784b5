// A small checker of JSON request shapes, for bodies the node reads only to refuse what a real node's decoder
// refuses (the HTTP layer's plain-text 400). Shapes are written where they are used, from the official
// document's facts; unknown properties are ignored, as the real decoder does.
import { isInt, isObject } from '../../common/json.ts';
import { InvalidStreamRequest } from './stream-request.ts';

export type RequestShape =
  | 'string'
  | 'boolean'
  | 'int32'
  | { enum: readonly string[] }
  | { array: RequestShape }
  | { object: Readonly<Record<string, RequestShape>>; required?: readonly string[] }
  /** A protobuf oneof: an object with exactly one of the named members. */
  | { oneOf: Readonly<Record<string, RequestShape>> };

const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };

/** An object with the given optional members. */
export const obj = (members: Readonly<Record<string, RequestShape>> = {}, required: readonly string[] = []): RequestShape => ({ object: members, required });

function problem(value: unknown, shape: RequestShape, at: string): string | undefined {
  if (shape === 'string') return typeof value === 'string' ? undefined : `${at} must be a string`;
  if (shape === 'boolean') return typeof value === 'boolean' ? undefined : `${at} must be a boolean`;
  if (shape === 'int32') return isInt(value) && value >= INT32.min && value <= INT32.max ? undefined : `${at} must be a 32-bit integer`;
  if ('enum' in shape) return typeof value === 'string' && shape.enum.includes(value) ? undefined : `${at} must be one of ${shape.enum.join(', ')}`;
  if ('array' in shape) {
    if (!Array.isArray(value)) return `${at} must be an array`;
    for (const [i, item] of value.entries()) {
      const p = problem(item, shape.array, `${at}[${i}]`);
      if (p) return p;
    }
    return undefined;
  }
  if (!isObject(value) || Buffer.isBuffer(value)) return `${at} must be a JSON object`;
  if ('oneOf' in shape) {
    const kinds = Object.keys(value).filter((k) => k in shape.oneOf);
    if (kinds.length !== 1) return `${at} must hold exactly one of ${Object.keys(shape.oneOf).join(', ')}`;
    return problem(value[kinds[0]!], shape.oneOf[kinds[0]!]!, `${at}.${kinds[0]}`);
  }
  for (const name of shape.required ?? []) if (value[name] === undefined) return `${at}.${name} is missing`;
  for (const [name, member] of Object.entries(shape.object)) {
    if (value[name] === undefined) continue;
    const p = problem(value[name], member, `${at}.${name}`);
    if (p) return p;
  }
  return undefined;
}

/** Refuses a body that breaks the shape with the HTTP layer's plain-text 400. */
export function checkShape(value: unknown, shape: RequestShape, what = 'body'): void {
  const p = problem(value, shape, what);
  if (p) throw new InvalidStreamRequest(`Invalid value for: body (${p})`);
}
