// A document of the project's own naming two operations the reference node does not serve (and one it
// serves), run against the embedded node: the unserved operations' generic requirements come out
// unsupported with their evidence, in every output; the verdict is incomplete, never not conformant.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../cli/exit-codes.ts';
import { cliInProcess } from '../support/cli-in-process.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const addFormats = ((addFormatsPlugin as unknown as { default?: unknown }).default ?? addFormatsPlugin) as (a: Ajv) => Ajv;

const UNSERVED = [
  'GENERIC-WALLET-GET-BALANCE-CREDENTIALS-REQUIRED',
  'GENERIC-WALLET-GET-BALANCE-RESPONSES',
  'GENERIC-WALLET-TAP-CREDENTIALS-REQUIRED',
  'GENERIC-WALLET-TAP-INVALID-INPUT',
  'GENERIC-WALLET-TAP-RESPONSES',
];

describe('a run on operations the target does not serve', () => {
  it('reports their requirements unsupported with the answer that showed it; the verdict is incomplete (exit as incomplete)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cn-unsupported-'));
    const { code, stdout } = await cliInProcess([
      'run',
      '--spec',
      `wallet=${join(root, 'test/fixtures/unserved/wallet.yaml')}`,
      '--only',
      'GENERIC-WALLET-*',
      '--runs',
      '3',
      '--report-dir',
      dir,
      '--no-allure',
    ]);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    const status = Object.fromEntries(report.requirements.map((r: { id: string; status: string }) => [r.id, r.status]));
    expect(status).toEqual({
      ...Object.fromEntries(UNSERVED.map((id) => [id, 'unsupported'])),
      // Served: a fixture id gets 200, unknown ids a documented JSON 404.
      'GENERIC-WALLET-GET-TRANSFER-OFFER-STATUS-RESPONSES': 'passed',
      'GENERIC-WALLET-GET-TRANSFER-OFFER-STATUS-CREDENTIALS-REQUIRED': 'passed',
    });
    const create = report.requirements.find((r: { id: string }) => r.id === 'GENERIC-WALLET-TAP-CREDENTIALS-REQUIRED');
    expect(create.reason).toMatch(
      /^the target does not serve tap \(POST \/api\/validator\/v0\/wallet\/tap\): the same request with credentials was answered 404, not a documented answer \(content type text\/plain/,
    );
    // The evidence is the request with credentials, and the HTTP layer's answer.
    expect(create.evidence.exchange.request.headers.authorization).toMatch(/^Bearer /);
    expect(create.evidence.exchange.response).toMatchObject({ status: 404, bodyExcerpt: 'The requested resource could not be found.' });
    expect(report).toMatchObject({ verdict: 'incomplete', summary: { unsupported: 5, failed: 0, passed: 2 } });
    expect(report.judgement.reasons).toEqual(['5 unsupported: the target does not serve operations they need (not a failure, but not judged)']);
    expect(code).toBe(EXIT.ok);
    const ajv = new Ajv({ strict: false });
    addFormats(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(join(root, 'reporting/report.schema.json'), 'utf8')));
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);

    // Console: the headline, the per-level line, and the operations not served.
    expect(stdout).toContain('INCOMPLETE: 2 of 7 selected requirements judged (2 passed, 0 failed; 5 unsupported)');
    expect(stdout).toMatch(/^\s+wallet\s+MUST\s+2 passed, 0 failed, 0 skipped, 5 unsupported$/m);
    expect(stdout).toContain('Not served by the target (5 unsupported, not failed), by operation:');
    expect(stdout).toMatch(/^\s+3\s+tap\s+\(GENERIC-WALLET-TAP-RESPONSES, /m);
    expect(stdout).not.toMatch(/FAIL GENERIC/);
    // junit.xml: skipped with an "unsupported:" message, never a failure.
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(junit).not.toContain('<failure');
    expect(junit).toMatch(/name="GENERIC-WALLET-GET-BALANCE-RESPONSES"[^>]*>\s*<skipped message="unsupported: the target does not serve getBalance/);
    expect(junit).toContain('<testsuite name="wallet" tests="7" failures="0" errors="0" skipped="5"');
    // report.html: a filter and a section listing them, each row with its evidence.
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(html).toContain('<button data-filter="unsupported">unsupported (5)</button>');
    expect(html).toContain('5 requirements are unsupported: the target does not serve 2 operations they need');
    expect(html).toMatch(/<details class="req unsupported" data-status="unsupported"[^>]*>[\s\S]*?<b>response<\/b> 404 text\/plain/);
    // coverage.md: the operations marked not served.
    const coverage = readFileSync(join(dir, 'coverage.md'), 'utf8');
    expect(coverage).toContain('| wallet | GET /api/validator/v0/wallet/balance (not served) | unsupported | none | 0 |');
    // Served, but its positive requirement (WALLET-TRANSFER-STATUS-KNOWN-OFFER) was not selected: not confirmed.
    expect(coverage).toMatch(/^\| wallet \| POST \/api\/validator\/v0\/wallet\/transfer-offers\/\{tracking_id\}\/status \| none \| .* \| no \|$/m);
  });
});
