// Values made from a key once and then looked up, up to a bound (past it, making starts afresh): for what the
// world derives from its seed on demand and every read asks for again. The values are read, never changed.
export class MadeOnce<K, V> {
  private readonly made = new Map<K, V>();

  constructor(
    private readonly most: number,
    private readonly make: (key: K) => V,
  ) {}

  get(key: K): V {
    let value = this.made.get(key);
    if (value === undefined) {
      if (this.made.size >= this.most) this.made.clear();
      this.made.set(key, (value = this.make(key)));
    }
    return value;
  }
}
