import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { connect, expectAllValid, updatesOf, workdir, writeArgs } from "./support.js";

describe("smoke", () => {
  it("allow once writes", async () => {
    const cwd = workdir();
    const c = await connect({
      cwd,
      script: { permission: () => ({ outcome: { outcome: "selected", optionId: "allow_once" } }) },
    });
    const s = await c.newSession();
    const r = await c.prompt(s, `write_file ${writeArgs("a.txt")}`);
    expect(r.stopReason).toBe("end_turn");
    console.log(JSON.stringify(c.updates, null, 1).slice(0, 3000));
    console.log(JSON.stringify(c.permissions[0], null, 1));
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("hello\n");
    expectAllValid(c.sent);
    void existsSync;
    void updatesOf;
  });
});
