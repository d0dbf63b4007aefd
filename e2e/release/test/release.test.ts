import { spawnSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv, type LocalRegistry, run, startRegistry } from "./registry.js";
import { type Manifest, PUBLISHED_DIRS, publishedWorkspaces, readJson, repoRoot } from "./workspaces.js";

// Everything happens under one temporary folder outside the repository: the registry's storage, a staging copy of
// the workspaces that `changeset version` may rewrite, and one consumer project per package.
const work = mkdtempSync(join(tmpdir(), "raw-release-"));
const npmCache = join(process.env.HOME ?? tmpdir(), ".npm");
let registry: LocalRegistry;
const sizes: Record<string, number> = {};
/** The top-level entries of `node_modules` after each install alone (before the test tools are linked in). */
const installed: Record<string, string[]> = {};
const pendingChangesets = readdirSync(join(repoRoot, ".changeset")).sort();
const versionsBefore = Object.fromEntries(
  publishedWorkspaces().map(({ manifest }) => [manifest.name, manifest.version]),
);

/** Folders and files of a workspace that are not published and need not be staged. */
const UNSTAGED = new Set(["node_modules", "src", "test", ".turbo", "coverage"]);

/** Copies the published workspaces and the pending changesets into `staging`, as a repository of their own. */
function stage(staging: string, registryUrl: string): void {
  mkdirSync(staging, { recursive: true });
  writeFileSync(
    join(staging, "package.json"),
    `${JSON.stringify({ name: "raw-release-staging", private: true, workspaces: PUBLISHED_DIRS }, null, 2)}\n`,
  );
  cpSync(join(repoRoot, ".changeset"), join(staging, ".changeset"), { recursive: true });
  // The private workspaces (bench, this suite) are not staged, so nothing is left for changesets to ignore.
  const config = join(staging, ".changeset", "config.json");
  writeFileSync(config, `${JSON.stringify({ ...readJson<object>(config), ignore: [] }, null, 2)}\n`);
  for (const dir of PUBLISHED_DIRS) {
    const from = join(repoRoot, dir);
    cpSync(from, join(staging, dir), {
      recursive: true,
      filter: (source) => !UNSTAGED.has(relative(from, source).split(sep)[0] ?? ""),
    });
    // npm publishes with provenance only from a supported CI provider; the local registry has none to check.
    const file = join(staging, dir, "package.json");
    const manifest = readJson<Manifest>(file);
    // And the staged copy may only ever reach the local registry.
    const { provenance: _, ...publishConfig } = manifest.publishConfig ?? {};
    manifest.publishConfig = { ...publishConfig, registry: registryUrl };
    writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
  }
}

/** The environment of npm in a consumer project: its own user config, the shared cache, nothing from this run. */
function consumerEnv(dir: string): NodeJS.ProcessEnv {
  return cleanEnv({ npm_config_userconfig: join(dir, ".npmrc.user"), npm_config_cache: npmCache });
}

/** Creates an empty consumer project (CommonJS by default, like `npm init`) that takes `@raw/*` from the local registry. */
function consumer(name: string): string {
  const dir = join(work, "consumers", name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "package.json"),
    `${JSON.stringify({ name, version: "1.0.0", private: true }, null, 2)}\n`,
  );
  // The scope goes to the local registry only; every other package comes from npm's cache (or the public registry).
  writeFileSync(join(dir, ".npmrc"), `@raw:registry=${registry.url}\n`);
  writeFileSync(join(dir, ".npmrc.user"), "fund=false\naudit=false\nupdate-notifier=false\n");
  return dir;
}

/** Links the test runners and the compiler of this repository into a consumer (never installed there). */
function linkTools(dir: string): void {
  mkdirSync(join(dir, "node_modules", "@types"), { recursive: true });
  for (const name of ["jest", "vitest", "typescript", "@types/node"]) {
    symlinkSync(join(repoRoot, "node_modules", name), join(dir, "node_modules", name), "dir");
  }
}

