// The active contracts at an offset (the /v2/state/active-contracts channel, facts: the WebSocket stream) are
// what the update stream of the same parties made active by then: every contract created up to the offset and
// not archived by it is in the snapshot, and no contract archived by then is. Contracts that moved between
// synchronizers in the window are left aside: the snapshot may show them as incomplete (un)assignments.
import { isObject, type Json } from '../../../common/json.ts';
import { CheckUnsupported, type Requirement } from '../../../engine/model.ts';
import { defineRules, rule } from '../../../engine/requirement.ts';
import { describeChannel, parsed, summariseChannel } from '../../../engine/transport/websocket.ts';
import { channelError, channelRead, channelSample, UPDATES_CHANNEL } from '../../../interfaces/ledger/update-channel.ts';
import { ACS_DELTA, body, byParties, eventsOf, offsetOf, readParties, updateFormat } from '../../../interfaces/ledger/updates.ts';

const ACTIVE_CONTRACTS = '/v2/state/active-contracts';
/** Elements of the stream the snapshot is compared with: a window every node serves over the channel. */
const WINDOW = 300;

/** The contract ids of the created events anywhere in an active-contracts message (active, or an incomplete (un)assignment). */
function snapshotContracts(m: unknown, out: Set<string>): void {
  if (!isObject(m)) return;
  if (isObject(m.createdEvent) && typeof m.createdEvent.contractId === 'string') out.add(m.createdEvent.contractId);
  for (const v of Object.values(m)) if (isObject(v)) snapshotContracts(v, out);
}

export const ACTIVE_CONTRACT_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'ledger', operations: [] }, [
  rule({
    id: 'LEDGER-WEBSOCKET-ACTIVE-CONTRACTS',
    cites: ['S.service.11'],
    needs: ['ledgerParties'],
    tags: ['websocket'],
    channels: [UPDATES_CHANNEL, ACTIVE_CONTRACTS],
    async check(ctx) {
      const parties = readParties(ctx);
      const format = updateFormat(parties, ['transactions', 'reassignments'], ACS_DELTA);
      const start = await channelSample(ctx, body({ beginExclusive: 0 }, format), WINDOW);
      const offsets = start.els.map(offsetOf).filter((o): o is number => o !== undefined);
      if (offsets.length === 0) ctx.skip('the update stream of the ledger parties holds no element to take an offset from');
      const at = Math.max(...offsets);
      const { els } = await channelRead(ctx, body({ beginExclusive: 0, endInclusive: at }, format), 'bounded');
      const created = new Set<string>();
      const archived = new Set<string>();
      const moved = new Set<string>();
      for (const e of eventsOf(els)) {
        const id = typeof e.ev.contractId === 'string' ? e.ev.contractId : undefined;
        if (!id) continue;
        if (e.kind === 'CreatedEvent') created.add(id);
        else if (e.kind === 'ArchivedEvent') archived.add(id);
        else moved.add(id);
      }
      const x = await ctx.ledger.channel(ACTIVE_CONTRACTS, { request: { activeAtOffset: at, eventFormat: byParties(parties) } });
      const cite = summariseChannel(x);
      if (x.upgrade && [404, 405, 426, 501].includes(x.upgrade.status))
        throw new CheckUnsupported(`${ACTIVE_CONTRACTS} is not served: ${describeChannel(x)}`, { exchange: cite });
      if (x.upgrade || x.end === 'failed' || (x.close?.by === 'node' && x.close.code !== 1000))
        ctx.fail(`the active contracts at offset ${at} were not delivered: ${describeChannel(x)}`, { exchange: cite });
      const snapshot = new Set<string>();
      x.messages.forEach((m, i) => {
        const value = parsed(m);
        const error = channelError(value);
        if (error)
          ctx.fail(`the active contracts at offset ${at} (an offset of the stream) were refused: ${error.code}: ${error.cause}`, {
            exchange: cite,
            pointer: `/${i}`,
          });
        snapshotContracts(value as Json, snapshot);
      });
      const missing = [...created].filter((c) => !archived.has(c) && !moved.has(c) && !snapshot.has(c));
      if (missing.length)
        ctx.fail(
          `the active contracts of ${parties.join(', ')} at offset ${at} lack ${missing.length} of the contracts their update stream created up to it and never archived (${missing.slice(0, 3).join(', ')})`,
          { exchange: cite },
        );
      const gone = [...archived].filter((c) => !moved.has(c) && snapshot.has(c));
      if (gone.length)
        ctx.fail(`the active contracts at offset ${at} hold ${gone.length} contract(s) the update stream archived by then (${gone.slice(0, 3).join(', ')})`, {
          exchange: cite,
        });
      if (created.size === 0) ctx.skip(`the update stream of ${parties.join(', ')} up to offset ${at} created no contract to look for`);
    },
  }),
]);
