import { basename } from "node:path";
import { buildHookPayload, HOOK_EVENTS, type HookEvent } from "@raw/hook-protocol";
import { openHostSession } from "@raw/host";
import { stringifyForDisplay } from "@raw/schema";
import { formatText } from "@raw/validate";
import { jsonOption, parseCommand, stringOption } from "../support/args.js";
import { loadHookFolders } from "../support/inputs.js";
import { type CliIo, cwdOf, EXIT_FAILURE, EXIT_OK, UsageError } from "../support/io.js";
import { displayBlock, displayLine, indent } from "../support/present.js";
import { sessionCwd } from "./call.js";

/**
 * `raw hook run <dir> --event <E> --payload <json|@file> [--cwd dir] [--format text|json]`: loads the hook folder
 * as a host would (snapshot included), builds the event's request from the payload fields and dispatches it to the
 * hook alone: its subscriptions decide whether it runs, and its answer is printed with its receipt.
 */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const args = parseCommand("hook", argv);
  const usage = args.usage;
  const format = stringOption(args, "format") as "text" | "json";
  const event = stringOption(args, "event") as string;
  if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
    throw new UsageError(`--event must be one of ${HOOK_EVENTS.join(", ")}`, usage);
  }
  const here = cwdOf(io);
  const payloadJson = await jsonOption(stringOption(args, "payload") as string, "payload", here, usage);
  if (typeof payloadJson !== "object" || payloadJson === null || Array.isArray(payloadJson)) {
    throw new UsageError("--payload must be a JSON object", usage);
  }
  const cwd = await sessionCwd(stringOption(args, "cwd"), here);
  const loaded = await loadHookFolders([args.positionals[0] as string], here);
  if (!loaded.ok) {
    io.stderr.write(formatText(loaded.reports));
    return EXIT_FAILURE;
  }
  const hook = loaded.hooks[0];
  if (hook === undefined) return EXIT_FAILURE;
  // The payload holds the request's fields; a full request (with protocol_version and event) is accepted too.
  const { protocol_version: _version, event: _event, ...fields } = payloadJson as Record<string, unknown>;
  const payload = buildHookPayload(
    event as HookEvent,
    { cwd, ...fields } as Parameters<typeof buildHookPayload>[1],
  );
  // A session of this hook alone, no tools: the host's own dispatcher runs it, and close() ends its process.
  const session = openHostSession({ cwd, tools: [], hooks: [hook] });
  const result = await session.runHooks(event as HookEvent, payload).finally(() => session.close());
  const receipt = result.receipts[0];
  const ran = receipt !== undefined;
  const body = {
    hook: hook.id,
    folder: basename(String(args.positionals[0])),
    event,
    ran,
    blocked: result.blocked ?? null,
    reason: result.reason ?? null,
    receipt: receipt ?? null,
  };
  if (format === "json") {
    io.stdout.write(`${stringifyForDisplay(body, 2)}\n`);
  } else {
    const lines = [`${displayLine(hook.id)} ${event}`];
    if (!ran && result.blocked === undefined) {
      lines.push("  skipped   no subscription of this hook matches the payload (a host would not run it)");
    } else {
      if (receipt !== undefined) {
        const code = receipt.code ? ` (${displayLine(receipt.code)})` : "";
        lines.push(`  outcome   ${displayLine(receipt.outcome)}${code}`);
        if (receipt.message !== undefined) lines.push(`  message   ${displayLine(receipt.message)}`);
      }
      if (result.blocked !== undefined)
        lines.push(`  blocked   ${result.blocked}: ${displayLine(result.reason ?? "")}`);
      if (receipt !== undefined) lines.push(`  duration  ${receipt.durationMs} ms`);
      if (receipt?.stderr) lines.push("  stderr", indent(displayBlock(receipt.stderr).trimEnd(), 4));
    }
    io.stdout.write(`${lines.join("\n")}\n`);
  }
  return receipt?.outcome === "error" || result.blocked === "error" ? EXIT_FAILURE : EXIT_OK;
}
