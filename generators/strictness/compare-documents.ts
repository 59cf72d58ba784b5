// Compares the operations of our document with the same operations of one or more official documents
// (matched by method and path, path parameter names and server prefixes aside) and lists every place where
// ours accepts less: request parameters and bodies, and every answer status both document.
import type { LoadedDocument } from '../load-document.ts';
import { buildCatalog, findResponse, type MediaTypeSpec, type OperationSpec, type ParameterSpec } from '../operation-catalog.ts';
import { anything, compareSchemas, INFORMATIONAL_KINDS, type SchemaDifference } from './compare-schemas.ts';
import type { SchemaNode } from './schema-view.ts';
import { resolvePointer } from '../../common/json.ts';

export interface StrictnessFinding extends SchemaDifference {
  /** Our operationId, and theirs. */
  operation: string;
  theirOperation: string;
  /** "POST /api/scan/v0/holdings/state" (our path). */
  endpoint: string;
  side: 'request' | 'response';
  /** What was compared: "body", a status ("200", "default"), or `query parameter "limit"`. */
  part: string;
}

export interface StrictnessReport {
  ours: { name: string; source: string };
  theirs: Array<{ name: string; source: string }>;
  /** Our operations and the operation of theirs each was compared with. */
  matched: Array<{ operation: string; endpoint: string; theirOperation: string; theirDocument: string }>;
  /** Our operations that no official document has (nothing to compare). */
  unmatched: Array<{ operation: string; endpoint: string }>;
  /** Parts of matched operations that could not be compared, and why. */
  notCompared: string[];
  findings: StrictnessFinding[];
}

/**
 * The findings that make ours stricter than theirs (a maintainer must act), as opposed to informational ones:
 * a rule the description states (excused), an undecided union, and null at a property ours leaves optional in
 * an answer (tolerated at MUST and judged by a SHOULD requirement) unless `nullable` is asked for. Null refused
 * in a request or at a required property is no policy's business: it blocks.
 */
export function blockingFindings(report: StrictnessReport, options: { nullable?: boolean } = {}): StrictnessFinding[] {
  return report.findings.filter((f) => {
    if (f.excused !== undefined) return false;
    if (f.kind === 'nullable') return options.nullable === true || f.side === 'request' || f.optional !== true;
    return !INFORMATIONAL_KINDS.has(f.kind);
  });
}

