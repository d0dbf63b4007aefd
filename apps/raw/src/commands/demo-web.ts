import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LoadedHook } from "@raw/hook-protocol";
import type { LoadedTool } from "@raw/tool-api";
import type { RulesInput } from "../support/inputs.js";
import { type CliIo, EXIT_OK } from "../support/io.js";

/** One scripted call of the demo. */
export interface WebScene {
  readonly title: string;
  readonly tool: string;
  readonly args: unknown;
}

/** What `raw demo --web` plays. */
export interface WebDemoInput {
  readonly scenes: readonly WebScene[];
  readonly tools: readonly LoadedTool[];
  readonly rules: RulesInput;
  readonly hooks: readonly LoadedHook[];
}

/**
 * `raw demo --web`: serves the page of `raw serve` and plays the scripted demo into it once a page is open. The
 * person at the page approves, denies and answers the form; the terminal prints each scene and how it ended, then
 * the page stays served until Ctrl-C.
 */
export async function runWebDemo(
  input: WebDemoInput,
  io: CliIo,
  options: { signal?: AbortSignal } = {},
): Promise<number> {
  const { startServe } = await import("../serve/server.js");
  const cwd = await mkdtemp(join(tmpdir(), "raw-demo-web-"));
  const served = await startServe({ cwd, tools: input.tools, rules: input.rules, hooks: input.hooks });
  const stopped = new Promise<void>((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
    options.signal?.addEventListener("abort", () => resolve(), { once: true });
  });
  let stop = false;
  void stopped.then(() => {
    stop = true;
  });
  try {
    io.stdout.write(
      `raw demo --web: open ${served.url}\n(the demo starts when the page is open; Ctrl-C stops the server)\n`,
    );
    while (served.hub.size === 0 && !stop) await new Promise((r) => setTimeout(r, 100));
    for (const scene of input.scenes) {
      if (stop) break;
      io.stdout.write(`${scene.title}\n`);
      const id = served.session.startCall(scene.tool, scene.args);
      await Promise.race([served.session.idle(), stopped]);
      const call = served.session.state().calls.find((c) => c.id === id);
      io.stdout.write(
        `  → ${call?.result ? (call.result.isError ? (call.result.code ?? "error") : "ok") : "stopped"}\n`,
      );
    }
    if (!stop) io.stdout.write("demo played: the page stays open until Ctrl-C\n");
    await stopped;
    return EXIT_OK;
  } finally {
    await served.close();
    await rm(cwd, { recursive: true, force: true });
  }
}
