// A certification bundle: one .tar.gz with the run's report files, its HAR file, the documents it judged
// against and a manifest (manifest.json) that gives the sha256 of every other member, the tool's version,
// the command line (secrets masked) and what the node said of its own version. `verifyBundle` recomputes
// the checksums: a member changed, added or taken away after the run shows. The manifest is not signed: its
// own sha256 is printed when the bundle is written, for whoever keeps the bundle to note elsewhere.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { readTar, TarChecksumError, TarFormatError, tarStream, type TarMember } from '../common/tar.ts';

export const MANIFEST = 'manifest.json';
export const BUNDLE_FORMAT = 'cn-conformance-bundle/1';

/** A member to pack: a file on disk, or bytes made for the bundle. */
export type BundleSource = { name: string; path: string } | { name: string; data: Buffer };

export interface ManifestFile {
  name: string;
  bytes: number;
  sha256: string;
}

/** What the manifest says besides the checksums (the caller's: tool, command line, node versions...). */
export type ManifestFields = Record<string, unknown>;

export interface Manifest extends ManifestFields {
  format: string;
  files: ManifestFile[];
}

/** sha256 and size of a member, read once. */
async function digest(source: BundleSource): Promise<ManifestFile> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of chunksOf(source)) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { name: source.name, bytes, sha256: hash.digest('hex') };
}

const chunksOf = (source: BundleSource): AsyncIterable<Buffer> | Iterable<Buffer> => ('data' in source ? [source.data] : createReadStream(source.path));

/**
 * Writes the bundle to `path` (through a file beside it, renamed when complete: a failed write leaves no
 * half bundle). `scrub` passes over the manifest's text. Returns the manifest and its sha256.
 */
export async function writeBundle(
  path: string,
  sources: readonly BundleSource[],
  fields: ManifestFields,
  scrub: (text: string) => string = (t) => t,
): Promise<{ manifest: Manifest; manifestSha256: string }> {
  const names = new Set<string>();
  for (const s of sources) {
    if (s.name === MANIFEST || names.has(s.name)) throw new Error(`the bundle would hold ${s.name} twice`);
    names.add(s.name);
  }
  const files: ManifestFile[] = [];
  for (const s of sources) files.push(await digest(s));
  const manifest: Manifest = { format: BUNDLE_FORMAT, ...fields, files };
  const manifestBytes = Buffer.from(`${scrub(JSON.stringify(manifest, null, 2))}\n`);
  const members: TarMember[] = [
    ...sources.map((s, i) => ({ name: s.name, size: files[i]!.bytes, chunks: () => chunksOf(s) })),
    { name: MANIFEST, size: manifestBytes.length, chunks: () => [manifestBytes] },
  ];
  const partial = `${path}.partial`;
  try {
    await pipeline(Readable.from(tarStream(members)), createGzip(), createWriteStream(partial));
    await rename(partial, path);
  } catch (e) {
    await rm(partial, { force: true });
    throw e;
  }
  return { manifest, manifestSha256: createHash('sha256').update(manifestBytes).digest('hex') };
}

/** The file is no bundle that can be read (not gzip, not ustar, cut short, no manifest): nothing can be said of its members. */
export class UnreadableBundle extends Error {}

export interface BundleVerdict {
  intact: boolean;
  /** One line per member that does not match the manifest (empty when intact). */
  problems: string[];
  /** Members the manifest covers that match it. */
  matched: number;
  manifestSha256: string;
  manifest?: Manifest;
}

/** Reads the bundle and checks every member against the manifest; throws UnreadableBundle when it cannot be read at all. */
export async function verifyBundle(path: string): Promise<BundleVerdict> {
  try {
    if (!(await stat(path)).isFile()) throw new UnreadableBundle(`${path} is not a file`);
  } catch (e) {
    if (e instanceof UnreadableBundle) throw e;
    throw new UnreadableBundle(`cannot read ${path}: ${(e as Error).message}`);
  }
  const members = new Map<string, ManifestFile>();
  const problems: string[] = [];
  let manifestBytes: Buffer | undefined;
  try {
    await readTar(createReadStream(path).pipe(createGunzip()), {
      member({ name, size, type }) {
        if (type !== '0') problems.push(`${name}: not a regular file (type ${type}); a bundle holds only files`);
        if (members.has(name)) problems.push(`${name}: in the bundle more than once`);
        const hash = createHash('sha256');
        const keep: Buffer[] = [];
        return {
          data(chunk) {
            hash.update(chunk);
            if (name === MANIFEST) keep.push(Buffer.from(chunk));
          },
          end() {
            members.set(name, { name, bytes: size, sha256: hash.digest('hex') });
            if (name === MANIFEST) manifestBytes = Buffer.concat(keep);
          },
        };
      },
    });
  } catch (e) {
    // A header that fails its checksum was readable, only changed: a verdict, not an unreadable file.
    if (e instanceof TarChecksumError)
      return { intact: false, problems: [`${e.message}: the archive was changed after it was written`], matched: 0, manifestSha256: '' };
    if (e instanceof TarFormatError) throw new UnreadableBundle(`${path} is not a bundle: ${e.message}`);
    throw new UnreadableBundle(`${path} is not a bundle: cannot decompress it (${(e as Error).message})`);
  }
  if (!manifestBytes) throw new UnreadableBundle(`${path} is not a bundle: it has no ${MANIFEST}`);
  const manifestSha256 = createHash('sha256').update(manifestBytes).digest('hex');
  const manifest = parseManifest(manifestBytes);
  if (!manifest)
    return {
      intact: false,
      problems: [`${MANIFEST}: not a manifest of this tool (no list of files with sha256), so nothing can be checked`],
      matched: 0,
      manifestSha256,
    };
  let matched = 0;
  const listed = new Set<string>();
  for (const f of manifest.files) {
    listed.add(f.name);
    const found = members.get(f.name);
    if (!found) problems.push(`${f.name}: listed in the manifest but not in the bundle`);
    else if (found.sha256 !== f.sha256) problems.push(`${f.name}: sha256 ${found.sha256}, the manifest says ${f.sha256}`);
    else if (found.bytes !== f.bytes) problems.push(`${f.name}: ${found.bytes} bytes, the manifest says ${f.bytes}`);
    else matched++;
  }
  for (const name of members.keys()) if (name !== MANIFEST && !listed.has(name)) problems.push(`${name}: in the bundle but not in the manifest`);
  return { intact: problems.length === 0, problems, matched, manifestSha256, manifest };
}

function parseManifest(bytes: Buffer): Manifest | undefined {
  try {
    const m = JSON.parse(bytes.toString('utf8')) as Partial<Manifest>;
    const fileOk = (f: unknown) => {
      const x = f as Partial<ManifestFile> | null;
      return typeof x?.name === 'string' && typeof x.sha256 === 'string' && typeof x.bytes === 'number';
    };
    return m && Array.isArray(m.files) && m.files.every(fileOk) ? (m as Manifest) : undefined;
  } catch {
    return undefined;
  }
}
