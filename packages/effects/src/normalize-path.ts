const SLASH = 47;
const DOT = 46;

/**
 * Lexically resolves `path` against the absolute directory `cwd`, exactly like POSIX `path.resolve(cwd, path)`
 * (effects.md §5): never consults the file system or the process's working directory. Throws a `TypeError` when
 * `cwd` is not an absolute path or either argument is not a string.
 */
export function normalizePath(cwd: string, path: string): string {
  if (typeof cwd !== "string" || cwd.charCodeAt(0) !== SLASH) {
    throw new TypeError(`cwd must be an absolute path: ${describe(cwd)}`);
  }
  if (typeof path !== "string") throw new TypeError(`path must be a string: ${describe(path)}`);
  const full = path.charCodeAt(0) === SLASH ? path : `${cwd}/${path}`;
  const segments: string[] = [];
  let start = 0;
  const length = full.length;
  for (let i = 0; i <= length; i++) {
    if (i < length && full.charCodeAt(i) !== SLASH) continue;
    const size = i - start;
    if (size === 0 || (size === 1 && full.charCodeAt(start) === DOT)) {
      // empty or `.` segment: dropped
    } else if (size === 2 && full.charCodeAt(start) === DOT && full.charCodeAt(start + 1) === DOT) {
      segments.pop();
    } else {
      segments.push(full.slice(start, i));
    }
    start = i + 1;
  }
  return `/${segments.join("/")}`;
}

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  return typeof value;
}