/** `du -sk` of a folder. */
function kib(dir: string): number {
  return Number(run("du", ["-sk", dir], { cwd: dir, env: process.env }).split("\t")[0]);
}

/** Installs `spec` alone into a fresh consumer, checks where every `@raw/*` package came from, and records its size. */
function installAlone(name: string, args: string[]): string {
  const dir = consumer(name);
  run("npm", ["install", ...args, "--prefer-offline", "--no-audit", "--no-fund"], {
    cwd: dir,
    env: consumerEnv(dir),
  });
  const lock = readJson<{ packages: Record<string, { resolved?: string }> }>(join(dir, "package-lock.json"));
  const raw = Object.entries(lock.packages).filter(([path]) => path.startsWith("node_modules/@raw/"));
  expect(raw.length).toBeGreaterThan(0);
  for (const [path, entry] of raw) expect(entry.resolved, path).toMatch(new RegExp(`^${registry.url}`));
  sizes[args.at(-1) ?? name] = kib(join(dir, "node_modules"));
  installed[args.at(-1) ?? name] = readdirSync(join(dir, "node_modules"));
  linkTools(dir);
  return dir;
}

beforeAll(async () => {
  registry = await startRegistry(work);
  const staging = join(work, "staging");
  stage(staging, registry.url);
  const userconfig = join(work, "publish.npmrc");
  const host = registry.url.replace(/^http:/, "");
  writeFileSync(userconfig, `registry=${registry.url}\n${host}:_authToken=${registry.token}\n`);
  // changesets publishes to npm_config_registry (or npmjs when unset): pinned to the local registry.
  const env = cleanEnv({
    npm_config_userconfig: userconfig,
    npm_config_registry: registry.url,
    npm_config_cache: join(work, "publish-cache"),
  });
  const changeset = join(repoRoot, "node_modules", "@changesets", "cli", "bin.js");
  run(process.execPath, [changeset, "version"], { cwd: staging, env });
  const published = run(process.execPath, [changeset, "publish", "--no-git-tag"], { cwd: staging, env });
  expect(published).toMatch(/packages published successfully/);
}, 900_000);

afterAll(async () => {
  await registry?.stop();
  rmSync(work, { recursive: true, force: true });
  if (Object.keys(sizes).length > 0) console.log(`installed size alone (KiB): ${JSON.stringify(sizes)}`);
});

describe("changeset version + changeset publish", () => {
  it("published every package, at the version changesets computed, to the local registry", () => {
    const env = cleanEnv({
      npm_config_userconfig: join(work, "publish.npmrc"),
      npm_config_registry: registry.url,
    });
    for (const { dir, manifest } of publishedWorkspaces()) {
      const staged = readJson<Manifest>(join(work, "staging", dir, "package.json"));
      expect(staged.version, manifest.name).not.toBe(manifest.version);
      const latest = run("npm", ["view", manifest.name, "dist-tags.latest", "--prefer-online"], {
        cwd: work,
        env,
      });
      expect(latest.trim(), manifest.name).toBe(staged.version);
    }
  });
});

/** How each library is used by the consumer scripts: an ES module body, and what it prints. */
interface Library {
  name: string;
  /** Named imports. */
  imports: string[];
  /** Statements using them (no top-level await, so the same body runs in ESM, CJS and a test). */
  body: string;
  /** The exact lines the body logs. */
  prints: string[];
}

