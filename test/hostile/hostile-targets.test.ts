// The suite against targets that are broken on purpose (hostile-target.ts): each run must end in time with
// exit 1 and a complete, schema-valid report whose failures say what was wrong; never a crash (exit 3), a
// usage error (exit 2), a hang, or a requirement passed on an answer that shows nothing.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Ajv } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run, type RunOptions } from '../../cli/run.ts';
import { responseProblems } from '../../generators/index.ts';
import { referenceFixtures } from '../../reference-node/fixtures.ts';
import { startReferenceNode, type RunningReferenceNode } from '../../reference-node/index.ts';
import { ensureReachable } from '../../runner/reachability.ts';
import { describeSource, discover } from '../../engine/discovery/discover.ts';
import { EXCERPT_BYTES } from '../../engine/transport/bounds.ts';
import { Client } from '../../engine/transport/http.ts';
import { RunLimits, STALLED_AFTER } from '../../engine/transport/limits.ts';
import { DEFAULT_BOUNDS } from '../../engine/target.ts';
import { builtinSpec } from '../support/builtin-specs.ts';
import { BEYOND_2_53, HUGE_BODY_BYTES, PROXY_MODES, startHostileTarget, withHugeInt64, type HostileMode, type HostileTarget } from './hostile-target.ts';
import { DISCOVERY_SOURCES } from '../../interfaces/discovery-sources.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const addFormats = ((addFormatsPlugin as unknown as { default?: unknown }).default ?? addFormatsPlugin) as (a: Ajv) => Ajv;
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
const validateReport = ajv.compile(JSON.parse(readFileSync(join(root, 'reporting/report.schema.json'), 'utf8')));

interface Case {
  timeoutMs: number;
  maxRequests: number;
  only?: string[];
  /**
   * The target never answers: each request waits its timeout, so the budget is what bounds the run. That
   * it ends in time is shown by the requests that reached the target (at most the budget), whatever the
   * machine's speed; a target that answers at once is judged by what it answered, and a hang is the test's
   * own timeout.
   */
  stalls?: true;
}

// Where every request waits for its timeout, a cross-section of the catalog (one rule per kind of check:
// generic answer, stream sample, wallet submission, model, page walk, plain lookup, error probes) and a
// budget that runs out within it.
const SLOW_SELECTION = [
  'GENERIC-LEDGER-GET-UPDATES-RESPONSES',
  'LEDGER-UPDATES-BEGIN-EXCLUSIVE',
  'WALLET-BUY-TRAFFIC-CREATE',
  'WALLET-BUY-TRAFFIC-EXACTLY-ONCE-MODEL',
  'SCAN-HOLDINGS-PAGING-COMPLETE',
  'SCAN-FEATURE-SUPPORT',
  'SCAN-ERRORS-SHAPE',
];

/**
 * The timeout of runs against targets that answer at once (or proxy a reference node): long enough that no
 * load makes an answer late (13 runs share this process, and the machine may be one busy core), so what is
 * judged is always the answer, never the machine's speed. These runs never wait for it.
 */
const ANSWERS_AT_ONCE_MS = 30_000;

/** The requirements reading the ledger's WebSocket channels: the records of the channels and one WebSocket twin. */
const CHANNEL_SELECTION = ['LEDGER-WEBSOCKET-*', 'LEDGER-UPDATES-ONE-KIND-WS'];
/**
 * The timeout of the channel modes' runs: their HTTP answers are the reference node's, at once; a channel that
 * never ends is cut at its longest life, a few of these, which keeps the runs short.
 */
const CHANNEL_TIMEOUT_MS = 2000;

