// Files the package ships beside its code: package.json, the OpenAPI documents, the recorded proof. They
// sit at the package root, which is the nearest folder above this module holding a package.json: the
// parent of common/ in a checkout, two levels up from dist/common/ in the compiled package.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function packageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const PACKAGE_ROOT = packageRoot(dirname(fileURLToPath(import.meta.url)));

/** A file of the package, by its path from the package root (e.g. `specs/scan-api.yaml`). */
export const packageFile = (path: string): string => join(PACKAGE_ROOT, path);
