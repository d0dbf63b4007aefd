import { fileURLToPath } from "node:url";
import { checkPackageImports, importCycles, repositoryPackages } from "@raw/test-support/layering";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../..", import.meta.url));

describe("@raw/validate's imports", () => {
  const pkg = repositoryPackages(root).find((p) => p.name === "@raw/validate");

  it("is read with its sources", () => {
    expect(pkg?.files.length).toBeGreaterThan(10);
  });

  it("has no undeclared, upward, sideways or source-reaching import", () => {
    expect(pkg === undefined ? ["missing"] : checkPackageImports(pkg)).toEqual([]);
  });

  it("has no import cycle between its src/ files", () => {
    expect(pkg === undefined ? ["missing"] : importCycles(pkg)).toEqual([]);
  });
});
