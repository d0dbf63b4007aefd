// The eager hand-written patch parser the patch rows compare against: one `split`, one loop, the same grammar
// checks and the same output shape as parsePatch (every hunk line and added line built), no caching, no freezing.

const HEADERS = [
  ["*** Add File: ", "add"],
  ["*** Update File: ", "update"],
  ["*** Delete File: ", "delete"],
];

/** Parses `text` like parsePatch in syntax-only mode (targets resolved against `/`); throws an Error with a code. */
export function handParsePatch(text) {
  if (typeof text !== "string" || text.length > 1_048_576 || text.includes("\0")) throw new Error("size");
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (l.charCodeAt(l.length - 1) === 13) lines[i] = l.slice(0, -1);
  }
  if (lines.length < 2 || lines[0] !== "*** Begin Patch" || lines[lines.length - 1] !== "*** End Patch")
    throw new Error("envelope");
  const end = lines.length - 1;
  if (end === 1) throw new Error("empty");
  const changes = [];
  let i = 1;
  while (i < end) {
    const line = lines[i];
    const header = HEADERS.find(([prefix]) => line.startsWith(prefix));
    if (!header) throw new Error("header");
    const rawPath = line.slice(header[0].length);
    if (rawPath === "" || rawPath.trim() !== rawPath) throw new Error("path");
    const change = { kind: header[1], path: `/${rawPath}`, rawPath, hunks: [], added: [], noNewline: false };
    i++;
    if (change.kind === "add") {
      while (i < end && lines[i].charCodeAt(0) === 43) change.added.push(lines[i++].slice(1));
    } else if (change.kind === "update") {
      if (i < end && lines[i].startsWith("*** Move to: ")) {
        change.rawDestination = lines[i].slice(13);
        change.destination = `/${change.rawDestination}`;
        i++;
      }
      while (i < end && lines[i] === "@@") {
        i++;
        const hunk = { lines: [], eof: false };
        while (i < end) {
          const c = lines[i].charCodeAt(0);
          if (c !== 32 && c !== 43 && c !== 45) break;
          hunk.lines.push({ kind: c === 32 ? " " : c === 43 ? "+" : "-", text: lines[i].slice(1) });
          i++;
        }
        if (hunk.lines.length === 0) throw new Error("empty hunk");
        change.hunks.push(hunk);
        if (i < end && lines[i] === "*** End of File") {
          hunk.eof = true;
          i++;
          break;
        }
      }
      if (change.hunks.length === 0) throw new Error("missing hunk");
    }
    if (change.kind !== "delete" && i < end && lines[i] === "*** No newline at end of file") {
      change.noNewline = true;
      i++;
    }
    changes.push(change);
  }
  return changes;
}
