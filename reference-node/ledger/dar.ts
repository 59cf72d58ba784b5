// Reads a DAR as a participant does before it takes its packages: a zip archive (stored or deflated entries)
// holding META-INF/MANIFEST.MF, which names the main dalf and every dalf (`Main-Dalf`, `Dalfs`, `Format:
// daml-lf`), and the dalfs themselves, each a Daml-LF `Archive` protobuf message around one package (its
// payload and hash, the package id). Anything else is a DarError, which the routes answer 400 INVALID_DAR.
import { createHash } from 'node:crypto';
import { crc32, inflateRawSync } from 'node:zlib';

export class DarError extends Error {}

export interface Dalf {
  /** The entry's path in the zip. */
  path: string;
  /** The package id the archive states (its `hash` field). */
  hash: string;
  /** The package's bytes (the archive's `payload` field): what GET /v2/packages/{id} answers. */
  payload: Buffer;
}

export interface Dar {
  /** The manifest's attributes (continuation lines joined). */
  manifest: Map<string, string>;
  /** The main package first, then the other dalfs the manifest lists. */
  dalfs: Dalf[];
}

const MANIFEST = 'META-INF/MANIFEST.MF';
const PACKAGE_ID = /^[0-9a-f]{64}$/;
/** Bounds of what one upload may unpack (a DAR of a few packages is a few MB). */
const MAX_ENTRIES = 1000;
const MAX_UNPACKED_BYTES = 64 * 1024 * 1024;

export function readDar(bytes: Buffer): Dar {
  const entries = readZip(bytes);
  const manifestBytes = entries.get(MANIFEST);
  if (!manifestBytes) throw new DarError(`the archive has no ${MANIFEST}`);
  const manifest = readManifest(manifestBytes.toString('utf8'));
  const format = manifest.get('Format');
  if (format !== undefined && format !== 'daml-lf') throw new DarError(`the manifest's Format is ${JSON.stringify(format)}, not daml-lf`);
  const main = manifest.get('Main-Dalf');
  if (!main) throw new DarError('the manifest names no Main-Dalf');
  const listed = (manifest.get('Dalfs') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (listed.length > 0 && !listed.includes(main)) throw new DarError(`the manifest's Dalfs do not list its Main-Dalf ${main}`);
  const dalfs: Dalf[] = [];
  for (const path of [main, ...listed.filter((p) => p !== main)]) {
    const entry = entries.get(path);
    if (!entry) throw new DarError(`the manifest names ${path}, which the archive does not hold`);
    dalfs.push({ path, ...readArchive(entry, path) });
  }
  return { manifest, dalfs };
}

/** The package id of a payload, as Daml-LF defines it: the SHA-256 of the payload, in lowercase hex. */
export const payloadHash = (payload: Buffer) => createHash('sha256').update(payload).digest('hex');

// ---------------------------------------------------------------------------------------------------
// Zip
// ---------------------------------------------------------------------------------------------------

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** Every file entry of a zip archive by name, its data unpacked and checked against its CRC-32. */
function readZip(bytes: Buffer): Map<string, Buffer> {
  const eocd = findEndOfCentralDirectory(bytes);
  const count = bytes.readUInt16LE(eocd + 10);
  const size = bytes.readUInt32LE(eocd + 12);
  let at = bytes.readUInt32LE(eocd + 16);
  if (count > MAX_ENTRIES) throw new DarError(`the archive has ${count} entries, more than ${MAX_ENTRIES}`);
  if (at + size > eocd) throw new DarError('the zip central directory lies outside the archive');
  const out = new Map<string, Buffer>();
  let unpacked = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== CENTRAL) throw new DarError(`zip central directory entry ${i} is malformed`);
    const method = bytes.readUInt16LE(at + 10);
    const crc = bytes.readUInt32LE(at + 16);
    const compressed = bytes.readUInt32LE(at + 20);
    const length = bytes.readUInt32LE(at + 24);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const local = bytes.readUInt32LE(at + 42);
    const name = bytes.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/')) continue; // a folder
    if (local + 30 > bytes.length || bytes.readUInt32LE(local) !== LOCAL) throw new DarError(`the zip entry ${name} has no local header`);
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    if (start + compressed > bytes.length) throw new DarError(`the zip entry ${name} runs past the end of the archive`);
    unpacked += length;
    if (unpacked > MAX_UNPACKED_BYTES) throw new DarError(`the archive unpacks to more than ${MAX_UNPACKED_BYTES} bytes`);
    const raw = bytes.subarray(start, start + compressed);
    let data: Buffer;
    if (method === 0) data = raw;
    else if (method === 8) {
      try {
        data = inflateRawSync(raw, { maxOutputLength: Math.max(length, 1) });
      } catch (e) {
        throw new DarError(`the zip entry ${name} does not inflate: ${(e as Error).message}`);
      }
    } else throw new DarError(`the zip entry ${name} uses compression method ${method} (only stored and deflated entries are read)`);
    if (data.length !== length || crc32(data) !== crc) throw new DarError(`the zip entry ${name} fails its size or CRC-32 check`);
    out.set(name, data);
  }
  return out;
}

