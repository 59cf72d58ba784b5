// What the requesting parties see of one update of the history. The ledger participant only holds data of
// the parties it hosts, so requested parties hosted elsewhere see nothing. Rules (description, Events 2):
// - ACS delta: CreatedEvent / ArchivedEvent of contracts where a requesting party is a stakeholder
//   (signatories and observers); witnessParties = those requesting stakeholders;
// - ledger effects: CreatedEvent / ExercisedEvent that a requesting party witnesses; witnessParties = those
//   requesting witnesses;
// - a requesting party counts for an event only when its filters (or the any-party filters) match the template.
import type { JsonObject } from '../../common/json.ts';
import type { NodeContext } from '../context.ts';
import type { Contract, ExercisedNode, ReassignmentUpdate, TopologyUpdate, TransactionUpdate, Update } from '../world/model.ts';
import { isoMicros } from '../world/time.ts';
import { archivedEvent, createdEvent, element, exercisedEvent, reassignmentRecord, topologyRecord, transactionRecord } from './render.ts';
import { releaseStyle, styleElement, type ReleaseStyle } from './release-style.ts';
import type { CompiledFilters, EventFormatSpec, Shape, StreamRequest, TopologySpec } from './stream-request.ts';

export function hostedParties(ctx: NodeContext): string[] {
  const here = ctx.world.ledgerParticipant.id;
  return ctx.world.parties.filter((p) => p.hostedOn.includes(here)).map((p) => p.id);
}

function templateMatches(requested: string, templateId: string, packageName: string): boolean {
  if (requested === templateId) return true;
  // Package-name references (`#name:Module:Entity`) select every package of that name.
  return requested === `#${packageName}:${templateId.slice(templateId.indexOf(':') + 1)}`;
}

interface Subject {
  templateId: string;
  packageName: string;
  interfaceId?: string;
}

/** The requesting parties of one event format, with their filters. */
export class Audience {
  /** Requesting parties in request order (by-party keys first), each with the filters that apply to it. */
  readonly parties: Array<{ party: string; filters: CompiledFilters[] }> = [];
  readonly partySet: ReadonlySet<string>;

  constructor(
    private readonly ctx: NodeContext,
    format: EventFormatSpec,
    hosted: readonly string[],
  ) {
    const hostedSet = new Set(hosted);
    // first-party-only: of several listed parties, only the first one is read as.
    const byParty = ctx.faults.has('ledger-first-party-only') ? [...format.byParty].slice(0, 1) : format.byParty;
    for (const [party, f] of byParty) {
      if (hostedSet.has(party)) this.parties.push({ party, filters: format.anyParty ? [f, format.anyParty] : [f] });
    }
    if (format.anyParty && !ctx.faults.has('ledger-any-party-filters-ignored')) {
      for (const party of hosted) if (!format.byParty.has(party)) this.parties.push({ party, filters: [format.anyParty] });
    }
    this.partySet = new Set(this.parties.map((p) => p.party));
  }

  private match(filters: CompiledFilters[], s: Subject): { matches: boolean; blob: boolean } {
    let matches = false;
    let blob = false;
    const anyTemplate = this.ctx.faults.has('ledger-template-filter-ignored');
    const packageNameOnly = this.ctx.faults.has('ledger-template-filter-package-name-only');
    // cumulative-first-template-only: of several template entries, only the first widens the result.
    const firstTemplateOnly = this.ctx.faults.has('ledger-cumulative-first-template-only');
    // wildcard-flags-override: where the wildcard matches, its blob flag is taken, not accumulated.
    const wildcardOverrides = this.ctx.faults.has('ledger-wildcard-flags-override');
    for (const f of filters) {
      if (f.implicit && this.ctx.faults.has('ledger-empty-filters-select-nothing')) continue;
      if (f.wildcard) {
        matches = true;
        blob ||= f.wildcardBlob || (f.implicit === true && this.ctx.faults.has('ledger-empty-filters-with-blob'));
      }
      for (const [t, b] of firstTemplateOnly ? [...f.templates].slice(0, 1) : f.templates) {
        if (anyTemplate || (templateMatches(t, s.templateId, s.packageName) && !(packageNameOnly && t === s.templateId))) {
          matches = true;
          if (!(wildcardOverrides && f.wildcard)) blob ||= b;
        }
      }
      if (s.interfaceId !== undefined && f.interfaces.has(s.interfaceId)) {
        matches = true;
        blob ||= f.interfaces.get(s.interfaceId)!;
      }
    }
    return { matches, blob };
  }

