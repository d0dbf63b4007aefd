import { stringifyForDisplay } from "@raw/schema";
import { createToolRegistry, type PreToolUseRequest } from "@raw/tool-api";
import { formatText } from "@raw/validate";
import { jsonOption, parseCommand, stringOption, stringsOption } from "../support/args.js";
import { loadTools } from "../support/bundled.js";
import { type CliIo, cwdOf, EXIT_FAILURE, EXIT_OK } from "../support/io.js";
import { displayLine, effectLines } from "../support/present.js";
import { availableToolNames } from "../support/tool-names.js";
import { sessionCwd } from "./call.js";

/** The reason of the gate that stops `raw effects` calls before approval and the handler. */
const STOPPED = "raw effects stops every call at the PreToolUse gate";

/**
 * `raw effects <tool> --args <json|@file> [--cwd dir] [--format text|json]`: the intended effects of a call, computed
 * by the real pipeline (exposure, validation, effects preparation); the call is stopped at the PreToolUse gate, so
 * nothing is approved or run.
 */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const args = parseCommand("effects", argv);
  const format = stringOption(args, "format") as "text" | "json";
  const here = cwdOf(io);
  const callArgs = await jsonOption(stringOption(args, "args") as string, "args", here, args.usage);
  const cwd = await sessionCwd(stringOption(args, "cwd"), here);

  const loaded = await loadTools(stringsOption(args, "tool"), here);
  if (!loaded.ok) {
    io.stderr.write(formatText(loaded.reports));
    return EXIT_FAILURE;
  }
  const tools = loaded.tools;
  let reached: PreToolUseRequest | undefined;
  const registry = createToolRegistry({
    preToolUse: (request) => {
      reached = request;
      return { blocked: "denied", reason: STOPPED };
    },
  });
  registry.register(tools.map((tool) => tool.registration));
  const wanted = args.positionals[0] as string;
  const name = tools.find((tool) => tool.identity === wanted)?.registration.name ?? wanted;
  const result = await registry.dispatch({ name, arguments: callArgs }, { cwd });
  const identity = registry.inspectionDefinition(name)?.identity ?? null;

  if (reached === undefined) {
    const first = result.content[0];
    const message = first?.type === "text" ? first.text : "";
    // An unknown tool: the tools there are, nearest first (as `raw call` lists them).
    const available = result.code === "tool_not_exposed" ? availableToolNames(tools, [], name) : undefined;
    if (format === "json") {
      const failure = { tool: name, identity, ok: false, code: result.code ?? null, message };
      io.stdout.write(
        `${stringifyForDisplay(available === undefined ? failure : { ...failure, available }, 2)}\n`,
      );
    } else {
      io.stderr.write(`raw: ${displayLine(result.code ?? "error")}: ${displayLine(message)}\n`);
      if (available !== undefined)
        io.stderr.write(`hint: the tools, nearest first: ${available.join(", ") || "(none)"}\n`);
    }
    return EXIT_FAILURE;
  }
  const effects = reached.effects;
  if (format === "json") {
    io.stdout.write(
      `${stringifyForDisplay({ tool: name, identity, ok: true, effects: effects ?? null }, 2)}\n`,
    );
  } else if (effects === undefined) {
    io.stdout.write(`${displayLine(name)} (${displayLine(String(identity))}) declares no intended effects\n`);
  } else {
    io.stdout.write(`${effectLines(effects).join("\n")}\n`);
  }
  return EXIT_OK;
}
