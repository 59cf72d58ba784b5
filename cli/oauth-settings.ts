// OAuth2 client credentials of one interface, as the command line takes them: --<interface>-oauth-token-url
// or --<interface>-oauth-issuer (OpenID discovery), --<interface>-oauth-client-id, the client secret from
// --<interface>-oauth-client-secret-file or CN_CONFORMANCE_<INTERFACE>_OAUTH_CLIENT_SECRET (never a plain
// command-line value: it would stay in the shell's history and the process list), --<interface>-oauth-audience
// and --<interface>-oauth-scope. An incomplete or contradictory set is one line naming the setting.
import type { InterfaceName } from '../engine/model.ts';
import type { OAuthSettings } from '../engine/transport/oauth.ts';
import { redactUrl } from '../runner/redaction.ts';
import { UsageError } from '../runner/usage-error.ts';
import { envName } from './config-layers.ts';
import { secretWithSource } from './secrets.ts';

type Each<Suffix extends string> = { [I in InterfaceName as `${I}${Suffix}`]?: string };

export interface OAuthOptions
  extends Each<'OauthTokenUrl'>,
    Each<'OauthIssuer'>,
    Each<'OauthClientId'>,
    Each<'OauthClientSecretFile'>,
    Each<'OauthAudience'>,
    Each<'OauthScope'> {
  origins?: Record<string, string>;
}

const SUFFIXES = ['OauthTokenUrl', 'OauthIssuer', 'OauthClientId', 'OauthClientSecretFile', 'OauthAudience', 'OauthScope'] as const;

/** The environment variable of an interface's client secret: CN_CONFORMANCE_LEDGER_OAUTH_CLIENT_SECRET. */
export const clientSecretVariable = (name: InterfaceName) => envName(`${name}OauthClientSecret`);

/** The interface's OAuth2 settings, or undefined when none of its --<interface>-oauth-* settings is given. */
export function oauthFor(opts: OAuthOptions, name: InterfaceName, env: NodeJS.ProcessEnv = process.env): OAuthSettings | undefined {
  const value = (suffix: (typeof SUFFIXES)[number]) => opts[`${name}${suffix}`]?.trim() || undefined;
  const setting = (suffix: (typeof SUFFIXES)[number]) =>
    opts.origins?.[`${name}${suffix}`] ?? `--${name}-${suffix.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase()}`;
  if (!SUFFIXES.some(value)) return undefined;
  const tokenUrl = value('OauthTokenUrl');
  const issuer = value('OauthIssuer');
  if (tokenUrl && issuer)
    throw new UsageError(
      `${setting('OauthTokenUrl')} and ${setting('OauthIssuer')}: give one of them (the issuer's discovery document names the token endpoint)`,
    );
  const endpoint = tokenUrl ? 'OauthTokenUrl' : 'OauthIssuer';
  if (!tokenUrl && !issuer) {
    const given = SUFFIXES.filter(value).map(setting).join(', ');
    throw new UsageError(`${given} given, but no ${setting('OauthTokenUrl')} or ${setting('OauthIssuer')} to ask the ${name} token from`);
  }
  httpUrl(setting(endpoint), (tokenUrl ?? issuer)!);
  const clientId = value('OauthClientId');
  if (!clientId) throw new UsageError(`${setting(endpoint)} needs ${setting('OauthClientId')}: the client the ${name} token is issued to`);
  const variable = clientSecretVariable(name);
  const secret = secretWithSource(
    { value: undefined, name: variable },
    { path: value('OauthClientSecretFile'), name: setting('OauthClientSecretFile') },
    variable,
    env,
  );
  if (!secret) throw new UsageError(`the ${name} OAuth2 client "${clientId}" needs its secret: give ${setting('OauthClientSecretFile')} or ${variable}`);
  return {
    tokenUrl,
    issuer,
    clientId,
    clientSecret: secret.value,
    audience: value('OauthAudience'),
    scope: value('OauthScope'),
    from: {
      endpoint: `${setting(endpoint)} ${redactUrl((tokenUrl ?? issuer)!)}`,
      clientId: `${setting('OauthClientId')} "${clientId}"`,
      clientSecret: secret.from,
      audience: value('OauthAudience') && setting('OauthAudience'),
      scope: value('OauthScope') && setting('OauthScope'),
    },
  };
}

/** Every setting name of the OAuth2 options, for a message about a conflict. */
export const oauthGiven = (opts: OAuthOptions, name: InterfaceName) => SUFFIXES.some((s) => opts[`${name}${s}`]?.trim());

/** Where a token obtained under these settings comes from, for the preflight's message when the node refuses it. */
export const tokenOrigin = (o: OAuthSettings) =>
  `the token ${o.from.endpoint} issued to ${o.from.clientId}${o.from.audience ? ` for ${o.from.audience} "${o.audience}"` : ''} (does the node trust that issuer and know that user?)`;

function httpUrl(setting: string, value: string): void {
  try {
    const u = new URL(value);
    if (/^https?:$/.test(u.protocol)) return;
  } catch {
    // Refused below.
  }
  throw new UsageError(`${setting} is not an http(s) URL: "${redactUrl(value)}"`);
}