const CASES: Record<Exclude<HostileMode, 'huge-body'>, Case> = {
  'non-json': { timeoutMs: ANSWERS_AT_ONCE_MS, maxRequests: 2000 },
  'wrong-content-type': { timeoutMs: ANSWERS_AT_ONCE_MS, maxRequests: 2000 },
  'empty-body': { timeoutMs: ANSWERS_AT_ONCE_MS, maxRequests: 2000 },
  // Long enough that the headers, sent at once, arrive in time however long the runs beside it (in this
  // process) hold the event loop: the stall must be seen in the body. A run that ignored its budget of 12 would
  // need hours (one timeout per request of the default 20 000).
  'unfinished-body': { timeoutMs: 5000, maxRequests: 12, only: SLOW_SELECTION, stalls: true },
  // Nothing arrives at all: any timeout sees the stall.
  'slow-first-byte': { timeoutMs: 300, maxRequests: 12, only: SLOW_SELECTION, stalls: true },
  reset: { timeoutMs: ANSWERS_AT_ONCE_MS, maxRequests: 2000 },
  'redirect-loop': { timeoutMs: ANSWERS_AT_ONCE_MS, maxRequests: 2000 },
  'status-500': { timeoutMs: ANSWERS_AT_ONCE_MS, maxRequests: 2000 },
  'empty-object': { timeoutMs: ANSWERS_AT_ONCE_MS, maxRequests: 2000 },
  // Only the paging rules: the page walks are what these targets attack.
  'endless-paging': { timeoutMs: ANSWERS_AT_ONCE_MS, maxRequests: 3000, only: ['SCAN-HOLDINGS-PAGING-*', 'SCAN-BULK-PAGING-*'] },
  'cycling-token': { timeoutMs: ANSWERS_AT_ONCE_MS, maxRequests: 3000, only: ['SCAN-HOLDINGS-PAGING-*', 'SCAN-BULK-PAGING-*'] },
  'huge-int64': { timeoutMs: ANSWERS_AT_ONCE_MS, maxRequests: 2000 },
  'mangled-json': { timeoutMs: ANSWERS_AT_ONCE_MS, maxRequests: 2000 },
  'ws-endless': { timeoutMs: CHANNEL_TIMEOUT_MS, maxRequests: 2000, only: CHANNEL_SELECTION },
  'ws-flood': { timeoutMs: CHANNEL_TIMEOUT_MS, maxRequests: 2000, only: CHANNEL_SELECTION },
  'ws-garbage': { timeoutMs: CHANNEL_TIMEOUT_MS, maxRequests: 2000, only: CHANNEL_SELECTION },
};

interface Requirement {
  id: string;
  status: string;
  reason?: string;
  evidence?: { exchange?: { response?: { bodyExcerpt: string; bodyBytes: number }; curl: string } };
}

interface Outcome {
  exitCode: number;
  dir: string;
  report: { requirements: Requirement[]; summary: { total: number; failed: number; passed: number } };
  target: HostileTarget;
}

const nodes: RunningReferenceNode[] = [];
const targets: HostileTarget[] = [];
const outcomes = new Map<HostileMode, Promise<Outcome>>();
let fixtureNode: RunningReferenceNode;

function options(target: string, dir: string, node: RunningReferenceNode, c: Pick<Case, 'timeoutMs' | 'maxRequests' | 'only'>): RunOptions {
  const config = join(dir, 'config.json');
  // Real fixtures, so that the checks needing ids run (and meet the hostile answers) instead of being skipped.
  writeFileSync(config, JSON.stringify({ fixtures: referenceFixtures(node) }));
  return {
    spec: [],
    reportDir: dir,
    config,
    ledgerUrl: target,
    walletUrl: target,
    scanUrl: target,
    ledgerToken: node.credentials.ledgerAdminToken,
    walletToken: node.credentials.walletUsers[0]!.token,
    allowMutations: true,
    runs: '2',
    seed: '1',
    timeoutMs: String(c.timeoutMs),
    maxRequests: String(c.maxRequests),
    // A budget that runs out within the selection reaches the requirements in the order they ask, which
    // concurrent checks do not fix: one at a time, it is the records' order the expectations name.
    concurrency: c.only === SLOW_SELECTION ? '1' : undefined,
    // The HTTP modes' hostility is in their answers: their channels are the channel modes' to attack.
    skipWebsocket: c.only !== CHANNEL_SELECTION,
    only: c.only ?? [],
    skip: [],
  };
}

