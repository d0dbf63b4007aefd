import { MAX_PATCH_BYTES, MAX_PATCH_TARGETS } from "./limits.js";
import { normalizePath } from "./normalize-path.js";
import { type PatchCode, PatchError } from "./patch-error.js";
import { patchHint } from "./patch-hints.js";
import { scannedPatch } from "./patch-scan-cache.js";
import type { PatchChangeKind, ScannedPatch, ScannedSection } from "./scanned-patch.js";

/** The kind of a hunk line: context (`" "`), insertion (`"+"`) or deletion (`"-"`). */
export type PatchLineKind = " " | "+" | "-";

/** One hunk line: its kind and its text (the line without its first character). */
export interface PatchLine {
  kind: PatchLineKind;
  text: string;
}

/** One `@@` hunk of an Update section; `eof` is true when it is anchored with `*** End of File`. */
export interface PatchHunk {
  lines: PatchLine[];
  eof: boolean;
}

export type { PatchChangeKind } from "./scanned-patch.js";

/** One file section of a parsed patch (effects.md §7.7). */
export interface PatchChange {
  kind: PatchChangeKind;
  /** The target normalized against the base directory. */
  path: string;
  /** The target as written after the header's `: `. */
  rawPath: string;
  /** The normalized Move destination (Update with `*** Move to:` only). */
  destination?: string;
  /** The Move destination as written. */
  rawDestination?: string;
  /** The hunks (Update only; empty otherwise). */
  hunks: PatchHunk[];
  /** The content lines without their `+` (Add only; empty otherwise). */
  added: string[];
  /** True when the section is followed by `*** No newline at end of file`. */
  noNewline: boolean;
}

/** A parsed patch: its changes, one per file section, in patch order. */
export type ParsedPatch = PatchChange[];

/** Options of `parsePatch`: with `cwd` the parser runs in resolved-target mode, without it in syntax-only mode. */
export interface ParsePatchOptions {
  /** Absolute base directory of resolved-target mode (effects.md §7.5). */
  cwd?: string | undefined;
}

/** Outcome of `safeParsePatch`. */
export type SafeParsePatchResult = { ok: true; patch: ParsedPatch } | { ok: false; code: PatchCode };

const LF = 10;
const CR = 13;
const SPACE = 32;
const STAR = 42;
const PLUS = 43;
const MINUS = 45;
const SLASH = 47;
const AT = 64;
const LINE_SEPARATOR = 0x2028;
const PARAGRAPH_SEPARATOR = 0x2029;

const BEGIN_PATCH = "*** Begin Patch";
const END_PATCH = "*** End Patch";
const ADD_FILE = "*** Add File: ";
const UPDATE_FILE = "*** Update File: ";
const DELETE_FILE = "*** Delete File: ";
const MOVE_TO = "*** Move to: ";
const END_OF_FILE = "*** End of File";
const NO_NEWLINE = "*** No newline at end of file";

/**
 * §7.1: more than `MAX_PATCH_BYTES` UTF-8 bytes, or a NUL. A UTF-8 encoding is never shorter than the UTF-16
 * length and at most three times it; in between, the text is encoded into a buffer of exactly `MAX_PATCH_BYTES`
 * bytes, which holds the whole text only when its encoding fits (a lone surrogate counts three bytes, as U+FFFD).
 */
function tooLargeOrBinary(text: string): boolean {
  if (text.length > MAX_PATCH_BYTES) return true;
  if (text.length * 3 > MAX_PATCH_BYTES) {
    const { read } = encoder.encodeInto(text, sizingBuffer());
    if (read !== text.length) return true;
  }
  return text.includes("\0");
}

const encoder = new TextEncoder();
let sizing: WeakRef<Uint8Array> | undefined;

/**
 * The `MAX_PATCH_BYTES` buffer the size check encodes into: reused while it is alive (parsing many large patches
 * allocates it once), held only weakly so that it never stays in memory for its own sake.
 */
