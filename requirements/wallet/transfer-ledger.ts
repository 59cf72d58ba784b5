// The ids a transfer offer's status reports name ledger facts: created, the transaction that created the offer
// and the offer; accepted, the accepting transaction and the accepted offer; completed, the transfer and the
// receiver's holding it created. Each is looked up in the ledger's update stream, read as the parties the
// ledger token may read as (ledger effects, so that a party sees what the transactions it takes part in create).
// An id the read does not reach (another party's view, a pruned or longer history) is not judged: only an
// update that is there and does not create the named contract is a failure. A failed offer's failure_kind
// names how its offer ended: the choice that archived the offer of its tracking id (expire, reject, withdraw).
import { isObject, type Json } from '../../common/json.ts';
import { describeAnswer, type Exchange } from '../../engine/transport/http.ts';
import { eventsOf, LEDGER_EFFECTS, nextBegin, offsetOf, postUpdates, recordOf, strings, updateFormat } from '../../interfaces/ledger/updates.ts';
import { followTokens } from '../../engine/paging.ts';
import type { CheckContext, Requirement } from '../../engine/model.ts';
import { defineRules, rule, type RuleOf } from '../../engine/requirement.ts';
import { reportedOffers } from './transfer-status.ts';

/** Elements per read, and reads per run: the stream is read from its start until every reported id is found. */
const PAGE = 200;
const MAX_PAGES = 25;
const IDLE_MS = 200;

type State = 'created' | 'accepted' | 'completed';

interface Claim {
  trackingId: string;
  state: State;
  transactionId: string;
  contractId: string;
  x: Exchange;
}

interface Created {
  contractId: string;
  templateId: string;
  stakeholders: string[];
}

interface Found {
  offset: number | undefined;
  created: Created[];
  /** Contracts the update exercises choices on (a transfer completes the accepted offer). */
  exercised: string[];
  x: Exchange;
  pointer: string;
}

/** A failed offer as the wallet reports it. */
interface FailedClaim {
  trackingId: string;
  kind: string;
  x: Exchange;
}

interface LedgerView {
  claims: Claim[];
  failed: FailedClaim[];
  /** The last consuming choice on a contract created with each tracking id, with where the read saw it. */
  ends: Map<string, { choice: string; offset: number | undefined }>;
  updates: Map<string, Found>;
  /** The tracking id and receiver of each contract created with both (offers, accepted offers), by contract id. */
  terms: Map<string, { trackingId: string; receiver: string; templateId: string }>;
  /** Why ids were not all found, when they were not. */
  shortfall?: string;
}

/** The fixture's offers in an active state with string ids (other shapes are the shape checks' to judge). */
async function claims(ctx: CheckContext): Promise<Pick<LedgerView, 'claims' | 'failed'>> {
  const out: Pick<LedgerView, 'claims' | 'failed'> = { claims: [], failed: [] };
  for (const { trackingId, x, body } of await reportedOffers(ctx)) {
    const { status, transaction_id: transactionId, contract_id: contractId, failure_kind: kind } = body;
    if ((status === 'created' || status === 'accepted' || status === 'completed') && typeof transactionId === 'string' && typeof contractId === 'string')
      out.claims.push({ trackingId, state: status, transactionId, contractId, x });
    if (status === 'failed' && typeof kind === 'string') out.failed.push({ trackingId, kind, x });
  }
  return out;
}

/** The failure kind a choice's name says, when it says exactly one (an offer's expiry, rejection or withdrawal). */
const KIND_WORDS: Record<string, RegExp> = { expired: /expire/i, rejected: /reject/i, withdrawn: /withdraw/i };
const kindOfChoice = (choice: string): string | undefined => {
  const kinds = Object.keys(KIND_WORDS).filter((k) => KIND_WORDS[k]!.test(choice));
  return kinds.length === 1 ? kinds[0] : undefined;
};