async function runMode(mode: Exclude<HostileMode, 'huge-body'>): Promise<Outcome> {
  const c = CASES[mode];
  // Proxy modes get a node of their own: their runs change its state (traffic purchases, snapshots).
  const node = PROXY_MODES.has(mode) ? await startReferenceNode() : fixtureNode;
  if (node !== fixtureNode) nodes.push(node);
  const target = await startHostileTarget(mode, { reference: node.urls.ledger, slowMs: 60_000, seed: 7 });
  targets.push(target);
  const dir = mkdtempSync(join(tmpdir(), `cn-hostile-${mode}-`));
  const { exitCode } = await run(options(target.url, dir, node, c));
  return { exitCode, dir, report: JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')), target };
}

const reasons = (o: Outcome, status = 'failed') => o.report.requirements.filter((r) => r.status === status).map((r) => `${r.id}: ${r.reason}`);
const passed = (o: Outcome) => o.report.requirements.filter((r) => r.status === 'passed').map((r) => r.id);
const result = (o: Outcome, id: string) => o.report.requirements.find((r) => r.id === id);

beforeAll(async () => {
  // The runs print their summaries and progress; the assertions below say what matters.
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  fixtureNode = await startReferenceNode();
  nodes.push(fixtureNode);
  // All runs at once: most of them wait on timeouts or on the target, so together they take about as long
  // as the slowest.
  for (const mode of Object.keys(CASES) as Array<Exclude<HostileMode, 'huge-body'>>) {
    const p = runMode(mode);
    p.catch(() => {}); // judged in its own test
    outcomes.set(mode, p);
  }
});

afterAll(async () => {
  await Promise.allSettled(outcomes.values());
  vi.restoreAllMocks();
  await Promise.all(targets.map((t) => t.close()));
  await Promise.all(nodes.map((n) => n.close()));
});

/**
 * The requests outside the budget: the preflight's (one per interface to reach it, one per credential to
 * check) and the reads of each node's release (one per interface).
 */
const PREFLIGHT_REQUESTS = 8;

// Runs that wait on timeouts are bounded by their budget (CASES.stalls); this only catches a run that never
// ends, on however slow a machine.
const NO_HANG_MS = 300_000;

describe('a run against a hostile target ends with exit 1 and a complete report', { timeout: NO_HANG_MS }, () => {
  for (const mode of Object.keys(CASES) as Array<Exclude<HostileMode, 'huge-body'>>) {
    it(`${mode}: exit 1 within its budget, report.json valid against its schema, junit.xml and report.html written`, async () => {
      const o = await outcomes.get(mode)!;
      expect(o.exitCode).toBe(1);
      if (CASES[mode].stalls) expect(o.target.requests).toBeLessThanOrEqual(CASES[mode].maxRequests + PREFLIGHT_REQUESTS);
      expect(validateReport(o.report), JSON.stringify(validateReport.errors)).toBe(true);
      expect(o.report.summary.failed).toBeGreaterThan(0);
      expect(readFileSync(join(o.dir, 'junit.xml'), 'utf8')).toMatch(/<testcase [^>]*>\s*<failure message="[^"]+"/);
      expect(readFileSync(join(o.dir, 'report.html'), 'utf8')).toContain('NOT CONFORMANT');
      // Every failure and skip says why (the schema requires a reason; it must also say something).
      for (const r of o.report.requirements.filter((x) => x.status !== 'passed')) expect(r.reason?.length, r.id).toBeGreaterThan(10);
    });
  }
});

describe('failures name the requirement and what was wrong', { timeout: NO_HANG_MS }, () => {
  it('non-json: bodies labelled JSON that are not JSON', async () => {
    const o = await outcomes.get('non-json')!;
    expect(reasons(o)).toContainEqual(expect.stringMatching(/^GENERIC-SCAN-GET-FEATURE-SUPPORT-RESPONSES: body of getFeatureSupport 200 is not JSON: "<html>/));
    expect(reasons(o)).toContainEqual(expect.stringMatching(/^SCAN-FEATURE-SUPPORT: body of getFeatureSupport 200 is not JSON: "<html>/));
    // Nothing is shown by an answer that is no JSON; only the rule "bad input is not answered 5xx" holds.
    expect(passed(o)).toEqual(['SCAN-ERRORS-BAD-INPUT-NOT-5XX']);
  });

  it('wrong-content-type: the right bodies labelled text/plain fail the documented media type, and only that', async () => {
    const o = await outcomes.get('wrong-content-type')!;
    expect(reasons(o)).toContainEqual(
      expect.stringMatching(/^GENERIC-SCAN-GET-FEATURE-SUPPORT-RESPONSES: content type text\/plain; charset=utf-8 is not documented for getFeatureSupport 200/),
    );
    expect(reasons(o)).toContainEqual(expect.stringMatching(/^GENERIC-WALLET-GET-DSO-PARTY-ID-RESPONSES: content type text\/plain/));
    // The bodies are the reference node's: rules about their content still hold.
    expect(result(o, 'SCAN-HOLDINGS-PAGING-COMPLETE')?.status).toBe('passed');
  });

  it('empty-body: a 200 with zero bytes is no JSON', async () => {
    const o = await outcomes.get('empty-body')!;
    expect(reasons(o)).toContainEqual(expect.stringMatching(/^SCAN-FEATURE-SUPPORT: body of getFeatureSupport 200 is not JSON: ""$/));
    expect(reasons(o)).toContainEqual(expect.stringMatching(/^GENERIC-SCAN-GET-FEATURE-SUPPORT-RESPONSES: body of getFeatureSupport 200 is not JSON: ""/));
    expect(passed(o)).toEqual(['SCAN-ERRORS-BAD-INPUT-NOT-5XX']);
  });

  it('unfinished-body: a body that never completes is a timeout, not an answer; the budget ends the run', async () => {
    const o = await outcomes.get('unfinished-body')!;
    expect(reasons(o)).toContainEqual(
      expect.stringMatching(/^GENERIC-LEDGER-GET-UPDATES-RESPONSES: getUpdates: no answer: timed out after 5000 ms reading the body of the 200 answer/),
    );
    expect(reasons(o)).toContainEqual(expect.stringMatching(/^SCAN-HOLDINGS-PAGING-COMPLETE: no answer: timed out after 5000 ms reading the body/));
    expect(reasons(o, 'skipped')).toContainEqual(expect.stringMatching(/^SCAN-FEATURE-SUPPORT: the run's request budget \(--max-requests\) is used up/));
    expect(passed(o)).toEqual([]);
  });

  it('slow-first-byte: nothing within the timeout', async () => {
    const o = await outcomes.get('slow-first-byte')!;
    expect(reasons(o)).toContainEqual(expect.stringMatching(/^GENERIC-LEDGER-GET-UPDATES-RESPONSES: getUpdates: no answer: timed out after 300 ms$/));
    expect(reasons(o)).toContainEqual(expect.stringMatching(/^SCAN-HOLDINGS-PAGING-COMPLETE: no answer: timed out after 300 ms$/));
    // Requirements that change the target come after the reads: the budget is used up by then.
    expect(reasons(o, 'skipped')).toContainEqual(
      expect.stringMatching(/^WALLET-BUY-TRAFFIC-EXACTLY-ONCE-MODEL: the run's request budget \(--max-requests\) is used up/),
    );
    // The sample got no answer, as the answer check of the same operation did: a skip that follows from that failure.
    expect(reasons(o, 'skipped')).toContainEqual(
      expect.stringMatching(
        /^LEDGER-UPDATES-BEGIN-EXCLUSIVE: depends on a failed requirement: GENERIC-LEDGER-GET-UPDATES-RESPONSES \(failed where getUpdates gave no answer, as here\); could not sample the update stream .*: no answer: timed out after 300 ms/,
      ),
    );
    expect(passed(o)).toEqual([]);
  });

  it('reset: a connection reset after the request is a failure of the target, not an unreachable URL (exit 1, not 2)', async () => {
    const o = await outcomes.get('reset')!;
    expect(reasons(o)).toContainEqual(
      expect.stringMatching(/^SCAN-FEATURE-SUPPORT: getFeatureSupport .*: no answer to a valid request .*(ECONNRESET|UND_ERR_SOCKET|other side closed)/),
    );
    expect(passed(o)).toEqual([]);
  });

  it('redirect-loop: redirects are not followed, and the reason says where they lead', async () => {
    const o = await outcomes.get('redirect-loop')!;
    expect(reasons(o)).toContainEqual(
      expect.stringMatching(
        /^SCAN-FEATURE-SUPPORT: getFeatureSupport .* refused a valid request .*: a 302 redirect to \/api\/scan\/v0\/feature-support\?hop=a \(redirects are not followed\)/,
      ),
    );
    expect(reasons(o)).toContainEqual(expect.stringMatching(/^GENERIC-SCAN-GET-FEATURE-SUPPORT-RESPONSES: status 302 is not documented .*302 redirect to/));
    expect(passed(o)).toEqual(['SCAN-ERRORS-BAD-INPUT-NOT-5XX']);
  });

  it('status-500: every rule needing an answer fails; only rules a documented 500 {error} satisfies pass', async () => {
    const o = await outcomes.get('status-500')!;
    expect(reasons(o)).toContainEqual(expect.stringMatching(/^SCAN-FEATURE-SUPPORT: getFeatureSupport .* refused a valid request .*: status 500 \{"error":/));
    expect(reasons(o)).toContainEqual(expect.stringMatching(/^SCAN-ERRORS-BAD-INPUT-NOT-5XX: .*answered 500; bad input is a client error/));
    // The scan and wallet documents list 500 {error}: their answer checks and error-body rules hold, and no
    // judged body sends null for an optional property.
    const rules = passed(o).filter((id) => !/^GENERIC-(SCAN|WALLET)-.*-RESPONSES$/.test(id));
    expect(rules.sort()).toEqual([
      'LEDGER-ANSWERS-NULL-FOR-ABSENT',
      'SCAN-ANSWERS-NULL-FOR-ABSENT',
      'SCAN-ERRORS-SHAPE',
      'WALLET-ANSWERS-NULL-FOR-ABSENT',
      'WALLET-ERROR-BODY-BUY-TRAFFIC',
      'WALLET-ERROR-BODY-STATUS-LOOKUP',
    ]);
    // The exactly-once model sees nothing accepted: it cannot show the rule, so it is skipped, not passed.
    expect(result(o, 'WALLET-BUY-TRAFFIC-EXACTLY-ONCE-MODEL')).toMatchObject({
      status: 'skipped',
      reason: expect.stringContaining('no submission of any sequence was accepted'),
    });
  });

  it('empty-object: {} fails every record with required fields; passes only where the documents allow {}', async () => {
    const o = await outcomes.get('empty-object')!;
    expect(reasons(o)).toContainEqual(
      expect.stringMatching(/^GENERIC-SCAN-LIST-ANS-ENTRIES-RESPONSES: body of listAnsEntries 200 violates the schema: .*required property 'entries'/),
    );
    expect(reasons(o)).toContainEqual(
      expect.stringMatching(/^SCAN-HOLDINGS-AT-OR-BEFORE: v0: the holdings page \(the snapshot time \S+ itself with exact\) has no created_events array/),
    );
    // {} is a complete answer where every field is optional: {dummy?}, {rewardWeight?}, an upload's {} (both
    // upload paths answer it alike), a vetting listing without vetted packages; it sends no null.
    const rules = passed(o).filter((id) => !id.startsWith('GENERIC-'));
    expect(rules.sort()).toEqual([
      'LEDGER-ANSWERS-NULL-FOR-ABSENT',
      'LEDGER-PACKAGES-UPLOAD-SAME-AS-DARS',
      'LEDGER-VETTING-LIST',
      'SCAN-ANSWERS-NULL-FOR-ABSENT',
      'SCAN-ERRORS-BAD-INPUT-NOT-5XX',
      'SCAN-FEATURE-SUPPORT',
      'SCAN-REWARD-WEIGHT-EFFECTIVE-BEFORE',
      'SCAN-REWARD-WEIGHT-STRING-OR-ABSENT',
      'WALLET-ANSWERS-NULL-FOR-ABSENT',
    ]);
    expect(result(o, 'SCAN-REASSIGNMENT-RECORDS')).toMatchObject({ status: 'skipped', reason: expect.stringContaining('none carries event') });
    expect(result(o, 'SCAN-ROOT-HASH-ROUND-ECHOED')).toMatchObject({ status: 'skipped', reason: expect.stringContaining('names a round_number') });
  });

  it('endless-paging: a token that always leads on fails the paging rules; the walks stop at the page bound', async () => {
    const o = await outcomes.get('endless-paging')!;
    expect(result(o, 'SCAN-HOLDINGS-PAGING-TOKEN-ENDS')).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(/after \d+ pages the token is still present although no new contract appeared/),
    });
    expect(result(o, 'SCAN-BULK-PAGING-COMPLETE')).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(new RegExp(`after ${DEFAULT_BOUNDS.maxPages} pages .*next_page_token is still present .*the walk never ends`)),
    });
    expect(o.target.requests).toBeLessThan(CASES['endless-paging'].maxRequests);
  });

  it('cycling-token: a token leading back to an earlier page is a walk that never ends', async () => {
    const o = await outcomes.get('cycling-token')!;
    expect(result(o, 'SCAN-HOLDINGS-PAGING-TOKEN-ENDS')).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(/a token already used in this walk: the walk never ends/),
    });
    expect(result(o, 'SCAN-BULK-PAGING-COMPLETE')).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(/already used in this walk: the walk never ends/),
    });
  });

  it('huge-int64: integers beyond 2^53 in int64 fields are conformant; rules they break by value fail, nothing crashes', async () => {
    const o = await outcomes.get('huge-int64')!;
    // A valid int64 is never a failure for its size: the answer checks of the operations whose int64 fields
    // were all rewritten (traffic totals, faucet rounds, root-hash rounds) pass.
    for (const id of [
      'GENERIC-SCAN-GET-MEMBER-TRAFFIC-STATUS-RESPONSES',
      'GENERIC-SCAN-GET-VALIDATOR-FAUCETS-BY-VALIDATOR-RESPONSES',
      'GENERIC-SCAN-GET-REWARD-ACCOUNTING-ROOT-HASH-RESPONSES',
      'GENERIC-LEDGER-GET-UPDATES-RESPONSES',
    ]) {
      expect(result(o, id)?.status, id).toBe('passed');
    }
    expect(reasons(o).filter((r) => /int64|must be <=|maximum/.test(r))).toEqual([]);
    // Rules the rewritten values break are still judged: the holdings answer no longer echoes migration_id.
    expect(result(o, 'SCAN-HOLDINGS-REQUEST-ECHOED')).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(/migration_id 9007199254740992 is not the requested \d+/),
    });
    // Ledger offsets beyond 2^53 cannot be sent back exactly: the window rules say so instead of judging.
    expect(result(o, 'LEDGER-UPDATES-BEGIN-EXCLUSIVE')).toMatchObject({ status: 'skipped', reason: expect.stringContaining('offsets beyond 2^53') });
  });

  it('mangled-json: values of the wrong type anywhere (and 100 000 levels of nesting) are failures, never exceptions', async () => {
    const o = await outcomes.get('mangled-json')!;
    expect(o.report.summary.failed).toBeGreaterThan(10);
  });
});