function sizingBuffer(): Uint8Array {
  let buffer = sizing?.deref();
  if (buffer === undefined) {
    buffer = new Uint8Array(MAX_PATCH_BYTES);
    sizing = new WeakRef(buffer);
  }
  return buffer;
}

/** The end of the line starting at `start` whose LF (or the text's end) is at `stop`, one trailing CR removed. */
function lineEnd(text: string, start: number, stop: number): number {
  return stop > start && text.charCodeAt(stop - 1) === CR ? stop - 1 : stop;
}

/** True when the body line at `pos` (which always ends with LF) is exactly `literal`. */
function lineIs(text: string, pos: number, literal: string): boolean {
  if (!text.startsWith(literal, pos)) return false;
  const after = pos + literal.length;
  const c = text.charCodeAt(after);
  return c === LF || (c === CR && text.charCodeAt(after + 1) === LF);
}

/** True when the body line at `pos` is exactly `@@`. */
function isHunkStart(text: string, pos: number): boolean {
  if (text.charCodeAt(pos) !== AT || text.charCodeAt(pos + 1) !== AT) return false;
  const c = text.charCodeAt(pos + 2);
  return c === LF || (c === CR && text.charCodeAt(pos + 3) === LF);
}

/** True when the header rest `[start, end)` is non-empty and has no line terminator (CR, U+2028, U+2029). */
function isHeaderRest(text: string, start: number, end: number): boolean {
  if (start >= end) return false;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === CR || c === LINE_SEPARATOR || c === PARAGRAPH_SEPARATOR) return false;
  }
  return true;
}

/** True when the raw target passes §7.5 step 1: non-empty, trimmed, no CR, LF or NUL. */
function isRawTarget(raw: string): boolean {
  if (raw.length === 0 || raw.trim() !== raw) return false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === CR || c === LF || c === 0) return false;
  }
  return true;
}

/** True when one normalized path is the other followed by `/` and more. */
function isNested(a: string, b: string): boolean {
  if (a.length > b.length) return a.charCodeAt(b.length) === SLASH && a.startsWith(b);
  if (b.length > a.length) return b.charCodeAt(a.length) === SLASH && b.startsWith(a);
  return false;
}

/** The targets of one parse: counted in both modes, repeat/conflict-checked in resolved-target mode. */
class Targets {
  private readonly seen: string[] = [];

  constructor(
    private readonly base: string,
    private readonly resolved: boolean,
  ) {}

  /** Checks one raw target in parse order (effects.md §7.5) and returns it normalized. */
  check(raw: string): string {
    if (!isRawTarget(raw)) throw new PatchError("patch_invalid_path");
    const path = normalizePath(this.base, raw);
    const seen = this.seen;
    if (seen.length >= MAX_PATCH_TARGETS) throw new PatchError("patch_too_many_paths");
    if (this.resolved) {
      for (let i = 0; i < seen.length; i++) {
        const earlier = seen[i] as string;
        if (earlier === path) throw new PatchError("patch_repeated_target");
        if (isNested(earlier, path)) throw new PatchError("patch_conflicting_targets");
      }
    }
    seen.push(path);
    return path;
  }
}

const EMPTY_LIST: readonly never[] = Object.freeze([]);

/** Scans `text` (a string) in one pass (effects.md §7.1–7.4), recording where every hunk is. Never throws. */
export function scanPatch(text: string): ScannedPatch {
  const sections: ScannedSection[] = [];
  try {
    scanInto(text, sections);
    return { sections: Object.freeze(sections), failure: undefined, failureAt: undefined };
  } catch (error) {
    if (error instanceof PatchError) {
      return { sections: Object.freeze(sections), failure: error.code, failureAt: error.offset };
    }
    throw error;
  }
}

