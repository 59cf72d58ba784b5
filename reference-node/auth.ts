// Real JWT handling (HS256 via jose) with a secret derived from the seed, so tests and the suite can mint
// the tokens a node would accept and prove that others are refused. A node may also trust one OpenID
// provider, as a participant configured with its JWKS URL does: that issuer's tokens are verified against
// its published keys and must name the node's audience; their subject is the user, as for any token.
import { createRemoteJWKSet, decodeJwt, jwtVerify, SignJWT, errors, type JWTVerifyGetKey } from 'jose';
import { derivedHex } from './world/rng.ts';

export const ISSUER = 'cn-conformance-reference';

export interface VerifiedToken {
  subject: string;
}

export type AuthFailure = { status: 401 | 403; reason: string };

/** An OpenID provider whose access tokens the node accepts besides its own. */
export interface TrustedIssuer {
  /** The `iss` of its tokens. */
  issuer: string;
  /** Where it publishes its signing keys (its discovery document's jwks_uri). */
  jwksUri: string;
  /** The audience its tokens must name for this node. */
  audience: string;
}

/** Signatures a provider's keys may make; never HS256, whose key would be the provider's secret. */
const PROVIDER_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/** Tokens of the node's own a node keeps as verified (see Auth.verified). */
const MOST_VERIFIED = 1_000;

export class Auth {
  private readonly key: Uint8Array;
  private readonly provider?: { trusted: TrustedIssuer; keys: JWTVerifyGetKey };
  /**
   * Tokens of the node's own issuer already verified, with their subject and expiry: a run sends the same few
   * tokens with every request, and checking an HMAC each time was a tenth of the node's work. An entry counts
   * only until its token expires; a provider's tokens are verified each time (its keys may rotate).
   */
  private readonly verified = new Map<string, { subject: string; exp?: number }>();
  constructor(seed: number, trusted?: TrustedIssuer) {
    this.key = new TextEncoder().encode(derivedHex(seed, 'jwt-secret', 32));
    if (trusted) this.provider = { trusted, keys: createRemoteJWKSet(new URL(trusted.jwksUri), { timeoutDuration: 5_000 }) };
  }

  /** A token for `subject`, valid for a day from `nowSeconds` (wall clock by default). */
  async issue(subject: string, options: { audience?: string; expiresInSeconds?: number; nowSeconds?: number } = {}): Promise<string> {
    const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
    let jwt = new SignJWT({ scope: 'daml_ledger_api' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(subject)
      .setIssuer(ISSUER)
      .setIssuedAt(now)
      .setExpirationTime(now + (options.expiresInSeconds ?? 86_400));
    if (options.audience) jwt = jwt.setAudience(options.audience);
    return jwt.sign(this.key);
  }

  /** Verifies a compact JWT; 401 when missing, malformed, badly signed or expired. */
  async verify(token: string | undefined): Promise<VerifiedToken | AuthFailure> {
    if (!token) return { status: 401, reason: 'missing credentials' };
    const known = this.verified.get(token);
    // jose's reading of expiry: a token is expired once its exp is not after the current second.
    if (known && (known.exp === undefined || known.exp > Math.floor(Date.now() / 1000))) return { subject: known.subject };
    try {
      const provider = this.provider && issuerOf(token) === this.provider.trusted.issuer ? this.provider : undefined;
      const { payload } = provider
        ? await jwtVerify(token, provider.keys, { issuer: provider.trusted.issuer, audience: provider.trusted.audience, algorithms: PROVIDER_ALGORITHMS })
        : await jwtVerify(token, this.key, { issuer: ISSUER, algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || payload.sub === '') return { status: 401, reason: 'token has no subject' };
      if (!provider) {
        if (this.verified.size >= MOST_VERIFIED) this.verified.clear();
        this.verified.set(token, { subject: payload.sub, exp: payload.exp });
      }
      return { subject: payload.sub };
    } catch (e) {
      const reason =
        e instanceof errors.JWTExpired
          ? 'token expired'
          : e instanceof errors.JWTClaimValidationFailed
            ? `invalid token (its ${e.claim} claim is not accepted)`
            : e instanceof errors.JOSEError
              ? `invalid token (${e.code})`
              : 'invalid token';
      return { status: 401, reason };
    }
  }
}

/** The issuer a token claims, unverified: which key verifies it. */
function issuerOf(token: string): string | undefined {
  try {
    return decodeJwt(token).iss;
  } catch {
    return undefined;
  }
}

/** The bearer token of an `Authorization: Bearer <token>` header, if any. */
export function bearer(header: string | undefined): string | undefined {
  const m = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return m?.[1];
}

export function isFailure(x: VerifiedToken | AuthFailure): x is AuthFailure {
  return 'status' in x;
}

/** What a node that skips signature checks reads off a token: its subject, signature and expiry ignored (a fault). */
export function claimsWithoutVerifying(token: string | undefined): VerifiedToken | undefined {
  try {
    const sub = decodeJwt(token ?? '').sub;
    return typeof sub === 'string' && sub !== '' ? { subject: sub } : undefined;
  } catch {
    return undefined;
  }
}