describe('WebSocket channels that never end, flood or send garbage: a clear failure each, and the report complete', { timeout: NO_HANG_MS }, () => {
  const channelFailures = (o: Outcome) => reasons(o).filter((r) => r.startsWith('LEDGER-WEBSOCKET-') || r.startsWith('LEDGER-UPDATES-ONE-KIND-WS'));
  it('ws-endless: a bounded read that never closes is cut at its longest life', async () => {
    const o = await outcomes.get('ws-endless')!;
    expect(reasons(o)).toContainEqual(expect.stringMatching(/^LEDGER-WEBSOCKET-SAME-AS-HTTP: .*still open after \d+ ms .*it never ended/));
    expect(channelFailures(o).length).toBeGreaterThanOrEqual(4);
  });
  it('ws-flood: a stream past the byte bound is cut there', async () => {
    const o = await outcomes.get('ws-flood')!;
    expect(reasons(o)).toContainEqual(expect.stringMatching(/^LEDGER-WEBSOCKET-SAME-AS-HTTP: .*more than the bound of the run \(\d+ bytes\)/));
    expect(channelFailures(o).length).toBeGreaterThanOrEqual(4);
  });
  it('ws-garbage: messages that are no JSON fail the reads that got them, with the message pointed at', async () => {
    const o = await outcomes.get('ws-garbage')!;
    expect(reasons(o)).toContainEqual(
      expect.stringMatching(/^LEDGER-UPDATES-ONE-KIND-WS: over the WebSocket channel: message 0 of the WebSocket stream \/v2\/updates is not JSON text/),
    );
    expect(result(o, 'LEDGER-WEBSOCKET-REFUSED-TOKEN')?.status).toBe('failed');
  });
});

