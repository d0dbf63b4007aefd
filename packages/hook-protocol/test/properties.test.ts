import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HOOK_EVENTS, isGateEvent, parseHookManifest, parseHookResponse } from "../src/index.js";

const SEED = 20_260_702;

describe("properties", () => {
  it("parseHookResponse never throws and follows the exit-status table", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...HOOK_EVENTS),
        fc.oneof(
          fc.uint8Array({ maxLength: 64 }),
          fc.json().map((text) => new TextEncoder().encode(text)),
        ),
        fc.option(fc.integer({ min: -1, max: 256 }), { nil: null }),
        fc.option(fc.constantFrom("SIGTERM", "SIGKILL"), { nil: null }),
        (event, stdout, exitCode, signal) => {
          const response = parseHookResponse(event, { stdout, exitCode, signal, id: "agent/p" });
          if (signal || (exitCode !== 0 && !(exitCode === 2 && isGateEvent(event)))) {
            expect(response).toEqual({ outcome: "error", code: "exit", reason: "hook agent/p failed: exit" });
          } else if (exitCode === 2) {
            expect(response.outcome).not.toBe("continued");
          }
          if (!isGateEvent(event)) expect(response.outcome).not.toBe("denied");
          if (response.outcome === "error")
            expect(response.reason).toBe(`hook agent/p failed: ${response.code}`);
        },
      ),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it("parseHookManifest never throws and every issue has a code, a message and a pointer", () => {
    const field = fc.constantFrom(
      "protocol_version",
      "name",
      "events",
      "command",
      "args",
      "timeout_ms",
      "extra",
    );
    const manifest = fc.dictionary(field, fc.jsonValue(), { maxKeys: 7 });
    fc.assert(
      fc.property(fc.oneof(manifest, fc.jsonValue()), (value) => {
        const result = parseHookManifest(value, { expectedName: "guard" });
        if (!result.ok) {
          expect(result.issues.length).toBeGreaterThan(0);
          for (const issue of result.issues) {
            expect(issue.code).toMatch(/^[a-z_]+$/);
            expect(typeof issue.message).toBe("string");
            expect(issue.path === "" || issue.path?.startsWith("/")).toBe(true);
          }
        }
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });
});
