// The coverage table: for every operation of each loaded document, what the run checked, which status codes
// it saw against those documented, and whether the operation was confirmed: a valid request answered 2xx and
// judged (its positive requirement passed).
import type { CompiledSpec, OperationSpec } from '../generators/index.ts';
import { GENERIC_CHECKS, type GenericCheck } from '../common/vocabulary.ts';
import { templatePattern } from '../common/path-template.ts';
import { JUDGED, type OperationsConfirmed } from './verdict.ts';
import type { Requirement } from '../engine/model.ts';
import type { RequirementResult } from '../engine/engine.ts';
import { operationKey } from '../requirements/generic/spec-requirements.ts';

export interface OperationCoverage {
  spec: string;
  operationId: string;
  method: string;
  path: string;
  /**
   * The operation's positive requirement (the record that confirms it: a valid request built from the
   * target's data, answered 2xx and judged). For an operation no record confirms (one of a user's document),
   * its generic answer check: `passed` only when the operation also answered 2xx at least once in the run,
   * `unconfirmed` when every answer was an error (a documented 400 or 404 proves the error path, not the
   * operation). `none`: not run.
   */
  positive: RequirementResult['status'] | 'unconfirmed' | 'none';
  /** The requirement that confirms the operation; absent where none does (the generic answer check stands in). */
  confirmedBy?: string;
  /** A valid request was answered 2xx and judged. */
  confirmed: boolean;
  /** Why it was not confirmed (absent when it was). */
  unconfirmed?: string;
  /** GENERIC-...-INVALID-INPUT passed: invalid input was refused with a documented 4xx. */
  negative: RequirementResult['status'] | 'none';
  /** Present (false) when a generic check of the operation found that the target does not serve it. */
  served?: false;
  /** Requirements of the description that call this operation. */
  semantic: number;
  statusesSeen: number[];
  statusesDocumented: string[];
}

const pathPattern = (op: OperationSpec) => templatePattern(op.fullPath);

/**
 * `records`: the requirements of the catalog, selected or not (their kind and probe say which results are an
 * operation's generic checks, `confirms` which one is its positive requirement). `builtinIds`: for a document
 * the user swapped in, the built-in operationIds by operation key, so that its operations meet their records.
 */
export function coverage(
  specs: Record<string, CompiledSpec>,
  records: readonly Pick<Requirement, 'id' | 'kind' | 'probe' | 'confirms' | 'interface'>[],
  results: readonly RequirementResult[],
  seen: ReadonlyArray<{ method: string; path: string; status: number }>,
  originPaths: string[] = [''],
  builtinIds: Readonly<Record<string, ReadonlyMap<string, string>>> = {},
): OperationCoverage[] {
  const out: OperationCoverage[] = [];
  const record = new Map(records.map((r) => [r.id, r]));
  const kindOf = (r: RequirementResult) => record.get(r.id)?.kind;
  const resultOf = new Map(results.map((r) => [r.id, r]));
  for (const [name, spec] of Object.entries(specs)) {
    for (const op of spec.catalog.operations) {
      const builtin = builtinIds[name]?.get(operationKey(op)) ?? op.id;
      const confirming = records.find((r) => r.interface === name && r.confirms === builtin);
      const re = pathPattern(op);
      const generic = (probe: GenericCheck) =>
        results.find((r) => r.interface === name && kindOf(r) === 'generic' && record.get(r.id)?.probe === probe && r.operations.includes(op.id));
      const statuses = new Set<number>();
      for (const s of seen) {
        if (s.method !== op.method.toUpperCase()) continue;
        if (originPaths.some((base) => s.path.startsWith(base) && re.test(s.path.slice(base.length)))) statuses.add(s.status);
      }
      const unserved = GENERIC_CHECKS.some((probe) => generic(probe)?.status === 'unsupported');
      const answered2xx = [...statuses].some((s) => s >= 200 && s < 300);
      const answers = generic('responses')?.status ?? 'none';
      const positive = confirming ? (resultOf.get(confirming.id)?.status ?? 'none') : answers === 'passed' && !answered2xx ? 'unconfirmed' : answers;
      const confirmed = positive === 'passed';
      out.push({
        spec: name,
        operationId: op.id,
        method: op.method.toUpperCase(),
        path: op.fullPath,
        positive,
        ...(confirming ? { confirmedBy: confirming.id } : {}),
        confirmed,
        ...(confirmed ? {} : { unconfirmed: whyUnconfirmed(confirming?.id, confirming && resultOf.get(confirming.id), answers) }),
        negative: generic('invalid-input')?.status ?? 'none',
        ...(unserved ? { served: false as const } : {}),
        semantic: results.filter((r) => kindOf(r) === 'rule' && r.operations.includes(op.id) && JUDGED.has(r.status)).length,
        statusesSeen: [...statuses].sort((a, b) => a - b),
        statusesDocumented: op.responses.map((r) => r.status),
      });
    }
  }
  return out;
}

