// Real JWT handling (HS256 via jose) with a secret derived from the seed, so tests and the suite can mint
// the tokens a node would accept and prove that others are refused.
import { decodeJwt, jwtVerify, SignJWT, errors } from 'jose';
import { derivedHex } from './world/rng.ts';

export const ISSUER = 'cn-conformance-reference';

export interface VerifiedToken {
  subject: string;
}

export type AuthFailure = { status: 401 | 403; reason: string };

export class Auth {
  private readonly key: Uint8Array;
  constructor(seed: number) {
    this.key = new TextEncoder().encode(derivedHex(seed, 'jwt-secret', 32));
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
    try {
      const { payload } = await jwtVerify(token, this.key, { issuer: ISSUER, algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || payload.sub === '') return { status: 401, reason: 'token has no subject' };
      return { subject: payload.sub };
    } catch (e) {
      const reason = e instanceof errors.JWTExpired ? 'token expired' : e instanceof errors.JOSEError ? `invalid token (${e.code})` : 'invalid token';
      return { status: 401, reason };
    }
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
