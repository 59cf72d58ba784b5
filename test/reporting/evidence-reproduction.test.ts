// Evidence is a union by transport, and every reporter shows its reproduction line without knowing which
// transport made it. An HTTP exchange's line is a curl line with the run's secrets as the variables holding
// them (or ***), never the secrets themselves; its report.json form carries no transport tag.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reproduce, type ExchangeSummary, type WebSocketExchangeSummary } from '../../engine/transport/evidence.ts';
import { Client, summarise } from '../../engine/transport/http.ts';
import { RunLimits } from '../../engine/transport/limits.ts';
import { renderHtml } from '../../reporting/html.ts';
import { renderJunit } from '../../reporting/junit.ts';
import { sampleReport } from '../support/sample-report.ts';

const TOKEN = 's3cr3t-bearer-token';
const API_KEY = 's3cr3t-api-key';
const HEADER_SECRET = 's3cr3t-header-value';

const server = createServer((_req, res) => res.writeHead(400, { 'content-type': 'application/json' }).end('{"code":"INVALID_ARGUMENT"}'));
let origin = '';
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const client = (credentials: { bearer?: string; apiKey?: string }, credentialVariables?: { bearer?: string; apiKey?: string }) =>
  new Client({ origin, prefix: '', credentials, credentialVariables, timeoutMs: 5000, maxBodyBytes: 1024, limits: new RunLimits({ maxRequests: 10 }) });

/** report.html and junit.xml of a report whose one failed requirement has `exchange` as its evidence. */
function rendered(exchange: ExchangeSummary): { html: string; junit: string } {
  const report = sampleReport();
  const failed = report.requirements.find((r) => r.status === 'failed' && r.level === 'MUST')!;
  failed.evidence = { exchange };
  const one = { ...report, requirements: [failed] };
  return { html: renderHtml(one), junit: renderJunit(one) };
}

const escaped = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

describe('the reproduction line of evidence', () => {
  it('of an HTTP exchange is its curl line, secrets masked, in report.html and junit.xml alike', async () => {
    const x = await client({ bearer: TOKEN }, { bearer: 'CN_CONFORMANCE_LEDGER_TOKEN' }).post(
      '/v2/updates',
      { beginExclusive: 0 },
      { headers: { 'x-api-key': HEADER_SECRET } },
    );
    expect(x.status).toBe(400);
    const evidence = summarise(x);
    const line = reproduce(evidence);
    expect(line).toBe(evidence.curl);
    expect(line).toMatch(/^curl -sS -X POST 'http:\/\/127\.0\.0\.1:\d+\/v2\/updates' /);
    expect(line).toContain('-H "authorization: Bearer $CN_CONFORMANCE_LEDGER_TOKEN"');
    expect(line).toContain(`-H 'x-api-key: ***'`);
    // report.json keeps an HTTP exchange as before: no transport tag, the curl line under `curl`.
    expect(Object.keys(evidence)).not.toContain('transport');
    const { html, junit } = rendered(evidence);
    expect(html).toContain(escaped(line));
    expect(junit).toContain(escaped(line));
    for (const text of [JSON.stringify(evidence), html, junit]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(HEADER_SECRET);
    }
  });

  it('of an HTTP exchange shows a credential without a variable as ***', async () => {
    const x = await client({ apiKey: API_KEY }).get('/v2/version');
    const line = reproduce(summarise(x));
    expect(line).toContain(`-H 'sec-websocket-protocol: jwt.token.***'`);
    expect(line).not.toContain(API_KEY);
  });

  it("of another transport's exchange is its own line, which the reporters show the same way", () => {
    const channel: WebSocketExchangeSummary = {
      transport: 'websocket',
      channel: { url: 'ws://127.0.0.1:1/v2/updates', subprotocols: ['daml.ws.auth', 'jwt.token.$CN_CONFORMANCE_LEDGER_TOKEN'] },
      sent: ['{"beginExclusive":0}'],
      received: [{ excerpt: '{"update":{}}', bytes: 13 }],
      close: { code: 1000, reason: '' },
      websocat: `websocat --protocol "jwt.token.$CN_CONFORMANCE_LEDGER_TOKEN" 'ws://127.0.0.1:1/v2/updates'`,
      durationMs: 1,
    };
    expect(reproduce(channel)).toBe(channel.websocat);
    const { html, junit } = rendered(channel);
    expect(html).toContain(escaped(channel.websocat));
    expect(html).toContain('<b>channel</b> <code>ws://127.0.0.1:1/v2/updates</code>');
    expect(junit).toContain(escaped(channel.websocat));
  });
});
