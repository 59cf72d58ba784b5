// The answer log parses an answer once to judge it, and hands that value to the check reading the answer
// next (AnswerLog.takeParsed), once: no second parse of the same text, and no value two readers share.
import { describe, expect, it } from 'vitest';
import { AnswerLog } from '../../engine/answers/answer-log.ts';
import type { Exchange } from '../../engine/transport/http.ts';
import { builtinSpec } from '../support/builtin-specs.ts';

function answer(text: string, contentType = 'application/json'): Exchange {
  return {
    method: 'GET',
    url: 'http://node.test/api/scan/v0/feature-support',
    requestHeaders: {},
    status: 200,
    headers: { 'content-type': contentType },
    bytes: Buffer.from(text),
    text,
    truncated: false,
    received: text.length,
    durationMs: 1,
  } as Exchange;
}

describe('the answer log hands its parse of an answer on', () => {
  it('once, to the first taker, after judging it; nothing before or after', async () => {
    const log = new AnswerLog({ scan: await builtinSpec('scan') });
    const x = answer('{"dummy":true}');
    expect(log.takeParsed(x)).toBeUndefined();
    expect(log.judge('scan', 'getFeatureSupport', x, 'a check').problems).toEqual([]);
    expect(log.takeParsed(x)).toEqual({ value: { dummy: true } });
    expect(log.takeParsed(x)).toBeUndefined();
    // Judged again (the judgement is kept): nothing parsed anew, nothing handed again.
    log.judge('scan', 'getFeatureSupport', x, 'a check');
    expect(log.takeParsed(x)).toBeUndefined();
  });

  it('hands nothing it did not parse: a body too deep, or one the document does not describe as JSON', async () => {
    const log = new AnswerLog({ scan: await builtinSpec('scan') });
    const deep = { ...answer(`{"dummy":${'['.repeat(600)}${']'.repeat(600)}}`), deep: true };
    log.judge('scan', 'getFeatureSupport', deep, 'a check');
    expect(log.takeParsed(deep)).toBeUndefined();
    const text = answer('{"dummy":true}', 'text/plain');
    log.judge('scan', 'getFeatureSupport', text, 'a check');
    expect(log.takeParsed(text)).toBeUndefined();
  });
});
