// `cn-conformance verify-bundle FILE`: the bundle's members against its manifest. Exit 0 intact, 1 when a
// member was changed, added or removed, 2 when the file cannot be read as a bundle at all.
import { UnreadableBundle, verifyBundle } from '../reporting/bundle.ts';
import { UsageError } from '../runner/usage-error.ts';
import { EXIT, type ExitCode } from './exit-codes.ts';

export async function verifyBundleCommand(file: string): Promise<ExitCode> {
  let verdict: Awaited<ReturnType<typeof verifyBundle>>;
  try {
    verdict = await verifyBundle(file);
  } catch (e) {
    if (e instanceof UnreadableBundle) throw new UsageError(e.message);
    throw e;
  }
  const tool = verdict.manifest?.tool as { version?: string } | undefined;
  const made = tool?.version
    ? ` written by cn-conformance ${tool.version}${typeof verdict.manifest?.createdAt === 'string' ? ` at ${verdict.manifest.createdAt}` : ''}`
    : '';
  const manifest = verdict.manifestSha256 ? `; manifest.json sha256 ${verdict.manifestSha256}` : '';
  if (verdict.intact) {
    console.log(`intact: ${file}${made}: all ${verdict.matched} files match the manifest${manifest}`);
    return EXIT.ok;
  }
  console.log(`NOT INTACT: ${file}${made}: ${verdict.problems.length} problem${verdict.problems.length === 1 ? '' : 's'}${manifest}`);
  for (const p of verdict.problems) console.log(`  ${p}`);
  return EXIT.failed;
}
