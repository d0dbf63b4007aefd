/**
 * The child process of `raw validate` that imports one tool entry (tool-api.md §5.3) so that the entry's code never
 * runs in the validating process. It is a small script of its own (built to `dist/validate-child.js`, no `@raw/*`
 * code): it waits for one `import` request on the IPC channel, imports the entry and answers with the type of each
 * export the loader checks, tagged with the request's nonce. The nonce lives only in this closure, so code of the
 * entry cannot answer for it; the parent ignores anything else and kills this process (its whole group) afterwards.
 * When the entry itself does not parse, the answer carries the line and column of the syntax error, found by
 * `node --check` on the entry file (Node does not put them on the error of a failed ES module import).
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

type ExportKind = "absent" | "undefined" | "null" | "array" | string;

/** How long `node --check` may take to locate a syntax error in the entry. */
const SYNTAX_CHECK_TIMEOUT_MS = 5000;

const send = process.send?.bind(process);
const hasOwn = Object.hasOwn;

function messageOf(error: unknown): string {
  try {
    if (error instanceof Error) return String(error.message);
    return String(error);
  } catch {
    return "an unprintable value was thrown";
  }
}

function kindOf(module: Record<string, unknown>, name: string): ExportKind {
  if (!hasOwn(module, name)) return "absent";
  const value = module[name];
  if (value === undefined) return "undefined";
  if (value === null) return "null";
  return Array.isArray(value) ? "array" : typeof value;
}

/**
 * The place of a syntax error in the file of `url`, from `node --check` (`<file>:<line>`, the source line, a caret
 * line under the offending token); undefined when the file itself parses (the error came from elsewhere).
 */
function syntaxLocation(url: string): { line: number; column: number } | undefined {
  try {
    const file = fileURLToPath(url.replace(/\?.*$/, ""));
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

let started = false;
process.on("message", (message: unknown) => {
  const request = message as { type?: unknown; url?: unknown; nonce?: unknown } | null;
  if (request?.type === "ping") {
    send?.({ type: "pong" });
    return;
  }
  if (request?.type !== "import" || started || typeof request.url !== "string") return;
  started = true;
  const nonce = request.nonce;
  import(request.url).then(
    (module: Record<string, unknown>) => {
      let exports: Record<string, ExportKind>;
      try {
        exports = {
          handler: kindOf(module, "handler"),
          validateArgs: kindOf(module, "validateArgs"),
          describeEffects: kindOf(module, "describeEffects"),
          default: kindOf(module, "default"),
        };
      } catch (error) {
        send?.({ type: "failed", nonce, message: messageOf(error) });
        return;
      }
      send?.({ type: "imported", nonce, exports });
    },
    (error: unknown) => {
      let syntax = false;
      try {
        syntax = error instanceof SyntaxError;
      } catch {
        // A hostile value: no location.
      }
      const location = syntax ? syntaxLocation(request.url as string) : undefined;
      send?.({
        type: "failed",
        nonce,
        message: messageOf(error),
        ...(location === undefined ? {} : { location }),
      });
    },
  );
});
send?.({ type: "ready" });
