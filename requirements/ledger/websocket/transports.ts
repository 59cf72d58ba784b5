// Two transports of one ledger tell one story: the same bounded request over the WebSocket channel and over
// `POST /v2/updates` delivers the same updates in the same order, and a window the HTTP endpoint refuses
// with 413 ("use the WebSocket stream") is delivered whole over the channel, equal to the HTTP pages walked
// with beginExclusive. Updates are compared by identity (kind, offset, update id) and by the events they
// carry (offset, kind, contract, node); offset checkpoints are left out, a node places those as it likes.
import type { Json } from '../../../common/json.ts';
import type { Citable, CheckContext, Requirement } from '../../../engine/model.ts';
import { describeAnswer } from '../../../engine/transport/http.ts';
import { defineRules, rule } from '../../../engine/requirement.ts';
import { channelRead, UPDATES_CHANNEL } from '../../../interfaces/ledger/update-channel.ts';
import {
  IDLE_MS,
  OPERATION,
  body,
  elementsOf,
  eventKey,
  eventsOf,
  isCheckpoint,
  nextBegin,
  offsetOf,
  postUpdates,
  readParties,
  sampleStream,
  updateFormat,
  updateKey,
  windowArb,
  type Window,
} from '../../../interfaces/ledger/updates.ts';
import { propertyOverVariants, readVariant, streamVariants } from '../../../interfaces/ledger/stream-variants.ts';

/** Elements the long read holds at most: past the list limit of most nodes (the reference node's is 200). */
const LONG_READ = 600;
/** Elements per HTTP page of the long read's walk. */
const PAGE = 100;

/** An update's identity and the identities of its events, in order: what two transports must agree on. */
function story(els: Json[]): string[] {
  return els.filter((e) => !isCheckpoint(e)).map((e) => `${updateKey(e)} [${eventsOf([e]).map(eventKey).join(' ')}]`);
}

/** Fails where the channel's story differs from the HTTP one, naming the first difference. */
function expectSameStory(ctx: CheckContext, http: Json[], ws: Json[], wsCite: Citable, what: string): void {
  const a = story(http);
  const b = story(ws);
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] === b[i]) continue;
    const where =
      b[i] === undefined
        ? `the WebSocket stream ended after ${b.length} updates where HTTP delivered ${a.length}; the next is ${a[i]}`
        : a[i] === undefined
          ? `the WebSocket stream delivered ${b.length} updates where HTTP delivered ${a.length}; the first extra is ${b[i]}`
          : `update ${i} differs: HTTP ${a[i]}, WebSocket ${b[i]}`;
    ctx.expect(wsCite).fail(`${what}: the WebSocket stream does not tell the HTTP stream's story: ${where}`);
  }
}

export const TRANSPORT_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  { interface: 'ledger', operations: [OPERATION], cites: ['X.errors.2', 'S.service.11'] },
  [
    rule({
      id: 'LEDGER-WEBSOCKET-SAME-AS-HTTP',
      needs: ['ledgerParties'],
      tags: ['websocket'],
      channels: [UPDATES_CHANNEL],
      async check(ctx) {
        const s = await sampleStream(ctx);
        const overChannel = overWebSocket(ctx);
        await propertyOverVariants(
          ctx,
          streamVariants(s),
          windowArb(s),
          async (v, w) => {
            const http = await readVariant(ctx, v, w);
            const ws = await readVariant(overChannel, v, w);
            expectSameStory(ctx, http.els, ws.els, ws.x, `${v.prefix}the window (${w.beginExclusive}, ${w.endInclusive}]`);
          },
          ctx.runs,
          [{ beginExclusive: 0, endInclusive: s.offsets.at(-1)! }],
        );
      },
    }),
    rule({
      id: 'LEDGER-WEBSOCKET-BEYOND-LIST-LIMIT',
      needs: ['ledgerParties'],
      tags: ['websocket', 'limits'],
      channels: [UPDATES_CHANNEL],
      variants: {
        'transaction-shape': 'the list limit counts elements whatever their shape: one long read of every kind in the ACS-delta shape shows it',
        parties: 'the list limit counts the elements of a read whoever it is for: one long read as the ledger parties shows it',
        cumulative: 'the list limit counts the elements of a read whatever its filter entries select: one wildcard read shows it',
      },
      async check(ctx) {
        const format = updateFormat(readParties(ctx));
        // The first elements of the stream over HTTP, page by page (each within any list limit), each page
        // beginning after the last offset of the one before: their last offset ends the window.
        const pages: Json[] = [];
        let begin = 0;
        for (let page = 0; page < ctx.maxPages && pages.length < LONG_READ; page++) {
          const x = await postUpdates(ctx, body({ beginExclusive: begin }, format), { limit: PAGE, stream_idle_timeout_ms: IDLE_MS });
          const els = elementsOf(ctx, x);
          pages.push(...els);
          const next = nextBegin(els, begin, PAGE);
          if (next === undefined) break;
          begin = next;
        }
        const offsets = pages.map(offsetOf).filter((o): o is number => o !== undefined);
        if (offsets.length < 2) ctx.skip(`the update stream of the ledger parties holds ${offsets.length} element offset(s): too few to compare`);
        const window: Window = { beginExclusive: 0, endInclusive: Math.max(...offsets) };
        const ws = await channelRead(ctx, body(window, format), 'bounded');
        const whole = await postUpdates(ctx, body(window, format));
        expectSameStory(ctx, pages, ws.els, ws.cite, `the window (0, ${window.endInclusive}] read in HTTP pages of ${PAGE}`);
        if (whole.status === 200) {
          expectSameStory(ctx, elementsOf(ctx, whole), ws.els, ws.cite, `the window (0, ${window.endInclusive}] read at once`);
          ctx.skip(
            `the window of ${ws.els.length} elements is within the node's list limit (HTTP answered it whole), so nothing beyond the limit was read; the two transports agree on it`,
          );
        }
        // What HTTP answers beyond its list limit is the list-limit rules' to judge (413); here it only shows
        // whether the window lies beyond the limit.
        if (whole.status !== 413)
          ctx.skip(
            `HTTP answered the whole window (0, ${window.endInclusive}] ${describeAnswer(whole)}, neither 200 nor the list limit's 413: the two transports agree on its pages`,
            {
              exchange: whole,
            },
          );
      },
    }),
  ],
);

/** The check's context with its stream reads over the channel: the reads a WebSocket twin of a rule makes. */
const overWebSocket = (ctx: CheckContext): CheckContext => Object.create(ctx, { transport: { value: 'websocket' } }) as CheckContext;
