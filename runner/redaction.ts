// Secrets a user hands the suite never reach its output: URL user info and query parameters whose names
// suggest a secret are masked wherever a URL is shown, and every secret value the run knows (tokens, API
// keys, URL passwords) is scrubbed from every line and file it writes, whatever quoted it (an error
// message, a response body that echoes a token).

/** Query parameter names that usually carry a credential. */
const SECRET_PARAMETER = /(pass|pwd|secret|token|key|auth|sig|credential|session|jwt|cookie|bearer)/i;

const MASK = '***';

/** The URL as it may be shown: `https://***:***@host/path?apikey=***&page=2`. Text that is no URL is masked by pattern. */
export function redactUrl(text: string): string {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return text
      .replace(/\/\/[^/@\s]*@/g, `//${MASK}@`)
      .replace(/([?&][^=&\s]+)=([^&\s]*)/g, (m, name: string) => (SECRET_PARAMETER.test(name) ? `${name}=${MASK}` : m));
  }
  const secretNames = [...u.searchParams.keys()].filter((name) => SECRET_PARAMETER.test(name));
  // Nothing to hide: the text as the user typed it (URL would add a slash or re-encode).
  if (!u.username && !u.password && secretNames.length === 0) return text;
  if (u.username) u.username = MASK;
  if (u.password) u.password = MASK;
  for (const name of secretNames) u.searchParams.set(name, MASK);
  // URL escapes the mask; show it as typed.
  return u.toString().replaceAll(encodeURIComponent(MASK), MASK);
}

/**
 * The secret parts of a URL: the password, a user name long enough to be a token (a short one is a common
 * word that scrubbing would mangle everywhere; shown URLs mask it anyway), secret-looking query values.
 */
export function urlSecrets(text: string | undefined): string[] {
  if (!text) return [];
  try {
    const u = new URL(text);
    const user = u.username.length >= 12 ? [u.username, decodeURIComponent(u.username)] : [];
    const out = [...user, u.password, decodeURIComponent(u.password)];
    for (const [name, value] of u.searchParams) if (SECRET_PARAMETER.test(name)) out.push(value, encodeURIComponent(value));
    return out;
  } catch {
    return [];
  }
}

/** True when a shown URL dropped something the user gave (user info or a query string the suite does not send). */
export function carriesExtras(text: string): boolean {
  try {
    const u = new URL(text);
    return Boolean(u.username || u.password || u.search);
  } catch {
    return false;
  }
}

const htmlEscaped = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Replaces every known secret value in a text, also as JSON and HTML quote it (report.json, report.html).
 * Values shorter than 4 characters are too common to scrub.
 */
export class Scrubber {
  private secrets: string[] = [];
  constructor(values: ReadonlyArray<string | undefined>) {
    this.add(...values);
  }

  /** Secrets learnt during the run (an OAuth2 access token) are scrubbed from then on. */
  add(...values: ReadonlyArray<string | undefined>): void {
    const given = values.filter((v): v is string => typeof v === 'string' && v.length >= 4);
    const forms = given.flatMap((v) => [v, JSON.stringify(v).slice(1, -1), htmlEscaped(v)]);
    // Longest first, so that a secret containing another is replaced whole.
    this.secrets = [...new Set([...this.secrets, ...forms])].sort((a, b) => b.length - a.length);
  }

  scrub(text: string): string {
    let out = text;
    for (const s of this.secrets) if (out.includes(s)) out = out.replaceAll(s, MASK);
    return out;
  }
}