  /** The requesting parties among `visibleTo` whose filters select the subject. */
  see(visibleTo: readonly string[], s: Subject): { parties: string[]; blob: boolean } {
    const visible = new Set(visibleTo);
    const parties: string[] = [];
    let blob = false;
    for (const p of this.parties) {
      if (!visible.has(p.party)) continue;
      const m = this.match(p.filters, s);
      if (m.matches) {
        parties.push(p.party);
        blob ||= m.blob;
      }
    }
    return { parties, blob };
  }

  /** witnessParties as rendered: the seeing requesting parties (or, under a fault, everybody it is visible to). */
  witnessParties(seeing: string[], visibleTo: readonly string[]): string[] {
    if (this.ctx.faults.has('ledger-witness-parties-all-requesters')) return this.parties.map((p) => p.party);
    return this.ctx.faults.has('ledger-witness-parties-too-wide') ? [...new Set([...seeing, ...visibleTo])] : seeing;
  }
}

/** Every hosted party, every template: what the faults that emit unrequested kinds read with (made per use: it holds Maps). */
const anyPartyWildcard = (): EventFormatSpec => ({
  byParty: new Map(),
  anyParty: { wildcard: true, wildcardBlob: false, templates: new Map(), interfaces: new Map() },
  verbose: false,
});

const stakeholders = (signatories: readonly string[], observers: readonly string[]) => [...new Set([...signatories, ...observers])];

function lastDescendant(tx: TransactionUpdate, nodeId: number): number {
  const node = tx.nodes[nodeId]!;
  if (node.kind !== 'exercised') return nodeId;
  return node.children.reduce((max, c) => Math.max(max, lastDescendant(tx, c)), nodeId);
}

export class Projector {
  private readonly hosted: string[];
  private readonly tx?: { audience: Audience; shape: Shape };
  private readonly reassignments?: Audience;
  private readonly topology?: TopologySpec;
  private readonly style?: ReleaseStyle;
  /** verbose-labels-dropped: a verbose read renders create arguments without their labels. */
  private readonly positionalArguments: boolean;

  constructor(
    private readonly ctx: NodeContext,
    req: StreamRequest,
  ) {
    this.hosted = hostedParties(ctx);
    if (req.transactions) this.tx = { audience: new Audience(ctx, req.transactions.format, this.hosted), shape: req.transactions.shape };
    else if (ctx.faults.has('ledger-transactions-always-included'))
      this.tx = { audience: new Audience(ctx, req.reassignments ?? anyPartyWildcard(), this.hosted), shape: 'acs-delta' };
    let reassignmentFormat = req.reassignments;
    if (!reassignmentFormat && ctx.faults.has('ledger-unrequested-kind')) reassignmentFormat = req.transactions?.format ?? anyPartyWildcard();
    if (reassignmentFormat) this.reassignments = new Audience(ctx, reassignmentFormat, this.hosted);
    this.topology = req.topology;
    this.style = releaseStyle(ctx);
    this.positionalArguments =
      ctx.faults.has('ledger-verbose-labels-dropped') && (req.transactions?.format.verbose === true || req.reassignments?.verbose === true);
  }

  /** The stream element of update `u` at `offset`, or undefined when nothing of it is selected. */
  project(u: Update, offset: number): JsonObject | undefined {
    const el = this.render(u, offset);
    if (el && this.positionalArguments) positionalCreateArguments(el);
    return el && this.style ? styleElement(el, this.style) : el;
  }

  private render(u: Update, offset: number): JsonObject | undefined {
    const eventOffset = this.ctx.faults.has('ledger-event-offset-mismatch') ? offset - 2 : offset;
    switch (u.kind) {
      case 'transaction':
        return this.tx ? this.transaction(u, offset, eventOffset, this.tx.audience, this.tx.shape) : undefined;
      case 'assign':
      case 'unassign':
        return this.reassignments ? this.reassignment(u, offset, eventOffset, this.reassignments) : undefined;
      case 'topology':
        return this.topology ? this.topologyTx(u, offset, this.topology) : undefined;
    }
  }

