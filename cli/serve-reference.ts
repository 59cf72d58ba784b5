// `cn-conformance serve-reference`: the embedded reference node as a standalone server (and the integer option reader other commands share).
import { FAULT_CATALOG, startReferenceNode, type RunningReferenceNode } from '../reference-node/index.ts';
import { BLIND_FAULTS, DEVIATION_CATALOG, DIVERGENCE_CATALOG, UnknownFaultError } from '../reference-node/faults.ts';
import { writeFile } from 'node:fs/promises';
import { referenceFixtures } from '../reference-node/fixtures.ts';
import { ReleaseOptionError } from '../reference-node/releases.ts';
import { UsageError } from '../runner/usage-error.ts';
import { CREDENTIAL_VARIABLES } from '../engine/target.ts';

export interface ServeOptions {
  port: string;
  seed: string;
  scale: string;
  listLimit?: string;
  offsetShift?: string;
  fault: string[];
  listFaults?: boolean;
  /** Write the node's fixture file ({"fixtures": {...}}, as `run --config` reads it) here. */
  fixturesOut?: string;
  /** The Splice release the scan plays (x.y.z). */
  scanRelease?: string;
  /** The ledger's release line (3.4 or 3.5). */
  ledgerRelease?: string;
}

/** A release option of the node as a usage error naming the setting it came from (default: this command's flag). */
export function releaseUsageError(error: ReleaseOptionError, setting = `--${error.option}-release`): UsageError {
  return new UsageError(`${setting} must be ${error.form}, got "${error.value}"`);
}

/** What a node plays, for banners: "scan 0.7.5, ledger 3.5". */
export function playedReleases(node: RunningReferenceNode): string {
  const { scan, scanStated, ledger } = node.context.release;
  return `scan ${scan}${scanStated === scan ? '' : ` (stating ${scanStated})`}, ledger ${ledger}`;
}

export function integer(name: string, text: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(text);
  if (!/^\s*\d+\s*$/.test(text) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`${name} must be an integer ${max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`}, got "${text}"`);
  }
  return n;
}

/** The faults, then the real-world deviations, the divergences and the blind faults (switched with --fault too), one per line. */
export function listFaults(): string {
  const width = Math.max(...[...FAULT_CATALOG, ...DEVIATION_CATALOG, ...DIVERGENCE_CATALOG, ...BLIND_FAULTS].map((f) => f.name.length));
  return [
    ...FAULT_CATALOG.map((f) => `${f.name.padEnd(width)}  [${f.interface}/${f.family}] ${f.breaks}`),
    ...DEVIATION_CATALOG.map((d) => `${d.name.padEnd(width)}  [${d.interface}/${d.family}] (real-world deviation, no rule broken) ${d.behaviour}`),
    ...DIVERGENCE_CATALOG.map((d) => `${d.name.padEnd(width)}  [${d.interface}/${d.family}] (only a comparison with another node shows it) ${d.breaks}`),
    ...BLIND_FAULTS.map((b) => `${b.name.padEnd(width)}  [${b.interface}/blind round ${b.round}] ${b.breaks}`),
  ].join('\n');
}

/** A `run` command line for this node, ready to paste: tokens as environment variables, never as flags. */
export function runLine(node: RunningReferenceNode, fixturesFile?: string): string {
  const env = `${CREDENTIAL_VARIABLES.ledger.bearer}=${node.credentials.ledgerAdminToken} ${CREDENTIAL_VARIABLES.wallet.bearer}=${node.credentials.walletUsers[0]!.token}`;
  const urls = `--ledger-url ${node.urls.ledger} --wallet-url ${node.urls.validator} --scan-url ${node.urls.scan}`;
  return `${env} npm run conformance -- ${urls} --allow-mutations${fixturesFile ? ` --config ${fixturesFile}` : ''}`;
}

export async function serveReference(opts: ServeOptions): Promise<void> {
  if (opts.listFaults) {
    console.log(listFaults());
    return;
  }
  const scale = Number(opts.scale);
  if (!(scale >= 0) || !Number.isFinite(scale)) throw new UsageError(`--scale must be a number >= 0, got "${opts.scale}"`);
  let node: RunningReferenceNode;
  try {
    node = await startReferenceNode({
      port: integer('--port', opts.port, 0, 65_535),
      seed: integer('--seed', opts.seed, 0),
      scale,
      listLimit: opts.listLimit === undefined ? undefined : integer('--list-limit', opts.listLimit, 1),
      offsetShift: integer('--offset-shift', opts.offsetShift ?? '0', 0, 2 ** 40),
      faults: opts.fault,
      releases: { scan: opts.scanRelease, ledger: opts.ledgerRelease },
    });
  } catch (error) {
    if (error instanceof UnknownFaultError) throw new UsageError(error.message);
    if (error instanceof ReleaseOptionError) throw releaseUsageError(error);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`port ${opts.port} is already in use`);
    if (code === 'EACCES') throw new UsageError(`port ${opts.port} needs privileges this process does not have; use a port above 1023 or 0`);
    throw error;
  }
  const { urls, credentials, context } = node;
  console.log(
    `cn-conformance reference node (seed ${context.settings.seed}, scale ${context.settings.scale}, ${context.world.count} updates, ${context.world.holdingCount} holdings, list limit ${context.settings.listLimit}${context.settings.offsetShift ? `, offsets shifted by ${context.settings.offsetShift}` : ''})`,
  );
  console.log(`  ledger     ${urls.ledger}`);
  console.log(`  validator  ${urls.validator}`);
  console.log(`  scan       ${urls.scan}`);
  console.log(`releases: ${playedReleases(node)}`);
  console.log(`faults: ${context.faults.names.length ? context.faults.names.join(', ') : 'none'}`);
  console.log('test credentials (valid for 24 h):');
  console.log(`  ledger admin (reads as every party)  Authorization: Bearer ${credentials.ledgerAdminToken}`);
  console.log(
    `  ledger user ${credentials.ledgerUserToken.user} (reads as ${credentials.ledgerUserToken.readAs.join(', ')})  Authorization: Bearer ${credentials.ledgerUserToken.token}`,
  );
  for (const w of credentials.walletUsers) console.log(`  wallet user ${w.user} (party ${w.party}; a ledger user too)  Authorization: Bearer ${w.token}`);
  if (opts.fixturesOut) {
    try {
      await writeFile(opts.fixturesOut, `${JSON.stringify({ fixtures: referenceFixtures(node) }, null, 2)}\n`);
    } catch (error) {
      await node.close();
      throw new UsageError(`cannot write --fixtures-out ${opts.fixturesOut}: ${(error as Error).message}`);
    }
    console.log(`fixture file written to ${opts.fixturesOut} (it holds the limited user's token)`);
  }
  console.log('Run the suite against it (zero configuration: the fixtures are discovered; the tokens come from the environment):');
  console.log(`  ${runLine(node)}`);
  if (opts.fixturesOut) console.log(`or with the fixture file (nothing to discover):\n  ${runLine(node, opts.fixturesOut)}`);
  console.log('Press Ctrl+C to stop.');
  await new Promise<void>((resolve) => {
    const stop = () => void node.close().then(resolve);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
