// The ledger requirements with ledgerParties of every size a vendor may configure: one party (a validator
// reading as its own party), two, and every party the ledger participant hosts. Each must run to a verdict
// on a clean node: nothing throws, nothing fails, and nothing is skipped for want of parties.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceFixtures } from '../../reference-node/fixtures.ts';
import { startReferenceNode, type RunningReferenceNode } from '../../reference-node/index.ts';
import { LEDGER_REQUIREMENTS } from '../../requirements/ledger/index.ts';

/** The stream's rules; the deviation policy's reviews need answers of other operations (generic checks provoke the 404s). */
const RULES = LEDGER_REQUIREMENTS.filter((r) => r.phase !== 'review');
import { runAgainst } from '../support/suite-harness.ts';

/** The hosted party with this hint (party ids are `<hint>::<fingerprint>`). */
const byHint = (hosted: string[], hint: string) => {
  const p = hosted.find((id) => id.startsWith(`${hint}::`));
  if (!p) throw new Error(`the reference node hosts no party '${hint}' on its ledger participant (hosted: ${hosted.join(', ')})`);
  return p;
};

// bob's first 100 updates hold every kind (transactions, reassignments, topology, checkpoints) and end early
// in the ledger, so his windows are rich and cheap to read. alice and bob transfer to each other, so a read
// as both holds events both witness: the pair comparison of LEDGER-UPDATES-LEDGER-EFFECTS-WITNESS has
// something to compare.
const PARTY_SETS: Array<[string, (hosted: string[]) => string[]]> = [
  ['exactly one hosted party', (h) => [byHint(h, 'bob')]],
  ['exactly two hosted parties', (h) => [byHint(h, 'alice'), byHint(h, 'bob')]],
  ['every party hosted on the ledger participant', (h) => [...h]],
];

describe('ledger requirements with one, two or many ledger parties', () => {
  let node: RunningReferenceNode;
  beforeAll(async () => {
    node = await startReferenceNode({});
  });
  afterAll(async () => {
    await node?.close();
  });

  it.each(PARTY_SETS)('%s: every requirement is judged and passes (one party: all but the read as several)', async (label, pick) => {
    const fixtures = referenceFixtures(node);
    const ledgerParties = pick(fixtures.ledgerParties!);
    // Resolving is the first assertion: a check that throws must not take the run down.
    // One node serves every set: each run submits its command under its own run id (a command id is used once).
    // The channels read as the parties' HTTP reads do: judged over them once, with every party.
    const rules = pick === PARTY_SETS.at(-1)![1] ? RULES : RULES.filter((r) => !r.channels?.length);
    const results = await runAgainst(node, rules, { fixtures: { ...fixtures, ledgerParties }, runs: 4 }, `parties-${label.replace(/\W+/g, '-')}`);
    const notPassed = results.filter((r) => r.status !== 'passed').map((r) => `${r.id}: ${r.status}: ${r.reason?.slice(0, 300)}`);
    expect(results).toHaveLength(rules.length);
    // One list for errors (a check that threw), failures and skips, so the message names each with its reason.
    // With one party, a read as several parties has no data: that one is skipped, saying so; and where the
    // parties' stream is shorter than the node's list limit, the probes at the limit have no window to read either.
    const short = /^LEDGER-UPDATES-LIST-LIMIT-AT-BOUND: skipped: the first \d+ elements of the stream leave no windows of 199 and 200 elements to read$/;
    const several = 'LEDGER-UPDATES-SEVERAL-PARTIES: skipped: reading as several parties needs at least two ledger parties';
    // And a stream within the list limit leaves the channel nothing beyond it to deliver.
    const within = /^LEDGER-WEBSOCKET-BEYOND-LIST-LIMIT: skipped: the window of \d+ elements is within the node's list limit/;
    const expected = [...notPassed.filter((n) => short.test(n) || within.test(n)), ...(ledgerParties.length === 1 ? [several] : [])];
    expect(notPassed, `read as ${ledgerParties.length} part${ledgerParties.length === 1 ? 'y' : 'ies'}`).toEqual(expected);
  });
});