function scanInto(text: string, sections: ScannedSection[]): void {
  // §7.1 preconditions.
  if (tooLargeOrBinary(text)) throw new PatchError("patch_invalid_size_or_binary");

  // §7.2 lines: the text is walked in place; `limit` is where the last line ends once a final empty line
  // (after its CR was removed) has been dropped.
  let lastNl = text.lastIndexOf("\n");
  let lastStart = lastNl + 1;
  let limit = text.length;
  if (lineEnd(text, lastStart, limit) === lastStart) {
    if (lastNl < 0) throw new PatchError("patch_invalid_envelope");
    limit = lastNl;
    lastNl = lastNl > 0 ? text.lastIndexOf("\n", lastNl - 1) : -1;
    lastStart = lastNl + 1;
  }

  // §7.3 envelope.
  const firstNl = text.indexOf("\n");
  const firstStop = firstNl < 0 || firstNl > limit ? limit : firstNl;
  const firstEnd = lineEnd(text, 0, firstStop);
  const lastEnd = lineEnd(text, lastStart, limit);
  if (
    lastStart === 0 ||
    firstEnd !== BEGIN_PATCH.length ||
    !text.startsWith(BEGIN_PATCH, 0) ||
    lastEnd - lastStart !== END_PATCH.length ||
    !text.startsWith(END_PATCH, lastStart)
  ) {
    throw new PatchError("patch_invalid_envelope");
  }

  // §7.4 sections. Every body line ends with LF: the body stops where the last line starts.
  const bodyEnd = lastStart;
  let pos = firstNl + 1;
  if (pos >= bodyEnd) throw new PatchError("patch_empty");

  while (pos < bodyEnd) {
    const nl = text.indexOf("\n", pos);
    const end = lineEnd(text, pos, nl);
    let kind: PatchChangeKind;
    let restStart: number;
    if (text.charCodeAt(pos) !== STAR) throw new PatchError("patch_invalid_header", pos);
    if (text.startsWith(ADD_FILE, pos)) {
      kind = "add";
      restStart = pos + ADD_FILE.length;
    } else if (text.startsWith(UPDATE_FILE, pos)) {
      kind = "update";
      restStart = pos + UPDATE_FILE.length;
    } else if (text.startsWith(DELETE_FILE, pos)) {
      kind = "delete";
      restStart = pos + DELETE_FILE.length;
    } else {
      throw new PatchError("patch_invalid_header", pos);
    }
    if (!isHeaderRest(text, restStart, end)) throw new PatchError("patch_invalid_header", pos);
    const section: ScannedSection = {
      kind,
      rawPath: text.slice(restStart, end),
      rawDestination: undefined,
      hunks: EMPTY_LIST,
      addedStart: 0,
      addedEnd: 0,
      noNewline: false,
    };
    sections.push(section);
    pos = nl + 1;

    if (kind === "add") {
      section.addedStart = pos;
      pos = scanAdded(text, pos, bodyEnd);
      section.addedEnd = pos;
    } else if (kind === "update") {
      if (pos < bodyEnd && text.startsWith(MOVE_TO, pos)) {
        const moveNl = text.indexOf("\n", pos);
        section.rawDestination = text.slice(pos + MOVE_TO.length, lineEnd(text, pos, moveNl));
        pos = moveNl + 1;
      }
      const hunks: number[] = [];
      pos = scanHunks(text, pos, bodyEnd, hunks);
      section.hunks = Object.freeze(hunks);
    }

    if (kind !== "delete" && pos < bodyEnd && lineIs(text, pos, NO_NEWLINE)) {
      section.noNewline = true;
      pos = text.indexOf("\n", pos) + 1;
    }
    Object.freeze(section);
  }
}

