import { effectLines, openHostSession } from "@raw/host";
import { stringifyForDisplay } from "@raw/schema";
import { formatText } from "@raw/validate";
import { jsonOption, parseCommand, stringOption, stringsOption } from "../support/args.js";
import { loadTools } from "../support/bundled.js";
import { type CliIo, cwdOf, EXIT_FAILURE, EXIT_OK } from "../support/io.js";
import { displayLine } from "../support/present.js";
import { availableToolNames } from "../support/tool-names.js";
import { sessionCwd } from "./call.js";

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
  const wanted = args.positionals[0] as string;
  const name = tools.find((tool) => tool.identity === wanted)?.registration.name ?? wanted;
  // The session's preview: the real pipeline, stopped at the PreToolUse gate (nothing approved or run). Rules allow
  // every tool here, as this command always did: a preview shows effects, it decides nothing.
  const session = openHostSession({ cwd, tools, rules: [{ match: "*", effect: "allow" }] });
  const preview = await session.previewEffects({ name, arguments: callArgs }).finally(() => session.close());
  const identity = preview.identity;

  if (!preview.ok) {
    const result = preview.result;
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
  const effects = preview.effects;
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
