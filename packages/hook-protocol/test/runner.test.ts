import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildHookPayload, hookFailedMessage, runHook } from "../src/index.js";
import { hookOf, isGone, nodeHook, postPayload, prePayload, tempFolder, waitGone } from "./helpers.js";

const READ_STDIN = `let input = ""; process.stdin.setEncoding("utf8"); process.stdin.on("data", (c) => (input += c));`;

/** A Node hook that reads all of stdin, then prints `stdout` and exits with `code`. */
const respond = (stdout: string, code = 0) =>
  `${READ_STDIN} process.stdin.on("end", () => { process.stdout.write(${JSON.stringify(stdout)}); process.exitCode = ${code}; });`;

describe("runHook: responses from real processes", () => {
  const cases: Array<[string, string, number, Record<string, unknown>]> = [
    ["continue with empty stdout", "", 0, { outcome: "continued", decision: "continue" }],
    ["{} as continue", "{}\n", 0, { outcome: "continued", decision: "continue" }],
    [
      "deny by JSON",
      '{"decision":"deny","reason":"Review removal commands first"}',
      0,
      { outcome: "denied", decision: "deny", reason: "Review removal commands first" },
    ],
    [
      "deny by exit 2 over conflicting JSON",
      '{"decision":"continue"}',
      2,
      { outcome: "denied", decision: "deny", reason: "hook agent/test denied" },
    ],
    [
      "message passthrough",
      '{"message":"all good"}',
      0,
      { outcome: "continued", decision: "continue", message: "all good" },
    ],
    [
      "malformed JSON",
      '{"decision":',
      0,
      { outcome: "error", code: "invalid_output", reason: "hook agent/test failed: invalid_output" },
    ],
    [
      "two JSON objects",
      "{}\n{}\n",
      0,
      { outcome: "error", code: "invalid_output", reason: "hook agent/test failed: invalid_output" },
    ],
    [
      "an oversize reason",
      JSON.stringify({ decision: "deny", reason: "x".repeat(1025) }),
      0,
      { outcome: "error", code: "invalid_output", reason: "hook agent/test failed: invalid_output" },
    ],
    ["exit 1", "{}", 1, { outcome: "error", code: "exit", reason: "hook agent/test failed: exit" }],
  ];
  it.each(cases)("%s", async (_title, stdout, code, expected) => {
    const dir = await tempFolder({ "hook.mjs": respond(stdout, code) });
    const result = await runHook(nodeHook(dir, "hook.mjs"), prePayload(dir));
    const { receipt, ...response } = result;
    expect(response).toEqual(expected);
    expect(receipt.id).toBe("agent/test");
    expect(receipt.event).toBe("PreToolUse");
    expect(receipt.outcome).toBe(expected.outcome);
    expect(Number.isInteger(receipt.durationMs)).toBe(true);
    if (expected.code) expect(receipt.code).toBe(expected.code);
    else expect(receipt).not.toHaveProperty("code");
    if (expected.message) expect(receipt.message).toBe(expected.message);
    else expect(receipt).not.toHaveProperty("message");
  });

  it("writes exactly one JSON line, from the request's cwd, with the environment unchanged", async () => {
    const dir = await tempFolder({
      "hook.mjs": `import { writeFileSync } from "node:fs";
${READ_STDIN}
process.stdin.on("end", () => {
  writeFileSync("seen.json", JSON.stringify({ input, cwd: process.cwd(), env: process.env, argv: process.argv.slice(2) }));
});`,
    });
    const payload = prePayload(dir, { command: "echo 'a b' $HOME \"*\"\nnext" });
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", RAW_TEST: "1" };
    const hook = hookOf(process.execPath, [join(dir, "hook.mjs"), "$HOME", "*", "a b"]);
    const result = await runHook(hook, payload, { env });
    expect(result.outcome).toBe("continued");
    const seen = JSON.parse(await readFile(join(dir, "seen.json"), "utf8"));
    expect(seen.input).toBe(`${JSON.stringify(payload)}\n`);
    expect(seen.input.split("\n")).toHaveLength(2);
    expect(seen.cwd).toBe(dir);
    expect(seen.env).toEqual(env);
    expect(seen.argv).toEqual(["$HOME", "*", "a b"]);
  });

  it("survives a hook that exits without reading a large stdin (EPIPE)", async () => {
    const dir = await tempFolder({ "quick.sh": "#!/bin/sh\nexit 0\n" });
    const payload = prePayload(dir, { blob: "x".repeat(4 * 1024 * 1024) });
    const result = await runHook(hookOf(join(dir, "quick.sh"), []), payload);
    expect(result.outcome).toBe("continued");
  });

  it("reports death by a signal as exit", async () => {
    const dir = await tempFolder({ "die.sh": '#!/bin/sh\necho \'{"decision":"deny"}\'\nkill -KILL $$\n' });
    const result = await runHook(hookOf(join(dir, "die.sh"), []), prePayload(dir));
    expect(result).toMatchObject({ outcome: "error", code: "exit", reason: "hook agent/test failed: exit" });
  });

  it("keeps the last 4096 bytes of stderr on a character boundary for error receipts", async () => {
    const dir = await tempFolder({
      "err.mjs": `process.stderr.write("é".repeat(3000) + "END"); process.exitCode = 1;`,
      "fine.mjs": `process.stderr.write("note"); process.stdout.write("{}");`,
    });
    const failed = await runHook(nodeHook(dir, "err.mjs"), prePayload(dir));
    expect(failed.receipt.code).toBe("exit");
    const stderr = failed.receipt.stderr as string;
    expect(stderr.endsWith("END")).toBe(true);
    expect(stderr.startsWith("é")).toBe(true);
    expect(Buffer.byteLength(stderr)).toBeLessThanOrEqual(4096);
    expect(Buffer.byteLength(stderr)).toBeGreaterThanOrEqual(4093);
    const fine = await runHook(nodeHook(dir, "fine.mjs"), prePayload(dir));
    expect(fine.receipt).not.toHaveProperty("stderr");
  });

  it("treats decision on a notification as invalid_output", async () => {
    const dir = await tempFolder({ "hook.mjs": respond('{"decision":"continue"}') });
    const result = await runHook(nodeHook(dir, "hook.mjs"), postPayload(dir));
    expect(result).toMatchObject({ outcome: "error", code: "invalid_output" });
    expect(result.receipt.event).toBe("PostToolUse");
  });
});

