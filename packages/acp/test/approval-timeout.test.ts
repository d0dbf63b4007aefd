import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ACP_APPROVAL_TIMEOUT_MS, approvalTimeoutOf, MAX_ACP_APPROVAL_TIMEOUT_MS } from "../src/index.js";
import { connect, expectAllValid, updatesOf, workdir, writeArgs } from "./support.js";

describe("approval timeout: a permission request the client never answers", () => {
  it("is withdrawn with $/cancel_request after approvalTimeoutMs and the call ends approval_denied; a late allow never writes", async () => {
    const cwd = workdir();
    let late: Promise<void> | undefined;
    const c = await connect({
      cwd,
      extra: { approvalTimeoutMs: 150 },
      script: {
        permission: () => {
          const answer = new Promise((resolve) =>
            setTimeout(() => resolve({ outcome: { outcome: "selected", optionId: "allow_once" } }), 400),
          );
          late = answer.then(() => undefined);
          return answer;
        },
      },
    });
    const s = await c.newSession();
    const r = await c.prompt(s, `write_file ${writeArgs("a.txt")}`);
    expect(r.stopReason).toBe("end_turn");
    const last = updatesOf(c.updates, "tool_call_update").at(-1);
    expect(last).toMatchObject({ status: "failed", rawOutput: { code: "approval_denied" } });
    expect((c.sent as any[]).some((m) => m.method === "$/cancel_request")).toBe(true);
    await late;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(existsSync(join(cwd, "a.txt"))).toBe(false);
    // The session stays usable.
    const again = await c.prompt(s, "/tools");
    expect(again.stopReason).toBe("end_turn");
    expectAllValid(c.sent);
  });

  it("the timeout is a named default (30 min), configurable, and bounded", () => {
    expect(approvalTimeoutOf(undefined)).toBe(ACP_APPROVAL_TIMEOUT_MS);
    expect(ACP_APPROVAL_TIMEOUT_MS).toBe(1_800_000);
    expect(approvalTimeoutOf(5_000)).toBe(5_000);
    for (const bad of [0, -1, 1.5, "10", MAX_ACP_APPROVAL_TIMEOUT_MS + 1]) {
      expect(() => approvalTimeoutOf(bad)).toThrow(/approvalTimeoutMs/);
    }
  });
});
