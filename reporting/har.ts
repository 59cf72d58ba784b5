// Every exchange of a run as an HTTP Archive (HAR 1.2), the format browsers' network panels import: one
// entry per request, tagged with the requirement (or run step) that sent it in `_requirement` / `_step`
// (custom fields start with an underscore). Secrets are shown as evidence shows them (the record never held
// them), bodies are cut at the record's bound with a comment saying so. Written entry by entry, so a long
// run's archive never has to fit in one string.
import { open } from 'node:fs/promises';
import { STATUS_CODES } from 'node:http';
import { RECORDED_BODY_BYTES, type RecordedExchange } from '../engine/exchange-record.ts';
import { httpEvidence } from '../engine/transport/evidence.ts';
import { redactHeaders } from '../engine/transport/redaction.ts';
import type { RequirementResult } from '../engine/engine.ts';

export interface HarNameValue {
  name: string;
  value: string;
}

/** A HAR 1.2 entry as written here (the spec's required fields and the ones this suite fills). */
export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: HarNameValue[];
    headers: HarNameValue[];
    queryString: HarNameValue[];
    postData?: { mimeType: string; text: string; comment?: string };
    headersSize: number;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: HarNameValue[];
    headers: HarNameValue[];
    content: { size: number; mimeType: string; text?: string; encoding?: string; comment?: string };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  comment?: string;
  _requirement?: string;
  _step?: string;
  _sharedRead?: string;
  _error?: string;
}

/** The entries' order in the archive: by the time each request went out (the order a network panel shows). */
export function harOrder(records: readonly RecordedExchange[]): RecordedExchange[] {
  return [...records].sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime());
}

const pairs = (headers: Record<string, string>): HarNameValue[] => Object.entries(headers).map(([name, value]) => ({ name, value }));

/** Answer headers as a file may show them: credentials masked, cookies a node sets included. */
function shownResponseHeaders(headers: Record<string, string>): Record<string, string> {
  const shown = redactHeaders(headers);
  for (const k of Object.keys(shown)) if (k.toLowerCase() === 'set-cookie') shown[k] = '***';
  return shown;
}

const headerOf = (headers: Record<string, string>, name: string) => Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];

/** A body a network panel can show as text (JSON, text, XML, forms); anything else is written in base64. */
const TEXTUAL = /^(text\/|application\/(.*\+)?(json|xml|javascript|x-www-form-urlencoded|problem\+json))/i;

/** The bytes as text, a character cut in two at the end dropped. */
const utf8 = (bytes: Buffer) => bytes.toString('utf8').replace(/\uFFFD$/, '');

export function harEntry(r: RecordedExchange): HarEntry {
  const url = new URL(r.url);
  const requestType = headerOf(r.requestHeaders, 'content-type');
  const request: HarEntry['request'] = {
    method: r.method,
    url: r.url,
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: pairs(r.requestHeaders),
    queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
    headersSize: -1,
    bodySize: r.requestBody?.bytes ?? 0,
  };
  if (r.requestBody) {
    const cut = r.requestBody.bytes > RECORDED_BODY_BYTES;
    request.postData = {
      mimeType: requestType ?? 'application/octet-stream',
      text: r.requestBody.text,
      ...(cut ? { comment: `truncated: the first ${RECORDED_BODY_BYTES} of ${r.requestBody.bytes} bytes` } : {}),
    };
  }
  const entry: HarEntry = {
    startedDateTime: r.startedAt.toISOString(),
    time: r.durationMs,
    request,
    response: r.status === 0 ? unanswered() : answered(r),
    cache: {},
    timings: { send: 0, wait: r.durationMs, receive: 0 },
    ...('requirement' in r.by ? { _requirement: r.by.requirement } : { _step: r.by.step }),
    ...(r.shared ? { _sharedRead: r.shared } : {}),
  };
  if (r.status === 0) {
    entry.comment = `no answer: ${r.error ?? 'unknown'}`;
    entry._error = r.error ?? 'no answer';
  }
  return entry;
}

