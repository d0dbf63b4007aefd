import { parseCommand, stringOption } from "../support/args.js";
import { type CliIo, cwdOf, EXIT_FAILURE, EXIT_OK, UsageError } from "../support/io.js";
import { loadWorkspace, workspaceRequest } from "../support/load-workspace.js";
import { openStateStore } from "../support/state-store.js";
import { sessionCwd } from "./call.js";

/** Parses `--port`: an integer from 0 to 65535. */
function portOption(value: string | undefined, usage: string): number {
  if (value === undefined) return 0;
  if (!/^\d{1,5}$/u.test(value) || Number(value) > 65_535)
    throw new UsageError(`--port must be a port number, not ${value}`, usage);
  return Number(value);
}

/**
 * `raw serve [--tool dir]... [--rules f] [--hook dir]... [--cwd dir] [--host addr] [--port n]`: a local web page
 * for one session of the reference app. It prints the page's address (with its per-run token) and serves until
 * Ctrl-C.
 */
export async function run(
  argv: string[],
  io: CliIo,
  options: { signal?: AbortSignal } = {},
): Promise<number> {
  const args = parseCommand("serve", argv);
  const usage = args.usage;
  const here = cwdOf(io);
  const cwd = await sessionCwd(stringOption(args, "cwd"), here);
  const port = portOption(stringOption(args, "port"), usage);
  const workspace = await loadWorkspace(workspaceRequest(args, here), io);
  if (workspace === undefined) return EXIT_FAILURE;
  // `--state <file>`: interaction requests live in that SQLite file and survive a restart (default: in memory).
  const statePath = stringOption(args, "state");
  const interactionStore = statePath === undefined ? undefined : await openStateStore(statePath, here);
  const { startServe } = await import("../serve/server.js");
  const host = stringOption(args, "host") as string;
  let served: Awaited<ReturnType<typeof startServe>>;
  try {
    served = await startServe({
      cwd,
      tools: workspace.tools,
      rules: workspace.rules,
      hooks: workspace.hooks,
      host,
      port,
      interactionStore,
    });
  } catch (error) {
    const coded = error as { code?: unknown; message?: unknown };
    io.stderr.write(
      `raw: ${typeof coded.code === "string" ? coded.code : "serve_failed"}: ${String(coded.message ?? error)}\n`,
    );
    return EXIT_FAILURE;
  }
  io.stdout.write(
    `raw serve: open ${served.url}\n(the address carries this run's token; Ctrl-C stops the server)\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    options.signal?.addEventListener("abort", stop, { once: true });
  });
  await served.close();
  interactionStore?.close();
  return EXIT_OK;
}
