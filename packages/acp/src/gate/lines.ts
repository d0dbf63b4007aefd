import { MAX_ACP_LINE_BYTES, OVERSIZED_LINE_PREFIX_BYTES } from "./limits.js";

/** What a line reader reports. */
export interface LineHandlers {
  /** One complete line (without its LF or a trailing CR). */
  line(text: string): void;
  /** A line longer than the limit: its first bytes and its full length (the rest was dropped as it arrived). */
  oversized(prefix: string, bytes: number): void;
  /** The input ended. */
  end(): void;
}

/** A reader of newline-delimited JSON from a stream, bounded per line, which a writer can pause (backpressure). */
export interface LineReader {
  pause(): void;
  resume(): void;
}

/**
 * Reads LF-delimited lines from `input`. At most `maxLineBytes` of one line are buffered: past that the line is
 * reported once as `oversized` (its first `OVERSIZED_LINE_PREFIX_BYTES`) and the rest of it is dropped unread.
 */
export function readLines(
  input: NodeJS.ReadableStream,
  handlers: LineHandlers,
  maxLineBytes = MAX_ACP_LINE_BYTES,
): LineReader {
  let parts: Buffer[] = [];
  let size = 0;
  let dropping: { prefix: string; bytes: number } | undefined;
  const take = (chunk: Buffer): void => {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(10, start);
      const end = newline === -1 ? chunk.length : newline;
      const piece = chunk.subarray(start, end);
      if (dropping) dropping.bytes += piece.length;
      else if (size + piece.length > maxLineBytes) {
        const head = Buffer.concat([...parts, piece.subarray(0, OVERSIZED_LINE_PREFIX_BYTES)]);
        dropping = {
          prefix: head.subarray(0, OVERSIZED_LINE_PREFIX_BYTES).toString("utf8"),
          bytes: size + piece.length,
        };
        parts = [];
        size = 0;
      } else if (piece.length > 0) {
        parts.push(Buffer.from(piece));
        size += piece.length;
      }
      if (newline === -1) break;
      if (dropping) {
        const done = dropping;
        dropping = undefined;
        handlers.oversized(done.prefix, done.bytes);
      } else {
        let text = Buffer.concat(parts, size).toString("utf8");
        parts = [];
        size = 0;
        if (text.endsWith("\r")) text = text.slice(0, -1);
        if (text.trim() !== "") handlers.line(text);
      }
      start = newline + 1;
    }
  };
  input.on("data", (chunk: Buffer | string) => take(typeof chunk === "string" ? Buffer.from(chunk) : chunk));
  input.on("end", () => handlers.end());
  input.on("error", () => handlers.end());
  let pauses = 0;
  return {
    pause() {
      if (pauses++ === 0) input.pause();
    },
    resume() {
      if (pauses > 0 && --pauses === 0) input.resume();
    },
  };
}

/**
 * Writes `text` and a LF to `output`; when the output's buffer is full, `from` is paused until it drains, so the gate
 * never reads faster than it can write.
 */
export function writeLine(output: NodeJS.WritableStream, text: string, from?: LineReader): void {
  if (output.write(`${text}\n`) || from === undefined) return;
  let waiting = blocked.get(output);
  if (waiting === undefined) {
    const readers = new Set<LineReader>();
    waiting = readers;
    blocked.set(output, readers);
    output.once("drain", () => {
      blocked.delete(output);
      for (const reader of readers) reader.resume();
    });
  }
  if (!waiting.has(from)) {
    waiting.add(from);
    from.pause();
  }
}

const blocked = new WeakMap<NodeJS.WritableStream, Set<LineReader>>();

/** The `id` and `method` of an oversized JSON-RPC line, read from its first bytes (`undefined` when not found there). */
export function headerOf(prefix: string): { id?: string | number; method?: string } {
  const out: { id?: string | number; method?: string } = {};
  const id = /"id"\s*:\s*("(?:[^"\\]|\\.){0,200}"|-?\d{1,16})/.exec(prefix);
  if (id?.[1] !== undefined) {
    try {
      out.id = JSON.parse(id[1]) as string | number;
    } catch {
      // no id
    }
  }
  const method = /"method"\s*:\s*"([^"\\]{1,200})"/.exec(prefix);
  if (method?.[1] !== undefined) out.method = method[1];
  return out;
}
