// The `code` of the ledger's JsCantonError answers, which several rules read to tell refusals apart.
import { isObject, parseJson } from '../../common/json.ts';
import type { Exchange } from '../../engine/transport/http.ts';

/** The `code` of a JsCantonError body, or undefined (no JSON object, no string code). */
export function errorCode(x: Exchange): string | undefined {
  const body = parseJson(x.text);
  return isObject(body) && typeof body.code === 'string' ? body.code : undefined;
}
