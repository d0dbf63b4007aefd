import { execFileSync, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appRoot, bin } from "../cli/helpers.js";

// acpx (a headless ACP client, npm) needs Node >= 22.13: Node 24 comes from the npm registry's `node` package, as in
// scripts/test-node24.sh, installed with acpx into a temp folder; `raw acp` runs from this package's build under it.
const ACPX_VERSION = "0.19.1";
let tools = "";
let node24 = "";
let acpx = "";

beforeAll(() => {
  tools = mkdtempSync(join(tmpdir(), "raw-acpx-"));
  // The `node` package installs its binary in a preinstall script: allowed here, and only for it.
  writeFileSync(join(tools, "package.json"), '{ "private": true, "allowScripts": { "node": true } }\n');
  execFileSync(
    "npm",
    [
      "install",
      "--no-save",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      "--prefix",
      tools,
      "node@24",
      `acpx@${ACPX_VERSION}`,
    ],
    { stdio: "ignore", timeout: 170_000 },
  );
  node24 = join(tools, "node_modules", "node", "bin", "node");
  acpx = join(tools, "node_modules", "acpx", "package.json");
  const main = JSON.parse(readFileSync(acpx, "utf8")) as { bin: string | Record<string, string> };
  acpx = join(
    tools,
    "node_modules",
    "acpx",
    typeof main.bin === "string" ? main.bin : (main.bin.acpx as string),
  );
  expect(execFileSync(node24, ["--version"], { encoding: "utf8" })).toMatch(/^v24\./);
}, 180_000);

afterAll(() => {
  if (tools !== "") rmSync(tools, { recursive: true, force: true });
});

/** Runs `acpx --agent "<node24> <raw> acp" <policy> --format json exec <prompt>` in `cwd`; the JSON-RPC trace. */
function exec(
  cwd: string,
  policy: "--approve-all" | "--deny-all",
  prompt: string,
  agent = `${node24} ${bin} acp`,
): any[] {
  const run = spawnSync(
    node24,
    [acpx, "--agent", agent, "--cwd", cwd, policy, "--format", "json", "exec", prompt],
    {
      cwd,
      encoding: "utf8",
      timeout: 60_000,
      env: { ...process.env, PATH: `${join(node24, "..")}:${process.env.PATH}` },
    },
  );
  return run.stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line));
}

const write = (path: string) =>
  `write_file ${JSON.stringify({ operations: [{ path, mode: "overwrite", content: "hi\n" }] })}`;

function updates(trace: any[]): any[] {
  return trace.filter((m) => m.method === "session/update").map((m) => m.params.update);
}

describe(`raw acp driven by acpx ${ACPX_VERSION} on Node 24`, () => {
  it("--approve-all: the tool card (edit, locations), the four options, allow_once, the file written", () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), "raw-acpx-cwd-")));
    const trace = exec(cwd, "--approve-all", write("a.txt"));
    expect(trace.find((m) => m.result?.protocolVersion)?.result.protocolVersion).toBe(1);
    expect(updates(trace).find((u) => u.sessionUpdate === "tool_call")).toMatchObject({
      kind: "edit",
      locations: [{ path: join(cwd, "a.txt") }],
    });
    const asked = trace.find((m) => m.method === "session/request_permission");
    expect(asked.params.options.map((o: any) => o.kind)).toEqual([
      "allow_once",
      "allow_always",
      "reject_once",
      "reject_always",
    ]);
    expect(trace.find((m) => m.id === asked.id && m.result?.outcome)?.result.outcome.optionId).toBe(
      "allow_once",
    );
    expect(
      updates(trace)
        .filter((u) => u.sessionUpdate === "tool_call_update")
        .at(-1).status,
    ).toBe("completed");
    expect(trace.find((m) => m.result?.stopReason)?.result.stopReason).toBe("end_turn");
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("hi\n");
  }, 60_000);

  it("--deny-all: reject_once, the call failed with approval_denied, nothing written", () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), "raw-acpx-cwd-")));
    const trace = exec(cwd, "--deny-all", write("b.txt"));
    const asked = trace.find((m) => m.method === "session/request_permission");
    expect(trace.find((m) => m.id === asked.id && m.result?.outcome)?.result.outcome.optionId).toBe(
      "reject_once",
    );
    expect(
      updates(trace)
        .filter((u) => u.sessionUpdate === "tool_call_update")
        .at(-1),
    ).toMatchObject({
      status: "failed",
      rawOutput: { code: "approval_denied" },
    });
    expect(trace.find((m) => m.result?.stopReason)?.result.stopReason).toBe("end_turn");
    expect(existsSync(join(cwd, "b.txt"))).toBe(false);
  }, 60_000);
});

