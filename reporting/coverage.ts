// The coverage table: for every operation of each loaded document, what the run checked and which status
// codes it saw against those documented.
import type { CompiledSpec, OperationSpec } from '../generators/index.ts';
import { GENERIC_CHECKS, type GenericCheck } from '../common/vocabulary.ts';
import { JUDGED } from './verdict.ts';
import type { Requirement } from '../suites/model.ts';
import type { RequirementResult } from '../suites/engine.ts';

export interface OperationCoverage {
  spec: string;
  operationId: string;
  method: string;
  path: string;
  /**
   * GENERIC-...-RESPONSES: valid requests got documented, schema-valid answers. `passed` only when the
   * operation also answered 2xx at least once in the run; `unconfirmed` when every answer was an error (a
   * documented 400 or 404 proves the error path, not the operation).
   */
  positive: RequirementResult['status'] | 'unconfirmed' | 'none';
  /** GENERIC-...-INVALID-INPUT passed: invalid input was refused with a documented 4xx. */
  negative: RequirementResult['status'] | 'none';
  /** Present (false) when a generic check of the operation found that the target does not serve it. */
  served?: false;
  /** Requirements of the description that call this operation. */
  semantic: number;
  statusesSeen: number[];
  statusesDocumented: string[];
}

const pathPattern = (op: OperationSpec) =>
  new RegExp(
    `^${op.fullPath
      .split(/\{[^}]+\}/)
      .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]+')}$`,
  );

/** `records`: the requirements of the run (their kind and probe say which results are an operation's generic checks). */
export function coverage(
  specs: Record<string, CompiledSpec>,
  records: readonly Pick<Requirement, 'id' | 'kind' | 'probe'>[],
  results: readonly RequirementResult[],
  seen: ReadonlyArray<{ method: string; path: string; status: number }>,
  originPaths: string[] = [''],
): OperationCoverage[] {
  const out: OperationCoverage[] = [];
  const record = new Map(records.map((r) => [r.id, r]));
  const kindOf = (r: RequirementResult) => record.get(r.id)?.kind;
  for (const [name, spec] of Object.entries(specs)) {
    for (const op of spec.catalog.operations) {
      const re = pathPattern(op);
      const generic = (probe: GenericCheck) =>
        results.find((r) => r.interface === name && kindOf(r) === 'generic' && record.get(r.id)?.probe === probe && r.operations.includes(op.id));
      const statuses = new Set<number>();
      for (const s of seen) {
        if (s.method !== op.method.toUpperCase()) continue;
        if (originPaths.some((base) => s.path.startsWith(base) && re.test(s.path.slice(base.length)))) statuses.add(s.status);
      }
      const positive = generic('responses')?.status ?? 'none';
      const unserved = GENERIC_CHECKS.some((probe) => generic(probe)?.status === 'unsupported');
      const answered2xx = [...statuses].some((s) => s >= 200 && s < 300);
      out.push({
        spec: name,
        operationId: op.id,
        method: op.method.toUpperCase(),
        path: op.fullPath,
        positive: positive === 'passed' && !answered2xx ? 'unconfirmed' : positive,
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

export function renderCoverageMarkdown(rows: readonly OperationCoverage[]): string {
  const lines = [
    'positive: the generic answer check of the operation (`unconfirmed`: it passed, but no 2xx answer was seen, so only error paths were exercised); negative: invalid input refused; rule checks: requirements of the description that ran on it.',
    '',
    '| document | operation | positive | negative | rule checks | statuses seen | documented |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of rows)
    lines.push(
      `| ${r.spec} | ${r.method} ${r.path}${r.served === false ? ' (not served)' : ''} | ${r.positive} | ${r.negative} | ${r.semantic} | ${r.statusesSeen.join(', ') || '-'} | ${r.statusesDocumented.join(', ')} |`,
    );
  return lines.join('\n') + '\n';
}