/** The response of a request that got none (as browsers export a failed request: status 0). */
const unanswered = (): HarEntry['response'] => ({
  status: 0,
  statusText: '',
  httpVersion: '',
  cookies: [],
  headers: [],
  content: { size: 0, mimeType: 'x-unknown' },
  redirectURL: '',
  headersSize: -1,
  bodySize: -1,
});

function answered(r: RecordedExchange): HarEntry['response'] {
  const mimeType = headerOf(r.responseHeaders, 'content-type') ?? 'x-unknown';
  const textual = TEXTUAL.test(mimeType) || (mimeType === 'x-unknown' && !r.body.includes(0));
  const kept = r.body.length;
  const comment = r.cutByClient
    ? `truncated: the body exceeded the run's size bound; the first ${kept} of at least ${r.received} bytes kept`
    : r.received > kept
      ? `truncated: the first ${kept} of ${r.received} bytes`
      : undefined;
  return {
    status: r.status,
    statusText: STATUS_CODES[r.status] ?? '',
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: pairs(shownResponseHeaders(r.responseHeaders)),
    content: {
      size: r.received,
      mimeType,
      ...(textual ? { text: utf8(r.body) } : { text: r.body.toString('base64'), encoding: 'base64' }),
      ...(comment ? { comment } : {}),
    },
    redirectURL: headerOf(r.responseHeaders, 'location') ?? '',
    headersSize: -1,
    bodySize: r.received,
  };
}

/** Writes the archive of `records` (in harOrder) to `path`, each entry's text passed through `scrub`. */
export async function writeHar(
  path: string,
  records: readonly RecordedExchange[],
  creator: { name: string; version: string },
  scrub: (text: string) => string,
  comment?: string,
): Promise<void> {
  const file = await open(path, 'w');
  try {
    const head = { version: '1.2', creator, ...(comment ? { comment: scrub(comment) } : {}) };
    let chunk = `{"log":${JSON.stringify(head).slice(0, -1)},"entries":[\n`;
    for (const [i, r] of records.entries()) {
      chunk += `${i > 0 ? ',\n' : ''}${scrub(JSON.stringify(harEntry(r)))}`;
      if (chunk.length >= 1 << 20) {
        await file.write(chunk);
        chunk = '';
      }
    }
    await file.write(`${chunk}\n]}}\n`);
  } finally {
    await file.close();
  }
}

/** Where a result's exchanges are in the archive: indices of log.entries. */
export interface HarLink {
  /** The entry of the result's evidence, when it has one. */
  evidence?: number;
  /** The requirement's own entries: how many, the first and the last. */
  count: number;
  first?: number;
  last?: number;
}

/**
 * For every result that is not a pass, where its exchanges are in the archive (`ordered`: the records in
 * harOrder). Its evidence is the last of its own entries with the evidence's method, URL and status, or,
 * when a shared read fetched the answer for another check first, the last such entry of the run.
 */
export function harLinks(results: readonly RequirementResult[], ordered: readonly RecordedExchange[]): Record<string, HarLink> {
  const byRequirement = new Map<string, number[]>();
  for (const [i, r] of ordered.entries()) {
    if (!('requirement' in r.by)) continue;
    const list = byRequirement.get(r.by.requirement) ?? [];
    list.push(i);
    byRequirement.set(r.by.requirement, list);
  }
  const links: Record<string, HarLink> = {};
  for (const result of results) {
    if (result.status === 'passed') continue;
    const own = byRequirement.get(result.id) ?? [];
    const x = httpEvidence(result.evidence?.exchange);
    const same = (i: number) =>
      x !== undefined && ordered[i]!.method === x.request.method && ordered[i]!.url === x.request.url && ordered[i]!.status === (x.response?.status ?? 0);
    let evidence = own.findLast(same);
    if (evidence === undefined && x) evidence = ordered.findLastIndex((_, i) => same(i));
    if (own.length === 0 && (evidence === undefined || evidence < 0)) continue;
    links[result.id] = {
      ...(evidence !== undefined && evidence >= 0 ? { evidence } : {}),
      count: own.length,
      ...(own.length ? { first: own[0], last: own.at(-1) } : {}),
    };
  }
  return links;
}