/** Reads the stream from its start until every claimed transaction is found, the stream ends, or the bound. */
async function readLedger(ctx: CheckContext): Promise<LedgerView> {
  const view: LedgerView = { ...(await claims(ctx)), ends: new Map(), updates: new Map(), terms: new Map() };
  const wanted = new Set(view.claims.map((c) => c.transactionId));
  const ended = (t: string) => kindOfChoice(view.ends.get(t)?.choice ?? '') !== undefined;
  const complete = () => [...wanted].every((id) => view.updates.has(id)) && view.failed.every((f) => ended(f.trackingId));
  const parties = [...new Set(ctx.fixtures.ledgerParties ?? [])];
  const format = updateFormat(parties, ['transactions'], LEDGER_EFFECTS);
  let shortfall = 'not in the stream (read to its end)';
  const walk = await followTokens(
    async (token) => {
      const begin = typeof token === 'number' ? token : 0;
      const x = await postUpdates(ctx, { beginExclusive: begin, updateFormat: format }, { limit: PAGE, stream_idle_timeout_ms: IDLE_MS });
      const els = x.status === 200 ? ctx.expect(x).json() : undefined;
      if (!Array.isArray(els)) {
        shortfall = `the read from offset ${begin} was answered ${describeAnswer(x)}`;
        return { page: undefined, keys: [], next: undefined };
      }
      collect(view, els as Json[], x, wanted);
      return { page: undefined, keys: [begin], next: nextBegin(els as Json[], begin, PAGE) };
    },
    MAX_PAGES,
    complete,
  );
  if (complete()) return view;
  return { ...view, shortfall: walk.end === 'bound' ? `not within the first ${MAX_PAGES * PAGE} elements of the stream` : shortfall };
}

function collect(view: LedgerView, els: Json[], x: Exchange, wanted: ReadonlySet<string>): void {
  const all = eventsOf(els).filter((e) => e.from === 'Transaction');
  const events = all.filter((e) => e.kind === 'CreatedEvent');
  for (const e of events) {
    const args = e.ev.createArgument;
    if (isObject(args) && typeof args.trackingId === 'string' && typeof args.receiver === 'string')
      view.terms.set(String(e.ev.contractId), { trackingId: args.trackingId, receiver: args.receiver, templateId: String(e.ev.templateId) });
  }
  for (const e of all.filter((e) => e.kind === 'ExercisedEvent' && e.ev.consuming === true)) {
    // Only the offer itself: a withdrawal of an accepted offer is the receiver's, which the description calls rejected.
    const terms = view.terms.get(String(e.ev.contractId));
    if (terms && isOffer(terms.templateId)) view.ends.set(terms.trackingId, { choice: String(e.ev.choice), offset: offsetOf(els[e.index]) });
  }
  els.forEach((el, index) => {
    const id = recordOf(el)?.updateId;
    if (typeof id !== 'string' || !wanted.has(id) || view.updates.has(id)) return;
    const created = events
      .filter((e) => e.index === index)
      .map((e) => ({
        contractId: String(e.ev.contractId),
        templateId: String(e.ev.templateId),
        stakeholders: [...strings(e.ev.signatories), ...strings(e.ev.observers)],
      }));
    const exercised = all.filter((e) => e.index === index && e.kind === 'ExercisedEvent').map((e) => String(e.ev.contractId));
    view.updates.set(id, { offset: offsetOf(el), created, exercised, x, pointer: `/${index}` });
  });
}

const ledgerView = (ctx: CheckContext): Promise<LedgerView> => ctx.shared('wallet-transfer-offer-ledger-view', () => readLedger(ctx));

/** The entity of a template id (`pkg:Module.Path:Entity`). */
const entity = (templateId: string) => templateId.slice(templateId.lastIndexOf(':') + 1);

/**
 * What the contract must be, as far as the description names it; undefined when it fits. The description
 * names an offer and an accepted offer, not their templates: only the words are compared.
 */
type Fit = (c: Created, claim: Claim, view: LedgerView, u: Found) => string | undefined;

const isOffer = (templateId: string) => /offer/i.test(entity(templateId)) && !/accepted/i.test(entity(templateId));
/** The status is the asked offer's: a contract created with a tracking id names the tracking id asked for (where the read saw its arguments). */
const ofTrackingId = (c: Created, claim: Claim, view: LedgerView): string | undefined => {
  const named = view.terms.get(c.contractId)?.trackingId;
  return named === undefined || named === claim.trackingId ? undefined : `the one of tracking id ${named}, not of ${claim.trackingId} asked for`;
};
const offerFit: Fit = (c, claim, view) => (isOffer(c.templateId) ? ofTrackingId(c, claim, view) : `not an offer (template ${c.templateId})`);
const acceptedFit: Fit = (c, claim, view) =>
  /accepted/i.test(entity(c.templateId)) && /offer/i.test(entity(c.templateId))
    ? ofTrackingId(c, claim, view)
    : `not an accepted offer (template ${c.templateId})`;
/**
 * A holding of the receiver: the receiver is among its stakeholders. The receiver is the one the offer named,
 * read from the contract of this tracking id the transfer exercised (the accepted offer) where the read saw it
 * created; otherwise the holder is not judged.
 */
const receiverHoldingFit: Fit = (c, claim, view, u) => {
  const named = u.exercised.map((id) => view.terms.get(id)).filter((t) => t?.trackingId === claim.trackingId);
  const receivers = [...new Set(named.map((t) => t!.receiver))];
  if (receivers.length !== 1 || c.stakeholders.includes(receivers[0]!)) return undefined;
  return `not a holding of the receiver ${receivers[0]} (its signatories and observers: ${c.stakeholders.join(', ')})`;
};