const operationKey = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\{[^}]*\}/g, '{}')}`;

export function compareStrictness(ours: LoadedDocument, theirs: readonly LoadedDocument[]): StrictnessReport {
  const theirOps = theirs.map((doc) => ({ doc, ops: buildCatalog(doc).operations }));
  const report: StrictnessReport = {
    ours: { name: ours.name, source: ours.source },
    theirs: theirs.map((d) => ({ name: d.name, source: d.source })),
    matched: [],
    unmatched: [],
    notCompared: [],
    findings: [],
  };
  for (const op of buildCatalog(ours).operations) {
    const endpoint = `${op.method.toUpperCase()} ${op.fullPath}`;
    const counterpart = findCounterpart(op, theirOps);
    if (!counterpart) {
      report.unmatched.push({ operation: op.id, endpoint });
      continue;
    }
    const { doc, op: theirOp } = counterpart;
    report.matched.push({ operation: op.id, endpoint, theirOperation: theirOp.id, theirDocument: doc.name });
    const pair: Pair = {
      op,
      theirOp,
      compare: (a, b) => compareSchemas(ours.document, mine(a), doc.document, typeof b === 'string' ? [{ schema: resolvePointer(doc.document, b), at: b }] : b),
      push: (side, part, diffs) => {
        for (const d of diffs) report.findings.push({ operation: op.id, theirOperation: theirOp.id, endpoint, side, part, ...d });
      },
      skip: (what) => report.notCompared.push(`${op.id} ${what}`),
    };
    const mine = (at: string): SchemaNode[] => [{ schema: resolvePointer(ours.document, at), at }];
    compareParameters(pair);
    compareBodies(pair);
    compareAnswers(pair);
  }
  return report;
}

/** One of our operations and theirs, with what comparing them needs. */
interface Pair {
  op: OperationSpec;
  theirOp: OperationSpec;
  /** Our schema at a pointer against theirs at a pointer (or given nodes). */
  compare: (ours: string, theirs: string | SchemaNode[]) => SchemaDifference[];
  push: (side: StrictnessFinding['side'], part: string, diffs: SchemaDifference[]) => void;
  skip: (what: string) => void;
}

function compareParameters({ op, theirOp, compare, push }: Pair): void {
  for (const p of op.parameters) {
    const part = `${p.in} parameter "${p.name}"`;
    const theirP = matchParameter(op, p, theirOp);
    if (p.required && p.in !== 'path' && !theirP?.required) {
      const theirs = theirP ? 'optional' : 'not defined';
      push('request', part, [{ kind: 'required', pointer: '', ours: 'required', theirs, oursAt: op.pointer, theirsAt: theirOp.pointer }]);
    }
    if (!p.schemaPointer) continue;
    if (theirP?.schemaPointer) push('request', part, compare(p.schemaPointer, theirP.schemaPointer));
    else if (!theirP) {
      // Their node ignores a parameter it does not define: any string goes, so a value ours refuses is no error there.
      const loose = compare(p.schemaPointer, [{ schema: { type: 'string' }, at: theirOp.pointer }]);
      push(
        'request',
        part,
        loose.map((d) => ({ ...d, theirs: `no such parameter (${d.theirs} accepted)` })),
      );
    }
  }
}

function compareBodies({ op, theirOp, compare, push, skip }: Pair): void {
  if (!op.requestBody) return;
  const theirBody = theirOp.requestBody;
  if (op.requestBody.required && !theirBody?.required) {
    const theirs = theirBody ? 'body optional' : 'no body';
    push('request', 'body', [{ kind: 'required', pointer: '', ours: 'body required', theirs, oursAt: op.pointer, theirsAt: theirOp.pointer }]);
  }
  const mine = jsonMedia(op.requestBody.content);
  if (!mine?.schemaPointer) return; // ours accepts any body
  if (!theirBody) {
    skip('request body: theirs documents none');
    return;
  }
  const their = jsonMedia(theirBody.content);
  push('request', 'body', compare(mine.schemaPointer, their?.schemaPointer ?? anything(`${theirOp.pointer}/requestBody`)));
}

/** Each answer of ours with their answer for the same status (exact, then their range, then their default). */
function compareAnswers({ op, theirOp, compare, push, skip }: Pair): void {
  for (const response of op.responses) {
    const mine = jsonMedia(response.content);
    if (!mine?.schemaPointer) continue;
    const theirResponse = /^\d{3}$/.test(response.status)
      ? findResponse(theirOp, Number(response.status))
      : theirOp.responses.find((r) => r.status.toUpperCase() === response.status.toUpperCase());
    if (!theirResponse) {
      skip(`${response.status}: theirs documents no such answer`);
      continue;
    }
    const their = jsonMedia(theirResponse.content);
    if (!their?.schemaPointer) {
      skip(`${response.status}: theirs documents no JSON body for it (${theirResponse.status})`);
      continue;
    }
    const part = theirResponse.status === response.status ? response.status : `${response.status} (their ${theirResponse.status})`;
    push('response', part, compare(mine.schemaPointer, their.schemaPointer));
  }
}

function findCounterpart(op: OperationSpec, docs: Array<{ doc: LoadedDocument; ops: OperationSpec[] }>) {
  const full = operationKey(op.method, op.fullPath);
  const bare = operationKey(op.method, op.path);
  for (const pass of [(o: OperationSpec) => operationKey(o.method, o.fullPath) === full, (o: OperationSpec) => operationKey(o.method, o.path) === bare]) {
    for (const { doc, ops } of docs) {
      const hit = ops.find(pass);
      if (hit) return { doc, op: hit };
    }
  }
  return undefined;
}

/** Path parameters by position (their names may differ), the others by location and name. */
function matchParameter(op: OperationSpec, p: ParameterSpec, their: OperationSpec): ParameterSpec | undefined {
  if (p.in === 'path') {
    const position = pathNames(op.path).indexOf(p.name);
    const name = pathNames(their.path)[position];
    return their.parameters.find((q) => q.in === 'path' && q.name === name);
  }
  const same = (a: string, b: string) => (p.in === 'header' ? a.toLowerCase() === b.toLowerCase() : a === b);
  return their.parameters.find((q) => q.in === p.in && same(q.name, p.name));
}

const pathNames = (path: string) => [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]!);

function jsonMedia(content: MediaTypeSpec[]): MediaTypeSpec | undefined {
  return content.find((m) => /[/+]json\b/i.test(m.contentType)) ?? content.find((m) => m.contentType === '*/*');
}