describe('reachability: only a URL nothing can connect to is a usage error', { timeout: NO_HANG_MS }, () => {
  const client = (url: string, timeoutMs = 300) =>
    new Client({ origin: url, prefix: '/api/scan', credentials: {}, timeoutMs, maxBodyBytes: 1024, limits: new RunLimits({ maxRequests: 0 }) });

  it('a refused connection is exit 2 (UsageError naming the flag and the cause)', async () => {
    const t = await startHostileTarget('status-500');
    const url = t.url;
    await t.close();
    await expect(ensureReachable({ scan: client(url) })).rejects.toThrow(new RegExp(`^cannot reach --scan-url ${url}/api/scan: .*ECONNREFUSED`));
  });

  it('a target that accepts the connection and then resets it, stalls or redirects is reachable (its rules fail instead)', async () => {
    for (const mode of ['reset', 'slow-first-byte', 'unfinished-body', 'redirect-loop'] as const) {
      const t = await startHostileTarget(mode);
      targets.push(t);
      await expect(ensureReachable({ scan: client(t.url) }), mode).resolves.toBeUndefined();
    }
  });
});

describe('a target that stops answering', { timeout: NO_HANG_MS }, () => {
  it('costs a few timeouts per interface, not one per request of the budget: the rest fails as not sent', async () => {
    const target = await startHostileTarget('slow-first-byte', { slowMs: 60_000 });
    targets.push(target);
    const dir = mkdtempSync(join(tmpdir(), 'cn-hostile-stalled-'));
    // The whole catalog and a budget of 20 000 requests: without the stop, hours of timeouts.
    const { exitCode } = await run(options(target.url, dir, fixtureNode, { timeoutMs: 300, maxRequests: 20_000 }));
    const o = { report: JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) } as Outcome;
    expect(exitCode).toBe(1);
    // What bounds the time, whatever the machine's speed: the requests that reached the target.
    expect(target.requests).toBeLessThanOrEqual(3 * (STALLED_AFTER + 1) + 3);
    expect(reasons(o)).toContainEqual(
      expect.stringMatching(
        /^SCAN-FEATURE-SUPPORT: getFeatureSupport .*: no answer to a valid request .*: not sent: the last 8 requests to .* got no answer within 300 ms/,
      ),
    );
    expect(passed(o)).toEqual([]);
  });
});

