// Allure results of a run, written by allure-vitest: a child vitest process replays report.json as one
// test per requirement (reporting/allure/). A child, because vitest owns its process (exit code, stdout).
import { execFile } from 'node:child_process';
import { readdir, rm } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The configuration is TypeScript like this module in a checkout, and JavaScript in the compiled package.
const CONFIG = fileURLToPath(new URL(`./allure/vitest.config${extname(import.meta.url)}`, import.meta.url));
const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Replaces `dir` with the Allure results of `reportFile`; the number of result files, or why none. */
export async function writeAllureResults(reportFile: string, dir: string, timeoutMs = 120_000): Promise<{ files: number } | { error: string }> {
  let vitestBin: string;
  try {
    import.meta.resolve('allure-vitest/reporter');
    vitestBin = join(dirname(fileURLToPath(import.meta.resolve('vitest/package.json'))), 'vitest.mjs');
  } catch {
    return { error: 'vitest and allure-vitest are not installed (npm install allure-vitest vitest)' };
  }
  // Results accumulate in Allure's directory; stale files of an earlier run would mix into this one.
  await rm(dir, { recursive: true, force: true });
  const outcome = await new Promise<string | undefined>((done) => {
    execFile(
      process.execPath,
      // A compiled configuration is imported as it is: bundling it writes a file into node_modules.
      [vitestBin, 'run', '--config', CONFIG, ...(CONFIG.endsWith('.js') ? ['--configLoader', 'native'] : [])],
      {
        cwd: ROOT,
        timeout: timeoutMs,
        maxBuffer: 8 * 1024 * 1024,
        env: { ...process.env, CN_CONFORMANCE_ALLURE_REPORT: reportFile, CN_CONFORMANCE_ALLURE_DIR: dir, FORCE_COLOR: '0' },
      },
      (error, _stdout, stderr) => {
        // vitest exits 1 when a replayed requirement failed: that is the run's verdict, not an error here.
        if (error && (error.killed || typeof error.code !== 'number' || error.code > 1)) done(`${error.message.split('\n')[0]} ${stderr.slice(-500)}`.trim());
        else done(undefined);
      },
    );
  });
  if (outcome) return { error: outcome };
  const files = (await readdir(dir).catch(() => [])).filter((f) => f.endsWith('-result.json')).length;
  return files > 0 ? { files } : { error: `the replay wrote no result files to ${dir}` };
}