const LIBRARIES: Library[] = [
  {
    name: "@raw/tool-api",
    imports: ["createToolRegistry", "parseRules"],
    body: `
const rules = parseRules([{ match: "*", effect: "allow" }]);
if (!rules.ok) throw new Error("rules");
const registry = createToolRegistry({ rules: rules.rules });
registry.register({
  name: "greet",
  identity: "local/greet",
  description: "Greets someone by name.",
  inputSchema: { type: "object", additionalProperties: false, required: ["name"], properties: { name: { type: "string" } } },
  handler: (args: { name: string }) => ({ isError: false, content: [{ type: "text" as const, text: "hello " + args.name }] }),
});
const done = registry.dispatch({ name: "greet", arguments: { name: "ada" } }, { cwd: process.cwd() }).then((result) => {
  const first = result.content[0];
  log(first !== undefined && first.type === "text" ? first.text : "?");
});`,
    prints: ["hello ada"],
  },
  {
    name: "@raw/hook-protocol",
    imports: ["parseHookManifest"],
    body: `
const manifest = parseHookManifest({ protocol_version: 2, name: "notify", events: [{ name: "Stop" }], command: "node" });
log(String(manifest.ok));
const old = parseHookManifest({ protocol_version: 1, name: "notify", events: [{ name: "Stop" }], command: "node" });
log(old.ok ? "accepted" : (old.issues[0]?.code ?? "?"));
const done = Promise.resolve();`,
    prints: ["true", "hook_protocol_version_unsupported"],
  },
  {
    name: "@raw/panel",
    imports: ["renderPanelText", "validatePanelDocument"],
    body: `
const checked = validatePanelDocument({
  title: "Ship",
  blocks: [{ id: "tasks", kind: "checklist", title: "Tasks", items: [{ id: "t1", label: "Test", status: "done" }] }],
});
if (!checked.ok) throw new Error(checked.issues[0]?.message);
log(renderPanelText("Todo", checked.document).split("\\n").join("|"));
const done = Promise.resolve();`,
    prints: ["Ship (1/1)|## Tasks|[x] Test"],
  },
];

/** Strips the TypeScript-only annotations the bodies carry (the scripts are plain JavaScript). */
function javascript(body: string): string {
  return body.replace(/\(args: \{ name: string \}\)/g, "(args)").replace(/ as const/g, "");
}