function findEndOfCentralDirectory(bytes: Buffer): number {
  // The record is 22 bytes plus a comment of at most 65535.
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) if (bytes.readUInt32LE(at) === EOCD) return at;
  throw new DarError('the bytes are not a zip archive (no end of central directory record)');
}

// ---------------------------------------------------------------------------------------------------
// Manifest and archives
// ---------------------------------------------------------------------------------------------------

/** A JAR manifest's main attributes: `Name: value` lines, a line starting with a space continuing the one before. */
function readManifest(text: string): Map<string, string> {
  const lines: string[] = [];
  for (const line of text.split(/\r\n|\n|\r/)) {
    if (line.startsWith(' ') && lines.length > 0) lines[lines.length - 1] += line.slice(1);
    else if (line === '')
      break; // the end of the main section
    else lines.push(line);
  }
  const out = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(': ');
    if (colon <= 0) throw new DarError(`the manifest line ${JSON.stringify(line.slice(0, 80))} is no attribute`);
    out.set(line.slice(0, colon), line.slice(colon + 2));
  }
  return out;
}

/** The fields of a Daml-LF `Archive` message: hash_function (1, SHA256 = 0), payload (3), hash (4). */
function readArchive(bytes: Buffer, path: string): { hash: string; payload: Buffer } {
  let hash: string | undefined;
  let payload: Buffer | undefined;
  let at = 0;
  const varint = (): number => {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (at >= bytes.length) throw new DarError(`${path} is no Daml-LF archive (truncated)`);
      const b = bytes[at++]!;
      value += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return value;
    }
    throw new DarError(`${path} is no Daml-LF archive (a varint runs too long)`);
  };
  while (at < bytes.length) {
    const key = varint();
    const field = Math.floor(key / 8);
    const wire = key % 8;
    if (wire === 0) {
      const v = varint();
      if (field === 1 && v !== 0) throw new DarError(`${path} names hash function ${v}; only SHA256 (0) is known`);
    } else if (wire === 2) {
      const length = varint();
      if (at + length > bytes.length) throw new DarError(`${path} is no Daml-LF archive (a field runs past its end)`);
      const value = bytes.subarray(at, at + length);
      at += length;
      if (field === 3) payload = value;
      if (field === 4) hash = value.toString('utf8');
    } else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else throw new DarError(`${path} is no Daml-LF archive (wire type ${wire})`);
  }
  if (!payload || payload.length === 0) throw new DarError(`${path} carries no package payload`);
  if (!hash || !PACKAGE_ID.test(hash)) throw new DarError(`${path} states no package id (a 64-digit lowercase hex hash)`);
  return { hash, payload };
}
