// Ledger sources: who the token is and what it may read, the parties hosted here, the ledger end, and a
// bounded read of the update stream. The wallet token is tried as a ledger token too: on a validator node
// its user is a ledger user with rights for its own party only, which makes it the limited user the
// read-rights check needs. Every request is a read.
import { isObject, type Json } from '../../common/json.ts';
import { anyPartyFormat, eventsOf, kindOf, nextBegin, recordOf, updateFormat } from './updates.ts';
import type { Fixtures } from '../../engine/fixtures.ts';
import type { OfferSeen, Rights } from '../../engine/discovery/findings.ts';
import type { SourceReader } from '../../engine/discovery/reader.ts';
import { distinct, found, type Source } from '../../engine/discovery/source.ts';

const KEEP = 20;
const STREAM_LIMIT = 200;
const IDLE_MS = 200;
const TRANSFER_OFFER = ':Splice.Wallet.TransferOffer:TransferOffer';

/** The rights of a user: `{rights: [{kind: {CanActAs: {value: {party}}}}, ...]}` (release 3.x encoding). */
function rightsOf(body: Json): Rights | undefined {
  if (!Array.isArray(body?.rights)) return undefined;
  const out: Rights = { anyParty: false, readAs: [], actAs: [] };
  for (const right of body.rights) {
    const kind = right?.kind;
    if (!isObject(kind)) continue;
    if ('CanReadAsAnyParty' in kind || 'ParticipantAdmin' in kind) out.anyParty ||= 'CanReadAsAnyParty' in kind;
    const party = (k: string) => (kind[k] as Json)?.value?.party;
    if (typeof party('CanReadAs') === 'string') out.readAs.push(party('CanReadAs'));
    if (typeof party('CanActAs') === 'string') out.actAs.push(party('CanActAs'));
  }
  return out;
}

const readable = (r: Rights) => distinct([...r.actAs, ...r.readAs], 1000);

/** The user behind a token and its rights; `auth` names the token when it is not the ledger's own. */
async function userAndRights(r: SourceReader, auth?: { bearer: string; variable?: string }) {
  const user = await r.json('GET', '/v2/authenticated-user', auth ? { auth } : {});
  const id = user?.user?.id;
  if (typeof id !== 'string' || id === '') return undefined;
  const rights = rightsOf(await r.json('GET', `/v2/users/${encodeURIComponent(id)}/rights`, auth ? { auth } : {}));
  const primary = typeof user.user.primaryParty === 'string' && user.user.primaryParty !== '' ? user.user.primaryParty : undefined;
  return { id, primary, rights };
}

const user: Source = {
  id: 'ledger-user',
  interface: 'ledger',
  what: "the ledger token's user and its rights",
  provides: ['ledgerParties', 'ledgerForbiddenParty', 'ledgerLimitedToken'],
  async run(r, f) {
    const u = await userAndRights(r);
    if (!u) return;
    f.learn('ledgerUser', u.id, `the user ${u.id}`);
    if (u.rights)
      f.learn('ledgerRights', u.rights, u.rights.anyParty ? 'that it may read as any party' : `its rights for ${readable(u.rights).length} part(ies)`);
    if (u.rights && !u.rights.anyParty)
      f.set(
        'ledgerParties',
        distinct(readable(u.rights), KEEP),
        found('ledger', 'GET', '/v2/users/{user-id}/rights', '/rights/*/kind/CanReadAs|CanActAs/value/party', `the rights of user ${u.id}`),
      );
  },
};

const parties: Source = {
  id: 'ledger-parties',
  interface: 'ledger',
  what: 'the parties hosted on the participant',
  provides: ['ledgerParties', 'ledgerForbiddenParty', 'ledgerLimitedToken', 'transferOffers', 'otherUserTransferOffers'],
  async run(r, f) {
    const path = '/v2/parties';
    const details = await r.walk(async (token) => {
      const body = await r.json('GET', path, { query: { pageSize: 100, pageToken: token as string | undefined } });
      if (!Array.isArray(body?.partyDetails)) return undefined;
      // The last page says so with an empty token.
      return { items: body.partyDetails as Json[], next: typeof body.nextPageToken === 'string' && body.nextPageToken !== '' ? body.nextPageToken : undefined };
    });
    if (!details) return;
    const local = details.filter((p) => p?.isLocal === true).map((p) => p.party);
    f.learn('localParties', distinct(local, 1000), `${distinct(local, 1000).length} hosted part(ies)`);
    if (f.facts.ledgerRights?.anyParty)
      f.set('ledgerParties', distinct(local, KEEP), found('ledger', 'GET', path, '/partyDetails/*/party', 'the local ones; the token may read as any party'));
  },
};

