// A deliberately naive transcription of effects.md §7 (split, map, shift), used as a differential oracle for the
// optimized parser. It favours obviousness over speed and shares no code with src/.
import { posix } from "node:path";

type Line = { kind: " " | "+" | "-"; text: string };
type Hunk = { lines: Line[]; eof: boolean };
export type ReferenceChange = {
  kind: "add" | "update" | "delete";
  path: string;
  rawPath: string;
  destination?: string;
  rawDestination?: string;
  hunks: Hunk[];
  added: string[];
  noNewline: boolean;
};
export type ReferenceResult = { ok: true; changes: ReferenceChange[] } | { ok: false; code: string };

class Fail extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

const HEADERS = [
  ["*** Add File: ", "add"],
  ["*** Update File: ", "update"],
  ["*** Delete File: ", "delete"],
] as const;

export function referenceParse(text: unknown, cwd?: string): ReferenceResult {
  try {
    return { ok: true, changes: parse(text, cwd) };
  } catch (error) {
    if (error instanceof Fail) return { ok: false, code: error.code };
    throw error;
  }
}

function parse(text: unknown, cwd: string | undefined): ReferenceChange[] {
  if (typeof text !== "string") throw new Fail("patch_invalid_size_or_binary");
  if (new TextEncoder().encode(text).length > 1_048_576) throw new Fail("patch_invalid_size_or_binary");
  if (text.includes("\u0000")) throw new Fail("patch_invalid_size_or_binary");

  const lines = text.split("\n").map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
  if (lines[lines.length - 1] === "") lines.pop();
  if (lines.length < 2 || lines[0] !== "*** Begin Patch" || lines[lines.length - 1] !== "*** End Patch") {
    throw new Fail("patch_invalid_envelope");
  }
  const body = lines.slice(1, -1);
  if (body.length === 0) throw new Fail("patch_empty");

  const base = cwd ?? "/";
  const seen: string[] = [];
  const target = (raw: string): string => {
    if (raw === "" || raw.trim() !== raw || /[\r\n\u0000]/.test(raw)) throw new Fail("patch_invalid_path");
    const path = posix.resolve(base, raw);
    if (seen.length === 64) throw new Fail("patch_too_many_paths");
    if (cwd !== undefined) {
      for (const earlier of seen) {
        if (earlier === path) throw new Fail("patch_repeated_target");
        if (earlier.startsWith(`${path}/`) || path.startsWith(`${earlier}/`)) {
          throw new Fail("patch_conflicting_targets");
        }
      }
    }
    seen.push(path);
    return path;
  };

  const changes: ReferenceChange[] = [];
  let i = 0;
  const peek = (): string | undefined => body[i];
  while (i < body.length) {
    const line = body[i] as string;
    const header = HEADERS.find(([prefix]) => line.startsWith(prefix));
    if (!header) throw new Fail("patch_invalid_header");
    const rest = line.slice(header[0].length);
    if (rest === "" || /[\r\n\u2028\u2029]/.test(rest)) throw new Fail("patch_invalid_header");
    const change: ReferenceChange = {
      kind: header[1],
      path: target(rest),
      rawPath: rest,
      hunks: [],
      added: [],
      noNewline: false,
    };
    i++;
    if (change.kind === "add") {
      while (peek()?.startsWith("+")) change.added.push((body[i++] as string).slice(1));
    } else if (change.kind === "update") {
      if (peek()?.startsWith("*** Move to: ")) {
        const raw = (body[i++] as string).slice("*** Move to: ".length);
        const destination = target(raw);
        const { hunks, added, noNewline } = change;
        delete (change as Partial<ReferenceChange>).hunks;
        delete (change as Partial<ReferenceChange>).added;
        delete (change as Partial<ReferenceChange>).noNewline;
        Object.assign(change, { destination, rawDestination: raw, hunks, added, noNewline });
      }
      while (peek() === "@@") {
        i++;
        const hunk: Hunk = { lines: [], eof: false };
        while (i < body.length) {
          const l = body[i] as string;
          const c = l[0];
          if (c !== " " && c !== "+" && c !== "-") break;
          hunk.lines.push({ kind: c, text: l.slice(1) });
          i++;
        }
        if (hunk.lines.length === 0) throw new Fail("patch_empty_hunk");
        change.hunks.push(hunk);
        if (peek() === "*** End of File") {
          hunk.eof = true;
          i++;
          if (peek() === "@@") throw new Fail("patch_hunk_after_eof");
          break;
        }
      }
      if (change.hunks.length === 0) throw new Fail("patch_missing_hunk");
    }
    if (change.kind !== "delete" && peek() === "*** No newline at end of file") {
      change.noNewline = true;
      i++;
    }
    changes.push(change);
  }
  return changes;
}
