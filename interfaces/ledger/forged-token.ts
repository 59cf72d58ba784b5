// A token that must not authenticate: the configured one with its signature replaced (the HTTP and the
// WebSocket credential rules send it alike).

/** A compact JWT with its signature replaced, so that it no longer verifies; undefined for anything else. */
export function forgedSignature(token: string | undefined): string | undefined {
  const [header, payload, signature] = token?.split('.') ?? [];
  if (!header || !payload || !signature || token!.split('.').length !== 3) return undefined;
  const filler = /^A+$/.test(signature) ? 'B' : 'A';
  return `${header}.${payload}.${filler.repeat(signature.length)}`;
}
