// The ustar archive format (POSIX.1-1988), as far as a bundle of regular files needs it: 512-byte headers
// with an octal size and a checksum, each file's bytes padded to a whole block, two zero blocks at the end.
// Written and read as streams, so a large member (a long run's HAR file) never has to be one buffer.

const BLOCK = 512;
/** The largest size an 11-digit octal field holds (8 GiB - 1). */
const MAX_SIZE = 0o77777777777;

/** The archive is not a ustar archive this reader understands, or is cut short. */
export class TarFormatError extends Error {}

/** A header block failed its checksum: the archive was changed or damaged after it was written. */
export class TarChecksumError extends Error {}

export interface TarMember {
  /** Path inside the archive, with forward slashes. */
  name: string;
  size: number;
  /** The member's bytes, exactly `size` of them in all. */
  chunks(): AsyncIterable<Buffer> | Iterable<Buffer>;
}

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

/** The name split as ustar stores it: the last at most 100 bytes in `name`, the directories before in `prefix`. */
function splitName(name: string): { name: string; prefix: string } {
  if (Buffer.byteLength(name) <= 100) return { name, prefix: '' };
  for (let i = name.indexOf('/'); i >= 0; i = name.indexOf('/', i + 1)) {
    const prefix = name.slice(0, i);
    const rest = name.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(rest) <= 100 && rest.length > 0) return { name: rest, prefix };
  }
  throw new TarFormatError(`the member name ${name} is too long for a ustar header`);
}

/** The header block of a regular file. */
export function tarHeader(member: { name: string; size: number }, mtime: Date): Buffer {
  if (!Number.isSafeInteger(member.size) || member.size < 0 || member.size > MAX_SIZE)
    throw new TarFormatError(`the member ${member.name} is too large for ustar`);
  const { name, prefix } = splitName(member.name);
  const header = Buffer.alloc(BLOCK);
  header.write(name, 0, 100, 'utf8');
  header.write(octal(0o644, 8), 100, 'ascii');
  header.write(octal(0, 8), 108, 'ascii');
  header.write(octal(0, 8), 116, 'ascii');
  header.write(octal(member.size, 12), 124, 'ascii');
  header.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136, 'ascii');
  header.write('        ', 148, 'ascii');
  header.write('0', 156, 'ascii');
  header.write('ustar\0', 257, 'ascii');
  header.write('00', 263, 'ascii');
  header.write(prefix, 345, 155, 'utf8');
  header.write(`${octal(checksum(header), 7)} `, 148, 'ascii');
  return header;
}

/** The sum of the header's bytes, its checksum field counted as spaces. */
function checksum(header: Buffer): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i]!;
  return sum;
}

/** The archive of `members`, block by block (pipe it through gzip for a .tar.gz). */
export async function* tarStream(members: readonly TarMember[], mtime = new Date()): AsyncGenerator<Buffer> {
  for (const m of members) {
    yield tarHeader(m, mtime);
    let written = 0;
    for await (const chunk of m.chunks()) {
      written += chunk.length;
      if (written > m.size) throw new TarFormatError(`the member ${m.name} grew while it was archived`);
      yield chunk;
    }
    if (written !== m.size) throw new TarFormatError(`the member ${m.name} has ${written} bytes, not the ${m.size} its header says`);
    if (m.size % BLOCK) yield Buffer.alloc(BLOCK - (m.size % BLOCK));
  }
  yield Buffer.alloc(2 * BLOCK);
}

const field = (header: Buffer, at: number, width: number) =>
  header
    .subarray(at, at + width)
    .toString('utf8')
    .replace(/\0.*$/s, '');

/** A member as the reader meets it: its name and size, then its bytes through `data`, then `end`. */
export interface TarVisitor {
  member(header: { name: string; size: number; type: string }): { data(chunk: Buffer): void; end(): void };
}

/** Reads a ustar archive from its bytes in order, telling `visitor` of each member. */
export async function readTar(source: AsyncIterable<Buffer> | Iterable<Buffer>, visitor: TarVisitor): Promise<void> {
  let pending: Buffer = Buffer.alloc(0);
  /** The member being read: how many of its bytes are still to come, then how many padding bytes. */
  let current: { sink: ReturnType<TarVisitor['member']>; left: number; padding: number } | undefined;
  let ended = false;
  for await (const chunk of source) {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    while (!ended) {
      if (current) {
        if (current.left > 0) {
          if (pending.length === 0) break;
          const take = Math.min(current.left, pending.length);
          current.sink.data(pending.subarray(0, take));
          pending = pending.subarray(take);
          current.left -= take;
          continue;
        }
        if (pending.length < current.padding) break;
        pending = pending.subarray(current.padding);
        current.sink.end();
        current = undefined;
        continue;
      }
      if (pending.length < BLOCK) break;
      const header = pending.subarray(0, BLOCK);
      pending = pending.subarray(BLOCK);
      if (header.every((b) => b === 0)) {
        ended = true;
        break;
      }
      if (field(header, 257, 5) !== 'ustar') throw new TarFormatError('not a ustar archive (no ustar magic in a header)');
      const stated = Number.parseInt(field(header, 148, 8).trim() || 'x', 8);
      const name = [field(header, 345, 155), field(header, 0, 100)].filter(Boolean).join('/');
      if (stated !== checksum(header)) throw new TarChecksumError(`the header of ${name || 'a member'} fails its checksum`);
      const size = Number.parseInt(field(header, 124, 12).trim() || '0', 8);
      if (!Number.isSafeInteger(size) || size < 0) throw new TarFormatError(`the header of ${name} has no size`);
      const type = field(header, 156, 1) || '0';
      current = { sink: visitor.member({ name, size, type }), left: size, padding: size % BLOCK ? BLOCK - (size % BLOCK) : 0 };
    }
  }
  if (!ended) throw new TarFormatError('the archive ends before its end blocks (cut short)');
}
