/** Escapes one JSON Pointer token (RFC 6901: `~` as `~0`, `/` as `~1`). */
function escapePointerToken(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** A 1-based line and column in a JSON source text (columns count UTF-16 code units). */
export interface SourcePosition {
  line: number;
  column: number;
}

/** A parsed JSON text: the value `JSON.parse` gives, and the source position of every JSON Pointer in it. */
export type JsonSource =
  | { ok: true; value: unknown; positionOf(pointer: string): SourcePosition }
  | { ok: false; message: string; position: SourcePosition };

/** The line and column of a UTF-16 offset in `text`. */
export function positionAt(text: string, offset: number): SourcePosition {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

/**
 * `JSON.parse`'s message on one line: V8 quotes the text around the error (`Unexpected token 'o', "<text>" is not
 * valid JSON`), which may span lines and repeat the input; the line and column say where it is instead.
 */
export function parserMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message
    .replace(/, (?:\.\.\.)?"[\s\S]*" is not valid JSON$/, "")
    .replace(/\s*\n\s*/g, " ")
    .trim();
}

/**
 * Parses `text` as JSON (the value is exactly `JSON.parse`'s: duplicate keys keep the last value) and maps
 * JSON Pointers to source positions. A syntax error is reported with `JSON.parse`'s message and the line and
 * column where the text stops being JSON.
 */
export function parseJsonSource(text: string): JsonSource {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const scan = new Scanner(text);
    const offset = scan.errorOffset();
    return { ok: false, message: parserMessage(error), position: positionAt(text, offset) };
  }
  let positions: Map<string, number> | undefined;
  return {
    ok: true,
    value,
    positionOf(pointer: string): SourcePosition {
      positions ??= new Scanner(text).positions();
      let at = pointer;
      for (;;) {
        const offset = positions.get(at);
        if (offset !== undefined) return positionAt(text, offset);
        if (at === "") return { line: 1, column: 1 };
        at = at.slice(0, at.lastIndexOf("/"));
      }
    },
  };
}

class SyntaxStop extends Error {
  constructor(readonly offset: number) {
    super("json syntax");
  }
}

/** A small strict JSON scanner: records where each value (or member key) starts, or where the syntax breaks. */
class Scanner {
  private i = 0;
  private readonly map = new Map<string, number>();

  constructor(private readonly text: string) {}

  positions(): Map<string, number> {
    try {
      this.ws();
      this.value("", this.i);
    } catch {
      // The text parsed with JSON.parse, so this only happens on scanner limits; keep what was recorded.
    }
    return this.map;
  }

  errorOffset(): number {
    try {
      this.ws();
      this.value("", this.i);
      this.ws();
      if (this.i < this.text.length) return this.i;
      return this.text.length;
    } catch (error) {
      return error instanceof SyntaxStop ? error.offset : this.i;
    }
  }

  private ws(): void {
    const t = this.text;
    while (this.i < t.length) {
      const c = t.charCodeAt(this.i);
      if (c === 32 || c === 9 || c === 10 || c === 13) this.i++;
      else break;
    }
  }

  private value(at: string, start: number): void {
    if (!this.map.has(at)) this.map.set(at, start);
    const c = this.text[this.i];
    if (c === "{") this.object(at);
    else if (c === "[") this.array(at);
    else if (c === '"') this.string();
    else if (c === "t") this.literal("true");
    else if (c === "f") this.literal("false");
    else if (c === "n") this.literal("null");
    else this.number();
  }

  private object(at: string): void {
    this.i++;
    this.ws();
    if (this.text[this.i] === "}") {
      this.i++;
      return;
    }
    for (;;) {
      this.ws();
      if (this.text[this.i] !== '"') throw new SyntaxStop(this.i);
      const keyStart = this.i;
      const key = this.string();
      this.ws();
      if (this.text[this.i] !== ":") throw new SyntaxStop(this.i);
      this.i++;
      this.ws();
      const child = `${at}/${escapePointerToken(key)}`;
      // A repeated key: JSON.parse keeps the last value, so the last occurrence is where it points.
      this.map.delete(child);
      this.value(child, keyStart);
      this.ws();
      const next = this.text[this.i];
      if (next === ",") {
        this.i++;
        continue;
      }
      if (next === "}") {
        this.i++;
        return;
      }
      throw new SyntaxStop(this.i);
    }
  }

  private array(at: string): void {
    this.i++;
    this.ws();
    if (this.text[this.i] === "]") {
      this.i++;
      return;
    }
    for (let index = 0; ; index++) {
      this.ws();
      this.value(`${at}/${index}`, this.i);
      this.ws();
      const next = this.text[this.i];
      if (next === ",") {
        this.i++;
        continue;
      }
      if (next === "]") {
        this.i++;
        return;
      }
      throw new SyntaxStop(this.i);
    }
  }

  private string(): string {
    const t = this.text;
    const start = this.i;
    this.i++;
    while (this.i < t.length) {
      const c = t.charCodeAt(this.i);
      if (c === 34) {
        this.i++;
        return JSON.parse(t.slice(start, this.i)) as string;
      }
      if (c < 0x20) throw new SyntaxStop(this.i);
      if (c === 92) {
        const e = t[this.i + 1];
        if (e === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(t.slice(this.i + 2, this.i + 6))) throw new SyntaxStop(this.i);
          this.i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) this.i += 2;
        else throw new SyntaxStop(this.i);
      } else this.i++;
    }
    throw new SyntaxStop(this.i);
  }

  private literal(word: string): void {
    for (let k = 0; k < word.length; k++) {
      if (this.text[this.i] !== word[k]) throw new SyntaxStop(this.i);
      this.i++;
    }
  }

  private number(): void {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.text.slice(this.i, this.i + 400));
    if (!match || match[0].length === 0) throw new SyntaxStop(this.i);
    this.i += match[0].length;
  }
}
