// How production ledger nodes write the records render.ts builds, where they bend the letter of the
// description (the deviations of deviations.ts): null for an optional field without value, "" for an
// unrequested blob or a command id the reader did not submit (Canton 3.3/3.4), and no acsDelta or
// representativePackageId before release line 3.5. Applied in place to freshly rendered records.
import { createHash } from 'node:crypto';
import { isObject, type JsonObject } from '../../common/json.ts';
import type { NodeContext } from '../context.ts';

/** What GET /v2/version answers on a node of release line 3.4 (ledger-pre-3-5). */
export const PRE_3_5_VERSION = '3.4.9';

/** A node of release line 3.4: playing that release (ReferenceNodeOptions.releases), or the deviation ledger-pre-3-5. */
export const pre35 = (ctx: NodeContext): boolean => ctx.faults.has('ledger-pre-3-5') || ctx.release.ledger === '3.4';

export interface ReleaseStyle {
  /** ledger-null-optional-fields */
  readonly nullForAbsent: boolean;
  /** release line 3.4 (pre35) */
  readonly pre35: boolean;
}

/** The style of this node, or undefined when it writes records as release line 3.5 describes them. */
export function releaseStyle(ctx: NodeContext): ReleaseStyle | undefined {
  const style = { nullForAbsent: ctx.faults.has('ledger-null-optional-fields'), pre35: pre35(ctx) };
  return style.nullForAbsent || style.pre35 ? style : undefined;
}

/** An event record (a transaction's, or an assignment's createdEvent). */
export function styleEvent(kind: string, ev: JsonObject, s: ReleaseStyle): void {
  if (s.pre35) {
    delete ev.acsDelta;
    delete ev.representativePackageId;
  }
  if (!s.nullForAbsent) return;
  if (kind === 'CreatedEvent') {
    ev.createdEventBlob ??= '';
    ev.contractKey ??= null;
  } else if (kind === 'ExercisedEvent') {
    ev.interfaceId ??= null;
  }
}

/** A Transaction, Reassignment or TopologyTransaction record, its events included. */
export function styleRecord(kind: string, rec: JsonObject, s: ReleaseStyle): void {
  if (kind === 'OffsetCheckpoint') return;
  if (s.nullForAbsent) {
    rec.traceContext ??= { traceparent: traceparent(String(rec.updateId)), tracestate: null };
    if (kind === 'Transaction') rec.externalTransactionHash ??= null;
    if (kind === 'Transaction' || kind === 'Reassignment') rec.commandId ??= '';
  }
  if (!Array.isArray(rec.events)) return;
  for (const wrapped of rec.events) {
    if (!isObject(wrapped)) continue;
    for (const [evKind, ev] of Object.entries(wrapped)) {
      if (evKind === 'JsAssignmentEvent' && isObject(ev) && isObject(ev.createdEvent)) styleEvent('CreatedEvent', ev.createdEvent, s);
      else if (isObject(ev)) styleEvent(evKind, ev, s);
    }
  }
}

/** A stream element `{update: {<Kind>: {value: record}}}`. */
export function styleElement(el: JsonObject, s: ReleaseStyle): JsonObject {
  const update = isObject(el.update) ? el.update : {};
  for (const [kind, wrapper] of Object.entries(update)) if (isObject(wrapper) && isObject(wrapper.value)) styleRecord(kind, wrapper.value, s);
  return el;
}

/** A W3C traceparent derived from the update id (deterministic, as the history is). */
function traceparent(updateId: string): string {
  const h = createHash('sha256').update(updateId).digest('hex');
  return `00-${h.slice(0, 32)}-${h.slice(32, 48)}-01`;
}
