// Seeded randomness: the same seed gives the same network, byte for byte.

export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }
  /** mulberry32 */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)]!;
  }
  hex(bytes: number): string {
    let out = '';
    for (let i = 0; i < bytes; i++)
      out += Math.floor(this.next() * 256)
        .toString(16)
        .padStart(2, '0');
    return out;
  }
}

/** A stable hex string derived from a seed and a label, independent of call order (for lazy data). */
export function derivedHex(seed: number, label: string, bytes: number): string {
  let h = (seed ^ 0x811c9dc5) >>> 0;
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 16777619) >>> 0;
  return new Rng(h).hex(bytes);
}