describe('zero-configuration runs on hostile targets: discovery on', { timeout: NO_HANG_MS }, () => {
  // No fixture file: every source of the discovery meets the hostile answers, mutating ones included.
  const ZERO: Array<[HostileMode, number]> = [
    ['non-json', ANSWERS_AT_ONCE_MS],
    ['status-500', ANSWERS_AT_ONCE_MS],
    ['reset', ANSWERS_AT_ONCE_MS],
    ['mangled-json', ANSWERS_AT_ONCE_MS],
    ['slow-first-byte', 300],
  ];
  it.each(ZERO)('%s: a complete report, every discovery source accounted for, nothing in error', async (mode, timeoutMs) => {
    const node = await startReferenceNode();
    nodes.push(node);
    const target = await startHostileTarget(mode, { reference: node.urls.ledger, slowMs: 60_000, seed: 5, mangleRate: 0.2 });
    targets.push(target);
    const dir = mkdtempSync(join(tmpdir(), `cn-hostile-zero-${mode}-`));
    const only = ['SCAN-FEATURE-SUPPORT', 'SCAN-TRANSFER-PREAPPROVAL', 'LEDGER-UPDATES-BEGIN-EXCLUSIVE', 'WALLET-TRANSFER-STATUS-ACTIVE-SHAPE'];
    const { exitCode } = await run({ ...options(target.url, dir, node, { timeoutMs, maxRequests: 400, only }), config: undefined });
    expect([0, 1], `exit ${exitCode}`).toContain(exitCode);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    expect(report.discovery.sources.map((s: { source: string }) => s.source)).toEqual(DISCOVERY_SOURCES.map((s) => s.id));
    expect(report.requirements).toHaveLength(only.length);
    expect(report.requirements.filter((r: Requirement) => r.status === 'error').map((r: Requirement) => `${r.id}: ${r.reason}`)).toEqual([]);
  });
});

