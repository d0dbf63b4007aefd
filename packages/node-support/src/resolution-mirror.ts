import { randomUUID } from "node:crypto";
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";

/** The folder of a snapshot home under which the original absolute path is mirrored. */
export const MIRROR_ROOT = "root";

/** The neutral package scope written at the top of a snapshot home (no `type`, no `name`, no `exports`). */
const NEUTRAL_PACKAGE_JSON = "{}\n";

/** Writes the neutral `package.json` unless it is already there as it should be (a reused home is not rewritten). */
function writeNeutralScope(path: string): void {
  try {
    if (readFileSync(path, "utf8") === NEUTRAL_PACKAGE_JSON) return;
  } catch {
    // Not there yet (a new home), or unreadable: written below.
  }
  writeFileSync(path, NEUTRAL_PACKAGE_JSON, { mode: 0o600 });
}

/** The place in `<home>/root/` that stands for the real absolute folder `folder`. */
export function mirrorPath(home: string, folder: string): string {
  return join(home, MIRROR_ROOT, ...folder.split("/").filter((part) => part !== ""));
}

/** The entries module resolution looks up in an ancestor folder (outside `node_modules`). */
const RESOLUTION_ENTRIES: readonly string[] = ["node_modules", "package.json"];

/** True when `path` exists as a directory entry (a link counts, even one that dangles). */
function present(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
}

function insideNodeModules(dir: string): boolean {
  const name = basename(dir);
  return name === "node_modules" || (name.startsWith("@") && basename(dirname(dir)) === "node_modules");
}

function linkTarget(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined;
  } catch {
    return undefined;
  }
}

/** Makes `path` a symbolic link to `target` (atomically replacing a different link). */
function ensureLink(path: string, target: string): void {
  // A new home has no links yet: creating one where nothing is takes one call (and is atomic).
  try {
    symlinkSync(target, path);
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  if (linkTarget(path) === target) return;
  const temporary = join(dirname(path), `.link-${process.pid}-${randomUUID()}`);
  symlinkSync(target, temporary);
  try {
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/**
 * Lays out the resolution mirror of a snapshot (amendment A8): the snapshot of the real folder `folder` lives at
 * `mirrorPath(home, folder)`, and every ancestor level of it holds links named like the entries that module
 * resolution looks up in the original ancestor: its `node_modules` and `package.json` when it has them (the links
 * follow the originals, so a package installed in or removed from them later is seen as from the original folder;
 * an ancestor that gains one of them is linked by the next load, since every load lays the mirror out again), and,
 * in an ancestor that is itself a `node_modules` folder or a scope inside one, every entry. Node.js resolves links to real paths, so a bare specifier imported or
 * required from the snapshot resolves to the very file the original folder would get, and the package scope of a
 * `.js` file is the original one. Above the mirror, `<home>/package.json` is a neutral scope (as when the original
 * folder has no `package.json` above it).
 *
 * Every file-system call of a snapshot is synchronous: each is a metadata call of a few microseconds on a small tree,
 * where an asynchronous one costs a thread-pool round trip of tens (`bench/suites/08-cli.mjs`, `raw validate` on
 * 1,000 folders); a host loads its tools before it serves, and the event loop is held for well under a millisecond
 * per folder.
 */
export function layOutResolutionMirror(home: string, folder: string): void {
  const parts = folder.split("/").filter((part) => part !== "");
  writeNeutralScope(join(home, "package.json"));
  mkdirSync(join(home, MIRROR_ROOT, ...parts.slice(0, -1)), { recursive: true, mode: 0o700 });
  parts.forEach((chain, depth) => {
    const original = `/${parts.slice(0, depth).join("/")}`;
    const mirror = join(home, MIRROR_ROOT, ...parts.slice(0, depth));
    let names: string[];
    if (insideNodeModules(original)) {
      try {
        names = readdirSync(original);
      } catch {
        names = [];
      }
    } else {
      names = RESOLUTION_ENTRIES.filter((name) => present(join(original, name)));
    }
    for (const name of names) if (name !== chain) ensureLink(join(mirror, name), join(original, name));
  });
}
