// The ids checks need. They come from a config file or flags, or are discovered from the target itself;
// a requirement whose fixture is missing is skipped with the reason, never passed.
import { isObject, type Json } from '../common/json.ts';
import { BudgetExhausted, type Client, type Exchange } from './http.ts';

export interface Fixtures {
  // --- scan ---
  /** A migration id with a known ACS snapshot. */
  migrationId?: number;
  /** A record time that is an ACS snapshot time of `migrationId` (exact match). */
  snapshotRecordTime?: string;
  /** Parties owning holdings at that snapshot. */
  holdingOwners?: string[];
  /** Update ids of transactions known to the scan. */
  transactionUpdateIds?: string[];
  /** Update ids of reassignments (assignments and unassignments) known to the scan. */
  reassignmentUpdateIds?: string[];
  /** A synchronizer (domain) id. */
  domainId?: string;
  /** Member ids (PAR::... / MED::...) with traffic on `domainId`. */
  memberIds?: string[];
  /** Onboarded validator party ids. */
  validatorIds?: string[];
  /** Parties to look up participant ids for on `domainId`. */
  partyIds?: string[];
  /** Reward-accounting round numbers to ask root hashes for. */
  rounds?: number[];
  /** SV parties for reward-weight lookups. */
  svParties?: string[];
  /** Parties that have a transfer preapproval. */
  preapprovalParties?: string[];
  /** A record-time range with bulk history objects. */
  bulkRange?: { start: string; end: string };
  // --- ledger ---
  /** Parties hosted on the participant that the ledger credentials may read as. */
  ledgerParties?: string[];
  /** A party the ledger credentials may NOT read as (for the 403 check). */
  ledgerForbiddenParty?: string;
  /** Bearer token of a user with limited read rights (for the 403 check). */
  ledgerLimitedToken?: string;
  // --- wallet ---
  /** Tracking ids of transfer offers of the wallet user, by state. */
  transferOffers?: Partial<Record<'created' | 'accepted' | 'completed' | 'failed', string[]>>;
  /** Tracking ids of transfer offers of ANOTHER wallet user (the configured user must get 404 for them). */
  otherUserTransferOffers?: string[];
  /** A party hosted on one participant, to receive bought traffic. */
  trafficReceiverParty?: string;
  /** A party hosted on several participants (buy traffic must refuse it). */
  multiHostedParty?: string;
}

export type FixtureName = keyof Fixtures;

/**
 * The environment variable that may hold the limited user's token instead of the fixture file; curl lines
 * of the checks that send it refer to it rather than show the token.
 */
export const LIMITED_TOKEN_VARIABLE = 'CN_CONFORMANCE_LEDGER_LIMITED_TOKEN';

export const FIXTURE_HELP: Record<FixtureName, string> = {
  migrationId: 'fixtures.migrationId (a migration id with an ACS snapshot)',
  snapshotRecordTime: 'fixtures.snapshotRecordTime (an ACS snapshot time), or allow mutations so force-ACS can take one',
  holdingOwners: 'fixtures.holdingOwners (parties owning holdings)',
  transactionUpdateIds: 'fixtures.transactionUpdateIds, or snapshot + owners so holdings lead to them',
  reassignmentUpdateIds: 'fixtures.reassignmentUpdateIds',
  domainId: 'fixtures.domainId, or transaction ids so events reveal it',
  memberIds: 'fixtures.memberIds (PAR::/MED:: members)',
  validatorIds: 'fixtures.validatorIds (onboarded validator parties)',
  partyIds: 'fixtures.partyIds',
  rounds: 'fixtures.rounds (reward-accounting round numbers)',
  svParties: 'fixtures.svParties',
  preapprovalParties: 'fixtures.preapprovalParties',
  bulkRange: 'fixtures.bulkRange {start, end}',
  ledgerParties: 'fixtures.ledgerParties (parties the ledger token may read as)',
  ledgerForbiddenParty: 'fixtures.ledgerForbiddenParty',
  ledgerLimitedToken: 'fixtures.ledgerLimitedToken',
  transferOffers: 'fixtures.transferOffers {created: [...], failed: [...]} (tracking ids of the wallet user)',
  otherUserTransferOffers: "fixtures.otherUserTransferOffers (tracking ids of another wallet user's transfer offers)",
  trafficReceiverParty: 'fixtures.trafficReceiverParty',
  multiHostedParty: 'fixtures.multiHostedParty',
};

export function missingFixtures(f: Fixtures, needs: readonly FixtureName[]): FixtureName[] {
  return needs.filter((n) => {
    const v = f[n];
    return v === undefined || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);
  });
}

/**
 * Fills gaps from the target itself, read-only unless mutations are allowed: force-ACS for a snapshot
 * time, holdings -> creating update ids, events -> domain id and rounds.
 */
export async function discoverFixtures(given: Fixtures, scan: Client | undefined, allowMutations: boolean): Promise<{ fixtures: Fixtures; notes: string[] }> {
  const f: Fixtures = structuredClone(given);
  const notes: string[] = [];
  if (!scan) return { fixtures: f, notes };
  try {
    await discover(f, notes, scan, allowMutations);
  } catch (e) {
    if (!(e instanceof BudgetExhausted)) throw e;
    notes.push('discovery stopped: the request budget is used up');
  }
  return { fixtures: f, notes };
}

async function discover(f: Fixtures, notes: string[], scan: Client, allowMutations: boolean): Promise<void> {
  if (!f.snapshotRecordTime && allowMutations) {
    const body = okJson(await scan.post('/v0/state/acs/force'));
    if (typeof body?.record_time === 'string' && Number.isSafeInteger(body.migration_id)) {
      f.snapshotRecordTime = body.record_time;
      f.migrationId = body.migration_id;
      notes.push('snapshotRecordTime and migrationId from force-ACS');
    }
  }
  if (f.snapshotRecordTime && f.migrationId !== undefined && f.holdingOwners?.length && !f.transactionUpdateIds?.length) {
    const body = okJson(
      await scan.post('/v1/holdings/state', {
        migration_id: f.migrationId,
        record_time: f.snapshotRecordTime,
        page_size: 50,
        owner_party_ids: f.holdingOwners,
      }),
    );
    const events: unknown[] = Array.isArray(body?.created_events) ? body.created_events : [];
    const ids = events.map((e) => (isObject(e) ? e.created_in_update_id : undefined)).filter((id): id is string => typeof id === 'string' && id.length > 0);
    if (ids.length) {
      f.transactionUpdateIds = [...new Set(ids)].slice(0, 10);
      notes.push('transactionUpdateIds from holdings');
    }
  }
  if ((!f.domainId || !f.rounds?.length) && f.transactionUpdateIds?.length) {
    for (const id of f.transactionUpdateIds.slice(0, 10)) {
      const body = okJson(await scan.get(`/v0/events/${encodeURIComponent(id)}`));
      if (!f.domainId && typeof body?.verdict?.domain_id === 'string') {
        f.domainId = body.verdict.domain_id;
        notes.push('domainId from an event verdict');
      }
      const round = body?.app_activity_records?.round_number;
      if (Number.isSafeInteger(round) && round >= 0) f.rounds = [...new Set([...(f.rounds ?? []), round as number])];
    }
  }
}

/**
 * The JSON body of a complete 200 answer, or undefined: discovery takes what a target offers and leaves the
 * rest missing (the requirements needing it are skipped with the reason); judging answers is the checks' job.
 */
function okJson(x: Exchange): Json {
  if (x.status !== 200 || x.truncated) return undefined;
  try {
    return JSON.parse(x.text);
  } catch {
    return undefined;
  }
}
