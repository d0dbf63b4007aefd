/**
 * The child process of `raw validate` that imports one tool entry (tool-api.md §5.3) so that the entry's code never
 * runs in the validating process. It is a small script of its own (built to `dist/validate-child.js`, no `@raw/*`
 * code): it waits for one `import` request on the IPC channel, imports the entry and answers with the type of each
 * export the loader checks, tagged with the request's nonce. The nonce lives only in this closure, so code of the
 * entry cannot answer for it; the parent ignores anything else and kills this process (its whole group) afterwards.
 */

type ExportKind = "absent" | "undefined" | string;

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
  return value === undefined ? "undefined" : typeof value;
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
        };
      } catch (error) {
        send?.({ type: "failed", nonce, message: messageOf(error) });
        return;
      }
      send?.({ type: "imported", nonce, exports });
    },
    (error: unknown) => send?.({ type: "failed", nonce, message: messageOf(error) }),
  );
});
send?.({ type: "ready" });
