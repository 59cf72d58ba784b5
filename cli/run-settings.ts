// What `run` and `plan` make of their options: the bounds, the config file's fixtures, the waivers, the
// documents and the target. Everything a user can get wrong is refused here, before the first request.
import { readFile } from 'node:fs/promises';
import { startReferenceNode, type RunningReferenceNode } from '../reference-node/index.ts';
import { ReleaseOptionError } from '../reference-node/releases.ts';
import { releaseUsageError } from './serve-reference.ts';
import { refuseUnusable, loadDocuments, type Documents } from '../runner/documents.ts';
import type { CredentialSources } from '../runner/credentials-preflight.ts';
import { redactUrl, Scrubber, urlSecrets } from '../runner/redaction.ts';
import { referenceNodeTarget } from '../runner/reference-target.ts';
import { UsageError } from '../runner/usage-error.ts';
import { parseWaivers, WaiverFileError, type Waiver } from '../reporting/waivers.ts';
import { fixtureProblems } from '../engine/fixture-validation.ts';
import { LIMITED_TOKEN_VARIABLE, OTHER_WALLET_TOKEN_VARIABLE, type FixtureName, type Fixtures } from '../engine/fixtures.ts';
import { CREDENTIAL_VARIABLES, DEFAULT_BOUNDS, type InterfaceTarget, type TargetConfig } from '../engine/target.ts';
import { readConfigFile } from './config-layers.ts';
import { secretWithSource, sendable } from './secrets.ts';
import { oauthFor, oauthGiven, tokenOrigin, type OAuthOptions } from './oauth-settings.ts';
import { headersFor, proxyFromEnvironment, secretHeaderValues, tlsFor, type TransportOptions } from './transport-settings.ts';
import type { InterfaceName } from '../engine/model.ts';
import { INTERFACES } from '../common/vocabulary.ts';
import { selectSpecs } from './spec-options.ts';

export interface RunOptions extends TransportOptions, OAuthOptions {
  spec: string[];
  reportDir: string;
  config?: string;
  ledgerUrl?: string;
  walletUrl?: string;
  scanUrl?: string;
  ledgerToken?: string;
  ledgerTokenFile?: string;
  ledgerApiKey?: string;
  walletToken?: string;
  walletTokenFile?: string;
  /** The releases the embedded reference node plays (refused with a URL: no embedded node then). */
  referenceScanRelease?: string;
  referenceLedgerRelease?: string;
  allowMutations?: boolean;
  /** Open no WebSocket channel (--skip-websocket). */
  skipWebsocket?: boolean;
  /** Discover missing fixtures from the target (default true; --no-discovery). */
  discovery?: boolean;
  /** Every MUST requirement of the targeted interfaces must be judged; an incomplete run exits 4. */
  certify?: boolean;
  runs: string;
  seed: string;
  timeoutMs: string;
  level?: 'must' | 'should';
  waivers?: string;
  maxRequests: string;
  /** Optional for programmatic callers (default DEFAULT_BOUNDS.maxPages). */
  maxPages?: string;
  rate?: string;
  /** Optional for programmatic callers (default DEFAULT_BOUNDS.concurrency). */
  concurrency?: string;
  only: string[];
  skip: string[];
  /** Also write allure-results/ (the CLI's default; programmatic callers opt in). */
  allure?: boolean;
  /** Write every exchange of the run to this file as HAR 1.2 (--har). */
  har?: string;
  /** Pack the reports, the HAR file, the documents and a manifest into this .tar.gz (--bundle). */
  bundle?: string;
  /** The arguments the command was given, for a bundle's manifest (masked there). */
  commandLine?: string[];
  /** Where each setting came from ("--runs", "CN_CONFORMANCE_RUNS (environment)", ...), for messages. */
  origins?: Record<string, string>;
}

/** The name of a setting as the user gave it, for messages. */
export const origin = (opts: RunOptions, key: keyof RunOptions, flag: string) => opts.origins?.[key] ?? flag;