  private transaction(tx: TransactionUpdate, offset: number, eventOffset: number, audience: Audience, shape: Shape): JsonObject | undefined {
    const events = shape === 'acs-delta' ? this.acsDelta(tx, eventOffset, audience) : this.ledgerEffects(tx, eventOffset, audience);
    if (events.length === 0) return undefined;
    const submitted = tx.submitters.some((p) => audience.partySet.has(p));
    const record = transactionRecord(tx, {
      offset,
      events,
      commandId: submitted,
      dropRecordTime: this.ctx.faults.has('ledger-required-field-dropped'),
    });
    // ledger-effects-time-shifted: the ledger-effects shape tells another effective time than the ACS delta.
    if (shape === 'ledger-effects' && this.ctx.faults.has('ledger-effects-time-shifted')) record.effectiveAt = isoMicros(tx.effectiveAtMicros + 1);
    return element('Transaction', record);
  }

  private acsDelta(tx: TransactionUpdate, offset: number, audience: Audience): JsonObject[] {
    // Contracts created and consumed in the same transaction never reach the active contract set.
    const created = new Set(tx.nodes.flatMap((n) => (n.kind === 'created' ? [n.contract.contractId] : [])));
    const consumed = new Set(tx.nodes.flatMap((n) => (n.kind === 'exercised' && n.consuming ? [n.contractId] : [])));
    const events: JsonObject[] = [];
    const leaked: JsonObject[] = [];
    for (const node of tx.nodes) {
      if (node.kind === 'created') {
        const c = node.contract;
        if (consumed.has(c.contractId)) continue;
        const sh = stakeholders(c.signatories, c.observers);
        const seen = audience.see(sh, c);
        if (seen.parties.length > 0) {
          events.push({
            CreatedEvent: createdEvent(c, {
              offset,
              nodeId: node.nodeId,
              witnessParties: audience.witnessParties(seen.parties, sh),
              blob: seen.blob,
              acsDelta: true,
            }),
          });
        } else if (
          this.ctx.faults.has('ledger-acs-delta-leak') &&
          audience.see(
            audience.parties.map((p) => p.party),
            c,
          ).parties.length > 0
        ) {
          // Leak only what the requesting parties' filters would select: the break is the stakeholder rule alone.
          leaked.push({
            CreatedEvent: createdEvent(c, { offset, nodeId: node.nodeId, witnessParties: [audience.parties[0]!.party], blob: false, acsDelta: true }),
          });
        }
      } else if (node.consuming && !created.has(node.contractId)) {
        const sh = stakeholders(node.signatories, node.observers);
        const seen = audience.see(sh, node);
        if (seen.parties.length === 0) continue;
        const witnessParties = audience.witnessParties(seen.parties, sh);
        events.push(
          this.ctx.faults.has('ledger-wrong-event-kind')
            ? { ExercisedEvent: exercisedEvent(node, { offset, witnessParties, lastDescendantNodeId: lastDescendant(tx, node.nodeId), acsDelta: true }) }
            : { ArchivedEvent: archivedEvent(node, { offset, witnessParties }) },
        );
      }
    }
    // The leak shows only inside transactions the parties legitimately see.
    return events.length > 0 ? [...events, ...leaked] : events;
  }