describe.each(LIBRARIES)("npm install $name alone, in a fresh folder outside the repository", (library) => {
  let dir: string;
  const slug = library.name.replace("@raw/", "");
  const names = library.imports.join(", ");
  const expectOutput = (output: string) => expect(output.trim().split("\n")).toEqual(library.prints);

  beforeAll(() => {
    dir = installAlone(`consumer-${slug}`, [library.name]);
  }, 600_000);

  it("an ES module script imports and uses it", () => {
    const log = "const log = (line) => console.log(line);";
    writeFileSync(
      join(dir, "esm.mjs"),
      `import { ${names} } from "${library.name}";\n${log}\n${javascript(library.body)}\nawait done;\n`,
    );
    expectOutput(run(process.execPath, ["esm.mjs"], { cwd: dir, env: process.env }));
  });

  it("a CommonJS script requires and uses it, without require(esm)", () => {
    const log = "const log = (line) => console.log(line);";
    writeFileSync(
      join(dir, "cjs.cjs"),
      `const { ${names} } = require("${library.name}");\n${log}\n${javascript(library.body)}\n`,
    );
    expectOutput(
      run(process.execPath, ["--no-experimental-require-module", "cjs.cjs"], { cwd: dir, env: process.env }),
    );
  });

  it.each(["nodenext", "bundler"])(
    "TypeScript type-checks its use under moduleResolution %s (strict)",
    (mode) => {
      const log = "const log = (line: string): void => console.log(line);";
      const source = `import { ${names} } from "${library.name}";\n${log}\n${library.body}\nvoid done;\n`;
      // nodenext: one ES module (.mts) and one CommonJS (.cts) file; bundler: one .ts file.
      const files = mode === "nodenext" ? [`ts-${mode}.mts`, `ts-${mode}.cts`] : [`ts-${mode}.ts`];
      for (const file of files) writeFileSync(join(dir, file), source);
      const options = {
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        target: "es2022",
        lib: ["es2022"],
        types: ["node"],
        module: mode === "nodenext" ? "nodenext" : "esnext",
        moduleResolution: mode,
      };
      writeFileSync(
        join(dir, `tsconfig.${mode}.json`),
        JSON.stringify({ compilerOptions: options, files }, null, 2),
      );
      const tsc = join(dir, "node_modules", "typescript", "bin", "tsc");
      run(process.execPath, [tsc, "-p", `tsconfig.${mode}.json`], { cwd: dir, env: process.env });
    },
  );

  it("a Jest 30 test (CommonJS, this Node) requires and uses it", () => {
    const log = "const lines = []; const log = (line) => lines.push(line);";
    const expected = JSON.stringify(library.prints);
    writeFileSync(
      join(dir, "consumer.jest.cjs"),
      `const { ${names} } = require("${library.name}");\ntest("uses ${library.name}", async () => {\n${log}\n${javascript(library.body)}\nawait done;\nexpect(lines).toEqual(${expected});\n});\n`,
    );
    const jest = join(dir, "node_modules", "jest", "bin", "jest.js");
    const output = run(
      process.execPath,
      [jest, "--ci", "--rootDir", dir, "--testMatch", "**/consumer.jest.cjs", "--watchman=false"],
      { cwd: dir, env: { ...process.env, NODE_OPTIONS: "--no-experimental-require-module" } },
    );
    expect(output).toMatch(/Tests:\s+1 passed, 1 total/);
  });

  it("a vitest test imports and uses it", () => {
    const log = "const lines = []; const log = (line) => lines.push(line);";
    const expected = JSON.stringify(library.prints);
    writeFileSync(
      join(dir, "consumer.vitest.test.mjs"),
      `import { expect, test } from "vitest";\nimport { ${names} } from "${library.name}";\ntest("uses ${library.name}", async () => {\n${log}\n${javascript(library.body)}\nawait done;\nexpect(lines).toEqual(${expected});\n});\n`,
    );
    const vitest = join(dir, "node_modules", "vitest", "vitest.mjs");
    const output = run(process.execPath, [vitest, "run", "--root", dir, "consumer.vitest"], {
      cwd: dir,
      env: cleanEnv({ CI: "1" }),
    });
    expect(output).toMatch(/1 passed/);
  });

  it("a subpath it does not export fails with one line that names the package and what to import", () => {
    const esm = spawnSync(
      process.execPath,
      ["--input-type=module", "-e", `import "${library.name}/dist/index.js";`],
      {
        cwd: dir,
        encoding: "utf8",
      },
    );
    expect(esm.status).toBe(1);
    expect(esm.stderr).toContain(
      `${library.name}: this subpath is not a public entry point; import "${library.name}"`,
    );
    expect(esm.stderr).not.toMatch(/^\s+at /m);
    const probe = `try { require("${library.name}/dist/index.js") } catch (e) { console.log(e.code); console.log(e.message) }`;
    const [code, ...message] = run(process.execPath, ["-e", probe], { cwd: dir, env: process.env })
      .trim()
      .split("\n");
    expect(code).toBe("ERR_PACKAGE_PATH_NOT_EXPORTED");
    expect(message).toHaveLength(1);
    expect(message[0]).toContain(
      `${library.name}: this subpath is not a public entry point; import "${library.name}"`,
    );
  });
});