function positive(setting: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${setting} must be a positive integer, got "${text}"`);
  return n;
}

function url(setting: string, value: string): string {
  try {
    const u = new URL(value);
    if (!/^https?:$/.test(u.protocol)) throw new Error('not http(s)');
    return value;
  } catch {
    throw new UsageError(`${setting} is not an http(s) URL: "${redactUrl(value)}"`);
  }
}

export function runBounds(opts: RunOptions): typeof DEFAULT_BOUNDS & { rate?: number } {
  const p = (key: 'runs' | 'seed' | 'timeoutMs' | 'maxRequests' | 'maxPages' | 'rate' | 'concurrency', flag: string, text: string) =>
    positive(origin(opts, key, flag), text);
  return {
    ...DEFAULT_BOUNDS,
    runs: p('runs', '--runs', opts.runs),
    seed: p('seed', '--seed', opts.seed),
    timeoutMs: p('timeoutMs', '--timeout-ms', opts.timeoutMs),
    maxRequests: p('maxRequests', '--max-requests', opts.maxRequests),
    maxPages: opts.maxPages === undefined ? DEFAULT_BOUNDS.maxPages : p('maxPages', '--max-pages', opts.maxPages),
    rate: opts.rate === undefined ? undefined : p('rate', '--rate', opts.rate),
    concurrency: opts.concurrency === undefined ? DEFAULT_BOUNDS.concurrency : p('concurrency', '--concurrency', opts.concurrency),
  };
}

export async function readWaivers(path: string | undefined): Promise<Waiver[]> {
  if (!path) return [];
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read the waivers file ${path}: ${(e as Error).message}`);
  }
  try {
    return parseWaivers(text, path);
  } catch (e) {
    if (e instanceof WaiverFileError) throw new UsageError(e.message);
    throw e;
  }
}

/** The fixtures of the config file, checked against engine/fixtures.schema.json: a typo or a wrong type stops the run. */
export async function configFixtures(path: string | undefined): Promise<Fixtures> {
  if (!path) return {};
  const fixtures = readConfigFile(path).fixtures;
  const problems = fixtureProblems(fixtures);
  if (problems.length) {
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more: ${problems.slice(1).join('; ')})` : '';
    throw new UsageError(`config file ${path}: ${problems[0]}${more}; the fixtures' schema is engine/fixtures.schema.json`);
  }
  return (fixtures ?? {}) as Fixtures;
}

/** The built-in documents with the user's --spec replacements, each compiled once; an unusable one is refused. */
export async function usableDocuments(spec: string[], mayAdd = false): Promise<Documents> {
  const documents = await loadDocuments(await selectSpecs(spec, mayAdd));
  refuseUnusable(documents.checks);
  return documents;
}

/**
 * The static credentials of an external run, each with where it came from. An interface with OAuth2 client
 * credentials takes no static token: one given by flag or file contradicts them; one in the environment
 * (left from an earlier session, or exported to replay a curl line) is not used.
 */
function credentials(opts: RunOptions, oauth: Partial<Record<InterfaceName, unknown>>) {
  const flagOf = (key: string) => `--${key.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase()}`;
  for (const [name, keys] of [
    ['ledger', ['ledgerToken', 'ledgerTokenFile', 'ledgerApiKey']],
    ['wallet', ['walletToken', 'walletTokenFile']],
  ] as const) {
    if (!oauth[name]) continue;
    for (const key of keys) {
      const from = origin(opts, key, flagOf(key));
      if (opts[key] && !from.endsWith('(environment)'))
        throw new UsageError(`${from} and the --${name}-oauth-* client credentials both give the ${name} token: give one of them`);
    }
  }
  // A bearer token by value or by file, unless the interface takes OAuth2 client credentials.
  const bearer = (name: 'ledger' | 'wallet') => {
    if (oauth[name]) return undefined;
    const [token, file] = [`${name}Token`, `${name}TokenFile`] as const;
    return secretWithSource(
      { value: opts[token], name: origin(opts, token, flagOf(token)) },
      { path: opts[file], name: origin(opts, file, flagOf(file)) },
      CREDENTIAL_VARIABLES[name].bearer!,
    );
  };
  return {
    ledgerBearer: bearer('ledger'),
    ledgerApiKey: oauth.ledger
      ? undefined
      : secretWithSource(
          { value: opts.ledgerApiKey, name: origin(opts, 'ledgerApiKey', flagOf('ledgerApiKey')) },
          undefined,
          CREDENTIAL_VARIABLES.ledger.apiKey!,
        ),
    walletBearer: bearer('wallet'),
  };
}

/** The embedded reference node of a run, playing the releases the options name. */
async function embeddedNode(opts: RunOptions, seed: number): Promise<RunningReferenceNode> {
  try {
    return await startReferenceNode({ seed, releases: { scan: opts.referenceScanRelease, ledger: opts.referenceLedgerRelease } });
  } catch (error) {
    if (!(error instanceof ReleaseOptionError)) throw error;
    const key = error.option === 'scan' ? 'referenceScanRelease' : 'referenceLedgerRelease';
    throw releaseUsageError(error, origin(opts, key, `--reference-${error.option}-release`));
  }
}

