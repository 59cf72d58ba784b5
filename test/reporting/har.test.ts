// `run --har FILE`: every exchange of the run as HAR 1.2 (valid by the format's schema), one entry per request
// the run sent, each tagged with the requirement or run step that sent it, secrets as evidence shows them,
// bodies cut at 64 KiB with a comment; report.html links a failure to its entries.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { ExchangeRecord, RECORDED_BODY_BYTES } from '../../engine/exchange-record.ts';
import { sharedRead } from '../../engine/run-cache.ts';
import type { Exchange } from '../../engine/transport/http.ts';
import { summarise } from '../../engine/transport/http.ts';
import type { RequirementResult } from '../../engine/engine.ts';
import { harEntry, harLinks, harOrder, writeHar, type HarEntry } from '../../reporting/har.ts';
import { referenceFixtures } from '../../reference-node/fixtures.ts';
import { startReferenceNode } from '../../reference-node/index.ts';
import { cliInProcess } from '../support/cli-in-process.ts';

const addFormats = ((addFormatsPlugin as unknown as { default?: unknown }).default ?? addFormatsPlugin) as (a: Ajv) => Ajv;
const validateHar = addFormats(new Ajv({ allErrors: true, strict: false })).compile(
  JSON.parse(readFileSync(new URL('../support/har-1.2.schema.json', import.meta.url), 'utf8')),
);

interface Har {
  log: { version: string; creator: { name: string }; entries: HarEntry[] };
}

function readHar(path: string): Har {
  const har = JSON.parse(readFileSync(path, 'utf8')) as Har;
  expect(validateHar(har), JSON.stringify(validateHar.errors?.slice(0, 3))).toBe(true);
  return har;
}

function exchange(over: Partial<Exchange> = {}): Exchange {
  const text = over.text ?? '{"ok":true}';
  return {
    method: 'GET',
    url: 'http://127.0.0.1:1/api/scan/v0/things?page_size=2&after=7',
    requestHeaders: { accept: 'application/json' },
    status: 200,
    headers: { 'content-type': 'application/json' },
    bytes: Buffer.from(text),
    text,
    truncated: false,
    received: Buffer.byteLength(text),
    durationMs: 12,
    ...over,
  };
}

