// A dropped event stream and a restarted server, in real Chromium: the page shows that it is reconnecting and
// recovers without a reload. With `--state`, a restarted `raw serve` serves the same address (token and port kept in
// the 0600 state file); what the killed run was asking is shown as gone, never approvable, and new questions are
// answered in the same page. Without `--state` the token changes and the page says to reload.
import { type ChildProcess, spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, openWatchedPage, screenshotsDir } from "../../../../test-support/browser.js";
import { appRoot, bin, fixtures, tempDir } from "../cli/helpers.js";
import { rawRequest, startServeProcess } from "./serve-process.js";

const SCREENSHOTS = screenshotsDir(appRoot);
const RULES = join(fixtures, "serve", "rules.json");
const QUESTION = {
  questions: [{ id: "why", label: "Why?", kind: "text", max_bytes: 40 }],
};

let browser: Browser;
const running: ChildProcess[] = [];
const proxies: Server[] = [];
beforeAll(async () => {
  browser = await launchBrowser();
});
afterEach(async () => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  for (const proxy of proxies.splice(0)) {
    proxy.closeAllConnections();
    proxy.close();
  }
});
afterAll(async () => {
  await browser?.close();
});

async function serve(args: string[]) {
  const served = await startServeProcess(args, appRoot);
  running.push(served.child);
  return served;
}

/** Kills a server process at once (no graceful close) and waits until it is gone. */
async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

async function compose(page: Page, tool: string, args: unknown): Promise<void> {
  await page.selectOption("#tool", tool);
  await page.fill("#arguments", JSON.stringify(args));
  await page.getByRole("button", { name: "Run", exact: true }).click();
}

const connection = (page: Page) => page.evaluate("document.body.dataset.connection");

/**
 * A loopback HTTP proxy in front of `raw serve` that can cut the page's event stream: the page talks to the proxy,
 * the proxy to the server (with the server's own Host and Origin, so its checks still apply). `drop()` destroys the
 * open event streams on both sides; while `blocked`, new event streams are refused at the socket.
 */
async function streamProxy(target: string) {
  const upstream = new URL(target);
  const streams = new Set<{ res: ServerResponse; up: IncomingMessage }>();
  const state = { blocked: false, opened: 0 };
  const proxy = createServer((req, res) => {
    const isEvents = (req.url ?? "").endsWith("/events");
    if (isEvents && state.blocked) {
      req.socket.destroy();
      return;
    }
    const headers = { ...req.headers, host: upstream.host };
    if (headers.origin !== undefined) headers.origin = upstream.origin;
    const out = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
        if (isEvents) {
          state.opened += 1;
          const entry = { res, up };
          streams.add(entry);
          res.on("close", () => streams.delete(entry));
        }
      },
    );
    out.on("error", () => res.destroy());
    req.pipe(out);
  });
  proxies.push(proxy);
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", () => resolve()));
  const port = (proxy.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    state,
    drop() {
      for (const { res, up } of streams) {
        res.socket?.destroy();
        up.destroy();
      }
      streams.clear();
    },
  };
}