/** Why an operation was not confirmed, in a line. */
function whyUnconfirmed(id: string | undefined, result: RequirementResult | undefined, answers: string): string {
  if (!id)
    return answers === 'passed'
      ? 'no requirement confirms it, and no valid request was answered 2xx'
      : `no requirement confirms it, and its generic answer check ${answers === 'none' ? 'did not run' : `was ${answers}`}`;
  if (!result) return `${id} was not selected`;
  return `${id} ${result.status}${result.reason ? `: ${result.reason}` : ''}`;
}

/** The operations confirmed, of those of `rows` (the documents of the interfaces a run targets). */
export function operationsConfirmed(rows: readonly OperationCoverage[]): OperationsConfirmed {
  const named = (r: OperationCoverage) => ({ operation: `${r.spec} ${r.operationId} (${r.method} ${r.path})`, why: r.unconfirmed ?? '' });
  const applicable = rows.filter((r) => r.positive !== 'not-applicable');
  const notApplicable = rows.filter((r) => r.positive === 'not-applicable').map(named);
  return {
    confirmed: applicable.filter((r) => r.confirmed).length,
    total: applicable.length,
    ...(notApplicable.length ? { notApplicable } : {}),
    unconfirmed: applicable.filter((r) => !r.confirmed).map(named),
  };
}

/** A WebSocket channel of the run's documents and records: what judged it and what its upgrades were answered. */
export interface ChannelCoverage {
  /** The channel's path, e.g. /v2/updates. */
  channel: string;
  /** Requirements reading it (WebSocket twins of the stream's rules among them), and how many were judged, passed and failed. */
  requirements: number;
  judged: number;
  passed: number;
  failed: number;
  /** The upgrade statuses the run saw: 101 when it upgraded, the refusal's status otherwise (0: no answer). */
  statusesSeen: number[];
  /** Why none of its requirements was judged, where none was (the first one's reason, e.g. --skip-websocket). */
  notJudged?: string;
}

/**
 * One row per channel: those of the loaded channel documents and those records read. `seen` is the run's
 * answered requests, WebSocket upgrades among them (method WEBSOCKET).
 */
export function channelCoverage(
  documented: readonly string[],
  records: readonly Pick<Requirement, 'id' | 'channels'>[],
  results: readonly RequirementResult[],
  seen: ReadonlyArray<{ method: string; path: string; status: number }>,
  originPaths: string[] = [''],
): ChannelCoverage[] {
  const resultOf = new Map(results.map((r) => [r.id, r]));
  const channels = [...new Set([...documented, ...records.flatMap((r) => r.channels ?? [])])];
  return channels.map((channel) => {
    const ran = records.filter((r) => r.channels?.includes(channel)).flatMap((r) => resultOf.get(r.id) ?? []);
    const judged = ran.filter((r) => JUDGED.has(r.status));
    const statuses = new Set(
      seen
        .filter((s) => s.method === 'WEBSOCKET' && originPaths.some((base) => s.path.startsWith(base) && s.path.slice(base.length) === channel))
        .map((s) => s.status),
    );
    const notJudged = ran.length > 0 && judged.length === 0 ? ran[0]!.reason : ran.length === 0 ? 'no requirement reading it ran' : undefined;
    return {
      channel,
      requirements: ran.length,
      judged: judged.length,
      passed: ran.filter((r) => r.status === 'passed').length,
      failed: ran.filter((r) => r.status === 'failed').length,
      statusesSeen: [...statuses].sort((a, b) => a - b),
      ...(notJudged ? { notJudged } : {}),
    };
  });
}

export function renderCoverageMarkdown(rows: readonly OperationCoverage[], channels: readonly ChannelCoverage[] = []): string {
  const confirmed = rows.filter((r) => r.confirmed).length;
  const lines = [
    `Operations confirmed: ${confirmed} of ${rows.length} (a valid request built from the target's data answered 2xx and judged).`,
    '',
    "positive: the operation's positive requirement (for an operation no requirement confirms, its generic answer check; `unconfirmed`: it passed, but no 2xx answer was seen, so only error paths were exercised); negative: invalid input refused; rule checks: requirements of the description that ran on it.",
    '',
    '| document | operation | positive | negative | rule checks | statuses seen | documented | confirmed |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows)
    lines.push(
      `| ${r.spec} | ${r.method} ${r.path}${r.served === false ? ' (not served)' : ''} | ${r.positive} | ${r.negative} | ${r.semantic} | ${r.statusesSeen.join(', ') || '-'} | ${r.statusesDocumented.join(', ')} | ${r.confirmed ? `yes (${r.confirmedBy ?? 'generic answer check'})` : 'no'} |`,
    );
  if (channels.length > 0) {
    lines.push(
      '',
      'WebSocket channels: the requirements reading each (twins of the update stream rules among them) and the upgrade statuses seen (101: upgraded).',
      '',
    );
    lines.push('| channel | requirements | judged | passed | failed | statuses seen | not judged because |', '|---|---|---|---|---|---|---|');
    for (const c of channels)
      lines.push(`| ${c.channel} | ${c.requirements} | ${c.judged} | ${c.passed} | ${c.failed} | ${c.statusesSeen.join(', ') || '-'} | ${c.notJudged ?? ''} |`);
  }
  return lines.join('\n') + '\n';
}
