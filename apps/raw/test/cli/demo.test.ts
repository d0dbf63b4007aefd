import { describe, expect, it } from "vitest";
import { raw } from "./helpers.js";

describe("raw demo (what npm start runs)", () => {
  it("runs the scripted session with every decision visible, and exits 0", () => {
    const run = raw(["demo"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const out = run.stdout;
    // 1. Policy asks because the effects touch config/, the script approves, the write happens.
    expect(out).toMatch(/ {2}policy {6}ask {8}rule 2 at examples\/rules\.json:4:3: /);
    expect(out).toContain("  approval    approved   by the demo script\n");
    expect(out).toMatch(/ {2}┆ {5}write \/.+\/config\/app\.json\n/);
    // 2. The guard hook denies the patch's move into protected/ before anyone is asked.
    expect(out).toMatch(
      / {2}effects {5}ok {9}rename_source \/.+\/notes\.txt\n {25}rename_destination \/.+\/protected\/notes\.txt\n/,
    );
    expect(out).toMatch(/ {2}hook {8}denied {5}PreToolUse local\/guard \(\d+ ms\)\n/);
    expect(out).toContain("  result      error      hook_denied\n");
    // 3. The conditional rm rule asks, the script approves, the command runs.
    expect(out).toMatch(/ {2}policy {6}ask {8}rule 3 at examples\/rules\.json:9:3: /);
    expect(out).toContain("removed 'a.tmp'");
    // 4. The todo panel over three calls.
    expect(out).toContain("▸ Release r1 · 0/3 · Run the tests");
    expect(out).toContain("▸ Release r2 · 1/3 · Write the release notes");
    expect(out).toContain("▸ Release r3 · 2/4");
    // 5. The form answered by the script.
    expect(out).toContain(
      'form "Release" — the script answers {"target":"staging","note":"ship after lunch"}',
    );
    expect(out.replace(/\s+/g, "")).toContain(
      '{"status":"answered","answers":{"target":"staging","note":"shipafterlunch"}}',
    );
    // The hook denial is said once: the receipt line names the hook, the result carries its reason.
    expect(out.match(/is inside a protected folder/g)).toHaveLength(1);
    expect(out.match(/ {2}hook {8}denied /g)).toHaveLength(1);
    // 6. Every listed hook visibly runs: notify reports the failed call, then the end of the run.
    expect(out).toContain("hooks: local/guard (PreToolUse), local/notify (PostToolUseFailure, Stop)\n");
    expect(out).toMatch(
      / {2}hook {8}continued {2}PostToolUseFailure local\/notify — bash failed: command_failed \(\d+ ms\)\n/,
    );
    expect(out).toMatch(
      / {2}hook {8}continued {2}Stop local\/notify — run completed after 8 steps \(\d+ ms\)\n/,
    );
    expect(out).toMatch(/\ndemo finished in \d+\.\d s: 8 calls, every decision shown above\n$/);
  }, 60_000);
});