/**
 * Parses a `write_file` patch (effects.md §7). With `options.cwd` it runs in resolved-target mode (targets
 * normalized against `cwd`, repeated and conflicting targets rejected); without it in syntax-only mode (base `/`).
 * Throws a `PatchError` whose `code` and `message` are the `patch_*` code; throws a `TypeError` when `cwd` is
 * given but is not an absolute path.
 *
 * The text is scanned once and the scan is kept in a small bounded cache keyed by the exact text
 * (`MAX_PATCH_SCAN_CACHE_ENTRIES`): the `validateArgs`, the `describeEffects` and the handler of one dispatch share
 * one scan, and each parse only checks the targets against its own base directory. The line objects of `hunks`
 * (Update) and `added` (Add) are built on the first read of those properties (own, enumerable, cached accessors)
 * from the positions the scan recorded, without checking the grammar again, so callers that only need the targets
 * never allocate one object per line. Every call returns its own changes, hunks and lines.
 */
export function parsePatch(text: unknown, options?: ParsePatchOptions): ParsedPatch {
  const cwd = options?.cwd;
  const resolved = cwd !== undefined;
  const targets = new Targets(resolved ? normalizePath(cwd, ".") : "/", resolved);

  if (typeof text !== "string") throw new PatchError("patch_invalid_size_or_binary");
  const scanned = scannedPatch(text, scanPatch);
  const sections = scanned.sections;
  const changes: PatchChange[] = [];
  for (let i = 0; i < sections.length; i++) {
    const section = sections[i] as ScannedSection;
    const kind = section.kind;
    const rawPath = section.rawPath;
    const path = targets.check(rawPath);
    const rawDestination = section.rawDestination;
    const destination = rawDestination === undefined ? undefined : targets.check(rawDestination);
    const change: PatchChange =
      destination === undefined || rawDestination === undefined
        ? { kind, path, rawPath, hunks: [], added: [], noNewline: section.noNewline }
        : {
            kind,
            path,
            rawPath,
            destination,
            rawDestination,
            hunks: [],
            added: [],
            noNewline: section.noNewline,
          };
    if (kind === "update") lazyHunks(change, text, section.hunks);
    else if (section.addedEnd > section.addedStart)
      lazyAdded(change, text, section.addedStart, section.addedEnd);
    changes.push(change);
  }
  if (scanned.failure !== undefined) {
    // The error path only: a hint for a line written in another patch format (patch-hints.ts).
    throw new PatchError(
      scanned.failure,
      scanned.failureAt,
      patchHint(text, scanned.failure, scanned.failureAt),
    );
  }
  return changes;
}

/** Walks the content lines of an Add section from `pos` and returns the position after them. */
function scanAdded(text: string, pos: number, bodyEnd: number): number {
  while (pos < bodyEnd && text.charCodeAt(pos) === PLUS) pos = text.indexOf("\n", pos) + 1;
  return pos;
}

/** The added lines between `pos` and `end` (as recorded by the scan), each without its `+`. */
function buildAdded(text: string, pos: number, end: number): string[] {
  const out: string[] = [];
  while (pos < end) {
    const nl = text.indexOf("\n", pos);
    out.push(text.slice(pos + 1, lineEnd(text, pos, nl)));
    pos = nl + 1;
  }
  return out;
}

/**
 * Walks the hunks of an Update section from `pos` (effects.md §7.4 steps 2–6), recording each hunk's first line,
 * the position after its last line, whether it is anchored and its number of lines into `out`, and returns the
 * position after them, throwing the grammar's codes.
 */
function scanHunks(text: string, pos: number, bodyEnd: number, out: number[]): number {
  while (pos < bodyEnd && isHunkStart(text, pos)) {
    pos = text.indexOf("\n", pos) + 1;
    const first = pos;
    let count = 0;
    while (pos < bodyEnd) {
      const c = text.charCodeAt(pos);
      if (c !== SPACE && c !== PLUS && c !== MINUS) break;
      pos = text.indexOf("\n", pos) + 1;
      count++;
    }
    if (count === 0) throw new PatchError("patch_empty_hunk");
    const last = pos;
    if (pos < bodyEnd && lineIs(text, pos, END_OF_FILE)) {
      pos = text.indexOf("\n", pos) + 1;
      if (pos < bodyEnd && isHunkStart(text, pos)) throw new PatchError("patch_hunk_after_eof");
      out.push(first, last, 1, count);
      break;
    }
    out.push(first, last, 0, count);
  }
  if (out.length === 0) throw new PatchError("patch_missing_hunk", pos);
  return pos;
}

