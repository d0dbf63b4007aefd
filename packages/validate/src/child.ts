/**
 * The child process of `raw validate` that imports tool entries (tool-api.md §5.3) so that no entry's code ever runs
 * in the validating process. It is a small script of its own (built to `dist/validate-child.cjs`, no `@raw/*` code):
 * CommonJS, so that it is loaded synchronously and listens on the IPC channel before the first message is read (the
 * parent sends the keys and the first request without waiting for it).
 * One child imports the entries of a run in turn, one at a time (requests that arrive meanwhile wait in order), and
 * answers each `import` request with the type of each export the loader checks.
 *
 * Answers are authenticated: before any entry is imported, the parent sends this process a secret (two random keys),
 * kept only in this module's closure. Every answer carries `body` (a JSON text naming the request's URL and nonce)
 * and `mac` = SHA-256(k2 ‖ SHA-256(k1 ‖ body)); the parent ignores any message without a valid one. Everything the
 * answer is computed with is captured when this script starts, before any entry runs (`crypto.hash`, `JSON.stringify`,
 * `Object.hasOwn`, `Array.isArray`, `Promise.prototype.then`, `process.send`), so an entry imported earlier that
 * listens to later requests, or pollutes prototypes and globals, cannot make the answer for a later entry say
 * anything but what that entry's own module namespace holds. Each answer also says whether the module loader of this
 * process is still as it was at start-up (`pristine`: CommonJS loader functions, `fs.readFileSync`, no
 * `module.register` call): an entry that changed how later modules load makes the parent retire this process, and an
 * outcome on a process that imported another entry before is never reported as that entry's own (the parent retries
 * it on a fresh process). What this cannot stop, by design of a shared process, is code that reads this process's
 * memory (`node:inspector`, `/proc/self/mem`) to recover the keys: see SECURITY.md.
 *
 * When the entry itself does not parse, the answer carries the line and column of the syntax error, found by
 * `node --check` on the entry file (Node does not put them on the error of a failed ES module import).
 */
import { hash } from "node:crypto";
import fs from "node:fs";
import Module, { syncBuiltinESMExports } from "node:module";
import { fileURLToPath } from "node:url";

type ExportKind = "absent" | "undefined" | "null" | "array" | string;

/** How long `node --check` may take to locate a syntax error in the entry. */
const SYNTAX_CHECK_TIMEOUT_MS = 5000;

// Primitives captured before any entry runs (see the module comment).
const send = process.send?.bind(process);
const hasOwn = Object.hasOwn;
const isArray = Array.isArray;
const stringify = JSON.stringify;
const toText = String;
const create = Object.create;
const uncurry = <T extends (...args: never[]) => unknown>(fn: T) =>
  Function.prototype.call.bind(fn) as unknown as (self: unknown, ...args: unknown[]) => unknown;
const then = uncurry(Promise.prototype.then);
const replace = uncurry(String.prototype.replace);
const sha256 = (text: string): string => hash("sha256", text, "hex") as string;

/** What the module loader of this process looks like before any entry runs. */
interface LoaderState {
  readonly load: unknown;
  readonly resolveFilename: unknown;
  readonly require: unknown;
  readonly compile: unknown;
  readonly moduleLoad: unknown;
  readonly extensions: unknown;
  readonly extensionNames: number;
  readonly js: unknown;
  readonly json: unknown;
  readonly node: unknown;
  readonly readFileSync: unknown;
}

type CjsLoader = {
  _load?: unknown;
  _resolveFilename?: unknown;
  _extensions?: Record<string, unknown>;
  prototype?: { require?: unknown; _compile?: unknown; load?: unknown };
};

function loaderState(): LoaderState {
  const cjs = Module as unknown as CjsLoader;
  const extensions = cjs._extensions ?? {};
  return {
    load: cjs._load,
    resolveFilename: cjs._resolveFilename,
    require: cjs.prototype?.require,
    compile: cjs.prototype?._compile,
    moduleLoad: cjs.prototype?.load,
    extensions,
    extensionNames: Object.keys(extensions).length,
    js: extensions[".js"],
    json: extensions[".json"],
    node: extensions[".node"],
    readFileSync: fs.readFileSync,
  };
}

/** True while `module.register` was never called in this process (it is wrapped to tell). */
let hooksRegistered = false;
{
  const register = Module.register;
  const tracked = function trackedRegister(this: unknown, ...args: Parameters<typeof Module.register>): void {
    hooksRegistered = true;
    Reflect.apply(register, this, args);
  };
  Object.defineProperty(Module, "register", { value: tracked, writable: false, configurable: false });
  syncBuiltinESMExports();
}
const pristineState = loaderState();
const stateKeys = Object.keys(pristineState) as Array<keyof LoaderState>;

/** True when the module loader is still the one of start-up (checked with the captured primitives only). */
function pristine(): boolean {
  if (hooksRegistered) return false;
  try {
    const now = loaderState();
    for (let i = 0; i < stateKeys.length; i++) {
      const key = stateKeys[i] as keyof LoaderState;
      if (now[key] !== pristineState[key]) return false;
    }
    return true;
  } catch {
    return false;
  }
}

function messageOf(error: unknown): string {
  try {
    if (error instanceof Error) return toText(error.message);
    return toText(error);
  } catch {
    return "an unprintable value was thrown";
  }
}

function kindOf(module: Record<string, unknown>, name: string): ExportKind {
  if (!hasOwn(module, name)) return "absent";
  const value = module[name];
  if (value === undefined) return "undefined";
  if (value === null) return "null";
  return isArray(value) ? "array" : typeof value;
}

