// The ledger requirement records, proven on the reference node: a clean node passes every one of them (that a
// node with a ledger fault fails exactly the requirements its catalog entry names is the detection matrix's
// proof, test/suites/detection.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceFixtures } from '../../reference-node/fixtures.ts';
import { startReferenceNode, type ReferenceNodeOptions, type RunningReferenceNode } from '../../reference-node/index.ts';
import { LEDGER_FAULTS } from '../../reference-node/ledger/faults.ts';
import { LEDGER_REQUIREMENTS } from '../../requirements/ledger/index.ts';
import type { RequirementResult } from '../../engine/engine.ts';
import { failedIds, runAgainst, runOnFreshNode } from '../support/suite-harness.ts';

const IDS = new Set(LEDGER_REQUIREMENTS.map((r) => r.id));
/** The rules of the stream; the deviation policy's reviews need answers of other operations (generic checks provoke the 404s). */
const RULES = LEDGER_REQUIREMENTS.filter((r) => r.phase !== 'review');

/**
 * Fault nodes run with a list limit of 200: every read of the default history stays under the default limit
 * of 500 (at most 474 elements), so without a smaller limit no node, faulty or not, ever answers 413.
 */
const FAULT_NODE: ReferenceNodeOptions = { listLimit: 200 };

/** Faults no target-agnostic requirement can notice (see reference-node/ledger/faults.ts). */

const summary = (results: RequirementResult[]) => results.filter((r) => r.status !== 'passed').map((r) => `${r.id}: ${r.status}: ${r.reason?.slice(0, 300)}`);

describe('ledger requirement records', () => {
  // The rules of other endpoints than the update stream, with what they call.
  const CHANNELS_ONLY = [
    'LEDGER-WEBSOCKET-BAD-REQUEST',
    'LEDGER-WEBSOCKET-REFUSED-TOKEN',
    'LEDGER-WEBSOCKET-MESSAGE-SCHEMA',
    'LEDGER-WEBSOCKET-ACTIVE-CONTRACTS',
  ];
  const OTHER_OPERATIONS: Record<string, string[]> = {
    'LEDGER-WEBSOCKET-LIVE-UPDATE': ['submitAndWait'],
    'LEDGER-WEBSOCKET-COMPLETIONS': ['submitAsync'],
    'LEDGER-COMMAND-COMPLETIONS-SINCE-3-5': ['getCommandCompletions'],
    'LEDGER-PACKAGES-UPLOAD-SAME-AS-DARS': ['uploadDar', 'uploadPackages'],
    'LEDGER-COMMANDS-SUBMIT-AND-WAIT-VISIBLE': ['submitAndWait', 'getUpdates'],
    'LEDGER-COMMANDS-FOR-TRANSACTION-VISIBLE': ['submitAndWaitForTransaction', 'getUpdates'],
    'LEDGER-COMMANDS-FOR-TREE-VISIBLE': ['submitAndWaitForTransactionTree', 'getUpdates'],
    'LEDGER-COMMANDS-ASYNC-COMPLETES': ['submitAsync', 'getCompletions', 'getUpdates'],
    'LEDGER-COMMANDS-ASYNC-FAILURE-NOT-OK': ['submitAndWaitForTransaction', 'submitAsync', 'getCompletions', 'getUpdates'],
    'LEDGER-COMMANDS-COMPLETIONS-LIST-RESULT': ['getCompletions', 'submitAndWait'],
    'LEDGER-COMMANDS-COMMAND-COMPLETIONS-LIST-ASYNC': ['getCommandCompletions', 'submitAsync'],
    'LEDGER-COMMANDS-FOR-REASSIGNMENT-MOVES': [
      'submitAndWaitForReassignment',
      'submitAndWaitForTransaction',
      'getUpdates',
      'submitAndWait',
      'getPackageVetting',
    ],
    'LEDGER-COMMANDS-ASYNC-REASSIGNMENT-MOVES': [
      'submitReassignmentAsync',
      'submitAndWaitForTransaction',
      'getCompletions',
      'getUpdates',
      'submitAndWait',
      'getPackageVetting',
    ],
    'LEDGER-EVENTS-BY-CONTRACT-ID-AS-STREAMED': ['getUpdates', 'getEventsByContractId'],
    'LEDGER-VERSION-STATED': ['getVersion'],
    'LEDGER-PACKAGES-LIST-IDENTIFIERS': ['listPackages'],
    'LEDGER-PACKAGES-CONTENTS-OF-LISTED': ['listPackages', 'getPackage'],
    'LEDGER-PACKAGES-STATUS-OF-LISTED': ['listPackages', 'getPackageStatus'],
    'LEDGER-PACKAGES-DAR-VALIDATE': ['listPackages', 'getPackage', 'validateDar'],
    'LEDGER-PACKAGES-DAR-UPLOAD': ['listPackages', 'getPackage', 'uploadDar', 'getPackageStatus'],
    'LEDGER-PACKAGES-UPLOAD-TAKES-DAR': ['listPackages', 'getPackage', 'uploadPackages', 'getPackageStatus'],
    'LEDGER-VETTING-LIST': ['getPackageVetting'],
    'LEDGER-PACKAGES-LIST-HAS-STREAMED': ['listPackages', 'getUpdates'],
    'LEDGER-COMMANDS-WAIT-FAILURE-PROPAGATED': ['submitAndWaitForTransaction', 'submitAndWait', 'submitAndWaitForTransactionTree'],
    'LEDGER-VETTING-DRY-RUN-UNVET': ['getPackageVetting', 'postPackageVetting'],
  };
  /** The operations that change the ledger: a requirement calling one of them changes it, and runs only with mutations allowed (a vetting dry run too: a faulty node may apply it). */
  const CHANGING = [
    'uploadDar',
    'uploadPackages',
    'postPackageVetting',
    'submitAndWait',
    'submitAndWaitForTransaction',
    'submitAndWaitForTransactionTree',
    'submitAndWaitForReassignment',
    'submitAsync',
    'submitReassignmentAsync',
  ];
  /** The command operations, each confirmed by exactly one positive requirement. */
  const COMMAND_OPERATIONS = [...CHANGING.slice(3), 'getCompletions', 'getCommandCompletions'];

  // Ids, levels, sections, sentences and documented operations: test/suites/requirement-records.test.ts.
  it('name getUpdates unless they name others, and are read-only unless uploading, vetting or submitting', () => {
    for (const r of LEDGER_REQUIREMENTS) {
      // The deviation policy's reviews judge the run's answers of every operation, so they name none; a WebSocket
      // twin and a record reading only channels call no operation of the document (they name their channels).
      const none = r.phase === 'review' || r.transport === 'websocket' || CHANNELS_ONLY.includes(r.id);
      expect(r.operations, r.id).toEqual(none ? [] : (OTHER_OPERATIONS[r.id] ?? ['getUpdates']));
      expect(r.mutates, r.id).toBe(r.operations.some((op) => CHANGING.includes(op)));
    }
  });

  it('confirm each command operation once, by a requirement that submits its own command', () => {
    for (const op of COMMAND_OPERATIONS) {
      const confirming = LEDGER_REQUIREMENTS.filter((r) => r.confirms === op);
      expect(
        confirming.map((r) => r.id),
        op,
      ).toHaveLength(1);
      expect(confirming[0]!.mutates, op).toBe(true);
      expect(confirming[0]!.needs, op).toContain('ledgerCommands');
    }
  });

  it('the update stream, events, version, package, DAR and vetting operations have one positive requirement each', () => {
    const owned = [
      'getUpdates',
      'getEventsByContractId',
      'getVersion',
      'validateDar',
      'uploadDar',
      'listPackages',
      'uploadPackages',
      'getPackage',
      'getPackageStatus',
      'getPackageVetting',
      'postPackageVetting',
    ];
    for (const op of owned)
      expect(
        LEDGER_REQUIREMENTS.filter((r) => r.confirms === op).map((r) => r.id),
        op,
      ).toHaveLength(1);
  });

  it('every fault names its detecting requirements, all of them ledger requirements', () => {
    for (const f of LEDGER_FAULTS) {
      expect(f.rules.length + (f.generic ? 1 : 0), f.name).toBeGreaterThan(0);
      for (const id of f.rules.filter((i) => i.startsWith('LEDGER-'))) expect(IDS.has(id), `${f.name}: ${id}`).toBe(true);
    }
  });
});

