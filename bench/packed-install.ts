// The package as a user gets it: `npm pack` of the checkout (its prepack compiles dist/), installed into an
// empty folder from npm's cache, with no registry. A tarball's dependencies are resolved from the registry's
// full metadata, which `npm ci` does not cache, so the folder gets a lock file: the checkout's, less its
// development packages. The install then takes the very versions the checkout is tested with.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../', import.meta.url));
const run = promisify(execFile);

export interface PackedInstall {
  /** The tarball, in the folder given. */
  tarball: string;
  /** Its size, and the size of what it holds. */
  bytes: number;
  unpackedBytes: number;
  /** The paths it holds, relative to the package root. */
  files: string[];
  /** The folder the package is installed into (node_modules/cn-conformance). */
  prefix: string;
  /** node_modules/.bin/cn-conformance of that folder: what `npx cn-conformance` runs there. */
  bin: string;
}

/** What `npm pack --json` prints of one tarball. */
interface PackOutput {
  filename: string;
  integrity: string;
  size: number;
  unpackedSize: number;
  files: Array<{ path: string }>;
}

interface LockEntry {
  dev?: boolean;
  devOptional?: boolean;
  optional?: boolean;
  [key: string]: unknown;
}

/**
 * An npm started from an npm script inherits the script's variables, and `npm_config_local_prefix` would
 * point it at the checkout: only those naming the cache, the configuration files and the registry are kept.
 */
export function npmEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) || /^npm_config_(cache|userconfig|globalconfig|cafile|registry)$/i.test(k)),
  );
}

/** Packs the checkout into `dir` and installs the tarball into `dir`/install. */
export async function packAndInstall(dir: string): Promise<PackedInstall> {
  const env = npmEnvironment();
  const packed = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: root, env, maxBuffer: 16 * 1024 * 1024 });
  const [info] = JSON.parse(packed.stdout) as PackOutput[];
  if (!info) throw new Error(`npm pack printed no tarball: ${packed.stdout.slice(0, 500)}`);
  const prefix = join(dir, 'install');
  const tarball = join(dir, info.filename);
  mkdirSync(prefix, { recursive: true });
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const spec = `file:${tarball}`;
  const packages: Record<string, LockEntry> = {
    '': { name: 'packed-install', dependencies: { 'cn-conformance': spec } },
    'node_modules/cn-conformance': {
      version: pkg.version,
      resolved: spec,
      integrity: info.integrity,
      license: pkg.license,
      dependencies: pkg.dependencies,
      bin: pkg.bin,
      engines: pkg.engines,
    },
  };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '' || entry.dev) continue;
    // Needed by a development package or optional for a runtime one: optional here.
    const { devOptional, ...rest } = entry;
    packages[path] = devOptional ? { ...rest, optional: true } : rest;
  }
  const write = (file: string, value: unknown) => writeFileSync(join(prefix, file), `${JSON.stringify(value, null, 2)}\n`);
  write('package.json', { name: 'packed-install', private: true, dependencies: { 'cn-conformance': spec } });
  write('package-lock.json', { name: 'packed-install', lockfileVersion: 3, requires: true, packages });
  await run('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: prefix, env, maxBuffer: 16 * 1024 * 1024 });
  return {
    tarball,
    bytes: info.size,
    unpackedBytes: info.unpackedSize,
    files: info.files.map((f) => f.path),
    prefix,
    bin: join(prefix, 'node_modules', '.bin', 'cn-conformance'),
  };
}
