import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { callHeader, stepText, traceJson } from "@raw/host";
import { stringifyForDisplay } from "@raw/schema";
import type { SqliteInteractionStore } from "@raw/store-sqlite";
import { jsonOption, parseCommand, stringOption } from "../support/args.js";
import type { HookSource, RulesInput } from "../support/inputs.js";
import { CliFailure, type CliIo, cwdOf, EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK } from "../support/io.js";
import { loadWorkspace, workspaceRequest } from "../support/load-workspace.js";
import { displayLine } from "../support/present.js";
import { type Approver, openSession } from "../support/session.js";
import { openStateStore } from "../support/state-store.js";
import { promptApproval, Terminal, terminalFormAdapter } from "../support/terminal.js";
import { availableToolNames } from "../support/tool-names.js";

/** `--cwd`: an existing folder, absolute. */
export async function sessionCwd(value: string | undefined, cwd: string): Promise<string> {
  const dir = resolve(cwd, value ?? ".");
  try {
    if ((await stat(dir)).isDirectory()) return dir;
  } catch {
    // Reported below.
  }
  throw new CliFailure("cwd_missing", `${value ?? dir} is not a folder`);
}

/** Which folders a call runs from: each `--tool` and `--hook` selection with its real folder. */
export interface LoadedFolder {
  kind: "tool" | "hook";
  id: string;
  folder: string;
  bundled: boolean;
}

/** The text lines naming the real folder of each `--tool` and `--hook` selection, before the call's header. */
function loadedText(folders: readonly LoadedFolder[]): string {
  // Ids and paths come from the command line and the file system: each is one escaped screen line (A1).
  return folders
    .map(
      (f) =>
        `using ${f.kind} ${displayLine(f.id)} from ${displayLine(f.folder)}${f.bundled ? " (bundled)" : ""}\n`,
    )
    .join("");
}

/**
 * `raw call <tool> --args <json|@file> [--rules f] [--hook dir]... [--cwd dir] [--approve yes|no|ask]
 * [--format text|json] [--state <file>]`: one call of a bundled tool through the real pipeline, with a step trace;
 * with `--state`, interaction requests live in that SQLite file (`@raw/store-sqlite`) and survive a restart.
 */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const args = parseCommand("call", argv);
  const format = stringOption(args, "format") as "text" | "json";
  const approveMode = stringOption(args, "approve") as "yes" | "no" | "ask";
  const here = cwdOf(io);
  const callArgs = await jsonOption(stringOption(args, "args") as string, "args", here, args.usage);
  const cwd = await sessionCwd(stringOption(args, "cwd"), here);

  const workspace = await loadWorkspace(workspaceRequest(args, here), io);
  if (workspace === undefined) return EXIT_FAILURE;
  const rules: RulesInput | undefined = workspace.rules;
  const folders: LoadedFolder[] = [
    ...workspace.tools
      .filter((tool) => !tool.identity.startsWith("builtin/"))
      .map((tool) => ({ kind: "tool" as const, id: tool.identity, folder: tool.dir, bundled: false })),
    ...workspace.hookSources.map((hook: HookSource) => ({ kind: "hook" as const, ...hook })),
  ];

  let terminal: Terminal | undefined;
  const term = (): Terminal => {
    if (terminal === undefined) {
      const stdin = io.stdin?.();
      if (stdin === undefined) throw new CliFailure("interaction_unavailable", "no terminal input");
      terminal = new Terminal(stdin, process.stderr);
      terminal.onInterrupt(() => onSigint());
    }
    return terminal;
  };
  const controller = new AbortController();
  const interactive = io.interactive === true;
  let approver: Approver | undefined;
  if (approveMode === "yes") approver = { approve: () => true, label: "--approve yes" };
  else if (approveMode === "no") approver = { approve: () => false, label: "--approve no" };
  else if (interactive)
    approver = {
      approve: (request, view) => promptApproval(term(), request.name, view),
      label: "the terminal",
    };

  // The first Ctrl-C aborts the call (handlers and hooks get the signal; a question is answered no) and the run
  // exits 130 once the call has returned; a second one exits at once.
  let interrupted = false;
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(EXIT_INTERRUPTED);
    interrupted = true;
    controller.abort();
  };
  process.on("SIGINT", onSigint);
  // `--state <file>`: interaction requests live in that SQLite file and survive a restart (default: in memory).
  const statePath = stringOption(args, "state");
  let stateStore: SqliteInteractionStore | undefined;
  if (statePath !== undefined) {
    try {
      stateStore = await openStateStore(statePath, here);
    } catch (error) {
      process.off("SIGINT", onSigint);
      throw error;
    }
  }
  const session = await openSession({
    cwd,
    tools: workspace.tools,
    rules,
    hooks: workspace.hooks,
    approver,
    interactionAdapter: interactive
      ? (request, signal, retry) => terminalFormAdapter(term())(request, signal, retry)
      : undefined,
    interactionStore: stateStore,
    onStep: format === "text" ? (step) => io.stdout.write(stepText(step)) : undefined,
  });
  try {
    const tool = session.resolveName(args.positionals[0] as string);
    if (format === "text") io.stdout.write(`${loadedText(folders)}${callHeader(tool, callArgs)}`);
    const trace = await session.call(tool, callArgs, { signal: controller.signal });
    // An unknown tool: the tools there are, nearest first (model-facing names, as a model would call them).
    const available =
      trace.result.code === "tool_not_exposed"
        ? availableToolNames(workspace.tools, rules?.rules ?? [], tool)
        : undefined;
    if (format === "json") {
      const extra = available === undefined ? {} : { available };
      io.stdout.write(`${stringifyForDisplay({ ...traceJson(trace), folders, ...extra }, 2)}\n`);
    } else if (available !== undefined) {
      io.stderr.write(
        `hint: no tool "${displayLine(tool)}" is available; the tools, nearest first: ${available.join(", ") || "(none)"}\n`,
      );
    }
    if (interrupted) return EXIT_INTERRUPTED;
    return trace.result.isError ? EXIT_FAILURE : EXIT_OK;
  } finally {
    process.off("SIGINT", onSigint);
    session.close();
    stateStore?.close();
    terminal?.close();
  }
}
