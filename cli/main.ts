// Command line entry: `cn-conformance <command>`.
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { compileSpec, SpecLoadError } from '../generators/index.ts';
import { checkSpec } from './spec-check.ts';
import { collect, selectSpecs, UsageError } from './spec-options.ts';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

// Exit codes shared by every command: 0 conformant, 1 a check failed, 2 usage/configuration, 3 crash.
export const EXIT = { ok: 0, failed: 1, usage: 2, crash: 3 } as const;

function program(): Command {
  const cli = new Command('cn-conformance')
    .description('Conformance suite for the Canton Network HTTP JSON interfaces (ledger, wallet, scan)')
    .version(pkg.version)
    .exitOverride();

  cli
    .command('run')
    .description('Run the conformance checks. Today: the spec-level checks of every loaded OpenAPI document.')
    .option('--spec <NAME=PATH>', 'replace or add an OpenAPI document (path or URL); repeatable', collect, [])
    .option('--report-dir <dir>', 'where to write the results', 'reports/latest')
    .action(async (opts: { spec: string[]; reportDir: string }) => {
      const specs = selectSpecs(opts.spec);
      const results = [];
      for (const [name, source] of specs) results.push(await checkSpec(name, source));
      console.log('Spec-level checks (target checks arrive with the reference node and the suites):');
      for (const r of results) {
        if (r.loadError) console.log(`  ${r.name.padEnd(8)} UNUSABLE  ${r.loadError}`);
        else console.log(`  ${r.name.padEnd(8)} OpenAPI ${r.openapi}  ${r.operations} operations  ${r.validators} validators  ${r.examplesChecked} examples  ${r.failures.length} failed  (${r.millis} ms)`);
        for (const f of r.failures) console.log(`    FAIL ${f}`);
      }
      const file = join(resolve(opts.reportDir), 'spec-check.json');
      try {
        await mkdir(resolve(opts.reportDir), { recursive: true });
        await writeFile(file, JSON.stringify({ tool: 'cn-conformance', version: pkg.version, results }, null, 2) + '\n');
      } catch (error) {
        throw new UsageError(`cannot write the report ${file}: ${(error as Error).message}`);
      }
      console.log(`Written ${file}`);
      if (results.some((r) => r.loadError)) process.exitCode = EXIT.usage;
      else if (results.some((r) => r.failures.length > 0)) process.exitCode = EXIT.failed;
    });

  cli
    .command('catalog')
    .description('List the operations of the loaded OpenAPI documents')
    .option('--spec <NAME=PATH>', 'replace or add an OpenAPI document (path or URL); repeatable', collect, [])
    .option('--json', 'print JSON instead of a table')
    .action(async (opts: { spec: string[]; json?: boolean }) => {
      const rows = [];
      for (const [name, source] of selectSpecs(opts.spec)) {
        const spec = await compileSpec(source, { name });
        for (const op of spec.catalog.operations) {
          const auth = op.security.length === 0 ? 'none' : op.security.map((s) => Object.keys(s).join('+') || 'optional').join(' | ');
          rows.push({ spec: name, id: op.id, method: op.method.toUpperCase(), path: op.fullPath, auth, deprecated: op.deprecated, statuses: op.responses.map((r) => r.status) });
        }
      }
      if (opts.json) console.log(JSON.stringify(rows, null, 2));
      else for (const r of rows) console.log(`${r.spec.padEnd(7)} ${r.method.padEnd(5)} ${r.path.padEnd(78)} ${r.id}${r.deprecated ? ' (deprecated)' : ''}  auth: ${r.auth}  statuses: ${r.statuses.join(',')}`);
    });

  return cli;
}

export async function main(argv: string[]): Promise<number> {
  try {
    await program().parseAsync(argv, { from: 'user' });
    return Number(process.exitCode ?? EXIT.ok);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    if (error instanceof UsageError || error instanceof SpecLoadError) {
      console.error(`cn-conformance: ${error.message}`);
      return EXIT.usage;
    }
    console.error('cn-conformance: internal error (this is a bug in the suite, not in the target):');
    console.error(error);
    return EXIT.crash;
  }
}

// Output piped into a pager or `head` that closes early is not an error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? EXIT.ok);
  throw e;
});
process.exitCode = await main(process.argv.slice(2));