const limited: Source = {
  id: 'ledger-limited-user',
  interface: 'ledger',
  what: 'a token with limited read rights (the ledger token itself, or the wallet token as a ledger token) and a hosted party it may not read as',
  provides: ['ledgerForbiddenParty', 'ledgerLimitedToken', 'transferOffers', 'otherUserTransferOffers'],
  async run(r, f, env) {
    const local = f.facts.localParties ?? [];
    const forbiddenFor = (rights: Rights | undefined) => {
      if (!rights || rights.anyParty) return undefined;
      const allowed = new Set(readable(rights));
      return local.find((p) => !allowed.has(p));
    };
    // The wallet user's party, for the wallet sources: its primary party, else its one act-as party.
    const wallet = env.walletBearer ? await userAndRights(r, { bearer: env.walletBearer, variable: env.walletVariable }) : undefined;
    if (wallet) {
      const party = wallet.primary ?? (wallet.rights?.actAs.length === 1 ? wallet.rights.actAs[0] : undefined);
      if (party) f.learn('walletParty', party, `the wallet user's party (the ledger's user ${wallet.id})`);
    }
    const own = forbiddenFor(f.facts.ledgerRights);
    const actors = (rights: Rights | undefined) => f.learn('limitedActAs', rights?.actAs ?? [], 'the parties the limited user may act as');
    if (own && env.ledgerBearer) {
      actors(f.facts.ledgerRights);
      // The ledger token is limited itself: it is the limited token.
      if (
        f.set(
          'ledgerLimitedToken',
          env.ledgerBearer,
          found('ledger', 'GET', '/v2/authenticated-user', '/user/id', `the ledger token itself, user ${f.facts.ledgerUser}`),
        )
      )
        f.set(
          'ledgerForbiddenParty',
          own,
          found('ledger', 'GET', '/v2/parties', '/partyDetails/*/party', `hosted, and not among the rights of ${f.facts.ledgerUser}`),
        );
      return;
    }
    const other = forbiddenFor(wallet?.rights);
    if (!wallet || !other || !env.walletBearer) return;
    actors(wallet.rights);
    if (
      f.set(
        'ledgerLimitedToken',
        env.walletBearer,
        found('ledger', 'GET', '/v2/authenticated-user', '/user/id', `the wallet token, which the ledger knows as user ${wallet.id}`),
      )
    )
      f.set('ledgerForbiddenParty', other, found('ledger', 'GET', '/v2/parties', '/partyDetails/*/party', `hosted, and not among the rights of ${wallet.id}`));
  },
};

const end: Source = {
  id: 'ledger-end',
  interface: 'ledger',
  what: 'the ledger end (the end of the stream read)',
  provides: ['transferOffers', 'otherUserTransferOffers', 'multiHostedParty'],
  async run(r, f) {
    const body = await r.json('GET', '/v2/state/ledger-end');
    const offset = Number(body?.offset);
    if (Number.isSafeInteger(offset) && offset >= 0) f.learn('ledgerEnd', offset, `the ledger end (${offset})`);
  },
};

/** The first contract created in an answer whose only signatory is one of `actors`. */
function soleSigned(els: Json[], actors: ReadonlySet<string>): { templateId: string; createArgument: Json; party: string } | undefined {
  for (const e of eventsOf(els)) {
    const sigs: unknown = e.ev.signatories;
    if (e.kind !== 'CreatedEvent' || typeof e.ev.templateId !== 'string' || !isObject(e.ev.createArgument) || !Array.isArray(sigs)) continue;
    if (sigs.length === 1 && typeof sigs[0] === 'string' && actors.has(sigs[0]))
      return { templateId: e.ev.templateId, createArgument: e.ev.createArgument, party: sigs[0] };
  }
  return undefined;
}

/**
 * A contract an answer shows created in a transaction, with a witness among `readable` (the parties the
 * token may read as): one whose archive the answer shows too, if any, else the first.
 */
function streamedContract(els: Json[], readable: readonly string[]): Fixtures['ledgerContract'] {
  const events = eventsOf(els).filter((e) => e.from === 'Transaction' && typeof e.ev.contractId === 'string' && Number.isSafeInteger(e.record.offset));
  const archivedAt = new Map(events.filter((e) => e.kind === 'ArchivedEvent').map((e) => [e.ev.contractId as string, e.record.offset as number]));
  let first: Fixtures['ledgerContract'];
  for (const e of events) {
    if (e.kind !== 'CreatedEvent') continue;
    const party = (Array.isArray(e.ev.witnessParties) ? e.ev.witnessParties : []).find((p: unknown) => typeof p === 'string' && readable.includes(p));
    if (!party) continue;
    const archivedOffset = archivedAt.get(e.ev.contractId);
    const seen = { contractId: e.ev.contractId as string, offset: e.record.offset as number, party: party as string };
    if (archivedOffset !== undefined) return { ...seen, archivedOffset };
    first ??= seen;
  }
  return first;
}