describe('fixture discovery on a hostile target', { timeout: NO_HANG_MS }, () => {
  it('takes only well-typed ids from complete 200 answers, and never throws', async () => {
    const node = await startReferenceNode();
    nodes.push(node);
    const { holdingOwners } = referenceFixtures(node);
    const cases: Array<[HostileMode, number]> = [
      ['non-json', 1],
      ['empty-object', 1],
      ['status-500', 1],
      ['reset', 1],
      ['redirect-loop', 1],
      ['huge-int64', 1],
      ['wrong-content-type', 1],
      ...[1, 2, 3, 4, 5, 6].map((seed): [HostileMode, number] => ['mangled-json', seed]),
    ];
    for (const [mode, seed] of cases) {
      const t = await startHostileTarget(mode, { reference: node.urls.ledger, seed, mangleRate: 0.2 });
      targets.push(t);
      const limits = new RunLimits({ maxRequests: 200 });
      const client = (prefix: string) =>
        new Client({
          origin: t.url,
          prefix,
          credentials: { bearer: 'x.y.z' },
          timeoutMs: ANSWERS_AT_ONCE_MS,
          maxBodyBytes: DEFAULT_BOUNDS.maxBodyBytes,
          limits,
        });
      const { fixtures: f, sources } = await discover({
        sources: DISCOVERY_SOURCES,
        given: { holdingOwners },
        clients: { scan: client('/api/scan'), ledger: client(''), wallet: client('/api/validator') },
        allowMutations: true,
        env: { runId: `hostile-${seed}`, walletBearer: 'x.y.z', now: () => new Date() },
      });
      const what = `${mode} seed ${seed}: ${JSON.stringify(f)}`;
      if (f.snapshotRecordTime !== undefined) expect(typeof f.snapshotRecordTime, what).toBe('string');
      if (f.migrationId !== undefined) expect(Number.isSafeInteger(f.migrationId), what).toBe(true);
      for (const id of f.transactionUpdateIds ?? []) expect(typeof id, what).toBe('string');
      if (f.domainId !== undefined) expect(typeof f.domainId, what).toBe('string');
      for (const r of f.rounds ?? []) expect(Number.isSafeInteger(r), what).toBe(true);
      // Every source says what became of it.
      expect(sources.map((s) => s.source)).toEqual(DISCOVERY_SOURCES.map((s) => s.id));
      for (const s of sources) expect(typeof describeSource(s)).toBe('string');
      // A target whose answers show nothing yields nothing.
      if (['non-json', 'empty-object', 'status-500', 'reset', 'redirect-loop'].includes(mode)) expect(f, what).toEqual({ holdingOwners });
      // The reference node's bodies (whatever their label) lead to ids.
      if (mode === 'wrong-content-type') expect(f.transactionUpdateIds?.length, what).toBeGreaterThan(0);
    }
  });
});

describe('int64 beyond 2^53 (the decision in engine/int64.ts)', () => {
  it('a document answer with 2^53 + 1 in an int64 field validates; JSON.parse rounds it, and nothing else', async () => {
    const scan = await builtinSpec('scan');
    const text = withHugeInt64('{"traffic_status":{"actual":{"total_consumed":5,"total_limit":7},"target":{"total_purchased":7}}}');
    expect(text).toBe(
      `{"traffic_status":{"actual":{"total_consumed":${BEYOND_2_53},"total_limit":${BEYOND_2_53}},"target":{"total_purchased":${BEYOND_2_53}}}}`,
    );
    expect(responseProblems(scan, 'getMemberTrafficStatus', { status: 200, contentType: 'application/json', text })).toEqual([]);
    // Beyond the int64 range it is not valid.
    const over = text.replaceAll(BEYOND_2_53, '92233720368547758070');
    expect(responseProblems(scan, 'getMemberTrafficStatus', { status: 200, contentType: 'application/json', text: over }).join()).toMatch(/total_consumed/);
  });
});

