// Which operation of a document an exchange called: the path a client sent (without the interface prefix)
// matched against the documents' path templates, literal segments before parameters.
import type { CompiledSpec, OperationSpec } from '../../generators/index.ts';

interface Route {
  method: string;
  pattern: RegExp;
  /** Literal segments: a template with more of them is the better match (/v0/events/count before /v0/events/{id}). */
  literals: number;
  op: OperationSpec;
}

export class OperationMatcher {
  private readonly routes: Route[];

  constructor(spec: CompiledSpec) {
    this.routes = spec.catalog.operations
      .map((op) => {
        const segments = op.path.split('/');
        const pattern = segments.map((s) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')).join('/');
        return { method: op.method.toUpperCase(), pattern: new RegExp(`^${pattern}/?$`), literals: segments.filter((s) => !s.includes('{')).length, op };
      })
      .sort((a, b) => b.literals - a.literals);
  }

  /** The operation `method path` calls (path without query, relative to the interface prefix), if any. */
  match(method: string, path: string): OperationSpec | undefined {
    const bare = path.split('?')[0]!;
    return this.routes.find((r) => r.method === method && r.pattern.test(bare))?.op;
  }
}