/** The wallet's transfer offers created in an answer, and the participants its topology events name per party. */
function scan(els: Json[], offers: OfferSeen[], hosts: Map<string, Set<string>>): void {
  for (const e of eventsOf(els)) {
    const args = e.ev.createArgument;
    if (e.kind !== 'CreatedEvent' || typeof e.ev.templateId !== 'string' || !e.ev.templateId.endsWith(TRANSFER_OFFER) || !isObject(args)) continue;
    if (typeof args.trackingId === 'string' && typeof args.sender === 'string' && typeof args.receiver === 'string')
      offers.push({ trackingId: args.trackingId, sender: args.sender, receiver: args.receiver });
  }
  for (const el of els.filter((x) => kindOf(x) === 'TopologyTransaction')) {
    const events: unknown[] = Array.isArray(recordOf(el)?.events) ? recordOf(el).events : [];
    for (const wrapped of events) {
      const event: Json = isObject(wrapped) ? wrapped.event : undefined;
      for (const kind of ['ParticipantAuthorizationAdded', 'ParticipantAuthorizationChanged']) {
        const a = event?.[kind]?.value;
        if (typeof a?.partyId === 'string' && typeof a.participantId === 'string')
          hosts.set(a.partyId, (hosts.get(a.partyId) ?? new Set()).add(a.participantId));
      }
    }
  }
}

type Hosting = NonNullable<Fixtures['partyHosting']>;

/**
 * The participants each party is hosted on, per synchronizer, as the topology events read show them in stream
 * order: an authorization added or changed hosts it, a revocation ends it (an onboarding does not host yet).
 * Parties hosted on the most participants first.
 */
function hostingOf(els: Json[]): Hosting {
  const seen = new Map<string, { party: string; synchronizerId: string; participants: Set<string> }>();
  for (const el of els.filter((x) => kindOf(x) === 'TopologyTransaction')) {
    const rec = recordOf(el);
    const events: unknown[] = Array.isArray(rec?.events) ? rec.events : [];
    for (const wrapped of events) {
      const event: Json = isObject(wrapped) ? wrapped.event : undefined;
      for (const kind of ['Added', 'Changed', 'Revoked']) {
        const a = event?.[`ParticipantAuthorization${kind}`]?.value;
        if (typeof a?.partyId !== 'string' || typeof a.participantId !== 'string' || typeof rec.synchronizerId !== 'string') continue;
        const key = JSON.stringify([a.partyId, rec.synchronizerId]);
        const entry = seen.get(key) ?? { party: a.partyId, synchronizerId: rec.synchronizerId, participants: new Set<string>() };
        seen.set(key, entry);
        if (kind === 'Revoked') entry.participants.delete(a.participantId);
        else entry.participants.add(a.participantId);
      }
    }
  }
  return [...seen.values()]
    .filter((e) => e.participants.size > 0)
    .map((e) => ({ ...e, participants: [...e.participants] }))
    .sort((a, b) => b.participants.length - a.participants.length)
    .slice(0, KEEP);
}