/** The scripted ACP agent and the protect hook of @raw/acp's gate tests. */
const GATE_AGENT = join(appRoot, "..", "..", "packages", "acp", "test", "fixtures", "gate-agent.mjs");
const PROTECT_HOOK = join(appRoot, "..", "..", "packages", "acp", "test", "fixtures", "protect");
const SHUFFLED = [
  { optionId: "no-forever", name: "Never", kind: "reject_always" },
  { optionId: "yes", name: "Yes", kind: "allow_once" },
  { optionId: "no", name: "No", kind: "reject_once" },
  { optionId: "yes-forever", name: "Always", kind: "allow_always" },
];

describe(`raw acp proxy in front of an SDK agent, driven by acpx ${ACPX_VERSION} on Node 24`, () => {
  it("--approve-all cannot override the gate: a hook-denied write and a self-declared read stay refused", () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), "raw-acpx-gate-")));
    mkdirSync(join(cwd, "protected"));
    const rules = join(cwd, "rules.json");
    writeFileSync(
      rules,
      JSON.stringify([
        { match: "acp/*/fs/*", effect: "allow" },
        { match: "acp/*/tool/read", effect: "allow" },
      ]),
    );
    const agent = `${node24} ${bin} acp proxy --rules ${rules} --hook ${PROTECT_HOOK} -- ${node24} ${GATE_AGENT}`;
    const read = (path: string, toolCallId: string) => ({
      request: "session/request_permission",
      params: {
        toolCall: { toolCallId, title: "Read", kind: "read", locations: [{ path }] },
        options: SHUFFLED,
      },
    });
    const steps = [
      { request: "fs/write_text_file", params: { path: join(cwd, "ok.txt"), content: "fine\n" } },
      { request: "fs/write_text_file", params: { path: join(cwd, "protected", "x.txt"), content: "no\n" } },
      read(join(cwd, "protected", "key"), "r1"),
      read(join(cwd, "ok.txt"), "r2"),
    ];
    const trace = exec(cwd, "--approve-all", JSON.stringify(steps), agent);
    const results = updates(trace)
      .filter((u) => u.sessionUpdate === "agent_message_chunk" && u.content?.text?.startsWith("RESULT "))
      .map((u) => JSON.parse(u.content.text.slice(7)));
    expect(readFileSync(join(cwd, "ok.txt"), "utf8")).toBe("fine\n");
    expect(existsSync(join(cwd, "protected", "x.txt"))).toBe(false);
    expect(results[1].error.data).toMatchObject({ code: "hook_denied" });
    expect(results[2].result.outcome).toEqual({ outcome: "selected", optionId: "no" });
    expect(results[3].result.outcome).toEqual({ outcome: "selected", optionId: "yes" });
    // acpx never saw a permission request: the gate decided both.
    expect(trace.filter((m) => m.method === "session/request_permission")).toEqual([]);
    expect(
      updates(trace).filter((u) => u.sessionUpdate === "tool_call_update" && u.status === "failed"),
    ).toHaveLength(2);
    expect(trace.find((m) => m.result?.stopReason)?.result.stopReason).toBe("end_turn");
  }, 60_000);
});
