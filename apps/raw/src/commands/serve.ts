import type { PanelHost } from "@raw/panel/host";
import { parseCommand, stringOption } from "../support/args.js";
import { type CliIo, cwdOf, EXIT_FAILURE, EXIT_OK, UsageError } from "../support/io.js";
import { loadWorkspace, workspaceRequest } from "../support/load-workspace.js";
import {
  interruptOrphans,
  loadServeAddress,
  loadServePanels,
  openStateStore,
  saveServeAddress,
  saveServePanels,
} from "../support/state-store.js";
import { sessionCwd } from "./call.js";

/** Parses `--port`: an integer from 0 to 65535 (`undefined` when not given). */
function portOption(value: string | undefined, usage: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,5}$/u.test(value) || Number(value) > 65_535)
    throw new UsageError(`--port must be a port number, not ${value}`, usage);
  return Number(value);
}

/**
 * `raw serve [--tool dir]... [--rules f] [--hook dir]... [--cwd dir] [--host addr] [--port n] [--state f]`: a local
 * web page for one session of the reference app. It prints the page's address (with its per-run token) and serves
 * until Ctrl-C. With `--state`, the token and port are kept in the state file, so a restart serves the same address
 * and an open page reconnects on its own.
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
  const interactionStore =
    statePath === undefined ? undefined : await openStateStore(statePath, here, { exclusive: true });
  // With `--state`, a restart serves the same address: the token (and the port, unless `--port` says otherwise or
  // it is taken) come from the file, so an open page reconnects by itself. The calls of the previous run ended
  // with it: their pending questions end `interrupted` (owner loss) and can no longer be answered.
  const kept = interactionStore === undefined ? undefined : loadServeAddress(interactionStore);
  if (interactionStore !== undefined) interruptOrphans(interactionStore);
  const { startServe } = await import("../serve/server.js");
  const host = stringOption(args, "host") as string;
  const serveOptions = {
    cwd,
    tools: workspace.tools,
    rules: workspace.rules,
    hooks: workspace.hooks,
    host,
    interactionStore,
    ...(kept !== undefined ? { token: kept.token } : {}),
    // The sidebar panels of the previous run come back, and every committed change is kept for the next one.
    ...(interactionStore !== undefined
      ? {
          restorePanels: loadServePanels(interactionStore),
          onPanelsChanged: (panels: PanelHost) => saveServePanels(interactionStore, panels),
        }
      : {}),
  };
  let served: Awaited<ReturnType<typeof startServe>>;
  try {
    try {
      served = await startServe({ ...serveOptions, port: port ?? kept?.port ?? 0 });
    } catch (error) {
      // The kept port is taken (and the user named none): serve on a free one; the page must be reopened.
      if (
        port !== undefined ||
        kept?.port === undefined ||
        (error as { code?: unknown }).code !== "EADDRINUSE"
      )
        throw error;
      served = await startServe({ ...serveOptions, port: 0 });
    }
  } catch (error) {
    const coded = error as { code?: unknown; message?: unknown };
    io.stderr.write(
      `raw: ${typeof coded.code === "string" ? coded.code : "serve_failed"}: ${String(coded.message ?? error)}\n`,
    );
    interactionStore?.close();
    return EXIT_FAILURE;
  }
  if (interactionStore !== undefined)
    saveServeAddress(interactionStore, { token: served.token, port: Number(new URL(served.origin).port) });
  // The stop signals are heard before the address is printed: a Ctrl-C right after it still closes cleanly.
  const stopped = new Promise<void>((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    options.signal?.addEventListener("abort", stop, { once: true });
  });
  io.stdout.write(
    `raw serve: open ${served.url}\n(the address carries this run's token; Ctrl-C stops the server)\n`,
  );
  await stopped;
  await served.close();
  interactionStore?.close();
  return EXIT_OK;
}