/** The target of a run: the embedded reference node when no URL is given, else the given URLs. */
export async function buildTarget(
  opts: RunOptions,
  bounds: ReturnType<typeof runBounds>,
  given: Fixtures,
): Promise<{ node?: RunningReferenceNode; target: TargetConfig; sources: CredentialSources; fixtureOrigins: Partial<Record<FixtureName, string>> }> {
  const fromFile = Object.fromEntries(Object.keys(given).map((n) => [n, `fixture file ${opts.config}`]));
  const external = Boolean(opts.ledgerUrl || opts.walletUrl || opts.scanUrl);
  refuseUnused(opts, external);
  if (!external) {
    const node = await embeddedNode(opts, bounds.seed);
    // The embedded node is disposable: everything runs, including checks that change its state, unless the
    // user said otherwise.
    const target = referenceNodeTarget(node, { ...bounds, allowMutations: opts.allowMutations ?? true, skipWebSocket: opts.skipWebsocket === true });
    target.fixtures = { ...target.fixtures, ...given };
    const fixtureOrigins = { ...Object.fromEntries(Object.keys(target.fixtures).map((n) => [n, "the embedded node's fixture file"])), ...fromFile };
    return { node, target, sources: { ledger: "the embedded node's admin token", wallet: "the embedded node's wallet token" }, fixtureOrigins };
  }
  const oauth = { ledger: oauthFor(opts, 'ledger'), wallet: oauthFor(opts, 'wallet'), scan: oauthFor(opts, 'scan') };
  const { ledgerBearer, ledgerApiKey, walletBearer } = credentials(opts, oauth);
  const fixtures = { ...given };
  // The limited user's token may come from the environment, where curl lines of its checks read it too.
  const fixtureOrigins: Partial<Record<FixtureName, string>> = { ...fromFile };
  if (!fixtures.ledgerLimitedToken && process.env[LIMITED_TOKEN_VARIABLE]?.trim()) {
    fixtures.ledgerLimitedToken = process.env[LIMITED_TOKEN_VARIABLE].trim();
    fixtureOrigins.ledgerLimitedToken = `${LIMITED_TOKEN_VARIABLE} (environment)`;
  }
  if (fixtures.ledgerLimitedToken)
    sendable({ value: fixtures.ledgerLimitedToken, from: `fixtures.ledgerLimitedToken (${fixtureOrigins.ledgerLimitedToken ?? 'the fixtures'})` });
  if (!fixtures.otherWalletUserToken && process.env[OTHER_WALLET_TOKEN_VARIABLE]?.trim()) {
    fixtures.otherWalletUserToken = process.env[OTHER_WALLET_TOKEN_VARIABLE].trim();
    fixtureOrigins.otherWalletUserToken = `${OTHER_WALLET_TOKEN_VARIABLE} (environment)`;
  }
  if (fixtures.otherWalletUserToken)
    sendable({ value: fixtures.otherWalletUserToken, from: `fixtures.otherWalletUserToken (${fixtureOrigins.otherWalletUserToken ?? 'the fixtures'})` });
  const reach = (name: InterfaceName, base: string | undefined, credentials: InterfaceTarget['credentials']): InterfaceTarget | undefined => {
    if (!base) return undefined;
    const u = url(origin(opts, `${name}Url`, `--${name}-url`), base);
    return withoutEmpty({ url: u, credentials, oauth: oauth[name], headers: headersFor(opts, name), tls: tlsFor(opts, name, u) });
  };
  const target: TargetConfig = {
    ledger: reach('ledger', opts.ledgerUrl, { bearer: ledgerBearer?.value, apiKey: ledgerApiKey?.value }),
    wallet: reach('wallet', opts.walletUrl, { bearer: walletBearer?.value }),
    scan: reach('scan', opts.scanUrl, undefined),
    proxy: proxyFromEnvironment(),
    fixtures,
    allowMutations: opts.allowMutations === true,
    skipWebSocket: opts.skipWebsocket === true,
    ...bounds,
  };
  const oauthSource = (name: InterfaceName) => (oauth[name] ? tokenOrigin(oauth[name]) : undefined);
  const sources = {
    ledger: oauthSource('ledger') ?? (ledgerBearer ?? ledgerApiKey)?.from,
    wallet: oauthSource('wallet') ?? walletBearer?.from,
    scan: oauthSource('scan'),
  };
  return { target, sources, fixtureOrigins };
}

/** The object without its undefined properties (a report or a test compares it as given). */
const withoutEmpty = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/**
 * Settings of how to reach a deployment that nothing would use: an interface's own settings without its
 * URL, or any such setting when the embedded reference node is the target.
 */
