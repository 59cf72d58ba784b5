// A fixed result model: one failure with full evidence, one pass, one skip (with characters HTML must escape),
// one unsupported (the target does not serve the operation) with the answer that showed it.
import { buildReport, type ConformanceReport } from '../../reporting/model.ts';
import type { RequirementResult } from '../../engine/engine.ts';

const base = { level: 'MUST' as const, section: 'C. Scan interface > GET /v0/ans-entries', mutates: false, durationMs: 12 };
export const SAMPLE_RESULTS: RequirementResult[] = [
  {
    ...base,
    id: 'SCAN-ANS-PAGE-SIZE',
    interface: 'scan',
    operations: ['listAnsEntries'],
    sentence: 'page_size: maximum results',
    status: 'failed',
    reason: '3 entries for page_size 2',
    evidence: {
      exchange: {
        request: { method: 'GET', url: 'http://127.0.0.1:1/api/scan/v0/ans-entries?page_size=2', headers: { authorization: 'Bearer ***' } },
        response: { status: 200, headers: { 'content-type': 'application/json' }, bodyExcerpt: '{"entries":[{},{},{}]}', bodyBytes: 22 },
        curl: "curl -sS -X GET 'http://127.0.0.1:1/api/scan/v0/ans-entries?page_size=2' -H 'authorization: Bearer ***'",
        durationMs: 3,
      },
      pointer: '/entries/2',
      property: { seed: 1, path: '0:1', counterexample: '[2]', runs: 3 },
    },
  },
  {
    ...base,
    id: 'SCAN-BACKFILLING-COMPLETE-FLAG',
    interface: 'scan',
    operations: ['getBackfillingStatus'],
    sentence: 'complete: true only if all backfilling processes are complete',
    status: 'passed',
  },
  {
    ...base,
    id: 'LEDGER-UPDATES-READ-RIGHTS',
    interface: 'ledger',
    operations: ['getUpdates'],
    sentence: 'reading as a party <without> rights & "quotes"',
    status: 'skipped',
    skipKind: 'fixture',
    reason: 'missing fixture: fixtures.ledgerLimitedToken',
  },
  {
    ...base,
    id: 'GENERIC-SCAN-GET-EVENT-HISTORY-RESPONSES',
    interface: 'scan',
    operations: ['getEventHistory'],
    section: 'POST /api/scan/v0/events',
    sentence: 'Every answer has a documented status and content type, and a body valid against the schema documented for them.',
    status: 'unsupported',
    reason:
      'the target does not serve getEventHistory (POST /api/scan/v0/events): every valid request (3) was answered 404, not a documented answer (status 404 is not documented for getEventHistory (documented: 200, 400, 500))',
    evidence: {
      exchange: {
        request: { method: 'POST', url: 'http://127.0.0.1:1/api/scan/v0/events', headers: { 'content-type': 'application/json' }, body: '{"page_size":10}' },
        response: {
          status: 404,
          headers: { 'content-type': 'text/plain; charset=UTF-8' },
          bodyExcerpt: 'The requested resource could not be found.',
          bodyBytes: 42,
        },
        curl: "curl -sS -X POST 'http://127.0.0.1:1/api/scan/v0/events' -H 'content-type: application/json' --data-raw '{\"page_size\":10}'",
        durationMs: 2,
      },
    },
  },
];

export function sampleReport(): ConformanceReport {
  return buildReport({
    version: '0.1.0',
    startedAt: new Date('2026-11-21T10:00:00Z'),
    finishedAt: new Date('2026-11-21T10:00:05Z'),
    targets: { ledger: 'http://127.0.0.1:1', wallet: 'not given', scan: 'http://127.0.0.1:1/api/scan' },
    config: { ledgerToken: '***', seed: 1 },
    specChecks: [
      {
        name: 'scan',
        source: '/x/specs/scan-api.yaml',
        sha256: 'a'.repeat(64),
        openapi: '3.0.3',
        operations: 20,
        validators: 154,
        examplesChecked: 85,
        failures: [],
        warnings: [],
        millis: 200,
      },
    ],
    seed: 1,
    fixtureNotes: [],
    // A copy: a test may add to its report's requirements, which must not change another test's sample.
    requirements: structuredClone(SAMPLE_RESULTS),
  });
}
