/** A writable text stream as the CLI uses it. */
export interface TextSink {
  write(text: string): unknown;
}

/**
 * Where a command reads and writes: `runCli(argv, io)` takes it, `bin.ts` passes the process's streams, environment
 * and folder, and tests pass their own (standard input, output and error, `env`, `cwd`, and whether prompts are
 * possible: `interactive`, true when standard input and error are terminals).
 */
export interface CliIo {
  stdout: TextSink;
  stderr: TextSink;
  /** The terminal input (opened only when a prompt needs it). */
  stdin?: (() => NodeJS.ReadableStream) | undefined;
  /** True when stdin and stderr are terminals: prompts (approval, forms) are possible. */
  interactive?: boolean | undefined;
  /** The working directory paths are resolved against (default `process.cwd()`). */
  cwd?: string | undefined;
  /** The environment commands read (`RAW_MCP_TOKEN`, ...); default `process.env`. */
  env?: Readonly<Record<string, string | undefined>> | undefined;
}

/** The CLI's exit codes. */
export const EXIT_OK = 0;
/** A validation or contract failure (bad files, a denied or failed call, a policy test mismatch). */
export const EXIT_FAILURE = 1;
/** The command line itself is wrong (unknown command or option, a missing or malformed argument). */
export const EXIT_USAGE = 2;
/** The run was interrupted (Ctrl-C): 128 + SIGINT, as shells report it. */
export const EXIT_INTERRUPTED = 130;

/** A wrong command line: printed as `raw: usage: <message>` with the command's usage, exit 2. */
export class UsageError extends Error {
  readonly code = "usage";
  constructor(
    message: string,
    readonly usage?: string,
  ) {
    super(message);
    this.name = "UsageError";
  }
}

/** A coded failure the CLI reports as `raw: <code>: <message>` (exit 1 unless stated), never with a stack. */
export class CliFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode: number = EXIT_FAILURE,
  ) {
    super(message);
    this.name = "CliFailure";
  }
}

/** The working directory of a run. */
export function cwdOf(io: CliIo): string {
  return io.cwd ?? process.cwd();
}

/** The environment of a run. */
export function envOf(io: CliIo): Readonly<Record<string, string | undefined>> {
  return io.env ?? process.env;
}
