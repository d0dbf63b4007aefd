import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe("examples/write-twice.ts", () => {
  it("streamText calls write_file twice: one runs unasked, one is asked, approved in the chat and runs once", async () => {
    const logged: string[] = [];
    vi.spyOn(console, "log").mockImplementation((...args) => {
      logged.push(args.map(String).join(" "));
    });
    vi.stubEnv("RAW_APPROVAL_SECRET", "a-test-secret-of-32-bytes-or-more!!");
    await import("../examples/write-twice.js");
    expect(logged).toEqual([
      "ran w1",
      "asked w2: approve builtin/write_file?",
      "ran w2",
      "Both files are written.",
      "# Notes export {};",
    ]);
  });
});
