/**
 * A bounded map that evicts by recency, for the policy's per-identity plans and its compiled predicate sets.
 *
 * A hit on a full cache moves its entry to the young end only when the entry has aged past half the limit, so the
 * hot path is one `Map.get` and a comparison (below the limit, where nothing moves, one `Map.get` and no stamp).
 * Once full, any key used within the last `limit / 2` look-ups is never evicted: a working set of that size never thrashes, however many other keys pass through, unlike a FIFO,
 * which evicts hot keys on schedule; below the limit nothing is evicted nor moved.
 */
export class RecencyCache<K, V> {
  /** The values, oldest first (a `Map` iterates in insertion order). */
  private readonly values = new Map<K, V>();
  /** When each key was last stored or moved, kept only once the cache is full (a hit below it reads one map). */
  private readonly stamps = new Map<K, number>();
  private tick = 0;
  private readonly refreshAge: number;

  /** `limit` is the most entries kept (at least 1). */
  constructor(readonly limit: number) {
    this.limit = Math.max(1, Math.floor(limit));
    this.refreshAge = Math.max(1, this.limit >> 1);
  }

  /** How many entries are kept now. */
  get size(): number {
    return this.values.size;
  }

  /** The value of `key`, or `undefined`; marks the entry as recently used. */
  get(key: K): V | undefined {
    const tick = ++this.tick;
    const values = this.values;
    const value = values.get(key);
    // Only a full cache evicts: below the limit, moving entries would be wasted work.
    if (value === undefined || values.size < this.limit) return value;
    const stamp = this.stamps.get(key);
    if (stamp === undefined || tick - stamp >= this.refreshAge) {
      values.delete(key);
      values.set(key, value);
      this.stamps.set(key, tick);
    }
    return value;
  }

  /** Stores `value` for `key` as the most recent entry, evicting the least recently used one when full. */
  set(key: K, value: V): void {
    const values = this.values;
    const tick = ++this.tick;
    if (values.has(key)) values.delete(key);
    else if (values.size >= this.limit) {
      const oldest = values.keys().next().value as K;
      values.delete(oldest);
      this.stamps.delete(oldest);
    }
    values.set(key, value);
    if (values.size >= this.limit) this.stamps.set(key, tick);
  }
}
