import { stringifyForDisplay } from "@raw/schema";
import { COMMAND_LOADERS } from "./command-loaders.js";
import { COMMANDS, type CommandModule, type CommandName, isCommandName } from "./commands/definitions.js";
import { type CliIo, EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from "./support/io.js";
import { closeName } from "./support/nearest.js";
import { displayBlock, displayLine } from "./support/present.js";
import { commandHelpText, globalHelpText } from "./support/usage.js";

export type { CommandModule } from "./commands/definitions.js";
export type { CliIo } from "./support/io.js";

/** Loads a command's module (`COMMAND_LOADERS[name]`); a missing optional peer is a coded failure saying what to install. */
async function loadCommand(name: CommandName): Promise<CommandModule> {
  try {
    return await COMMAND_LOADERS[name]();
  } catch (error) {
    const peer = COMMANDS[name].peers;
    const message = error instanceof Error ? error.message : "";
    const missing = peer?.packages.find((pkg) => message.includes(`'${pkg}`));
    if (peer && (error as { code?: unknown }).code === "ERR_MODULE_NOT_FOUND" && missing !== undefined) {
      throw Object.assign(
        new Error(`raw ${name} needs ${peer.packages.join(" and ")}; install them: ${peer.install}`),
        {
          code: `${name}_unavailable`,
        },
      );
    }
    throw error;
  }
}

/** `raw: unknown command "x"` (with the nearest command when one is close) and where to find the list. */
function unknownCommand(io: CliIo, command: string): number {
  const near = closeName(command, Object.keys(COMMANDS));
  const hint = near === undefined ? "" : ` (did you mean ${near}?)`;
  io.stderr.write(`raw: unknown command "${displayLine(command)}"${hint}\n`);
  io.stderr.write('raw: run "raw --help" for the list of commands\n');
  return EXIT_USAGE;
}

interface CodedError {
  code: string;
  message: string;
  exitCode?: number;
  usage?: string;
  issues?: ReadonlyArray<{ code: string; message: string; path?: string }>;
}

function isCoded(error: unknown): error is CodedError {
  return (
    typeof error === "object" &&
    error !== null &&
    typeof (error as CodedError).code === "string" &&
    typeof (error as CodedError).message === "string" &&
    /^[a-z][a-z0-9_]*$/.test((error as CodedError).code)
  );
}

/**
 * Prints an error the way the CLI promises: a coded message, a stack trace only with `--debug`. Messages can quote
 * untrusted text (a file name, a JSON excerpt, an argument): each is escaped as one screen line (amendment A1).
 */
function report(error: unknown, io: CliIo, debug: boolean): number {
  const stack = debug && error instanceof Error && error.stack ? `${displayBlock(error.stack)}\n` : "";
  if (isCoded(error) && error instanceof Error && error.name === "UsageError") {
    io.stderr.write(`raw: usage: ${displayLine(error.message)}\n`);
    if (error.usage) io.stderr.write(`usage: ${error.usage.replaceAll("\n", "\n       ")}\n`);
    return EXIT_USAGE;
  }
  if (isCoded(error)) {
    io.stderr.write(`raw: ${error.code}: ${displayLine(error.message)}\n`);
    const issues = Array.isArray(error.issues) ? error.issues : [];
    if (issues.length > 1 || (issues.length === 1 && issues[0]?.message !== error.message)) {
      for (const issue of issues) {
        const at =
          issue.path === undefined ? "" : `${issue.path === "" ? "(root)" : displayLine(issue.path)}  `;
        io.stderr.write(`  ${displayLine(issue.code)}  ${at}${displayLine(issue.message)}\n`);
      }
    }
    io.stderr.write(stack);
    return typeof error.exitCode === "number" ? error.exitCode : EXIT_FAILURE;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.stderr.write(`raw: internal_error: ${displayLine(message)}\n`);
  io.stderr.write(stack || "raw: run again with --debug to see the stack\n");
  return EXIT_FAILURE;
}

/** Most lines of standard error a fallback JSON document repeats. */
const MAX_FALLBACK_LINES = 64;

/** True when the command line asks for `--format json` (before a `--`). */
function wantsJson(args: readonly string[]): boolean {
  const end = args.indexOf("--");
  const head = end === -1 ? args : args.slice(0, end);
  return head.some((arg, i) => arg === "--format=json" || (arg === "--format" && head[i + 1] === "json"));
}

/**
 * Runs the `raw` CLI with `argv` (without the node and script paths) and resolves to the exit code. With
 * `--format json`, standard output is always one well-formed JSON document (amendment A1): when a command ends
 * without writing one (a usage error, a file that does not load), `{ ok: false, exitCode, error: { code, message },
 * stderr }` is written, repeating what standard error said.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  if (!wantsJson(argv)) return runCommand(argv, io);
  let wrote = false;
  const said: string[] = [];
  const watched: CliIo = {
    ...io,
    stdout: {
      write(text: string) {
        if (text !== "") wrote = true;
        return io.stdout.write(text);
      },
    },
    stderr: {
      write(text: string) {
        if (said.length < MAX_FALLBACK_LINES) said.push(...text.split("\n").filter((line) => line !== ""));
        return io.stderr.write(text);
      },
    },
  };
  const exitCode = await runCommand(argv, watched);
  if (!wrote) {
    const stderr = said.slice(0, MAX_FALLBACK_LINES);
    const coded = /^raw: ([a-z][a-z0-9_]*): (.*)$/.exec(stderr[0] ?? "");
    const error = coded
      ? { code: coded[1], message: coded[2] }
      : { code: "command_failed", message: stderr[0] ?? "the command wrote no result" };
    io.stdout.write(`${stringifyForDisplay({ ok: false, exitCode, error, stderr }, 2)}\n`);
  }
  return exitCode;
}

async function runCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const end = argv.indexOf("--");
  const head = end === -1 ? [...argv] : argv.slice(0, end);
  const debug = head.includes("--debug");
  // With --debug, stack traces point into the TypeScript sources (the build ships source maps).
  if (debug) process.setSourceMapsEnabled(true);
  const args = [...head.filter((arg) => arg !== "--debug"), ...(end === -1 ? [] : argv.slice(end))];
  const [command, ...rest] = args;
  try {
    if (command === undefined) {
      io.stderr.write(globalHelpText());
      return EXIT_USAGE;
    }
    if (command === "help" && rest[0] !== undefined) {
      const topic = rest[0];
      if (!isCommandName(topic)) return unknownCommand(io, topic);
      io.stdout.write(commandHelpText(topic));
      return EXIT_OK;
    }
    if (command === "--help" || command === "-h" || command === "help") {
      io.stdout.write(globalHelpText());
      return EXIT_OK;
    }
    if (command === "--version" || command === "-v") {
      const { cliVersion } = await import("./support/paths.js");
      io.stdout.write(`${cliVersion()}\n`);
      return EXIT_OK;
    }
    if (!isCommandName(command)) return unknownCommand(io, command);
    const name = command;
    const restEnd = rest.indexOf("--");
    const options = restEnd === -1 ? rest : rest.slice(0, restEnd);
    if (options.includes("--help") || options.includes("-h")) {
      io.stdout.write(commandHelpText(name));
      return EXIT_OK;
    }
    const module = await loadCommand(name);
    return await module.run(rest, io);
  } catch (error) {
    return report(error, io, debug);
  }
}
