// A discovery source: one read (or walk) of one interface that fills some fixtures. Sources run in order;
// a source runs only while something it provides is still missing.
import { endpointOf, type InterfaceName } from '../../common/vocabulary.ts';
import type { FixtureName } from '../fixtures.ts';
import type { Findings } from './findings.ts';
import type { FixtureOrigin } from './provenance.ts';
import type { SourceReader } from './reader.ts';

export interface DiscoveryEnv {
  /** The run's id, which names what mutating sources create (tracking ids), as s3-tests prefixes its buckets. */
  runId: string;
  /** The ledger token (bearer), which is the limited token when its rights are limited. */
  ledgerBearer?: string;
  /** The wallet token, which a validator's ledger may also know (its wallet users are ledger users). */
  walletBearer?: string;
  /** The environment variable evidence names for the wallet token. */
  walletVariable?: string;
  now(): Date;
}

export interface Source {
  id: string;
  interface: InterfaceName;
  /** What it reads and why, for the plan and the report. */
  what: string;
  /** Fixtures it can fill (directly or through the facts it hands on). */
  provides: readonly FixtureName[];
  /** Requests it may send, when not a walk's pages (lookups by id); default: the discovery bound. */
  pages?: number;
  /** It changes the target: runs only with mutations allowed. */
  mutates?: boolean;
  run(r: SourceReader, f: Findings, env: DiscoveryEnv): Promise<void>;
}

/** Items of a list that are strings, deduplicated, at most `max`. */
export const distinct = (values: Iterable<unknown>, max = 20): string[] =>
  [...new Set([...values].filter((v): v is string => typeof v === 'string' && v.length > 0))].slice(0, max);

/** The origin of a fixture read from an answer of `iface`'s operation `method path`: the operation and the JSON pointer. */
export const found = (
  iface: InterfaceName,
  method: 'GET' | 'POST',
  path: string,
  pointer: string,
  note?: string,
): Extract<FixtureOrigin, { kind: 'discovered' }> => ({
  kind: 'discovered',
  interface: iface,
  endpoint: endpointOf(iface, method, path),
  pointer,
  ...(note ? { note } : {}),
});