// With default settings, the detection matrix's clean run (detection.test.ts) runs every requirement.
describe('a clean reference node passes every ledger requirement', () => {
  it("with list limit 200 (the fault nodes' setting, where 413 answers occur)", async () => {
    // How fast they run is the benchmark's business (figure 1), not a unit test's.
    const results = await runOnFreshNode(FAULT_NODE, RULES);
    expect(summary(results)).toEqual([]);
    expect(results).toHaveLength(RULES.length);
  });
});

describe('missing fixtures', () => {
  let node: RunningReferenceNode;
  beforeAll(async () => {
    node = await startReferenceNode({});
  });
  afterAll(async () => {
    await node?.close();
  });

  it('a requirement whose fixture is missing is skipped with a reason naming it', async () => {
    const readRights = LEDGER_REQUIREMENTS.filter((r) => r.id === 'LEDGER-UPDATES-READ-RIGHTS');
    const [result] = await runAgainst(node, readRights, { fixtures: { ...referenceFixtures(node), ledgerLimitedToken: undefined } });
    expect(result!.status).toBe('skipped');
    expect(result!.reason).toMatch(/ledgerLimitedToken/);
  });

  it('without ledger parties every requirement that reads as them is skipped, none fails', async () => {
    const results = await runAgainst(node, RULES, { fixtures: { ...referenceFixtures(node), ledgerParties: undefined } });
    expect(failedIds(results)).toEqual([]);
    for (const r of results.filter((x) => x.status === 'skipped')) expect(r.reason).toMatch(/ledgerParties/);
    expect(results.find((r) => r.id === 'LEDGER-UPDATES-READ-RIGHTS')!.status).toBe('passed');
  });
});
