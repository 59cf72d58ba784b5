// Judges one HTTP response against the document: status documented, content type documented, body valid.
import type { CompiledSpec } from './compile-spec.ts';
import { findMediaType, findResponse } from './operation-catalog.ts';
import { formatIssues } from './schema-validators.ts';

export interface ObservedResponse {
  status: number;
  contentType: string | undefined;
  text: string;
}

/** Problems with the response ([] when it conforms to the document). */
export function responseProblems(spec: CompiledSpec, operationId: string, res: ObservedResponse): string[] {
  const op = spec.catalog.byId.get(operationId);
  if (!op) return [`no operation ${operationId} in ${spec.loaded.name}`];
  const documented = findResponse(op, res.status);
  if (!documented) return [`status ${res.status} is not documented for ${operationId} (documented: ${op.responses.map((r) => r.status).join(', ')})`];
  if (documented.content.length === 0) return [];
  const media = findMediaType(documented, res.contentType);
  if (!media)
    return [
      `content type ${res.contentType ?? '(none)'} is not documented for ${operationId} ${documented.status} (documented: ${documented.content.map((m) => m.contentType).join(', ')})`,
    ];
  if (!media.schemaPointer || !/json/i.test(media.contentType)) return [];
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    return [`body of ${operationId} ${res.status} is not JSON: ${JSON.stringify(res.text.slice(0, 120))}`];
  }
  const r = spec.validators.validate(media.schemaPointer, body);
  return r.valid ? [] : [`body of ${operationId} ${res.status} violates the schema: ${formatIssues(r)}`];
}