/**
 * The hunks recorded by the scan as `[first, end, eof, count]` quadruples, with their lines. Every array is
 * allocated at its final length: a patch at the size limit holds tens of thousands of lines.
 */
function buildHunks(text: string, ranges: readonly number[]): PatchHunk[] {
  const out: PatchHunk[] = new Array(ranges.length >> 2);
  for (let h = 0, k = 0; h < ranges.length; h += 4, k++) {
    let pos = ranges[h] as number;
    const lines: PatchLine[] = new Array(ranges[h + 3] as number);
    for (let j = 0; j < lines.length; j++) {
      const c = text.charCodeAt(pos);
      const nl = text.indexOf("\n", pos);
      lines[j] = {
        kind: c === SPACE ? " " : c === PLUS ? "+" : "-",
        text: text.slice(pos + 1, lineEnd(text, pos, nl)),
      };
      pos = nl + 1;
    }
    out[k] = { lines, eof: ranges[h + 2] === 1 };
  }
  return out;
}

/** Where a lazy `hunks` or `added` property finds its text and ranges, and its value once built. */
interface LazyState {
  readonly text: string;
  readonly ranges: readonly number[];
  value: PatchHunk[] | string[] | undefined;
}

const LAZY_HUNKS = Symbol("raw.patch.hunks");
const LAZY_ADDED = Symbol("raw.patch.added");

type LazyHolder = PatchChange & { [LAZY_HUNKS]?: LazyState; [LAZY_ADDED]?: LazyState };

// One getter and one setter per property for every change, so that what an inline cache remembers of a call site
// is a module function, never a closure holding an earlier patch's text and lines.
const HUNKS_PROPERTY: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: LazyHolder): PatchHunk[] {
    const state = this[LAZY_HUNKS] as LazyState;
    if (state.value === undefined) state.value = buildHunks(state.text, state.ranges);
    return state.value as PatchHunk[];
  },
  set(this: LazyHolder, next: PatchHunk[]) {
    (this[LAZY_HUNKS] as LazyState).value = next;
  },
};

const ADDED_PROPERTY: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: LazyHolder): string[] {
    const state = this[LAZY_ADDED] as LazyState;
    if (state.value === undefined)
      state.value = buildAdded(state.text, state.ranges[0] as number, state.ranges[1] as number);
    return state.value as string[];
  },
  set(this: LazyHolder, next: string[]) {
    (this[LAZY_ADDED] as LazyState).value = next;
  },
};

/** Turns `hunks` into an own, enumerable accessor that builds the hunks on the first read and caches them. */
function lazyHunks(change: PatchChange, text: string, ranges: readonly number[]): void {
  Object.defineProperty(change, LAZY_HUNKS, { value: { text, ranges, value: undefined } });
  Object.defineProperty(change, "hunks", HUNKS_PROPERTY);
}

/** Turns `added` into an own, enumerable accessor that builds the added lines on the first read and caches them. */
function lazyAdded(change: PatchChange, text: string, start: number, end: number): void {
  Object.defineProperty(change, LAZY_ADDED, { value: { text, ranges: [start, end], value: undefined } });
  Object.defineProperty(change, "added", ADDED_PROPERTY);
}

/** `parsePatch` in the validating style: `{ ok: true, patch }` or `{ ok: false, code }`; never throws for bad text. */
export function safeParsePatch(text: unknown, options?: ParsePatchOptions): SafeParsePatchResult {
  try {
    return { ok: true, patch: parsePatch(text, options) };
  } catch (error) {
    if (error instanceof PatchError) return { ok: false, code: error.code };
    throw error;
  }
}
