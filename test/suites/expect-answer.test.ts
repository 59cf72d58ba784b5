// The one assertion object of every interface: each expectation passes on an answer that keeps it and fails
// on one that breaks it, with the exchange and the pointer as evidence.
import { describe, expect, it } from 'vitest';
import { expectAnswer, type Verdicts } from '../../engine/expect-answer.ts';
import type { ExchangeSummary } from '../../engine/transport/evidence.ts';
import type { Exchange } from '../../engine/transport/http.ts';

class Ended extends Error {
  constructor(
    readonly kind: 'fail' | 'skip',
    message: string,
    readonly evidence: { exchange?: Exchange | ExchangeSummary; pointer?: string },
  ) {
    super(message);
  }
}

const verdicts: Verdicts = {
  fail: (message, evidence) => {
    throw new Ended('fail', message, evidence);
  },
  skip: (reason, evidence) => {
    throw new Ended('skip', reason, evidence);
  },
};

function answer(status: number, text: string, contentType?: string): Exchange {
  return {
    method: 'GET',
    url: 'http://node.test/api/scan/v0/x',
    requestHeaders: {},
    status,
    headers: contentType ? { 'content-type': contentType } : {},
    bytes: Buffer.from(text),
    text,
    durationMs: 1,
  } as Exchange;
}

function ended(run: () => unknown): Ended {
  try {
    run();
  } catch (e) {
    if (e instanceof Ended) return e;
    throw e;
  }
  throw new Error('the expectation held');
}

describe('ctx.expect(answer)', () => {
  it('status: holds for the status (or one of several), fails naming what was asked and what came', () => {
    const x = answer(404, '{}');
    expect(() => expectAnswer(x, verdicts).status([200, 404])).not.toThrow();
    const e = ended(() => expectAnswer(x, verdicts, 'the faucets of v1').status(200));
    expect([e.kind, e.message, e.evidence.exchange]).toEqual(['fail', 'expected status 200 (the faucets of v1), got 404', x]);
    expect(ended(() => expectAnswer({ ...answer(0, ''), error: 'timed out' }, verdicts).status(200)).message).toBe('no answer: timed out');
  });

  it('contentType: compares the media type without parameters, case-insensitively', () => {
    expect(() => expectAnswer(answer(200, '{}', 'Application/JSON; charset=utf-8'), verdicts).contentType('application/json')).not.toThrow();
    expect(ended(() => expectAnswer(answer(400, 'bad', 'text/plain'), verdicts).contentType('application/json')).message).toBe(
      'expected content type application/json, got text/plain (status 400)',
    );
  });

  it('object and array: the JSON body of that shape, or a failure', () => {
    expect(expectAnswer(answer(200, '{"a":1}'), verdicts).object()).toEqual({ a: 1 });
    expect(expectAnswer(answer(200, '[1]'), verdicts).array()).toEqual([1]);
    expect(ended(() => expectAnswer(answer(200, '[1]'), verdicts, 'holdings').object()).message).toBe('expected a JSON object (holdings)');
    expect(ended(() => expectAnswer(answer(200, '{}'), verdicts).array()).message).toBe('the 200 answer is not a JSON array');
    expect(ended(() => expectAnswer(answer(200, 'nope', 'text/plain'), verdicts).json()).message).toBe(
      'response body is not JSON (status 200, content type text/plain)',
    );
    expect(ended(() => expectAnswer({ ...answer(200, '{}'), truncated: true, received: 9 } as Exchange, verdicts).json()).message).toMatch(
      /larger than the bound/,
    );
  });

  it('errorBody: a JSON object with a string field, the pointer naming it when it is not', () => {
    const shape = 'the error body is {error: string}';
    expect(expectAnswer(answer(404, '{"error":"no"}'), verdicts).errorBody('error', shape)).toEqual({ error: 'no' });
    const e = ended(() => expectAnswer(answer(404, '{"error":3}'), verdicts).errorBody('error', shape));
    expect([e.message, e.evidence.pointer]).toEqual([`error answer 404 has a non-string (number) "error" field; ${shape}`, '/error']);
    expect(ended(() => expectAnswer(answer(404, 'not found'), verdicts).errorBody('error', shape)).message).toBe(
      `error answer 404 has a body that is not JSON; ${shape}`,
    );
  });

  it('skipUnless: not judged, this answer the cause, unless the status is one of those named', () => {
    expect(() => expectAnswer(answer(413, ''), verdicts).skipUnless([200, 413], 'a read from offset 0')).not.toThrow();
    const e = ended(() => expectAnswer(answer(400, 'pruned'), verdicts).skipUnless([200, 413], 'a read from offset 0'));
    expect([e.kind, e.message, (e.evidence.exchange as Exchange).status]).toEqual(['skip', 'a read from offset 0 was answered with status 400 pruned', 400]);
  });

  it('of evidence only (a read of any transport): fails and skips with it, refuses to look into it', () => {
    const summary: ExchangeSummary = {
      request: { method: 'POST', url: 'http://node.test/v2/updates', headers: {} },
      curl: 'curl -X POST http://node.test/v2/updates',
      durationMs: 1,
    };
    const e = ended(() => expectAnswer(summary, verdicts).fail('an element is out of the window', '/3'));
    expect(e.evidence).toEqual({ exchange: summary, pointer: '/3' });
    expect(() => expectAnswer(summary, verdicts).status(200)).toThrow(/evidence only/);
  });

  it('json: a value handed by the answer log goes to the first read only; every later read parses its own', () => {
    const x = answer(200, '{"a":[1]}', 'application/json');
    const handed = { value: { a: [1] } };
    const expectation = expectAnswer(x, verdicts, undefined, handed);
    const first = expectation.json<{ a: number[] }>();
    expect(first).toBe(handed.value);
    first.a.push(2);
    expect(expectation.json()).toEqual({ a: [1] });
    expect(expectation.object()).not.toBe(first);
    // Judged before it is handed: a cut body is too large whatever was parsed of its start.
    const cut = { ...answer(200, '{}', 'application/json'), truncated: true, received: 20_000_000 } as Exchange;
    expect(ended(() => expectAnswer(cut, verdicts, undefined, { value: {} }).json()).message).toMatch(/larger than the bound/);
  });

  it('fail: the exchange and the pointer are the evidence', () => {
    const x = answer(200, '{"a":1}');
    const e = ended(() => expectAnswer(x, verdicts).fail('a is 1', '/a'));
    expect([e.kind, e.message, e.evidence]).toEqual(['fail', 'a is 1', { exchange: x, pointer: '/a' }]);
    expect(ended(() => expectAnswer(x, verdicts).fail('broken')).evidence).toEqual({ exchange: x });
  });
});