/**
 * The place of a syntax error in the file of `url`, from `node --check` (`<file>:<line>`, the source line, a caret
 * line under the offending token); undefined when the file itself parses (the error came from elsewhere).
 */
function syntaxLocation(url: string): { line: number; column: number } | undefined {
  try {
    const file = fileURLToPath(replace(url, /\?.*$/, "") as string);
    // Loaded only for a syntax error: the child starts faster without it.
    const { spawnSync } = process.getBuiltinModule("node:child_process");
    const check = spawnSync(process.execPath, ["--check", file], {
      encoding: "utf8",
      timeout: SYNTAX_CHECK_TIMEOUT_MS,
      stdio: ["ignore", "ignore", "pipe"],
    });
    if (check.status === 0) return undefined;
    const lines = String(check.stderr).split("\n");
    const head = /:(\d+)$/.exec(lines[0] ?? "");
    if (head === null || !lines[0]?.startsWith(file)) return undefined;
    const caret = (lines[2] ?? "").indexOf("^");
    return { line: Number(head[1]), column: caret < 0 ? 1 : caret + 1 };
  } catch {
    return undefined;
  }
}

/** The two keys of the answers' MAC, set once by the parent's first message; never sent anywhere. */
let keys: { readonly k1: string; readonly k2: string } | undefined;
let imported = false;
/** The import in progress: one at a time. */
let busy = false;
/** How many requests wait at most (the parent sends the next one while the current one runs). */
const MAX_QUEUED = 4;
/**
 * Requests not started yet, in order: a null-prototype object indexed by number (no setter or method of anyone's
 * on the way), with its first and next free index.
 */
const queued = create(null) as Record<number, { url: string; nonce: string }>;
let queueHead = 0;
let queueTail = 0;

/** Starts the next queued request, if no import is running. */
function next(): void {
  if (busy || queueHead === queueTail) return;
  const request = queued[queueHead] as { url: string; nonce: string };
  delete queued[queueHead];
  queueHead++;
  importEntry(request.url, request.nonce);
}

/**
 * A message to the parent as a null-prototype object: the IPC channel serializes it with `JSON.stringify`, which
 * consults no `toJSON` of anyone's on it.
 */
function message(type: string, body?: string, mac?: string): Record<string, string> {
  const out = create(null) as Record<string, string>;
  out.type = type;
  if (body !== undefined) out.body = body;
  if (mac !== undefined) out.mac = mac;
  return out;
}

/** Sends one authenticated answer: `fields` plus the request's URL and nonce, as a JSON body with its MAC. */
function answer(url: string, nonce: string, fields: Record<string, unknown>): void {
  const secret = keys;
  if (secret === undefined) return;
  // A null-prototype object of primitives: no `toJSON` of anyone's is consulted.
  const payload = create(null) as Record<string, unknown>;
  payload.url = url;
  payload.nonce = nonce;
  for (const name in fields) if (hasOwn(fields, name)) payload[name] = fields[name];
  payload.pristine = pristine();
  const body = stringify(payload);
  const mac = sha256(secret.k2 + sha256(secret.k1 + body));
  busy = false;
  send?.(message("answer", body, mac));
  next();
}

function importEntry(url: string, nonce: string): void {
  imported = true;
  busy = true;
  then(
    import(url),
    (module: Record<string, unknown>) => {
      let exports: Record<string, ExportKind>;
      try {
        exports = create(null) as Record<string, ExportKind>;
        exports.handler = kindOf(module, "handler");
        exports.validateArgs = kindOf(module, "validateArgs");
        exports.describeEffects = kindOf(module, "describeEffects");
        exports.default = kindOf(module, "default");
      } catch (error) {
        answer(url, nonce, { kind: "failed", message: messageOf(error) });
        return;
      }
      answer(url, nonce, { kind: "imported", exports });
    },
    (error: unknown) => {
      let syntax = false;
      try {
        syntax = error instanceof SyntaxError;
      } catch {
        // A hostile value: no location.
      }
      const location = syntax ? syntaxLocation(url) : undefined;
      const fields: Record<string, unknown> = { kind: "failed", message: messageOf(error) };
      if (location !== undefined) {
        const place = create(null) as Record<string, number>;
        place.line = location.line;
        place.column = location.column;
        fields.location = place;
      }
      answer(url, nonce, fields);
    },
  );
}

process.on("message", (received: unknown) => {
  const request = received as {
    type?: unknown;
    url?: unknown;
    nonce?: unknown;
    k1?: unknown;
    k2?: unknown;
  } | null;
  if (request === null || typeof request !== "object") return;
  if (request.type === "ping") {
    send?.(message("pong"));
    return;
  }
  if (request.type === "key") {
    // Only before any entry ran: no entry's code ever sees the keys arrive.
    if (keys !== undefined || imported) return;
    if (typeof request.k1 !== "string" || typeof request.k2 !== "string") return;
    keys = { k1: request.k1, k2: request.k2 };
    return;
  }
  if (request.type !== "import" || keys === undefined) return;
  if (typeof request.url !== "string" || typeof request.nonce !== "string") return;
  if (queueTail - queueHead >= MAX_QUEUED) return;
  const entry = create(null) as { url: string; nonce: string };
  entry.url = request.url;
  entry.nonce = request.nonce;
  queued[queueTail] = entry;
  queueTail++;
  next();
});
// While the parent reads the first folder, the ES module loader gets ready (its first use costs milliseconds): an
// empty module, before any entry runs.
const EMPTY_MODULE = "data:text/javascript,";
setImmediate(() => {
  then(
    import(EMPTY_MODULE),
    () => undefined,
    () => undefined,
  );
});
