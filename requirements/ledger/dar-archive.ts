// Builds a DAR from packages a node serves, so that the upload and validation checks send a DAR the node must
// accept without the suite carrying one: each package's bytes (what GET /v2/packages/{id} answers: the archive
// payload) wrapped in a Daml-LF `Archive` message (a .dalf), zipped with META-INF/MANIFEST.MF naming them. A DAR
// of packages the participant already has changes nothing it knows.
import { crc32 } from 'node:zlib';

export interface DarPackage {
  /** The package id (the archive's hash). */
  id: string;
  /** Its bytes, as the node serves them. */
  payload: Buffer;
}

/** The dalf of a package: the `Archive` message with hash_function SHA256 (0, the default, left out), payload (3) and hash (4). */
export function dalf(p: DarPackage): Buffer {
  return Buffer.concat([field(3, p.payload), field(4, Buffer.from(p.id, 'utf8'))]);
}

/** A DAR of the packages, the first the main one; `name` names the archive's folder and the manifest's Name. */
export function buildDar(packages: readonly DarPackage[], name = 'cn-conformance-check'): Buffer {
  if (packages.length === 0) throw new Error('a DAR needs at least one package');
  const paths = packages.map((p, i) => `${name}-${packages[0]!.id}/${i === 0 ? name : `dependency-${i}`}-${p.id}.dalf`);
  const manifest = [
    'Manifest-Version: 1.0',
    'Created-By: cn-conformance',
    `Name: ${name}`,
    `Main-Dalf: ${paths[0]}`,
    `Dalfs: ${paths.join(', ')}`,
    'Format: daml-lf',
    'Encryption: non-encrypted',
  ]
    .map(wrapManifestLine)
    .join('');
  return zip([{ name: 'META-INF/MANIFEST.MF', data: Buffer.from(`${manifest}\r\n`, 'utf8') }, ...packages.map((p, i) => ({ name: paths[i]!, data: dalf(p) }))]);
}

/** A length-delimited protobuf field. */
function field(number: number, value: Buffer): Buffer {
  return Buffer.concat([varint(number * 8 + 2), varint(value.length), value]);
}

function varint(n: number): Buffer {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
  return Buffer.from(out);
}

/** A manifest line, wrapped as JAR manifests are: at most 72 bytes a line, continuations starting with a space. */
function wrapManifestLine(line: string): string {
  const parts: string[] = [];
  let rest = line;
  while (Buffer.byteLength(rest) > 72) {
    const cut = parts.length === 0 ? 72 : 71;
    parts.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  parts.push(rest);
  return parts.map((p, i) => (i === 0 ? p : ` ${p}`)).join('\r\n') + '\r\n';
}

/** A zip archive of stored (uncompressed) entries, each with its CRC-32. */
export function zip(entries: ReadonlyArray<{ name: string; data: Buffer }>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const crc = crc32(e.data);
    // version 2.0, flags 0x0800 (UTF-8 names), method 0 (stored), time and date 0 (1980-01-01: deterministic bytes).
    const common = (b: Buffer, at: number) => {
      b.writeUInt16LE(20, at);
      b.writeUInt16LE(0x0800, at + 2);
      b.writeUInt16LE(0, at + 4);
      b.writeUInt16LE(0, at + 6);
      b.writeUInt16LE(0x21, at + 8);
      b.writeUInt32LE(crc, at + 10);
      b.writeUInt32LE(e.data.length, at + 14);
      b.writeUInt32LE(e.data.length, at + 18);
      b.writeUInt16LE(name.length, at + 22);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    common(local, 4);
    locals.push(local, name, e.data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by
    common(central, 6);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + e.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
