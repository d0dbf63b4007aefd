import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { BUNDLED_TOOL_NAMES, bundledToolFolders } from "../src/index.js";
import { BUNDLED_TOOLS } from "../src/manifests.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const work = realpathSync(mkdtempSync(join(tmpdir(), "raw-tools-install-")));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** What `bundledToolFolders()` returns to a script in `cwd` that imports (ESM) or requires (CJS) `@raw/tools`. */
function foldersFrom(cwd: string, format: "esm" | "cjs"): unknown {
  const script =
    format === "esm"
      ? 'import("@raw/tools").then((m) => console.log(JSON.stringify(m.bundledToolFolders())))'
      : 'console.log(JSON.stringify(require("@raw/tools").bundledToolFolders()))';
  return JSON.parse(execFileSync(process.execPath, ["-e", script], { cwd, encoding: "utf8" }));
}

describe("bundledToolFolders", () => {
  it("lists every bundled tool as builtin/<name>, in the order of BUNDLED_TOOL_NAMES and BUNDLED_TOOLS", () => {
    const folders = bundledToolFolders();
    expect(folders.map((folder) => folder.name)).toEqual([...BUNDLED_TOOL_NAMES]);
    expect(folders.map((folder) => folder.identity)).toEqual(
      BUNDLED_TOOL_NAMES.map((name) => `builtin/${name}`),
    );
    expect(BUNDLED_TOOLS.map((tool) => tool.id)).toEqual([...BUNDLED_TOOL_NAMES]);
  });

  it("gives absolute real folders of this package, each holding the tool.json of its name", () => {
    for (const folder of bundledToolFolders()) {
      expect(isAbsolute(folder.dir)).toBe(true);
      expect(realpathSync(folder.dir)).toBe(folder.dir);
      expect(folder.dir).toBe(join(realpathSync(packageDir), "tools", folder.name));
      const manifest = JSON.parse(readFileSync(join(folder.dir, "tool.json"), "utf8")) as { id: string };
      expect(manifest.id).toBe(folder.name);
    }
  });

  it.each(["esm", "cjs"] as const)(
    "the built %s entry, installed as a copy of the packed files under a linked node_modules, finds the copy's folders",
    (format) => {
      // The files npm packs ("files": dist, tools, LICENSE, plus package.json), installed where a consumer has them;
      // the consumer reaches the package through a symbolic link, as workspaces and pnpm do.
      const store = join(work, `store-${format}`, "tools");
      mkdirSync(store, { recursive: true });
      for (const entry of ["package.json", "dist", "tools", "LICENSE"]) {
        cpSync(join(packageDir, entry), join(store, entry), { recursive: true });
      }
      const consumer = join(work, `consumer-${format}`);
      mkdirSync(join(consumer, "node_modules", "@raw"), { recursive: true });
      symlinkSync(store, join(consumer, "node_modules", "@raw", "tools"), "dir");
      const folders = foldersFrom(consumer, format) as Array<{ name: string; identity: string; dir: string }>;
      expect(folders).toEqual(
        BUNDLED_TOOL_NAMES.map((name) => ({
          name,
          identity: `builtin/${name}`,
          dir: join(store, "tools", name),
        })),
      );
      // Each entry of the copy imports the copy's built module (no file outside the installed package).
      for (const folder of folders) {
        const entry = pathToFileURL(join(folder.dir, "index.mjs")).href;
        const script = `import(${JSON.stringify(entry)}).then((m) => console.log(Object.keys(m).sort().join()))`;
        const names = execFileSync(process.execPath, ["-e", script], {
          cwd: consumer,
          encoding: "utf8",
        }).trim();
        const tool = BUNDLED_TOOLS.find((t) => t.id === folder.name);
        expect(names, folder.name).toBe([...(tool?.exports ?? [])].sort().join());
      }
    },
  );
});
