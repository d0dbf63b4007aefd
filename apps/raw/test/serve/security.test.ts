import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appRoot, tempDir } from "../cli/helpers.js";
import { rawRequest, type ServeProcess, startServeProcess } from "./serve-process.js";

let serve: ServeProcess;
let cwd: string;

beforeAll(async () => {
  cwd = tempDir("raw-serve-sec-");
  serve = await startServeProcess(["--cwd", cwd], appRoot);
});
afterAll(async () => {
  expect(await serve.stop()).toBe(0);
});

/** A JSON POST with extra headers. */
const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  rawRequest(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

describe("raw serve refuses what it should, and changes nothing", () => {
  it("binds to loopback and prints a URL that carries a long random token", () => {
    expect(serve.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/u);
    expect(serve.token).toMatch(/^[A-Za-z0-9_-]{43}$/u);
  });

  it("answers 401 without the token or with a wrong one, on every path", async () => {
    for (const path of [
      "/",
      "/api/state",
      "/events",
      "/app.js",
      `/${serve.token.slice(0, -1)}x/api/state`,
      `/x${serve.token}/`,
    ]) {
      const res = await rawRequest(`${serve.origin}${path}`);
      expect(res.status, path).toBe(401);
      expect(JSON.parse(res.body).code).toBe("token_required");
    }
    const post = await rawRequest(`${serve.origin}/api/calls`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tool: "todo", arguments: {} }),
    });
    expect(post.status).toBe(401);
  });

  it("answers 405 to a wrong method and 403 to a foreign Host, Origin or site", async () => {
    const base = `${serve.origin}/${serve.token}`;
    expect((await rawRequest(`${base}/api/calls`)).status).toBe(405);
    expect(
      (
        await rawRequest(`${base}/api/state`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "{}",
        })
      ).status,
    ).toBe(405);
    expect((await rawRequest(`${base}/api/state`, { method: "DELETE" })).status).toBe(405);
    expect((await rawRequest(`${base}/api/state`, { headers: { host: "evil.example:80" } })).status).toBe(
      403,
    );
    const call = {
      tool: "write_file",
      arguments: { operations: [{ path: "x.txt", mode: "overwrite", content: "pwned" }] },
    };
    expect((await postJson(`${base}/api/calls`, call, { origin: "http://evil.example" })).status).toBe(403);
    expect((await postJson(`${base}/api/calls`, call, { "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect((await postJson(`${base}/api/calls`, call, { "content-type": "text/plain" })).status).toBe(415);
    // Nothing ran: the timeline is empty.
    const state = JSON.parse((await rawRequest(`${base}/api/state`)).body);
    expect(state.calls).toEqual([]);
  });

  it("sends a strict Content-Security-Policy and no CORS header", async () => {
    const res = await rawRequest(`${serve.origin}/${serve.token}/`, {
      headers: { origin: "http://evil.example" },
    });
    expect(res.status).toBe(200);
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/u);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers["access-control-allow-origin"]).toBeUndefined();
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["referrer-policy"]).toBe("no-referrer");
  });

  it("answers bad bodies and unknown things with a code, never a stack", async () => {
    const base = `${serve.origin}/${serve.token}`;
    const bad = await rawRequest(`${base}/api/calls`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{nope",
    });
    expect([bad.status, JSON.parse(bad.body).code]).toEqual([400, "body_invalid"]);
    const unknown = await postJson(`${base}/api/calls`, { tool: "nosuch", arguments: {} });
    expect([unknown.status, JSON.parse(unknown.body).code]).toEqual([404, "tool_unknown"]);
    const approval = await postJson(`${base}/api/approvals/nope`, { approved: true });
    expect([approval.status, JSON.parse(approval.body).code]).toEqual([404, "approval_unknown"]);
    const big = await rawRequest(`${base}/api/calls`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: `"${"x".repeat(1_100_000)}"`,
    });
    expect([big.status, JSON.parse(big.body).code]).toEqual([400, "body_too_large"]);
    for (const res of [bad, unknown, approval, big]) expect(res.body).not.toMatch(/\bat .*\.js:\d+/u);
  });

  it("refuses a non-loopback address", async () => {
    const { raw } = await import("../cli/helpers.js");
    const run = raw(["serve", "--host", "0.0.0.0", "--cwd", tempDir()]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("host_not_loopback");
  });
});

describe("raw serve --state", () => {
  it("keeps pending questions in the SQLite file", async () => {
    const dir = tempDir("raw-serve-state-");
    const state = `${dir}/state.db`;
    const served = await startServeProcess(["--cwd", dir, "--state", state], appRoot);
    const base = `${served.origin}/${served.token}`;
    const call = await postJson(`${base}/api/calls`, {
      tool: "ask_user",
      arguments: { questions: [{ id: "why", label: "Why?", kind: "text" }] },
    });
    expect(call.status).toBe(202);
    let pending = 0;
    for (let i = 0; i < 100 && pending === 0; i++) {
      pending = JSON.parse((await rawRequest(`${base}/api/state`)).body).interactions.length;
      if (pending === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(pending).toBe(1);
    const { default: Database } = await import("better-sqlite3");
    // While it serves, the file is this host's alone: another process cannot even read it.
    expect(() => {
      const held = new Database(state, { readonly: true, timeout: 100 });
      try {
        held.prepare("SELECT count(*) AS n FROM raw_interactions").get();
      } finally {
        held.close();
      }
    }).toThrow(expect.objectContaining({ code: "SQLITE_BUSY" }));
    expect(await served.stop()).toBe(0);
    // Stopping ends the question it was asking (the call ended with the server): kept in the file as interrupted.
    const db = new Database(state, { readonly: true });
    const rows = db.prepare("SELECT state, revision FROM raw_interactions").all();
    db.close();
    expect(rows).toEqual([{ state: "interrupted", revision: 2 }]);
  });
});
