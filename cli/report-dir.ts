// The report directory is made before any request is sent, so a place the run cannot write to is a usage
// error up front rather than a lost report at the end. Node's recursive mkdir loops forever under /proc
// (every level answers ENOENT), so the missing levels are made one at a time.
import { constants } from 'node:fs';
import { access, mkdir, rmdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../runner/usage-error.ts';

export async function prepareReportDir(path: string): Promise<string> {
  return (await reserveReportDir(path)).dir;
}

/**
 * The report directory, and a way to take back what this call made when the command ends with nothing to
 * write (a usage error found after it): the levels it created, deepest first, each only while still empty
 * (rmdir never removes contents, so a folder that existed or got files stays).
 */
export async function reserveReportDir(path: string): Promise<{ dir: string; discardIfEmpty(): Promise<void> }> {
  const dir = resolve(path);
  const missing: string[] = [];
  let at = dir;
  for (;;) {
    const s = await stat(at).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? undefined : fail(dir, e)));
    if (s) {
      if (!s.isDirectory()) fail(dir, new Error(`${at} is not a directory`));
      break;
    }
    missing.unshift(at);
    const parent = dirname(at);
    if (parent === at) break;
    at = parent;
  }
  // Only levels this call made are ever taken back (one that appeared meanwhile, EEXIST, is someone else's).
  const made: string[] = [];
  const discardIfEmpty = async () => {
    for (const level of [...made].reverse()) {
      try {
        await rmdir(level);
      } catch {
        return; // not empty (or gone): it and the levels above it stay
      }
    }
  };
  try {
    for (const level of missing)
      await mkdir(level).then(
        () => void made.push(level),
        (e: NodeJS.ErrnoException) => (e.code === 'EEXIST' ? undefined : fail(dir, e)),
      );
    await access(dir, constants.W_OK).catch((e: Error) => fail(dir, e));
  } catch (e) {
    await discardIfEmpty();
    throw e;
  }
  return { dir, discardIfEmpty };
}

function fail(dir: string, e: Error & { code?: string }): never {
  throw new UsageError(
    `cannot write the reports to ${dir}: ${e.code ? `${e.code} (${e.message.replace(/^[A-Z]+: /, '')})` : e.message}; choose another --report-dir`,
  );
}
