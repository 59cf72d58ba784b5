// A target is one configuration object, passed explicitly: where each interface is, with which
// credentials, and the bounds of the run.
import { INTERFACE_PREFIX } from '../common/vocabulary.ts';
import { DEFAULT_BOUNDS } from './bounds.ts';
import type { AnswerPolicy, CompiledSpec } from '../generators/index.ts';
import type { ContextParts } from './check-context.ts';
import { RunCache } from './run-cache.ts';
import { AnswerLog } from './answers/answer-log.ts';
import type { ExchangeRecord } from './exchange-record.ts';
import type { Fixtures } from './fixtures.ts';
import { dispatcherFor, proxyFor, type ProxySettings, type TlsSettings } from './transport/dispatcher.ts';
import { Client, type ClientConfig } from './transport/http.ts';
import { ClientCredentialsToken, type OAuthSettings } from './transport/oauth.ts';
import { RunLimits } from './transport/limits.ts';
import type { Credentials, CredentialVariables } from './transport/redaction.ts';
import type { InterfaceName } from './model.ts';

/** One interface of the target: where it is, with which credentials, and how requests reach it. */
export interface InterfaceTarget {
  url: string;
  credentials?: Credentials;
  /** OAuth2 client credentials: the bearer is fetched before the first request and renewed during the run. */
  oauth?: OAuthSettings;
  /** Headers every request carries (names in lower case), e.g. an API gateway's. */
  headers?: Record<string, string>;
  /** Trusted CAs and a client certificate (mutual TLS). */
  tls?: TlsSettings;
}

export interface TargetConfig {
  ledger?: InterfaceTarget;
  wallet?: InterfaceTarget;
  scan?: InterfaceTarget;
  /** The proxy requests go through (the command line reads HTTPS_PROXY, HTTP_PROXY and NO_PROXY). */
  proxy?: ProxySettings;
  fixtures: Fixtures;
  allowMutations: boolean;
  /** Open no WebSocket channel (a gateway that does not upgrade): the requirements reading channels are not judged. */
  skipWebSocket?: boolean;
  seed: number;
  runs: number;
  timeoutMs: number;
  maxRequests: number;
  maxPages: number;
  maxBodyBytes: number;
  /** Requests per second at most (undefined: as fast as the target answers). */
  rate?: number;
  /** Requirements in flight at once (see runAll), and requests in flight to each interface (default 16). */
  concurrency?: number;
}

export { DEFAULT_BOUNDS };

/**
 * The environment variables the command line reads the credentials from (named after its options, see
 * cli/config-layers.ts); evidence and curl lines refer to them instead of showing the secrets.
 */
export const CREDENTIAL_VARIABLES: Record<InterfaceName, CredentialVariables> = {
  ledger: { bearer: 'CN_CONFORMANCE_LEDGER_TOKEN', apiKey: 'CN_CONFORMANCE_LEDGER_API_KEY' },
  wallet: { bearer: 'CN_CONFORMANCE_WALLET_TOKEN' },
  // Only an OAuth2 token is sent to the scan: curl lines refer to it by this name.
  scan: { bearer: 'CN_CONFORMANCE_SCAN_TOKEN' },
};

/** Credentials whose bearer is the source's latest token (checks read it to forge or compare tokens); an OAuth client has no others. */
const latestBearer = (source: ClientCredentialsToken): Credentials => ({
  get bearer() {
    return source.latest;
  },
});

/** A base URL with or without its interface prefix, reduced to what precedes the prefix. */
export function originFor(name: InterfaceName, url: string): string {
  const u = new URL(url);
  const path = u.pathname.replace(/\/+$/, '');
  const prefix = INTERFACE_PREFIX[name];
  return u.origin + (prefix && path.endsWith(prefix) ? path.slice(0, -prefix.length) : path);
}

/**
 * The parts every check context of a run shares. `runId` names what the run creates (default: from the
 * seed, so that library callers and tests are reproducible; the command line names it by seed and time).
 * `extras.record`: where every exchange of the run is kept (for a HAR file), when the caller wants them;
 * `extras.onSecret` is told of every secret the run obtains itself (an OAuth2 access token), for outputs to scrub.
 */
export function contextParts(
  target: TargetConfig,
  specs: Partial<Record<InterfaceName, CompiledSpec>>,
  runId = `s${target.seed}`,
  policies: Partial<Record<InterfaceName, AnswerPolicy>> = {},
  { record, onSecret }: { record?: ExchangeRecord; onSecret?: (value: string) => void } = {},
): ContextParts {
  const limits = new RunLimits({
    maxRequests: target.maxRequests,
    intervalMs: target.rate ? 1000 / target.rate : undefined,
    // As many requests in flight to one interface as requirements side by side: a node is never sent more at once.
    maxInFlight: target.concurrency ?? DEFAULT_BOUNDS.concurrency,
  });
  const seen: NonNullable<ClientConfig['seen']> = [];
  const clients: ContextParts['clients'] = {};
  for (const name of ['ledger', 'wallet', 'scan'] as const) {
    const t = target[name];
    if (!t) continue;
    const dispatcher = dispatcherFor(t.tls, target.proxy);
    // The token endpoint is reached as the interface is: through its proxy, trusting its CAs.
    const bearerSource = t.oauth && new ClientCredentialsToken(t.oauth, { dispatcher, timeoutMs: target.timeoutMs, onToken: onSecret });
    clients[name] = new Client({
      origin: originFor(name, t.url),
      prefix: INTERFACE_PREFIX[name],
      credentials: bearerSource ? latestBearer(bearerSource) : (t.credentials ?? {}),
      credentialVariables: CREDENTIAL_VARIABLES[name],
      bearerSource,
      headers: t.headers,
      dispatcher,
      ...(t.tls ? { tls: t.tls } : {}),
      timeoutMs: target.timeoutMs,
      maxBodyBytes: target.maxBodyBytes,
      limits,
      seen,
      ...(record ? { onExchange: (x) => record.note(x) } : {}),
    });
  }
  const cache = new RunCache();
  const answers = new AnswerLog(specs, policies);
  return {
    seen,
    ...(record ? { exchanges: record } : {}),
    cache,
    answers,
    fixtures: target.fixtures,
    clients,
    specs,
    seed: target.seed,
    runId,
    runs: target.runs,
    allowMutations: target.allowMutations,
    maxPages: target.maxPages,
    ...webSocketSkip(target),
  };
}

/**
 * Why the run opens no WebSocket channel, if it does not: told so, or a ledger reached through a proxy (the
 * channels' client goes direct, and a direct connection where the deployment needs its proxy proves nothing).
 */
function webSocketSkip(target: TargetConfig): { skipWebSocket?: string } {
  if (target.skipWebSocket) return { skipWebSocket: '--skip-websocket: the target is judged without its WebSocket channels' };
  const proxy = target.ledger && proxyFor(target.ledger.url, target.proxy);
  return proxy ? { skipWebSocket: `the ledger is reached through the proxy of ${proxy.from}, which the WebSocket client does not use` } : {};
}
