/** A stream's output as kept: a head and a tail, and the bytes dropped in between while streaming. */
export interface CapturedText {
  /** The start of the output (all of it when nothing was dropped). */
  readonly head: string;
  /** The end of the output (empty when nothing was dropped). */
  readonly tail: string;
  /** UTF-8 bytes dropped between `head` and `tail`. */
  readonly omitted: number;
}

/** Length of the first UTF-8 sequence starting with `lead`. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xf0) return 4;
  if (lead >= 0xe0) return 3;
  if (lead >= 0xc0) return 2;
  return 1;
}

/** The length of `bytes` without an incomplete UTF-8 sequence at its end. */
function completeEnd(bytes: Buffer): number {
  let start = bytes.length - 1;
  while (start > 0 && bytes.length - start < 4 && ((bytes[start] as number) & 0xc0) === 0x80) start--;
  if (start < 0) return 0;
  return start + sequenceLength(bytes[start] as number) > bytes.length ? start : bytes.length;
}

/** The offset of the first byte of `bytes` that does not continue a UTF-8 sequence (at most 3 skipped). */
function completeStart(bytes: Buffer): number {
  let start = 0;
  while (start < bytes.length && start < 3 && ((bytes[start] as number) & 0xc0) === 0x80) start++;
  return start;
}

/**
 * Keeps a bounded part of a byte stream while it flows: the first `limit / 2` bytes and a rolling window of the
 * last `limit / 2` bytes, counting everything in between as omitted.
 */
export class StreamCapture {
  private readonly headLimit: number;
  private readonly tailLimit: number;
  private readonly headChunks: Buffer[] = [];
  private headLength = 0;
  private tailChunks: Buffer[] = [];
  private tailLength = 0;
  private total = 0;

  constructor(limit: number) {
    this.headLimit = Math.floor(limit / 2);
    this.tailLimit = limit - this.headLimit;
  }

  /** Adds one chunk. */
  push(chunk: Buffer): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.headLength < this.headLimit) {
      const take = Math.min(this.headLimit - this.headLength, rest.length);
      this.headChunks.push(rest.subarray(0, take));
      this.headLength += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0) return;
    this.tailChunks.push(rest);
    this.tailLength += rest.length;
    while (
      this.tailChunks.length > 1 &&
      this.tailLength - (this.tailChunks[0] as Buffer).length >= this.tailLimit
    ) {
      this.tailLength -= (this.tailChunks.shift() as Buffer).length;
    }
  }

  /** Bytes seen in total. */
  get observed(): number {
    return this.total;
  }

  /** The kept output, decoded as UTF-8 (invalid bytes become U+FFFD). */
  text(): CapturedText {
    const head = Buffer.concat(this.headChunks);
    let tail = Buffer.concat(this.tailChunks);
    if (tail.length > this.tailLimit) tail = tail.subarray(tail.length - this.tailLimit);
    const kept = head.length + tail.length;
    if (kept === this.total)
      return { head: Buffer.concat([head, tail]).toString("utf8"), tail: "", omitted: 0 };
    const headEnd = completeEnd(head);
    const tailStart = completeStart(tail);
    return {
      head: head.subarray(0, headEnd).toString("utf8"),
      tail: tail.subarray(tailStart).toString("utf8"),
      omitted: this.total - headEnd - (tail.length - tailStart),
    };
  }
}