  private ledgerEffects(tx: TransactionUpdate, offset: number, audience: Audience): JsonObject[] {
    const witnesses = this.ctx.world.witnesses(tx);
    const created = new Set(tx.nodes.flatMap((n) => (n.kind === 'created' ? [n.contract.contractId] : [])));
    const consumed = new Set(tx.nodes.flatMap((n) => (n.kind === 'exercised' && n.consuming ? [n.contractId] : [])));
    const events: JsonObject[] = [];
    let legit = 0;
    // ledger-effects-participant-view: what any party hosted here witnesses, whichever parties were requested
    // (still narrowed by the requesting parties' template filters), listing those hosted witnesses.
    const participantView = this.ctx.faults.has('ledger-ledger-effects-participant-view');
    const requesting = audience.parties.map((p) => p.party);
    for (const node of tx.nodes) {
      const w = witnesses.get(node.nodeId) ?? [];
      const subject = node.kind === 'created' ? node.contract : node;
      let seen = audience.see(w, subject);
      const hostedWitnesses = participantView ? w.filter((p) => this.hosted.includes(p)) : [];
      if (seen.parties.length === 0 && hostedWitnesses.length > 0 && audience.see(requesting, subject).parties.length > 0) {
        seen = { parties: hostedWitnesses, blob: false };
        legit++;
      } else if (seen.parties.length === 0) {
        if (!this.ctx.faults.has('ledger-ledger-effects-leak') || audience.parties.length === 0) continue;
        seen = { parties: [audience.parties[0]!.party], blob: false };
      } else {
        legit++;
      }
      const witnessParties = audience.witnessParties(seen.parties, w);
      if (node.kind === 'created') {
        const c = node.contract;
        // Part of the ACS delta when a seeing party is a stakeholder and the contract outlives the transaction.
        const acsDelta = !consumed.has(c.contractId) && seen.parties.some((p) => c.signatories.includes(p) || c.observers.includes(p));
        events.push({ CreatedEvent: createdEvent(c, { offset, nodeId: node.nodeId, witnessParties, blob: seen.blob, acsDelta }) });
      } else {
        const acsDelta = isArchiveFor(node, seen.parties) && !created.has(node.contractId);
        const lastDescendantNodeId = lastDescendant(tx, node.nodeId);
        if (
          this.ctx.faults.has('ledger-ledger-effects-archived') &&
          node.consuming &&
          createdBelowHaveStakeholder(
            tx,
            node.nodeId,
            lastDescendantNodeId,
            audience.parties.map((p) => p.party),
          )
        ) {
          events.push({ ArchivedEvent: archivedEvent(node, { offset, witnessParties }) });
          continue;
        }
        events.push({ ExercisedEvent: exercisedEvent(node, { offset, witnessParties, lastDescendantNodeId, acsDelta }) });
      }
    }
    // The leak shows only inside transactions the parties legitimately see.
    return legit > 0 ? events : [];
  }

  private reassignment(u: ReassignmentUpdate, offset: number, eventOffset: number, audience: Audience): JsonObject | undefined {
    const c: Contract = u.contract;
    const sh = stakeholders(c.signatories, c.observers);
    let seen = audience.see(sh, c);
    if (seen.parties.length === 0 && u.kind === 'assign' && this.ctx.faults.has('ledger-acs-delta-reassignment-leak')) {
      // Leak only what the requesting parties' filters would select: the break is the stakeholder rule alone.
      seen = {
        parties: audience
          .see(
            audience.parties.map((p) => p.party),
            c,
          )
          .parties.slice(0, 1),
        blob: false,
      };
    }
    if (seen.parties.length === 0) return undefined;
    return element(
      'Reassignment',
      reassignmentRecord(u, {
        offset,
        eventOffset,
        witnessParties: audience.witnessParties(seen.parties, sh),
        blob: seen.blob,
        commandId: audience.partySet.has(u.submitter),
      }),
    );
  }

  private topologyTx(u: TopologyUpdate, offset: number, spec: TopologySpec): JsonObject | undefined {
    const events = spec.parties === 'all' ? u.events : u.events.filter((e) => (spec.parties as ReadonlySet<string>).has(e.partyId));
    return events.length === 0 ? undefined : element('TopologyTransaction', topologyRecord(u, offset, events));
  }
}

/** Replaces each created event's createArgument by the list of its field values (a record without labels). */
function positionalCreateArguments(el: JsonObject): void {
  const record = Object.values(el.update as JsonObject)[0] as JsonObject;
  for (const wrapped of ((record.value as JsonObject).events as JsonObject[] | undefined) ?? []) {
    const inner = (wrapped.CreatedEvent ?? (wrapped.JsAssignmentEvent as JsonObject | undefined)?.createdEvent) as JsonObject | undefined;
    if (inner?.createArgument && typeof inner.createArgument === 'object') inner.createArgument = Object.values(inner.createArgument as JsonObject);
  }
}

/**
 * Whether every created node below an exercise has a stakeholder among `parties` (and there are parties): then
 * no created event depends on that exercise to show why the requesting parties witness it.
 */
function createdBelowHaveStakeholder(tx: TransactionUpdate, from: number, to: number, parties: string[]): boolean {
  if (parties.length === 0) return false;
  return tx.nodes
    .slice(from + 1, to + 1)
    .every((n) => n.kind !== 'created' || parties.some((p) => n.contract.signatories.includes(p) || n.contract.observers.includes(p)));
}

function isArchiveFor(node: ExercisedNode, parties: string[]): boolean {
  return node.consuming && parties.some((p) => node.signatories.includes(p) || node.observers.includes(p));
}