async function judge(ctx: CheckContext, state: State, what: { transaction: string; contract: string }, fits: Fit): Promise<void> {
  const view = await ledgerView(ctx);
  const mine = view.claims.filter((c) => c.state === state);
  if (mine.length === 0) ctx.skip(`none of the offers in fixtures.transferOffers is now reported ${state} with a transaction_id and a contract_id`);
  const judged = mine.filter((c) => view.updates.has(c.transactionId));
  if (judged.length === 0)
    ctx.skip(
      `the transaction_id of no ${state} offer (${mine.map((c) => c.trackingId).join(', ')}) was found in the update stream read as fixtures.ledgerParties: ${view.shortfall}`,
    );
  for (const claim of judged) {
    const u = view.updates.get(claim.transactionId)!;
    const where = `update ${claim.transactionId} (offset ${u.offset}, the answer of POST /v2/updates at ${u.pointer})`;
    const made = u.created.find((c) => c.contractId === claim.contractId);
    if (!made)
      return ctx
        .expect(claim.x)
        .fail(
          `transfer offer ${claim.trackingId} is reported ${state} with transaction_id ${claim.transactionId} (${what.transaction}) and contract_id ${claim.contractId} (${what.contract}), but ${where} creates no such contract (it creates ${u.created.map((c) => c.contractId).join(', ') || 'nothing the ledger parties see'})`,
          '/contract_id',
        );
    const misfit = fits(made, claim, view, u);
    if (misfit)
      ctx
        .expect(claim.x)
        .fail(
          `transfer offer ${claim.trackingId} is reported ${state} with contract_id ${claim.contractId} (${what.contract}); ${where} creates it, but it is ${misfit}`,
          '/contract_id',
        );
  }
}

async function judgeFailed(ctx: CheckContext): Promise<void> {
  const view = await ledgerView(ctx);
  if (view.failed.length === 0) ctx.skip('none of the offers in fixtures.transferOffers is now reported failed with a failure_kind');
  let judged = 0;
  for (const f of view.failed) {
    const end = view.ends.get(f.trackingId);
    const kind = kindOfChoice(end?.choice ?? '');
    if (!end || !kind) continue;
    judged++;
    if (kind !== f.kind)
      ctx
        .expect(f.x)
        .fail(
          `transfer offer ${f.trackingId} is reported failed with failure_kind ${f.kind}, but on the ledger its offer ended by the choice ${end.choice} (offset ${end.offset}): ${kind}`,
          '/failure_kind',
        );
  }
  if (judged === 0)
    ctx.skip(
      `for no failed offer (${view.failed.map((f) => f.trackingId).join(', ')}) did the update stream read as fixtures.ledgerParties show the choice that ended it${view.shortfall ? `: ${view.shortfall}` : ''}`,
    );
}

// The ledger's update stream is read too (POST /v2/updates); the operations named are the wallet's.
const NEEDS = ['transferOffers', 'ledgerParties'] as const;

const COMMON: Pick<RuleOf<'wallet'>, 'tags'> = {
  tags: ['transfer-offers', 'ledger'],
};

export const TRANSFER_LEDGER_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  {
    interface: 'wallet',
    operations: ['getTransferOfferStatus'],
  },
  [
    rule({
      ...COMMON,
      needs: NEEDS,
      id: 'WALLET-TRANSFER-CREATED-ON-LEDGER',
      cites: ['T.transfer-offer.2'],
      check: (ctx) => judge(ctx, 'created', { transaction: 'the creating transaction', contract: 'the offer' }, offerFit),
    }),
    rule({
      ...COMMON,
      needs: NEEDS,
      id: 'WALLET-TRANSFER-ACCEPTED-ON-LEDGER',
      cites: ['T.transfer-offer.4'],
      check: (ctx) => judge(ctx, 'accepted', { transaction: 'the accepting transaction', contract: 'the accepted offer' }, acceptedFit),
    }),
    rule({
      ...COMMON,
      needs: NEEDS,
      id: 'WALLET-TRANSFER-COMPLETED-ON-LEDGER',
      cites: ['T.transfer-offer.6'],
      check: (ctx) => judge(ctx, 'completed', { transaction: 'the transfer', contract: "the receiver's created holding" }, receiverHoldingFit),
    }),
    rule({
      ...COMMON,
      needs: NEEDS,
      id: 'WALLET-TRANSFER-FAILED-KIND-ON-LEDGER',
      cites: ['T.transfer-offer.10'],
      check: judgeFailed,
    }),
  ],
);
