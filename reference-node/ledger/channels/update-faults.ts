// The faults of the WebSocket update channel that change the sequence it delivers (one stage each, after the
// stages the channel shares with POST /v2/updates), and the one that ignores template filters on every channel.
import type { NodeContext } from '../../context.ts';
import type { EventFormatSpec } from '../stream-request.ts';
import { chainStages, type Element, type ElementStage } from '../update-window.ts';

/** The WebSocket faults' stages that are switched on. */
export function channelFaultStages(ctx: NodeContext): ElementStage {
  const stages: ElementStage[] = [];
  if (ctx.faults.has('ledger-ws-reorders')) stages.push(swapsSecondAndThird());
  if (ctx.faults.has('ledger-ws-drops-update')) stages.push(dropsThirdOfFour());
  if (ctx.faults.has('ledger-ws-duplicates-update')) stages.push(duplicatesSecond());
  return chainStages(...stages);
}

/** ledger-ws-reorders: the 2nd and 3rd updates change places; the checkpoints between them stay where they are. */
function swapsSecondAndThird(): ElementStage {
  let updates = 0;
  let held: Element[] | undefined;
  return {
    push(e) {
      if (held && e.checkpoint) {
        held.push(e);
        return [];
      }
      if (held) {
        const [second, ...checkpoints] = held;
        held = undefined;
        updates++;
        return [e, ...checkpoints, second!];
      }
      if (!e.checkpoint && ++updates === 2) {
        held = [e];
        return [];
      }
      return [e];
    },
    end() {
      const out = held ?? [];
      held = undefined;
      return out;
    },
  };
}

/** ledger-ws-drops-update: the 3rd update is lost once a 4th shows the delivery has four (a shorter one keeps it). */
function dropsThirdOfFour(): ElementStage {
  let updates = 0;
  let held: Element[] | undefined;
  return {
    push(e) {
      if (held && e.checkpoint) {
        held.push(e);
        return [];
      }
      if (held) {
        const [, ...checkpoints] = held;
        held = undefined;
        updates++;
        return [...checkpoints, e];
      }
      if (!e.checkpoint && ++updates === 3) {
        held = [e];
        return [];
      }
      return [e];
    },
    end() {
      const out = held ?? [];
      held = undefined;
      return out;
    },
  };
}

/** ledger-ws-duplicates-update: the 2nd update is sent twice in a row. */
function duplicatesSecond(): ElementStage {
  let updates = 0;
  return {
    push: (e) => (!e.checkpoint && ++updates === 2 ? [e, e] : [e]),
    end: () => [],
  };
}

/** ledger-ws-filter-ignored: every party's filters (and the any-party ones) become wildcards. */
export function ignoreTemplateFilters(format: EventFormatSpec | undefined): void {
  if (!format) return;
  for (const f of [...format.byParty.values(), ...(format.anyParty ? [format.anyParty] : [])]) f.wildcard = true;
}