describe('the exchange record and its HAR entries', () => {
  it('cuts bodies at 64 KiB with a comment, writes binary bodies in base64 and keeps every credential masked', () => {
    const record = new ExchangeRecord();
    const big = JSON.stringify({ items: 'x'.repeat(100 * 1024) });
    const binary = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const token = 'eyJhbGciOiJIUzI1NiJ9.c2VjcmV0.signature-of-the-real-token';
    record.note(
      exchange({
        method: 'POST',
        requestHeaders: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        shownHeaders: { authorization: 'Bearer $CN_CONFORMANCE_LEDGER_TOKEN', 'content-type': 'application/json' },
        requestBody: big,
        text: big,
        bytes: Buffer.from(big),
        received: big.length,
        headers: { 'content-type': 'application/json', 'set-cookie': `session=${token}` },
      }),
    );
    record.note(
      exchange({
        requestHeaders: { authorization: `Bearer ${token}` },
        headers: { 'content-type': 'application/octet-stream' },
        bytes: binary,
        text: binary.toString('utf8'),
        received: 256,
      }),
    );
    const [cut, raw] = record.entries().map(harEntry) as [HarEntry, HarEntry];

    expect(cut.request.postData?.text.length).toBe(RECORDED_BODY_BYTES);
    expect(cut.request.postData?.comment).toBe(`truncated: the first ${RECORDED_BODY_BYTES} of ${big.length} bytes`);
    expect(cut.request.bodySize).toBe(big.length);
    expect(cut.response.content).toMatchObject({
      size: big.length,
      mimeType: 'application/json',
      comment: `truncated: the first ${RECORDED_BODY_BYTES} of ${big.length} bytes`,
    });
    expect(Buffer.byteLength(cut.response.content.text!)).toBe(RECORDED_BODY_BYTES);
    expect(cut.request.queryString).toEqual([
      { name: 'page_size', value: '2' },
      { name: 'after', value: '7' },
    ]);
    expect(raw.response.content).toMatchObject({ encoding: 'base64', size: 256 });
    expect(Buffer.from(raw.response.content.text!, 'base64')).toEqual(binary);
    expect(raw.response.content.comment).toBeUndefined();
    // As evidence shows them: the variable that holds the token, or *** where no variable is known.
    expect(cut.request.headers).toContainEqual({ name: 'authorization', value: 'Bearer $CN_CONFORMANCE_LEDGER_TOKEN' });
    expect(raw.request.headers).toContainEqual({ name: 'authorization', value: 'Bearer ***' });
    expect(cut.response.headers).toContainEqual({ name: 'set-cookie', value: '***' });
    expect(JSON.stringify([cut, raw])).not.toContain('signature-of-the-real-token');
  });

  it('tags each exchange with the requirement whose check was running, side by side, and with the shared read that made it', async () => {
    const record = new ExchangeRecord();
    const tick = () => new Promise((r) => setTimeout(r, 1));
    const check = (id: string) =>
      record.as({ requirement: id }, async () => {
        for (let i = 0; i < 3; i++) {
          await tick();
          record.note(exchange({ url: `http://127.0.0.1:1/${id}/${i}` }));
        }
        await sharedRead.run(`walk-${id}`, async () => {
          await tick();
          record.note(exchange({ url: `http://127.0.0.1:1/${id}/shared` }));
        });
      });
    await Promise.all([
      check('A'),
      check('B'),
      record.as({ step: 'fixture discovery' }, async () => record.note(exchange({ url: 'http://127.0.0.1:1/discovery' }))),
    ]);
    record.note(exchange({ errorCode: 'STALLED', status: 0, error: 'not sent' }));
    const entries = record.entries().map(harEntry);
    expect(entries).toHaveLength(9);
    for (const e of entries) {
      const path = new URL(e.request.url).pathname;
      if (path === '/discovery') expect(e).toMatchObject({ _step: 'fixture discovery' });
      else expect(e._requirement).toBe(path.split('/')[1]);
      if (path.endsWith('/shared')) expect(e._sharedRead).toBe(`walk-${e._requirement}`);
      else expect(e._sharedRead).toBeUndefined();
    }
  });

  it('writes a valid HAR 1.2 file, an unanswered request as status 0 with its error, and links a failure to its evidence entry', async () => {
    const record = new ExchangeRecord();
    const failing = exchange({ url: 'http://127.0.0.1:1/api/scan/v0/ans-entries?page_size=1', text: '{"entries":[1,2]}' });
    await record.as({ requirement: 'SCAN-X' }, async () => {
      record.note(exchange({ url: 'http://127.0.0.1:1/api/scan/v0/ans-entries?page_size=5' }));
      record.note(failing);
    });
    await record.as({ requirement: 'SCAN-Y' }, async () =>
      record.note(exchange({ status: 0, headers: {}, bytes: Buffer.alloc(0), text: '', received: 0, error: 'timed out after 10 ms', errorCode: 'TIMEOUT' })),
    );
    const ordered = harOrder(record.entries());
    const file = join(mkdtempSync(join(tmpdir(), 'cn-har-')), 'run.har');
    await writeHar(file, ordered, { name: 'cn-conformance', version: '0.0.0' }, (t) => t);
    const har = readHar(file);
    expect(har.log.entries).toHaveLength(3);
    const unanswered = har.log.entries.find((e) => e._requirement === 'SCAN-Y')!;
    expect(unanswered).toMatchObject({ response: { status: 0, bodySize: -1 }, _error: 'timed out after 10 ms', comment: 'no answer: timed out after 10 ms' });

    const result = (id: string, status: RequirementResult['status'], evidence?: Exchange) =>
      ({ id, status, ...(evidence ? { evidence: { exchange: summarise(evidence) } } : {}) }) as RequirementResult;
    const links = harLinks([result('SCAN-X', 'failed', failing), result('SCAN-Y', 'skipped'), result('SCAN-Z', 'passed')], ordered);
    const at = har.log.entries.findIndex((e) => e.request.url === failing.url);
    expect(links['SCAN-X']).toEqual({
      evidence: at,
      count: 2,
      first: ordered.findIndex((r) => 'requirement' in r.by && r.by.requirement === 'SCAN-X'),
      last: expect.any(Number),
    });
    expect(har.log.entries[links['SCAN-X']!.evidence!]).toMatchObject({ _requirement: 'SCAN-X', response: { status: 200 } });
    expect(links['SCAN-Y']).toMatchObject({ count: 1 });
    expect(links['SCAN-Z']).toBeUndefined();
  });
});