describe("the page recovers from a lost connection", () => {
  it("a dropped event stream: reconnecting, then live again; the pending form is shown again and answered", async () => {
    const served = await serve(["--cwd", tempDir("raw-serve-drop-")]);
    const proxy = await streamProxy(served.url);
    const { page, watch } = await openWatchedPage(browser, proxy.url);
    await expect.poll(() => connection(page)).toBe("live");
    await compose(page, "ask_user", QUESTION);
    const panel = page.locator("raw-panel");
    await expect.poll(() => panel.getByRole("button", { name: "Submit" }).isEnabled()).toBe(true);
    await panel.locator("input[name=why]").click();
    await page.keyboard.type("half typed");

    proxy.state.blocked = true;
    proxy.drop();
    await expect.poll(() => connection(page), { timeout: 10_000 }).toBe("reconnecting");
    expect(await page.locator("#connection").textContent()).toBe("Reconnecting…");
    expect(await panel.getAttribute("status")).toBe("reconnecting");
    await page.screenshot({ path: join(SCREENSHOTS, "serve-stream-dropped.png"), fullPage: true });

    const opened = proxy.state.opened;
    proxy.state.blocked = false;
    await expect.poll(() => connection(page), { timeout: 10_000 }).toBe("live");
    expect(proxy.state.opened).toBe(opened + 1);
    expect(await panel.getAttribute("status")).toBe("live");
    // The hello of the new stream drew the page again: the question still waits, the typing in progress is kept.
    expect(await panel.locator("input[name=why]").inputValue()).toBe("half typed");
    await panel.locator("input[name=why]").fill("because");
    await panel.getByRole("button", { name: "Submit" }).click();
    const call = page.locator("li.call").first();
    await expect.poll(() => call.getAttribute("data-status")).toBe("done");
    expect(JSON.parse((await call.locator(".result pre").textContent()) ?? "")).toEqual({
      status: "answered",
      answers: { why: "because" },
    });
    expect(watch.errors).toEqual([]);
    await page.close();
  });

  it("raw serve --state restarted after kill -9: same address, the page recovers without a reload", async () => {
    const cwd = tempDir("raw-serve-restart-");
    const state = join(tempDir("raw-serve-state-"), "state.db");
    const args = ["--cwd", cwd, "--rules", RULES, "--state", state];
    const first = await serve(args);
    expect(statSync(state).mode & 0o777).toBe(0o600);
    const { page, watch } = await openWatchedPage(browser, first.url);
    await expect.poll(() => connection(page)).toBe("live");

    // 1. An approval pending when the server dies is gone after the restart, never approvable.
    await compose(page, "write_file", { operations: [{ path: "a.txt", mode: "overwrite", content: "x" }] });
    const card = page.locator("article.approval");
    await expect.poll(() => card.count()).toBe(1);
    await kill(first.child);
    await expect.poll(() => connection(page), { timeout: 10_000 }).toBe("reconnecting");
    expect(await page.locator("#connection").textContent()).toBe("Reconnecting…");
    // A click while the server is down delivers nothing: the card says so and its buttons work again.
    await card.getByRole("button", { name: "Approve" }).click();
    await expect
      .poll(() => card.locator("p.error").textContent())
      .toBe("not connected: raw serve cannot be reached; try again");
    expect(await card.getByRole("button", { name: "Approve" }).isEnabled()).toBe(true);
    const second = await serve(args);
    expect(second.url).toBe(first.url);
    await expect.poll(() => connection(page), { timeout: 15_000 }).toBe("live");
    const oldApproval = (await card.getAttribute("data-approval")) as string;
    await expect.poll(() => card.getAttribute("data-gone")).toBe("");
    expect(await card.getByRole("button").count()).toBe(0);
    expect(await card.locator(".gone").textContent()).toBe(
      "Gone: raw serve restarted and the call that asked ended; it can no longer be approved.",
    );

    const stale = await rawRequest(`${second.url}api/approvals/${oldApproval}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ approved: true }),
    });
    expect(stale.status).toBe(404);
    expect(existsSync(join(cwd, "a.txt"))).toBe(false);

    // 2. A question pending when the server dies ends `interrupted`: shown as gone, an answer is refused.
    await compose(page, "ask_user", QUESTION);
    const panel = page.locator("raw-panel");
    await expect.poll(() => panel.getByRole("button", { name: "Submit" }).isEnabled()).toBe(true);
    const pending = JSON.parse((await rawRequest(`${second.url}api/state`)).body).interactions;
    expect(pending).toHaveLength(1);
    const oldId = pending[0].requestId as string;
    await kill(second.child);
    await expect.poll(() => connection(page), { timeout: 10_000 }).toBe("reconnecting");
    expect(await panel.getAttribute("status")).toBe("reconnecting");
    await page.screenshot({ path: join(SCREENSHOTS, "serve-restart-reconnecting.png"), fullPage: true });
    const third = await serve(args);
    expect(third.url).toBe(first.url);
    await expect.poll(() => connection(page), { timeout: 15_000 }).toBe("live");
    await expect
      .poll(() => page.locator(`[data-gone-interaction="${oldId}"]`).textContent())
      .toBe(
        "Gone: the question of builtin/ask_user#questions ended when raw serve restarted; it can no longer be answered.",
      );
    expect(await page.locator("raw-panel").count()).toBe(0);
    const late = await rawRequest(`${third.url}api/interactions/${oldId}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        response: "submit",
        expectedRevision: 1,
        idempotencyKey: "late",
        answers: { why: "late" },
      }),
    });
    expect(late.status).toBe(409);
    expect(JSON.parse(late.body).code).toBe("interaction_conflict");

    // 3. The same page, never reloaded, answers a new question of the restarted server.
    await compose(page, "ask_user", QUESTION);
    const again = page.locator("raw-panel");
    await expect.poll(() => again.getByRole("button", { name: "Submit" }).isEnabled()).toBe(true);
    await again.locator("input[name=why]").click();
    await page.keyboard.type("after restart");
    await again.getByRole("button", { name: "Submit" }).click();
    const call = page.locator("li.call").first();
    await expect.poll(() => call.getAttribute("data-status")).toBe("done");
    expect(JSON.parse((await call.locator(".result pre").textContent()) ?? "")).toEqual({
      status: "answered",
      answers: { why: "after restart" },
    });
    await page.screenshot({ path: join(SCREENSHOTS, "serve-restart-recovered.png"), fullPage: true });
    expect(watch.errors).toEqual([]);
    expect(watch.dialogs).toEqual([]);
    await page.close();

    // A second host on the same state file is refused while this one runs: it cannot take (or end) its questions.
    const other = spawnSync(process.execPath, [bin, "serve", ...args], { encoding: "utf8", timeout: 30_000 });
    expect(other.status).toBe(1);
    expect(other.stderr).toBe(
      "raw: interaction_store_busy: the database file is in use by another process\n",
    );
    expect(other.stdout).toBe("");

    // The token is printed once per run and nowhere else; the state file stays owner-only.
    expect(third.output()).toBe(
      `raw serve: open ${first.url}\n(the address carries this run's token; Ctrl-C stops the server)\n`,
    );
    expect(statSync(state).mode & 0o777).toBe(0o600);
    if (existsSync(`${state}-wal`)) expect(statSync(`${state}-wal`).mode & 0o777).toBe(0o600);
    expect(await third.stop()).toBe(0);
  });

  it("raw serve --state restarted after kill -9: the sidebar panels come back and their revisions continue", async () => {
    const cwd = tempDir("raw-serve-panels-");
    const state = join(tempDir("raw-serve-state-"), "state.db");
    const args = ["--cwd", cwd, "--rules", RULES, "--state", state];
    const first = await serve(args);
    const { page, watch } = await openWatchedPage(browser, first.url);
    await expect.poll(() => connection(page)).toBe("live");
    await compose(page, "todo", {
      mode: "replace",
      items: [
        { id: "a", label: "Write the tests", status: "in_progress" },
        { id: "b", label: "Ship", status: "pending" },
      ],
    });
    const panel = page.locator("raw-panel");
    await expect.poll(() => panel.locator("li[data-item=a]").getAttribute("data-status")).toBe("in_progress");
    const before = JSON.parse((await rawRequest(`${first.url}api/state`)).body).panels as Array<{
      fullId: string;
      revision: number;
    }>;
    expect(before.map((p) => p.fullId)).toEqual(["builtin/todo#todo"]);
    const revision = before[0]?.revision as number;

    await kill(first.child);
    await expect.poll(() => connection(page), { timeout: 10_000 }).toBe("reconnecting");
    const second = await serve(args);
    expect(second.url).toBe(first.url);
    await expect.poll(() => connection(page), { timeout: 15_000 }).toBe("live");
    // The restarted server starts from the kept panel: the same page shows it again, never reloaded.
    await expect
      .poll(() => page.locator("raw-panel li[data-item=a]").getAttribute("data-status"), { timeout: 10_000 })
      .toBe("in_progress");
    const after = JSON.parse((await rawRequest(`${second.url}api/state`)).body).panels as Array<{
      fullId: string;
      revision: number;
    }>;
    expect(after).toEqual([expect.objectContaining({ fullId: "builtin/todo#todo", revision })]);

    // The next change continues the panel's revisions.
    await compose(page, "todo", { mode: "merge", items: [{ id: "b", status: "in_progress" }] });
    await expect
      .poll(() => page.locator("raw-panel li[data-item=b]").getAttribute("data-status"))
      .toBe("in_progress");
    const next = JSON.parse((await rawRequest(`${second.url}api/state`)).body).panels as Array<{
      revision: number;
    }>;
    expect(next[0]?.revision).toBe(revision + 1);
    expect(await page.locator("raw-panel").count()).toBe(1);
    expect(watch.errors).toEqual([]);
    await page.close();
    expect(await second.stop()).toBe(0);
  });

  it("without --state a restart changes the token: the page says to reload with the new address", async () => {
    const cwd = tempDir("raw-serve-nostate-");
    const first = await serve(["--cwd", cwd]);
    const { page } = await openWatchedPage(browser, first.url);
    await expect.poll(() => connection(page)).toBe("live");
    await kill(first.child);
    await expect.poll(() => connection(page), { timeout: 10_000 }).toBe("reconnecting");
    const port = new URL(first.url).port;
    const second = await serve(["--cwd", cwd, "--port", port]);
    expect(second.url).not.toBe(first.url);
    expect(new URL(second.url).port).toBe(port);
    await expect.poll(() => connection(page), { timeout: 15_000 }).toBe("closed");
    expect(await page.locator("#connection").textContent()).toBe(
      "Disconnected: reload the page with the address raw serve printed",
    );
    await page.close();
    expect(await second.stop()).toBe(0);
  });

  it("with --state, a taken port moves the server to a free one with the same token; a bad kept address is replaced", async () => {
    const cwd = tempDir("raw-serve-port-");
    const state = join(tempDir("raw-serve-state-"), "state.db");
    const first = await serve(["--cwd", cwd, "--state", state]);
    // Stopped right after it printed its address: the stop signal is already heard, the exit is clean.
    expect(await first.stop()).toBe(0);
    const taken = createServer();
    proxies.push(taken);
    const port = Number(new URL(first.url).port);
    await new Promise<void>((resolve) => taken.listen(port, "127.0.0.1", () => resolve()));
    const second = await serve(["--cwd", cwd, "--state", state]);
    expect(new URL(second.url).port).not.toBe(String(port));
    expect(second.token).toBe(first.token);
    expect(await second.stop()).toBe(0);

    const { openStateStore, loadServeAddress, SERVE_ADDRESS_KEY } = await import(
      "../../src/support/state-store.js"
    );
    const store = await openStateStore(state, cwd);
    expect(loadServeAddress(store)).toEqual({ token: first.token, port: Number(new URL(second.url).port) });
    for (const bad of [null, "x", { token: "short", port: 80 }, { token: first.token, port: 70_000 }]) {
      store.savePanels(SERVE_ADDRESS_KEY, bad);
      const fresh = loadServeAddress(store);
      expect(fresh.token).toMatch(/^[A-Za-z0-9_-]{43}$/u);
      if (typeof bad === "object" && bad !== null && bad.token === first.token) {
        expect(fresh).toEqual({ token: first.token });
      } else {
        expect(fresh.token).not.toBe(first.token);
      }
    }
    store.close();
  });
});
