// The "is this operation served?" judgement (engine/served.ts) on answers made by hand: 501 says "not
// served" outright; a 404 or a 405 only when it is no documented answer of the operation.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileSpec, type CompiledSpec, type OperationSpec } from '../../generators/index.ts';
import type { Exchange } from '../../engine/transport/http.ts';
import { notServed } from '../../engine/served.ts';

const DOCUMENT = fileURLToPath(new URL('../fixtures/unserved/wallet.yaml', import.meta.url));
const LEDGER = fileURLToPath(new URL('../../specs/ledger-api.yaml', import.meta.url));

let spec: CompiledSpec;
const op = (id: string): OperationSpec => spec.catalog.byId.get(id)!;
beforeAll(async () => {
  spec = await compileSpec(DOCUMENT);
});

function answer(status: number, contentType?: string, text = ''): Exchange {
  return {
    method: 'POST',
    url: 'http://127.0.0.1:1/api/validator/v0/wallet/transfer-offers/x/status',
    requestHeaders: {},
    status,
    headers: contentType ? { 'content-type': contentType } : {},
    bytes: Buffer.from(text),
    text,
    truncated: false,
    received: text.length,
    durationMs: 1,
    ...(status === 0 ? { error: 'connect ECONNREFUSED', errorCode: 'ECONNREFUSED' } : {}),
  };
}

const PLAIN_404 = answer(404, 'text/plain; charset=UTF-8', 'The requested resource could not be found.');
const JSON_404 = answer(404, 'application/json', '{"error":"No transfer offer with tracking id x found"}');

describe('whether an answer shows that the target does not serve the operation', () => {
  it('405 and 501 do, whatever the operation documents', () => {
    expect(notServed(spec, op('getTransferOfferStatus'), answer(405, 'text/plain', 'HTTP method not allowed'))).toBe('answered 405');
    expect(notServed(spec, op('getBalance'), answer(501, 'application/json', '{"error":"not implemented"}'))).toBe('answered 501');
  });

  it("a 405 in the operation's documented error shape does not: the node's handler refused a method the document names", async () => {
    const ledger = await compileSpec(LEDGER);
    const getVersion = ledger.catalog.byId.get('getVersion')!;
    const error = JSON.stringify({ code: 'METHOD_NOT_ALLOWED', cause: 'no GET here', context: {}, resources: [], errorCategory: 8, grpcCodeValue: 12 });
    expect(notServed(ledger, getVersion, answer(405, 'application/json', error))).toBeUndefined();
    expect(notServed(ledger, getVersion, answer(405, 'text/plain', 'HTTP method not allowed, supported methods: POST'))).toBe('answered 405');
  });

  it('a documented JSON 404 of a served by-id lookup does not: the operation answered that the id is unknown', () => {
    expect(notServed(spec, op('getTransferOfferStatus'), JSON_404)).toBeUndefined();
  });

  it("the HTTP layer's text/plain 404 does, even where the operation documents a JSON 404", () => {
    expect(notServed(spec, op('getTransferOfferStatus'), PLAIN_404)).toMatch(/^answered 404, not a documented answer \(content type text\/plain/);
    expect(notServed(spec, op('tap'), PLAIN_404)).toMatch(/^answered 404/);
  });

  it('a 404 the operation does not document, or one whose body breaks the documented schema, does', () => {
    expect(notServed(spec, op('getBalance'), JSON_404)).toMatch(/status 404 is not documented for getBalance/);
    expect(notServed(spec, op('tap'), answer(404, 'application/json', '{"message":"no route"}'))).toMatch(/violates the schema/);
  });

  it('any other answer, or none, does not: the usual judgement applies to it', () => {
    for (const x of [answer(200, 'application/json', '{"status":"created"}'), answer(400, 'text/plain', 'bad'), answer(500), answer(0)])
      expect(notServed(spec, op('getTransferOfferStatus'), x), String(x.status)).toBeUndefined();
  });
});