describe("runHook: failures", () => {
  it("maps a missing command to spawn", async () => {
    const dir = await tempFolder();
    const result = await runHook(hookOf("raw-hook-definitely-missing-command", []), prePayload(dir));
    expect(result).toMatchObject({
      outcome: "error",
      code: "spawn",
      reason: hookFailedMessage("agent/test", "spawn"),
    });
    expect(result.receipt).toMatchObject({ outcome: "error", code: "spawn" });
  });

  it("maps a missing cwd and a non-executable file to spawn", async () => {
    const dir = await tempFolder({ "plain.sh": "" });
    const missingCwd = await runHook(hookOf("true", []), prePayload(dir), { cwd: join(dir, "nope") });
    expect(missingCwd.code).toBe("spawn");
    const { chmod } = await import("node:fs/promises");
    await chmod(join(dir, "plain.sh"), 0o644);
    if (process.getuid?.() !== 0) {
      const notExecutable = await runHook(hookOf(join(dir, "plain.sh"), []), prePayload(dir));
      expect(notExecutable.code).toBe("spawn");
    }
  });

  it("stops a 10 MB stdout flood at 1 MiB with output_too_large", async () => {
    const dir = await tempFolder({
      "flood.mjs": `process.stdout.write(Buffer.alloc(10 * 1024 * 1024, 97)); setInterval(() => {}, 1000);`,
    });
    const before = process.memoryUsage().rss;
    const result = await runHook(nodeHook(dir, "flood.mjs", 30_000), prePayload(dir));
    expect(result).toMatchObject({ outcome: "error", code: "output_too_large" });
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
  });

  it("stops an endless flood (nothing is buffered past the limit)", async () => {
    const result = await runHook(hookOf("yes", ["flood"], 30_000), prePayload(process.cwd()));
    expect(result).toMatchObject({ outcome: "error", code: "output_too_large" });
  });

  it("counts stderr against the output limit", async () => {
    const dir = await tempFolder({
      "err.mjs": `process.stderr.write(Buffer.alloc(2 * 1024 * 1024, 98)); setInterval(() => {}, 1000);`,
    });
    const result = await runHook(nodeHook(dir, "err.mjs", 30_000), prePayload(dir));
    expect(result.code).toBe("output_too_large");
    expect(result.receipt.stderr).toBe("b".repeat(4096));
  });

  it("kills the whole process group on timeout: no grandchild survives, even one ignoring SIGTERM", async () => {
    const dir = await tempFolder({
      "slow.sh": `#!/bin/sh
(trap '' TERM; exec sleep 30) &
echo $! > grandchild.pid
echo $$ > child.pid
sleep 30
`,
    });
    const result = await runHook(hookOf(join(dir, "slow.sh"), [], 1000), prePayload(dir));
    expect(result).toMatchObject({
      outcome: "error",
      code: "timeout",
      reason: "hook agent/test failed: timeout",
    });
    const child = Number(await readFile(join(dir, "child.pid"), "utf8"));
    const grandchild = Number(await readFile(join(dir, "grandchild.pid"), "utf8"));
    expect(await waitGone(child)).toBe(true);
    expect(await waitGone(grandchild)).toBe(true);
  });

  it("settles when a grandchild holds the pipes open after the hook exited", async () => {
    const dir = await tempFolder({ "bg.sh": "#!/bin/sh\nsleep 30 &\necho $! > grandchild.pid\nexit 0\n" });
    const result = await runHook(hookOf(join(dir, "bg.sh"), [], 1000), prePayload(dir));
    expect(result.code).toBe("timeout");
    expect(await waitGone(Number(await readFile(join(dir, "grandchild.pid"), "utf8")))).toBe(true);
  });

  it("uses the caller timeout when it is shorter", async () => {
    const result = await runHook(hookOf("sleep", ["30"], 60_000), prePayload(process.cwd()), {
      timeoutMs: 200,
    });
    expect(result.code).toBe("timeout");
  });

  it("aborts a running hook and kills it", async () => {
    const dir = await tempFolder({ "slow.sh": "#!/bin/sh\necho $$ > child.pid\nsleep 30\n" });
    const controller = new AbortController();
    const running = runHook(hookOf(join(dir, "slow.sh"), []), prePayload(dir), { signal: controller.signal });
    // The shell creates child.pid before it writes the pid: wait for a whole line.
    let pid = 0;
    while (pid <= 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (existsSync(join(dir, "child.pid")))
        pid = Number.parseInt(await readFile(join(dir, "child.pid"), "utf8"), 10) || 0;
    }
    controller.abort();
    const result = await running;
    expect(result).toMatchObject({
      outcome: "error",
      code: "aborted",
      reason: "hook agent/test failed: aborted",
    });
    expect(await waitGone(pid)).toBe(true);
  });

  it("spawns nothing when the signal is already aborted", async () => {
    const dir = await tempFolder({ "mark.sh": "#!/bin/sh\ntouch marker\n" });
    const controller = new AbortController();
    controller.abort();
    const result = await runHook(hookOf(join(dir, "mark.sh"), []), prePayload(dir), {
      signal: controller.signal,
    });
    expect(result).toMatchObject({ outcome: "error", code: "aborted" });
    expect(existsSync(join(dir, "marker"))).toBe(false);
  });

  it("hurries a running hook down to the grace period", async () => {
    const controller = new AbortController();
    const running = runHook(hookOf("sleep", ["30"], 60_000), prePayload(process.cwd()), {
      hurry: { signal: controller.signal, graceMs: 100 },
    });
    setTimeout(() => controller.abort(), 50);
    expect((await running).code).toBe("timeout");
  });

  it("refuses a request over 64 MiB without spawning", async () => {
    const dir = await tempFolder({ "mark.sh": "#!/bin/sh\ntouch marker\n" });
    const payload = prePayload(dir, { blob: "x".repeat(64 * 1024 * 1024) });
    const result = await runHook(hookOf(join(dir, "mark.sh"), []), payload);
    expect(result).toMatchObject({ outcome: "error", code: "input_too_large" });
    expect(existsSync(join(dir, "marker"))).toBe(false);
  });

  it("rejects a request that is not protocol_version 2", async () => {
    const payload = { ...buildHookPayload("SessionEnd", { cwd: process.cwd() }), protocol_version: 1 };
    await expect(runHook(hookOf("true", []), payload)).rejects.toMatchObject({
      code: "hook_protocol_version_unsupported",
    });
  });

  it("leaves no process behind after success", async () => {
    const dir = await tempFolder({ "ok.sh": "#!/bin/sh\necho $$ > child.pid\necho '{}'\n" });
    const result = await runHook(hookOf(join(dir, "ok.sh"), []), prePayload(dir));
    expect(result.outcome).toBe("continued");
    expect(isGone(Number(await readFile(join(dir, "child.pid"), "utf8")))).toBe(true);
  });
});