const stream: Source = {
  id: 'ledger-update-stream',
  interface: 'ledger',
  what: 'a bounded read of the update stream: transfer offers, party hosting (topology), a contract the limited user signs alone, a contract created (and archived) in it',
  provides: ['transferOffers', 'otherUserTransferOffers', 'multiHostedParty', 'ledgerCommands', 'ledgerContract', 'partyHosting'],
  async run(r, f) {
    const rights = f.facts.ledgerRights;
    const partiesRead = f.fixtures.ledgerParties ?? [];
    if (!rights?.anyParty && partiesRead.length === 0) return void r.fall('unusable answer', 'no party is known to read as');
    // Topology events of every party (an empty list) where the token may read as any party.
    const format = rights?.anyParty
      ? { ...anyPartyFormat(), includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [] } } }
      : updateFormat(partiesRead, ['transactions', 'topology']);
    const window = f.facts.ledgerEnd === undefined ? {} : { endInclusive: f.facts.ledgerEnd };
    // Pages of the stream, each beginning after the last offset of the one before; a short page is the last.
    const els = await r.walk(async (token) => {
      const begin = typeof token === 'number' ? token : 0;
      const body = await r.json('POST', '/v2/updates', {
        body: { beginExclusive: begin, ...window, updateFormat: format },
        query: { limit: STREAM_LIMIT, stream_idle_timeout_ms: IDLE_MS },
      });
      return Array.isArray(body) ? { items: body as Json[], next: nextBegin(body, begin, STREAM_LIMIT) } : undefined;
    });
    const offers: OfferSeen[] = [];
    const hosts = new Map<string, Set<string>>();
    scan(els ?? [], offers, hosts);
    // The command's submitter: the limited user where there is one, else the ledger token's own user (the
    // commands are sent with the limited token where it is set, with the ledger token otherwise).
    const submitters = f.fixtures.ledgerLimitedToken ? (f.facts.limitedActAs ?? []) : (f.facts.ledgerRights?.actAs ?? []);
    const signed = soleSigned(els ?? [], new Set(submitters));
    if (els) f.learn('offers', offers, `${offers.length} transfer offer(s) of the wallet`);
    // A command the limited user may submit without leaving anything behind: that contract created anew and
    // archived in the same transaction (Archive needs only the signatory's authority, which acting gives).
    if (signed)
      f.set(
        'ledgerCommands',
        {
          actAs: [signed.party],
          commands: [
            { CreateAndExerciseCommand: { templateId: signed.templateId, createArguments: signed.createArgument, choice: 'Archive', choiceArgument: {} } },
          ],
        },
        found(
          'ledger',
          'POST',
          '/v2/updates',
          '/*/update/Transaction/value/events/*/CreatedEvent',
          `a ${signed.templateId} signed by ${signed.party} alone, created and archived again`,
        ),
      );
    const contract = streamedContract(els ?? [], f.fixtures.ledgerParties ?? []);
    if (contract)
      f.set(
        'ledgerContract',
        contract,
        found(
          'ledger',
          'POST',
          '/v2/updates',
          '/*/update/Transaction/value/events/*/CreatedEvent/contractId',
          `created at offset ${contract.offset}${contract.archivedOffset === undefined ? '' : ` and archived at ${contract.archivedOffset}`}, seen by ${contract.party}`,
        ),
      );
    // A revocation beyond what was read would make a hosting seen here stale: only a read to the end shows it.
    if (els && r.shortfall?.kind !== 'stopped at its bound')
      f.set(
        'partyHosting',
        hostingOf(els),
        found(
          'ledger',
          'POST',
          '/v2/updates',
          '/*/update/TopologyTransaction/value/events/*/event/ParticipantAuthorizationAdded/value',
          'added or changed authorizations not revoked later, read to the ledger end',
        ),
      );
    const multi = [...hosts].find(([, participants]) => participants.size >= 2)?.[0];
    f.set(
      'multiHostedParty',
      multi,
      found(
        'ledger',
        'POST',
        '/v2/updates',
        '/*/update/TopologyTransaction/value/events/*/event/ParticipantAuthorizationAdded/value/partyId',
        'a party added on two or more participants',
      ),
    );
  },
};

/** Permissions under which a party may submit on a synchronizer (unspecified: the node did not say). */
const MAY_SUBMIT = new Set(['PARTICIPANT_PERMISSION_SUBMISSION', 'PARTICIPANT_PERMISSION_UNSPECIFIED', undefined]);

const synchronizers: Source = {
  id: 'ledger-synchronizers',
  interface: 'ledger',
  what: 'the synchronizers the participant is connected to where the acting party of ledgerCommands may submit (a reassignment moves a contract between two)',
  provides: ['ledgerSynchronizers'],
  async run(r, f) {
    const path = '/v2/state/connected-synchronizers';
    const party = f.fixtures.ledgerCommands?.actAs[0];
    // Asked about a party, the node answers where it hosts that party, with its permission there.
    const listed = (body: Json) => (Array.isArray(body?.connectedSynchronizers) ? (body.connectedSynchronizers as Json[]) : undefined);
    const forParty = party ? listed(await r.json('GET', path, { query: { party } })) : undefined;
    const all = forParty ?? listed(await r.json('GET', path));
    if (!all) return;
    const ids = distinct(all.filter((s) => !forParty || MAY_SUBMIT.has(s?.permission)).map((s) => s?.synchronizerId));
    f.set(
      'ledgerSynchronizers',
      ids,
      found(
        'ledger',
        'GET',
        path,
        '/connectedSynchronizers/*/synchronizerId',
        // The query is what was asked, not part of the operation: the note says it.
        forParty ? `asked with party=${party}: where it may submit` : 'every connected one (the party-specific list was not served)',
      ),
    );
  },
};

/** In the order they run. */
export const LEDGER_SOURCES: readonly Source[] = [user, parties, limited, end, stream, synchronizers];