describe("npm install -D @raw/cli alone, in a fresh folder outside the repository", () => {
  let dir: string;
  beforeAll(() => {
    dir = installAlone("consumer-cli", ["-D", "@raw/cli"]);
  }, 600_000);

  it("installs no @raw package besides the CLI and its bundled tools: its bundle inlines the libraries", () => {
    const lock = readJson<{ packages: Record<string, unknown> }>(join(dir, "package-lock.json"));
    expect(Object.keys(lock.packages).filter((path) => path.startsWith("node_modules/@raw/"))).toEqual([
      "node_modules/@raw/cli",
      "node_modules/@raw/tools",
    ]);
  });

  it("npx raw init and npx raw validate run the installed CLI", () => {
    const env = consumerEnv(dir);
    // --no: never download a package called raw from any registry; the installed bin or nothing.
    run("npx", ["--no", "raw", "init", "tool", "tools/touch"], { cwd: dir, env });
    const output = run("npx", ["--no", "raw", "validate", "tools/touch"], { cwd: dir, env });
    expect(output).toContain("tools/touch/tool.json  ok");
    expect(output).toContain("1 passed, 0 failed");
  });

  it("raw mcp without its optional peers says what to install, in one line and without a stack", () => {
    const result = spawnSync("npx", ["--no", "raw", "mcp", "tools", "--", process.execPath, "-e", "0"], {
      cwd: dir,
      env: consumerEnv(dir),
      encoding: "utf8",
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      "raw: mcp_unavailable: raw mcp needs @modelcontextprotocol/sdk and zod; install them: npm install @modelcontextprotocol/sdk@1 zod@4",
    );
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });
});

/**
 * The packages installed only to be measured (the libraries used above were installed alone already). better-sqlite3's
 * install script fetches a prebuilt binary or compiles SQLite (minutes, and a network or a compiler the test cannot
 * count on), so `@raw/store-sqlite` is measured without install scripts: its figure excludes that native build.
 */
const MEASURED_ONLY: ReadonlyArray<{ name: string; args: string[] }> = [
  { name: "@raw/schema", args: [] },
  { name: "@raw/predicate", args: [] },
  { name: "@raw/effects", args: [] },
  { name: "@raw/host", args: [] },
  { name: "@raw/tools", args: [] },
  { name: "@raw/validate", args: [] },
  { name: "@raw/ai-sdk", args: [] },
  { name: "@raw/mcp", args: [] },
  { name: "@raw/acp", args: [] },
  { name: "@raw/panel-web", args: [] },
  { name: "@raw/store-postgres", args: [] },
  { name: "@raw/store-sqlite", args: ["--ignore-scripts"] },
];

describe("examples/host against the published packages, in a fresh folder outside the repository", () => {
  it("a host on @raw/host (tool folder, rules, hook, panel, describeApproval) prints examples/host/expected.txt", () => {
    const dir = consumer("example-host");
    const packages = ["@raw/host", "@raw/tool-api", "@raw/hook-protocol", "@raw/panel"];
    run("npm", ["install", ...packages, "--prefer-offline", "--no-audit", "--no-fund"], {
      cwd: dir,
      env: consumerEnv(dir),
    });
    cpSync(join(repoRoot, "examples", "host"), dir, { recursive: true });
    const output = run(process.execPath, ["host.mjs"], { cwd: dir, env: process.env });
    expect(output).toBe(readFileSync(join(repoRoot, "examples", "host", "expected.txt"), "utf8"));
  }, 600_000);
});

describe("installed size of each package alone", () => {
  beforeAll(() => {
    for (const { name, args } of MEASURED_ONLY) installAlone(`size-${name.slice(5)}`, [...args, name]);
  }, 900_000);
  const targets = readJson<{ packages: Record<string, { maxKiB: number }> }>(
    join(repoRoot, "bench", "install-size.json"),
  ).packages;
  it("no package installs TypeBox: the contract schemas ship as JSON, their types as plain TypeScript", () => {
    expect(Object.keys(installed).length).toBeGreaterThanOrEqual(publishedWorkspaces().length);
    expect(Object.keys(installed).filter((name) => installed[name]?.includes("typebox"))).toEqual([]);
  });
  it("bench/install-size.json has a target for every published package", () => {
    expect(Object.keys(targets).sort()).toEqual(
      publishedWorkspaces()
        .map(({ manifest }) => manifest.name)
        .sort(),
    );
  });
  it.each(Object.keys(targets))("%s stays within its target in bench/install-size.json", (name) => {
    expect(sizes[name], name).toBeDefined();
    expect(sizes[name]).toBeLessThanOrEqual(targets[name]?.maxKiB ?? 0);
  });
});

// The staging copy is the only place `changeset version` writes; the repository keeps its pending changesets.
it("left the repository's changesets and versions where they were", () => {
  expect(readdirSync(join(repoRoot, ".changeset")).sort()).toEqual(pendingChangesets);
  for (const { manifest } of publishedWorkspaces())
    expect(manifest.version).toBe(versionsBefore[manifest.name]);
});
