// What discovery has found so far: the fixtures (given ones never overwritten) with their origins, and the
// facts sources hand on to later ones (the migration, the wallet's party, the ledger's parties...).
import type { FixtureName, Fixtures } from '../fixtures.ts';
import { missingFixtures } from '../fixtures.ts';
import type { FixtureOrigin } from './provenance.ts';

export interface OfferSeen {
  trackingId: string;
  sender: string;
  receiver: string;
}

/** Facts sources hand on; none of them is a fixture by itself. */
export interface Facts {
  /** The newest migration (GET /v0/migrations/last). */
  migrationId?: number;
  latestRound?: number;
  /** The ledger user of the ledger token, and what it may read as. */
  ledgerUser?: string;
  ledgerRights?: Rights;
  /** Parties hosted on the ledger's participant. */
  localParties?: string[];
  ledgerEnd?: number;
  /** The wallet user's party (from the ledger, which knows the wallet token's user, or the wallet's offers). */
  walletParty?: string;
  /** The parties the user of the limited token may act as (where that user is known). */
  limitedActAs?: string[];
  /** Transfer offers the ledger's history showed (created events of the wallet's TransferOffer template). */
  offers?: OfferSeen[];
  /** Open offers the wallet lists for its user. */
  listedOffers?: OfferSeen[];
  /** Tracking ids of offers this run created. */
  createdOffers?: string[];
}

export interface Rights {
  anyParty: boolean;
  readAs: string[];
  actAs: string[];
}

export class Findings {
  readonly fixtures: Fixtures;
  readonly origins: Partial<Record<FixtureName, FixtureOrigin>> = {};
  readonly facts: Facts = {};
  /** What the current source found (reset per source): fixtures, and facts it hands on. */
  found: FixtureName[] = [];
  learned: string[] = [];

  /** A fact for later sources, said in the source's report line. */
  learn<K extends keyof Facts>(key: K, value: Facts[K], said: string): void {
    this.facts[key] = value;
    this.learned.push(said);
  }

  constructor(given: Fixtures, givenFrom: (name: FixtureName) => string) {
    this.fixtures = structuredClone(given);
    for (const name of Object.keys(given) as FixtureName[]) {
      if (!this.missing(name)) this.origins[name] = { kind: 'given', from: givenFrom(name) };
    }
  }

  missing(name: FixtureName): boolean {
    return missingFixtures(this.fixtures, [name]).length > 0;
  }

  /** Changes a fixture discovery found (never a given one), adding `note` to its origin. */
  amend<K extends FixtureName>(name: K, value: Fixtures[K], note: string): boolean {
    const origin = this.origins[name];
    if (origin?.kind !== 'discovered') return false;
    this.fixtures[name] = value;
    this.origins[name] = { ...origin, note: origin.note ? `${origin.note}; ${note}` : note };
    if (!this.found.includes(name)) this.found.push(name);
    return true;
  }

  /**
   * The origin of a value taken from the fixture `from` (given or found), with what was taken said: a fixture
   * derived from another comes from where that one came from, not from what the deriving source read.
   */
  originOf(from: FixtureName, taken: string): FixtureOrigin | undefined {
    const o = this.origins[from];
    if (!o) return undefined;
    if (o.kind === 'given') return { kind: 'given', from: `${o.from} (${taken})` };
    return { ...o, note: o.note ? `${o.note}; ${taken}` : taken };
  }

  /** Sets a missing fixture (an empty value sets nothing); a given or already found one stays. */
  set<K extends FixtureName>(name: K, value: Fixtures[K] | undefined, origin: FixtureOrigin): boolean {
    if (!this.missing(name) || value === undefined) return false;
    const next = { ...this.fixtures, [name]: value };
    if (missingFixtures(next, [name]).length > 0) return false;
    this.fixtures[name] = value;
    this.origins[name] = origin;
    this.found.push(name);
    return true;
  }
}
