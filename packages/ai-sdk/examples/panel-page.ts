import { randomBytes, timingSafeEqual } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { toAiSdkTools } from "@raw/ai-sdk";
import { openHostSession } from "@raw/host";
import type { PanelFrame } from "@raw/panel/host";
import { loadToolFolders } from "@raw/tool-api";
import { bundledToolFolders } from "@raw/tools";
import { isStepCount, streamText } from "ai";
import { convertArrayToReadableStream, MockLanguageModelV4 } from "ai/test";

// A page that shows the session's panels live while a streamText loop runs: the model calls `todo` three times
// (a plan, progress, done); every panel frame the session's panel host emits goes to the page over server-sent
// events, where <raw-panel> (@raw/panel-web) applies it.

/** Most pages listening at once; more get 503. */
export const MAX_PAGE_CLIENTS = 8;

const PLAN = [
  {
    mode: "replace",
    items: [
      { id: "read", label: "Read the issue" },
      { id: "fix", label: "Fix the bug" },
    ],
  },
  {
    mode: "merge",
    items: [
      { id: "read", status: "done" },
      { id: "fix", status: "in_progress" },
    ],
  },
  { mode: "merge", items: [{ id: "fix", status: "done" }] },
];

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A mock model that calls `todo` once per step with the next update of `PLAN`, then says it is done. */
function planningModel(): MockLanguageModelV4 {
  let step = 0;
  return new MockLanguageModelV4({
    doStream: async () => {
      const update = PLAN[step];
      const id = `t${++step}`;
      const parts: LanguageModelV4StreamPart[] = update
        ? [
            { type: "tool-call", toolCallId: id, toolName: "todo", input: JSON.stringify(update) },
            { type: "finish", finishReason: { unified: "tool-calls", raw: undefined }, usage },
          ]
        : [
            { type: "text-start", id: "t" },
            { type: "text-delta", id: "t", delta: "The bug is fixed." },
            { type: "text-end", id: "t" },
            { type: "finish", finishReason: { unified: "stop", raw: undefined }, usage },
          ];
      return { stream: convertArrayToReadableStream(parts) };
    },
  });
}

const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>Raw panels from an AI SDK loop</title>
<button id="run">Run the agent</button>
<p id="said"></p>
<main id="panels"></main>
<script type="module">
  const token = new URLSearchParams(location.search).get("token");
  await import("/raw-panel.browser.js?token=" + encodeURIComponent(token));
  await customElements.whenDefined("raw-panel");
  const panels = new Map();
  const events = new EventSource("/events?token=" + encodeURIComponent(token));
  events.onmessage = (message) => {
    const { frame, title } = JSON.parse(message.data);
    let panel = panels.get(frame.fullId);
    if (!panel) {
      panel = document.createElement("raw-panel");
      panel.dataset.panel = frame.fullId;
      panel.setAttribute("declared-title", title ?? frame.panel);
      document.getElementById("panels").append(panel);
      panels.set(frame.fullId, panel);
    }
    if (panel.applyFrame(frame) && frame.type === "update") panel.dataset.revision = String(frame.revision);
  };
  events.addEventListener("said", (message) => {
    document.getElementById("said").textContent = JSON.parse(message.data);
  });
  document.getElementById("run").onclick = () =>
    fetch("/run?token=" + encodeURIComponent(token), { method: "POST" });
</script>
`;

/** A running example page: its address (with the token), and how to stop it. */
export interface PanelPage {
  /** `http://127.0.0.1:<port>/?token=<token>`: the one address that gets in (A10: a token on every request). */
  readonly url: string;
  readonly origin: string;
  close(): Promise<void>;
}

/** Starts the example on 127.0.0.1 (`port` 0: any free port). */
export async function startPanelPage(port = 0): Promise<PanelPage> {
  const cwd = mkdtempSync(join(tmpdir(), "raw-ai-sdk-page-"));
  const session = openHostSession({ cwd, tools: await loadToolFolders(bundledToolFolders()) });
  const tools = toAiSdkTools(session);
  const bundle = readFileSync(createRequire(import.meta.url).resolve("@raw/panel-web/browser"));
  const token = randomBytes(32).toString("base64url");
  const clients = new Set<ServerResponse>();
  let running = false;

  const send = (event: string | undefined, data: unknown): void => {
    const text = `${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`;
    for (const client of clients) client.write(text);
  };
  // Every frame of the session's panel host (live and final) goes to every page.
  const unsubscribe = session.panels.subscribe((frame: PanelFrame) => {
    const title = frame.type === "update" ? session.panels.get(frame.fullId)?.declaration.title : undefined;
    send(undefined, { frame, title });
  });

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const given = Buffer.from(url.searchParams.get("token") ?? "");
    const expected = Buffer.from(token);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      res.writeHead(401, { "content-type": "text/plain" }).end("a token is required\n");
      return;
    }
    if (url.pathname === "/raw-panel.browser.js" && req.method === "GET") {
      res.writeHead(200, { "content-type": "text/javascript" }).end(bundle);
    } else if (url.pathname === "/" && req.method === "GET") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE);
    } else if (url.pathname === "/events" && req.method === "GET") {
      if (clients.size >= MAX_PAGE_CLIENTS) {
        res.writeHead(503).end();
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store" });
      res.write(": connected\n\n");
      clients.add(res);
      req.on("close", () => clients.delete(res));
    } else if (url.pathname === "/run" && req.method === "POST") {
      if (running) {
        res.writeHead(409).end();
        return;
      }
      running = true;
      res.writeHead(202).end();
      void (async () => {
        try {
          const result = streamText({
            model: planningModel(),
            tools,
            prompt: "Fix the bug.",
            stopWhen: isStepCount(8),
          });
          send("said", await result.text);
        } finally {
          running = false;
        }
      })();
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const address = server.address();
  const origin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : port}`;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    async close() {
      unsubscribe();
      for (const client of clients) client.end();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await session.close();
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const page = await startPanelPage();
  // Printed once, to the user: the token is never logged anywhere else.
  console.log(`Open ${page.url}`);
}