function refuseUnused(opts: RunOptions, external: boolean): void {
  const flag = (key: string) => origin(opts, key as keyof RunOptions, `--${key.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase()}`);
  for (const name of ['ledger', 'wallet', 'scan'] as const) {
    if (opts[`${name}Url`]) continue;
    const own = [`${name}Header`, `${name}CaFile`, `${name}ClientCert`, `${name}ClientKey`].find((k) => isGiven(opts[k as keyof RunOptions]));
    if (own || oauthGiven(opts, name))
      throw new UsageError(`${own ? `${flag(own)} is` : `the --${name}-oauth-* settings are`} given but --${name}-url is not: nothing would use them`);
  }
  if (external) {
    const release = (['referenceScanRelease', 'referenceLedgerRelease'] as const).find((k) => isGiven(opts[k]));
    if (release) throw new UsageError(`${flag(release)} applies to the embedded reference node; a run given --ledger-url, --wallet-url or --scan-url has none`);
    return;
  }
  const general = (['header', 'caFile', 'clientCert', 'clientKey'] as const).find((k) => isGiven(opts[k]));
  if (general)
    throw new UsageError(
      `${flag(general)} applies to targets given by URL; the embedded reference node (no --ledger-url, --wallet-url or --scan-url) takes none`,
    );
}

const isGiven = (v: unknown) => (Array.isArray(v) ? v.length > 0 : Boolean(v));

/** Every secret of the run: tokens, API keys, URL user info and secret query values, so no output carries them. */
export function scrubberFor(opts: RunOptions, target: TargetConfig): Scrubber {
  return new Scrubber([
    target.ledger?.credentials?.bearer,
    target.ledger?.credentials?.apiKey,
    target.wallet?.credentials?.bearer,
    target.fixtures.ledgerLimitedToken,
    target.fixtures.otherWalletUserToken,
    ...[opts.ledgerUrl, opts.walletUrl, opts.scanUrl, ...opts.spec.map((s) => s.slice(s.indexOf('=') + 1))].flatMap(urlSecrets),
    ...INTERFACES.flatMap((i) => [
      target[i]?.oauth?.clientSecret,
      ...urlSecrets(target[i]?.oauth?.tokenUrl ?? target[i]?.oauth?.issuer),
      ...secretHeaderValues(target[i]?.headers),
    ]),
    ...[target.proxy?.http, target.proxy?.https].flatMap(urlSecrets),
  ]);
}

/** How each interface is reached, when anything differs from a plain request: secrets as "***", files by path. */
function access(target: TargetConfig): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const i of INTERFACES) {
    const t = target[i];
    if (!t || (!t.oauth && !t.headers && !t.tls)) continue;
    const o = t.oauth;
    out[i] = withoutEmpty({
      oauth:
        o &&
        withoutEmpty({
          tokenUrl: o.tokenUrl && redactUrl(o.tokenUrl),
          issuer: o.issuer && redactUrl(o.issuer),
          clientId: o.clientId,
          clientSecret: '***',
          audience: o.audience,
          scope: o.scope,
        }),
      headers: t.headers && Object.fromEntries(Object.keys(t.headers).map((h) => [h, '***'])),
      tls: t.tls && withoutEmpty({ ca: t.tls.from.ca, clientCert: t.tls.from.cert, clientKey: t.tls.from.key }),
    });
  }
  if (target.proxy)
    out.proxy = withoutEmpty({
      https: target.proxy.https && redactUrl(target.proxy.https),
      http: target.proxy.http && redactUrl(target.proxy.http),
      noProxy: target.proxy.noProxy,
    });
  return Object.keys(out).length ? out : undefined;
}

/** The run's effective settings for the report; credentials appear only as "***", URLs without their secrets. */
export function effectiveConfig(opts: RunOptions, target: TargetConfig): Record<string, unknown> {
  const redacted = (v: unknown) => (v ? '***' : undefined);
  const shown = (u: string | undefined) => (u ? redactUrl(u) : undefined);
  return {
    ledgerUrl: shown(target.ledger?.url),
    walletUrl: shown(target.wallet?.url),
    scanUrl: shown(target.scan?.url),
    ledgerToken: redacted(target.ledger?.credentials?.bearer),
    ledgerApiKey: redacted(target.ledger?.credentials?.apiKey),
    walletToken: redacted(target.wallet?.credentials?.bearer),
    access: access(target),
    specs: opts.spec.map(redactUrl),
    config: opts.config,
    allowMutations: target.allowMutations,
    skipWebSocket: target.skipWebSocket === true,
    discovery: opts.discovery !== false,
    certify: opts.certify === true,
    seed: target.seed,
    runs: target.runs,
    timeoutMs: target.timeoutMs,
    maxRequests: target.maxRequests,
    rate: target.rate,
    concurrency: target.concurrency,
    maxPages: target.maxPages,
    level: opts.level,
    only: opts.only,
    skip: opts.skip,
  };
}