describe('a 50 MB answer to every request', () => {
  it(
    'is read up to the bound, judged too large, and never kept: evidence holds excerpts, memory stays flat',
    async () => {
      const target = await startHostileTarget('huge-body');
      targets.push(target);
      const dir = mkdtempSync(join(tmpdir(), 'cn-hostile-huge-body-'));
      // Rules of every kind of check, rather than the generic ones the catalog starts with; a few of the ledger's,
      // so that the budget of 60 reaches the scan's walks.
      const only = ['GENERIC-SCAN-GET-FEATURE-SUPPORT-RESPONSES', 'LEDGER-UPDATES-*-INCLUSIVE', 'LEDGER-UPDATES-LIMIT', 'WALLET-*', 'SCAN-*'];
      const opts = options(target.url, dir, fixtureNode, { timeoutMs: ANSWERS_AT_ONCE_MS, maxRequests: 60, only });
      const figures = join(dir, 'figures.json');
      // A process of its own, so that its peak memory is the run's alone.
      await promisify(execFile)(
        process.execPath,
        ['--expose-gc', '--import', 'tsx', join(root, 'test/hostile/measured-run.ts'), JSON.stringify(opts), figures],
        {
          cwd: root,
          timeout: NO_HANG_MS,
        },
      );
      const m = JSON.parse(readFileSync(figures, 'utf8')) as {
        exitCode: number;
        maxRssAfter: number;
        rssBefore: number;
        millis: number;
        retained: { heapUsed: number; arrayBuffers: number };
      };
      expect(m.exitCode).toBe(1);
      const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Outcome['report'];
      expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
      expect(reasons({ report } as Outcome)).toContainEqual(
        expect.stringMatching(/^SCAN-HOLDINGS-PAGING-COMPLETE: the body of the 200 answer is larger than the bound of the run \(at least \d+ bytes\)/),
      );
      expect(reasons({ report } as Outcome)).toContainEqual(
        expect.stringMatching(/^GENERIC-SCAN-GET-FEATURE-SUPPORT-RESPONSES: getFeatureSupport: the body of the 200 answer is larger than the bound/),
      );
      // Evidence: an excerpt of each body, with its size as received.
      const responses = report.requirements.flatMap((r) => (r.evidence?.exchange?.response ? [r.evidence.exchange.response] : []));
      expect(responses.length).toBeGreaterThan(20);
      for (const r of responses) expect(Buffer.byteLength(r.bodyExcerpt)).toBeLessThanOrEqual(EXCERPT_BYTES);
      expect(Math.max(...responses.map((r) => r.bodyBytes))).toBeGreaterThan(DEFAULT_BOUNDS.maxBodyBytes);
      expect(statSync(join(dir, 'report.json')).size).toBeLessThan(2 * 1024 * 1024);
      // Memory: the target sent at least 40 answers of 50 MB, each read up to the 16 MB bound (640 MB or more
      // went through the client). Keeping them, or any part beyond the excerpt (a string slice would pin its
      // whole body), grows the process by hundreds of megabytes (measured: 860 MB peak growth, 580 MB of heap
      // still held after the run); reading them one at a time costs a few bound-sized buffers (measured: 140
      // MB peak growth, of which 70 MB is the same run against a target answering {}; 20 MB of heap after).
      expect(target.requests).toBeGreaterThanOrEqual(40);
      const MB = (n: number) => Math.round(n / 2 ** 20);
      const growth = m.maxRssAfter - m.rssBefore;
      console.info(
        `hostile huge-body: ${target.requests} answers, ${m.millis} ms, peak RSS growth ${MB(growth)} MB, after the run ${MB(m.retained.heapUsed)} MB heap, ${MB(m.retained.arrayBuffers)} MB buffers`,
      );
      expect(growth, `peak RSS grew by ${MB(growth)} MB over ${target.requests} answers of ${HUGE_BODY_BYTES / 2 ** 20} MB`).toBeLessThan(320 * 2 ** 20);
      expect(m.retained.heapUsed).toBeLessThan(120 * 2 ** 20);
      expect(m.retained.arrayBuffers).toBeLessThan(2 * DEFAULT_BOUNDS.maxBodyBytes);
    },
    NO_HANG_MS,
  );
});
