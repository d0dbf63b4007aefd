import { fileURLToPath } from "node:url";
import {
  checkPackageImports,
  importCycles,
  importSpecifiers,
  type PackageImports,
  repositoryPackages,
} from "@raw/test-support/layering";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../..", import.meta.url));

/** A package that is not on disk: its name, what its package.json declares, and its files. */
function fixture(name: string, declared: string[], files: Record<string, string>): PackageImports {
  return {
    name,
    dir: `/repo/packages/${name.slice("@raw/".length)}`,
    declared,
    files: Object.entries(files).map(([path, text]) => ({ path, text })),
  };
}

describe("the import check, on planted bad imports", () => {
  it("refuses an upward import of a package not declared in package.json", () => {
    const predicate = fixture("@raw/predicate", ["@raw/schema"], {
      "src/bad.ts":
        'import { createToolRegistry } from "@raw/tool-api";\nimport { pointer } from "@raw/schema";\n',
    });
    expect(checkPackageImports(predicate)).toEqual([
      {
        package: "@raw/predicate",
        file: "src/bad.ts",
        specifier: "@raw/tool-api",
        rule: "undeclared_dependency",
      },
      { package: "@raw/predicate", file: "src/bad.ts", specifier: "@raw/tool-api", rule: "layering" },
    ]);
  });

  it("refuses a sideways import even when package.json declares it (hook-protocol → tool-api)", () => {
    const hooks = fixture("@raw/hook-protocol", ["@raw/schema", "@raw/predicate", "@raw/tool-api"], {
      "src/gate.ts": 'export type { PreToolUseGate } from "@raw/tool-api";\n',
      "src/lazy.ts": 'export const load = () => import("@raw/tool-api");\n',
    });
    expect(checkPackageImports(hooks)).toEqual([
      { package: "@raw/hook-protocol", file: "src/gate.ts", specifier: "@raw/tool-api", rule: "layering" },
      { package: "@raw/hook-protocol", file: "src/lazy.ts", specifier: "@raw/tool-api", rule: "layering" },
    ]);
  });

  it("refuses a path into another package's files, by name or by a relative path", () => {
    const tools = fixture("@raw/tool-api", ["@raw/schema", "@raw/panel"], {
      "src/a.ts": 'import { checkBlock } from "@raw/panel/src/blocks/catalog.js";\n',
      "src/b.ts": 'import { stepPanel } from "../../panel/src/host.js";\n',
      "src/c.ts": 'import { ok } from "./own.js";\nimport { deeper } from "../src/d.js";\n',
    });
    expect(checkPackageImports(tools)).toEqual([
      {
        package: "@raw/tool-api",
        file: "src/a.ts",
        specifier: "@raw/panel/src/blocks/catalog.js",
        rule: "source_reach",
      },
      {
        package: "@raw/tool-api",
        file: "src/b.ts",
        specifier: "../../panel/src/host.js",
        rule: "source_reach",
      },
    ]);
  });

  it("refuses a node: module in browser code", () => {
    const web = fixture("@raw/panel-web", ["@raw/panel"], {
      "src/x.ts":
        'import { readFileSync } from "node:fs";\nimport { join } from "path";\nimport { validatePanelDocument } from "@raw/panel";\n',
    });
    expect(checkPackageImports(web).map((v) => [v.specifier, v.rule])).toEqual([
      ["node:fs", "node_in_browser"],
      ["path", "node_in_browser"],
    ]);
  });

  it("reads imports, not text: comments and strings that mention a package are not imports", () => {
    const text = [
      '// import { x } from "@raw/tool-api";',
      '/** @deprecated import from "@raw/panel/host" */',
      'const s = "import(\\"@raw/mcp\\")";',
      'export { y } from "@raw/schema";',
      'const z = require("@raw/predicate");',
    ].join("\n");
    expect(importSpecifiers(text)).toEqual(["@raw/schema", "@raw/predicate"]);
  });
});

describe("the cycle check, on planted cycles", () => {
  it("finds a cycle of two files, a longer one through type-only imports, and a file importing itself", () => {
    const pkg = fixture("@raw/effects", ["@raw/schema"], {
      "src/a.ts": 'import { b } from "./b.js";\nexport const a = 1;\n',
      "src/b.ts": 'import type { A } from "./a.js";\nexport const b = 2;\n',
      "src/m.ts": 'import type { R } from "./r.js";\n',
      "src/r.ts": 'export type { T } from "./t.js";\n',
      "src/t.ts": 'import type { M } from "./m.js";\nimport { a } from "./a.js";\n',
      "src/self.ts": 'export * from "./self.js";\n',
    });
    expect(importCycles(pkg)).toEqual([
      { package: "@raw/effects", files: ["src/a.ts", "src/b.ts", "src/a.ts"] },
      { package: "@raw/effects", files: ["src/m.ts", "src/r.ts", "src/t.ts", "src/m.ts"] },
      { package: "@raw/effects", files: ["src/self.ts", "src/self.ts"] },
    ]);
  });

  it("resolves folders and index files, and accepts a DAG (shared leaf imported from many files)", () => {
    const dag = fixture("@raw/cli", [], {
      "src/commands/definitions.ts": 'import type { X } from "./shared.js";\n',
      "src/commands/call.ts":
        'import { defs } from "./definitions.js";\nimport type { X } from "./shared.js";\n',
      "src/commands/shared.ts": 'import { io } from "../support/index.js";\n',
      "src/support/index.ts": "export const io = 1;\n",
    });
    expect(importCycles(dag)).toEqual([]);
    const cyclic = fixture("@raw/cli", [], {
      ...Object.fromEntries(dag.files.map((file) => [file.path, file.text])),
      "src/support/index.ts": 'import { call } from "../commands/call";\n',
    });
    expect(importCycles(cyclic)).toEqual([
      {
        package: "@raw/cli",
        files: [
          "src/commands/call.ts",
          "src/commands/shared.ts",
          "src/support/index.ts",
          "src/commands/call.ts",
        ],
      },
    ]);
  });

  it("ignores comments, strings and imports of other packages", () => {
    const pkg = fixture("@raw/panel", ["@raw/schema"], {
      "src/a.ts": '// import { b } from "./b.js";\nimport { x } from "@raw/schema";\n',
      "src/b.ts": 'import { a } from "./a.js";\nconst s = "./b.js";\n',
    });
    expect(importCycles(pkg)).toEqual([]);
  });
});

describe("the repository", () => {
  const packages = repositoryPackages(root);

  it("reads every workspace package, with its sources", () => {
    const names = packages.map((pkg) => pkg.name).sort();
    expect(names).toEqual(
      expect.arrayContaining([
        "@raw/cli",
        "@raw/panel",
        "@raw/tool-api",
        "@raw/hook-protocol",
        "@raw/panel-web",
      ]),
    );
    for (const pkg of packages) expect(pkg.files.length, pkg.name).toBeGreaterThan(0);
  });

  it("has no undeclared, upward, sideways or source-reaching import in any src/ file", () => {
    expect(packages.flatMap((pkg) => checkPackageImports(pkg))).toEqual([]);
  });

  it("has no import cycle between the src/ files of one package", () => {
    expect(packages.flatMap((pkg) => importCycles(pkg))).toEqual([]);
  });
});
