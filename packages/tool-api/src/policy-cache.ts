/**
 * A bounded map that evicts by recency, for the policy's per-identity plans and its compiled predicate sets.
 *
 * A hit on a full cache moves its entry to the young end only when the entry has aged past half the limit, so the
 * hot path is one `Map.get` and a comparison. Once full, any key used within the last `limit / 2` look-ups is
 * never evicted: a working set of that size never thrashes, however many other keys pass through, unlike a FIFO,
 * which evicts hot keys on schedule; below the limit nothing is evicted nor moved.
 */
export class RecencyCache<K, V> {
  private readonly entries = new Map<K, { value: V; stamp: number }>();
  private tick = 0;
  private readonly refreshAge: number;

  /** `limit` is the most entries kept (at least 1). */
  constructor(readonly limit: number) {
    this.limit = Math.max(1, Math.floor(limit));
    this.refreshAge = Math.max(1, this.limit >> 1);
  }

  /** How many entries are kept now. */
  get size(): number {
    return this.entries.size;
  }

  /** The value of `key`, or `undefined`; marks the entry as recently used. */
  get(key: K): V | undefined {
    const tick = ++this.tick;
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    // Only a full cache evicts: below the limit, moving entries would be wasted work.
    if (tick - entry.stamp >= this.refreshAge && this.entries.size >= this.limit) {
      this.entries.delete(key);
      entry.stamp = tick;
      this.entries.set(key, entry);
    }
    return entry.value;
  }

  /** Stores `value` for `key` as the most recent entry, evicting the least recently used one when full. */
  set(key: K, value: V): void {
    const entries = this.entries;
    if (entries.has(key)) entries.delete(key);
    else if (entries.size >= this.limit) entries.delete(entries.keys().next().value as K);
    entries.set(key, { value, stamp: ++this.tick });
  }
}