describe('cn-conformance run --har', () => {
  it('records every request of a default run: as many entries as requestsSent, each tagged, valid HAR 1.2, linked from the report', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cn-har-run-'));
    // HTTP exchanges are what a HAR file holds: the channels (whose evidence is in the report) are left out.
    const { code } = await cliInProcess(['run', '--report-dir', dir, '--no-allure', '--runs', '2', '--skip-websocket', '--har', join(dir, 'exchanges.har')]);
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    const har = readHar(join(dir, 'exchanges.har'));
    expect(report.requestsSent).toBeGreaterThan(500);
    expect(har.log.entries).toHaveLength(report.requestsSent);
    expect(report.exchanges).toMatchObject({ har: 'exchanges.har', entries: report.requestsSent });
    const ids = new Set(report.requirements.map((r: { id: string }) => r.id));
    const steps = new Set<string>();
    for (const e of har.log.entries) {
      if (e._step) steps.add(e._step);
      else expect(ids.has(e._requirement), `${e._requirement} sent ${e.request.method} ${e.request.url}`).toBe(true);
    }
    expect([...steps].sort()).toEqual(['the credentials preflight', 'the reachability preflight', 'the release-line read', 'the version reads']);
    // Every judged requirement that calls the target shows up by its id.
    expect(har.log.entries.filter((e) => e._requirement === 'SCAN-ANS-PAGE-SIZE').length).toBeGreaterThan(0);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('every exchange of the run: <a href="exchanges.har">exchanges.har</a>');
  });

  it("links a failure in report.html to its evidence's entry, and writes no token the run was given", async () => {
    const node = await startReferenceNode({ faults: ['scan-ans-too-many'] });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'cn-har-fail-'));
      const config = join(dir, 'config.json');
      writeFileSync(config, JSON.stringify({ fixtures: referenceFixtures(node) }));
      const token = node.credentials.walletUsers[0]!.token;
      const { code } = await cliInProcess(
        [
          'run',
          '--report-dir',
          dir,
          '--no-allure',
          '--scan-url',
          node.urls.scan,
          '--wallet-url',
          node.urls.validator,
          '--config',
          config,
          '--har',
          join(dir, 'run.har'),
        ],
        { CN_CONFORMANCE_WALLET_TOKEN: token, CN_CONFORMANCE_ONLY: 'SCAN-ANS-*,WALLET-*', CN_CONFORMANCE_RUNS: '3' },
      );
      expect(code).toBe(1);
      const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
      const failed = report.requirements.find((r: { id: string }) => r.id === 'SCAN-ANS-PAGE-SIZE');
      expect(failed.status).toBe('failed');
      const link = report.exchanges.links['SCAN-ANS-PAGE-SIZE'];
      const har = readHar(join(dir, 'run.har'));
      const entry = har.log.entries[link.evidence]!;
      expect(entry).toMatchObject({ _requirement: 'SCAN-ANS-PAGE-SIZE', request: { method: 'GET', url: failed.evidence.exchange.request.url } });
      expect(entry.response.status).toBe(failed.evidence.exchange.response.status);
      const html = readFileSync(join(dir, 'report.html'), 'utf8');
      expect(html).toMatch(
        new RegExp(
          `<div class="har" id="har-SCAN-ANS-PAGE-SIZE" data-har-entry="${link.evidence}"><b>exchanges</b> in <a href="run.har">run.har</a>: the evidence is <code>log.entries\\[${link.evidence}\\]</code>`,
        ),
      );
      const text = readFileSync(join(dir, 'run.har'), 'utf8');
      expect(text).not.toContain(token);
      expect(text).toContain('Bearer $CN_CONFORMANCE_WALLET_TOKEN');
    } finally {
      await node.close();
    }
  });
});
