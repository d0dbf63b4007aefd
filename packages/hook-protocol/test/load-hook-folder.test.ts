import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import { chmod, mkdir, readdir, readFile, realpath, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { isContractError } from "@raw/schema";
import { describe, expect, it } from "vitest";
import { loadHookFolder, runHook, validateHookFolder } from "../src/index.js";
import { prePayload, tempFolder } from "./helpers.js";

const manifest = (over: Record<string, unknown> = {}) =>
  JSON.stringify({
    protocol_version: 2,
    name: "guard",
    events: [{ name: "PreToolUse", match: "builtin/*" }],
    command: "./hook.sh",
    args: ["./lib/data.txt", "literal"],
    timeout_ms: 2000,
    ...over,
  });

/** Creates `<tmp>/hooks/guard/` with `files` and returns `{ folder, cache }`. */
async function hookFolder(files: Record<string, string>, name = "guard") {
  const root = await tempFolder();
  const folder = join(root, "hooks", name);
  await mkdir(folder, { recursive: true });
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(dirname(join(folder, rel)), { recursive: true });
    await writeFile(join(folder, rel), text);
  }
  return { folder, cache: join(root, "cache") };
}

const HOOK_SH = '#!/bin/sh\ncat > /dev/null\necho "{\\"message\\":\\"v1 $(cat "$1")\\"}"\n';

async function failure(
  promise: Promise<unknown>,
): Promise<{ code: string; message: string; issues: unknown[] }> {
  try {
    await promise;
  } catch (error) {
    expect(isContractError(error)).toBe(true);
    return error as { code: string; message: string; issues: unknown[] };
  }
  throw new Error("expected loadHookFolder to fail");
}

describe("loadHookFolder", () => {
  it("loads, snapshots and relocates owned paths; edits to the folder do not change the loaded hook", async () => {
    const { folder, cache } = await hookFolder({
      "hook.json": manifest(),
      "hook.sh": HOOK_SH,
      "lib/data.txt": "data",
    });
    await chmod(join(folder, "hook.sh"), 0o755);
    const hook = await loadHookFolder(folder, { snapshotDir: cache, id: "agent/guard" });

    expect(hook.id).toBe("agent/guard");
    // The copy sits in `<cache>/<digest>/`, at the place of the resolution mirror standing for the folder (A8).
    const [digest] = await readdir(cache);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(hook.folder).toBe(join(cache, digest as string, "root", await realpath(folder)));
    expect(hook.manifest).toEqual({
      protocol_version: 2,
      name: "guard",
      events: [{ name: "PreToolUse", match: "builtin/*" }],
      command: join(hook.folder, "hook.sh"),
      args: [join(hook.folder, "lib/data.txt"), "literal"],
      timeoutMs: 2000,
    });
    expect(Object.isFrozen(hook)).toBe(true);
    expect(Object.isFrozen(hook.manifest.args)).toBe(true);
    expect(((await stat(join(hook.folder, "hook.sh"))).mode & 0o777).toString(8)).toBe("755");
    expect(((await stat(join(hook.folder, "lib"))).mode & 0o777).toString(8)).toBe("700");
    expect(await readdir(cache)).toEqual([digest]);

    const first = await runHook(hook, prePayload(folder));
    expect(first.message).toBe("v1 data");

    await writeFile(join(folder, "hook.sh"), HOOK_SH.replace("v1", "v2"));
    await writeFile(join(folder, "lib/data.txt"), "changed");
    const again = await runHook(hook, prePayload(folder));
    expect(again.message).toBe("v1 data");

    const reloaded = await loadHookFolder(folder, { snapshotDir: cache });
    expect(reloaded.folder).not.toBe(hook.folder);
    expect(reloaded.id).toBe("guard");
    expect((await runHook(reloaded, prePayload(folder))).message).toBe("v2 changed");
  });

  it("reuses a verified snapshot and refuses a modified one", async () => {
    const { folder, cache } = await hookFolder({ "hook.json": manifest({ command: "node", args: [] }) });
    const one = await loadHookFolder(folder, { snapshotDir: cache });
    const two = await loadHookFolder(folder, { snapshotDir: cache });
    expect(two.folder).toBe(one.folder);
    await writeFile(join(one.folder, "extra.txt"), "tampered");
    const error = await failure(loadHookFolder(folder, { snapshotDir: cache, id: "agent/guard" }));
    expect(error).toMatchObject({
      code: "hook_snapshot_modified",
      message: "selected hook snapshot modified: agent/guard",
    });
  });

  const cases: Array<[string, (folder: string) => Promise<string | undefined>, string, string | RegExp]> = [
    [
      "a missing folder",
      async (f) => join(f, "..", "nope"),
      "hook_folder_missing",
      /^missing selected hook nope: ENOENT/,
    ],
    [
      "a folder that links outside its root",
      async (f) => {
        const outside = await tempFolder({ "hook.json": manifest() });
        const link = join(dirname(f), "linked");
        symlinkSync(outside, link);
        return link;
      },
      "hook_folder_escape",
      "selected hook escapes root: linked",
    ],
    ["a missing hook.json", async () => undefined, "hook_manifest_missing", "missing hook manifest: guard"],
    [
      "hook.json linking outside the folder",
      async (f) => {
        const outside = await tempFolder({ "hook.json": manifest() });
        symlinkSync(join(outside, "hook.json"), join(f, "hook.json"));
        return undefined;
      },
      "hook_manifest_escape",
      "hook manifest escapes folder: guard",
    ],
    [
      "hook.json being a directory",
      async (f) => {
        mkdirSync(join(f, "hook.json"));
        return undefined;
      },
      "hook_manifest_escape",
      "hook manifest escapes folder: guard",
    ],
    [
      "hook.json of 65,537 bytes",
      async (f) => {
        const text = manifest({ command: "node", args: [] });
        await writeFile(join(f, "hook.json"), text + " ".repeat(65_537 - text.length));
        return undefined;
      },
      "hook_manifest_too_large",
      "hook manifest is too large: guard",
    ],
    [
      "invalid UTF-8 in hook.json",
      async (f) => {
        await writeFile(join(f, "hook.json"), Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]));
        return undefined;
      },
      "hook_manifest_json_invalid",
      "invalid hook manifest JSON: guard",
    ],
    [
      "a byte order mark",
      async (f) => {
        await writeFile(join(f, "hook.json"), `\ufeff${manifest()}`);
        return undefined;
      },
      "hook_manifest_json_invalid",
      "invalid hook manifest JSON: guard",
    ],
    [
      "trailing garbage",
      async (f) => {
        await writeFile(join(f, "hook.json"), `${manifest()} x`);
        return undefined;
      },
      "hook_manifest_json_invalid",
      "invalid hook manifest JSON: guard",
    ],
    [
      "a name that is not the folder name",
      async (f) => {
        await writeFile(join(f, "hook.json"), manifest({ name: "other", command: "node", args: [] }));
        return undefined;
      },
      "hook_invalid_name",
      "invalid hook name: guard",
    ],
    [
      "an owned command with a backslash",
      async (f) => {
        await writeFile(join(f, "hook.json"), manifest({ command: "./a\\b", args: [] }));
        return undefined;
      },
      "hook_asset_invalid",
      "invalid hook asset path: guard",
    ],
    [
      "an owned arg escaping the folder",
      async (f) => {
        await writeFile(join(f, "hook.json"), manifest({ command: "node", args: ["./../outside.txt"] }));
        await writeFile(join(f, "..", "outside.txt"), "x");
        return undefined;
      },
      "hook_asset_escape",
      "hook asset escapes or is not a file: guard",
    ],
    [
      "an owned command linking outside the folder",
      async (f) => {
        const outside = await tempFolder({ "x.sh": "#!/bin/sh\n" });
        await writeFile(join(f, "hook.json"), manifest({ args: [] }));
        symlinkSync(join(outside, "x.sh"), join(f, "hook.sh"));
        return undefined;
      },
      "hook_asset_escape",
      "hook asset escapes or is not a file: guard",
    ],
    [
      "a missing owned file",
      async (f) => {
        await writeFile(join(f, "hook.json"), manifest({ args: [] }));
        return undefined;
      },
      "hook_asset_escape",
      "hook asset escapes or is not a file: guard",
    ],
    [
      "an owned path naming a directory",
      async (f) => {
        await writeFile(join(f, "hook.json"), manifest({ command: "node", args: ["./lib"] }));
        mkdirSync(join(f, "lib"));
        return undefined;
      },
      "hook_asset_escape",
      "hook asset escapes or is not a file: guard",
    ],
    [
      "a link anywhere in the folder",
      async (f) => {
        await writeFile(join(f, "hook.json"), manifest({ command: "node", args: [] }));
        mkdirSync(join(f, "sub"));
        await writeFile(join(f, "sub", "a.txt"), "a");
        symlinkSync("a.txt", join(f, "sub", "b.txt"));
        return undefined;
      },
      "hook_snapshot_link",
      "selected hook contains a link: sub/b.txt",
    ],
    [
      "a FIFO in the folder",
      async (f) => {
        await writeFile(join(f, "hook.json"), manifest({ command: "node", args: [] }));
        execFileSync("mkfifo", [join(f, "pipe")]);
        return undefined;
      },
      "hook_snapshot_unsupported_file",
      "unsupported selected hook file: pipe",
    ],
    [
      "257 regular files",
      async (f) => {
        await writeFile(join(f, "hook.json"), manifest({ command: "node", args: [] }));
        mkdirSync(join(f, "many"));
        for (let i = 0; i < 256; i++) await writeFile(join(f, "many", `${i}.txt`), "");
        return undefined;
      },
      "hook_snapshot_limit",
      "selected hook exceeds snapshot limit",
    ],
    [
      "a file over 16 MiB",
      async (f) => {
        await writeFile(join(f, "hook.json"), manifest({ command: "node", args: [] }));
        await writeFile(join(f, "big.bin"), Buffer.alloc(16 * 1024 * 1024 + 1));
        return undefined;
      },
      "hook_snapshot_limit",
      "selected hook exceeds snapshot limit",
    ],
    [
      "files over 16 MiB together",
      async (f) => {
        await writeFile(join(f, "hook.json"), manifest({ command: "node", args: [] }));
        await writeFile(join(f, "a.bin"), Buffer.alloc(9 * 1024 * 1024));
        await writeFile(join(f, "b.bin"), Buffer.alloc(8 * 1024 * 1024));
        return undefined;
      },
      "hook_snapshot_limit",
      "selected hook exceeds snapshot limit",
    ],
  ];

  it.each(cases)("refuses %s", async (_title, setup, code, message) => {
    const { folder, cache } = await hookFolder({});
    const target = (await setup(folder)) ?? folder;
    const error = await failure(loadHookFolder(target, { snapshotDir: cache }));
    expect(error.code).toBe(code);
    if (typeof message === "string") expect(error.message).toBe(message);
    else expect(error.message).toMatch(message);
  });

  it("reports every manifest issue at once", async () => {
    const { folder, cache } = await hookFolder({
      "hook.json": JSON.stringify({
        protocol_version: 1,
        name: "guard",
        events: [],
        command: "a/b",
        extra: 1,
      }),
    });
    const error = await failure(loadHookFolder(folder, { snapshotDir: cache, id: "agent/guard" }));
    expect(error.code).toBe("hook_manifest_unknown_field");
    expect(error.issues).toEqual([
      {
        code: "hook_manifest_unknown_field",
        message: "unknown hook agent/guard field: extra",
        path: "/extra",
      },
      {
        code: "hook_protocol_version_unsupported",
        message: "hook agent/guard requires protocol_version 2",
        path: "/protocol_version",
      },
      {
        code: "hook_invalid_events",
        message: "agent/guard.events must be a nonempty bounded array",
        path: "/events",
      },
      {
        code: "hook_invalid_command",
        message: "hook command must be on PATH or inside folder: agent/guard",
        path: "/command",
      },
    ]);
  });

  it("accepts exactly 65,536 bytes of hook.json and 256 files", async () => {
    const { folder, cache } = await hookFolder({});
    const text = manifest({ command: "node", args: [] });
    await writeFile(join(folder, "hook.json"), text + " ".repeat(65_536 - text.length));
    for (let i = 0; i < 255; i++) await writeFile(join(folder, `${i}.txt`), String(i));
    const hook = await loadHookFolder(folder, { snapshotDir: cache });
    expect((await readdir(hook.folder)).length).toBe(256);
    expect(await readFile(join(hook.folder, "hook.json"), "utf8")).toHaveLength(65_536);
  });

  it("honours an explicit root", async () => {
    const { folder, cache } = await hookFolder({ "hook.json": manifest({ command: "node", args: [] }) });
    const other = await tempFolder();
    const error = await failure(
      loadHookFolder(folder, { snapshotDir: cache, root: other, id: "agent/guard" }),
    );
    expect(error).toMatchObject({
      code: "hook_folder_escape",
      message: "selected hook escapes root: agent/guard",
    });
    const ok = await loadHookFolder(folder, { snapshotDir: cache, root: dirname(dirname(folder)) });
    expect(ok.manifest.name).toBe("guard");
  });
});

describe("validateHookFolder: the non-throwing twin", () => {
  it("loads a good folder as loadHookFolder does, with no warning for an owned command", async () => {
    const { folder, cache } = await hookFolder({
      "hook.json": manifest(),
      "hook.sh": HOOK_SH,
      "lib/data.txt": "d",
    });
    const result = await validateHookFolder(folder, { snapshotDir: cache, id: "agent/guard" });
    expect(result.ok).toBe(true);
    expect(result.ok && result.hook.id).toBe("agent/guard");
    expect(result.issues).toEqual([]);
    expect(result.warnings).toEqual([]);
  });

  it("returns every manifest issue with its pointer, and never throws", async () => {
    const { folder, cache } = await hookFolder({
      "hook.json": JSON.stringify({
        protocol_version: 2,
        name: "guard",
        events: [{ name: "PreToolUze" }],
        command: "./hook.sh",
        timeout_ms: 0,
      }),
    });
    const result = await validateHookFolder(folder, { snapshotDir: cache });
    expect(result.ok).toBe(false);
    expect(result.issues.map((issue) => [issue.code, issue.path])).toEqual([
      ["hook_event_invalid", "/events/0/name"],
      ["hook_invalid_timeout", "/timeout_ms"],
    ]);
    expect(result.issues[0]?.hint).toMatch(/^did you mean `PreToolUse`\? the events are /);
    const missing = await validateHookFolder(join(folder, "..", "nowhere"), { snapshotDir: cache });
    expect(missing.issues).toEqual([expect.objectContaining({ code: "hook_folder_missing", path: "" })]);
  });

  it('gives loading failures a pointer: the manifest at "", an owned asset at its field', async () => {
    const { folder, cache } = await hookFolder({
      "hook.json": JSON.stringify({
        protocol_version: 2,
        name: "guard",
        events: [{ name: "Stop" }],
        command: "sh",
        args: ["-c", "./missing.sh"],
      }),
    });
    const bad = await hookFolder({ "hook.json": "{ nope" }, "guard");
    expect((await validateHookFolder(bad.folder, { snapshotDir: bad.cache })).issues).toEqual([
      { code: "hook_manifest_json_invalid", message: "invalid hook manifest JSON: guard", path: "" },
    ]);
    await writeFile(
      join(folder, "hook.json"),
      JSON.stringify({
        protocol_version: 2,
        name: "guard",
        events: [{ name: "Stop" }],
        command: "./gone.sh",
      }),
    );
    expect((await validateHookFolder(folder, { snapshotDir: cache })).issues).toEqual([
      {
        code: "hook_asset_escape",
        message: "hook asset escapes or is not a file: guard",
        path: "/command",
        hint: "./gone.sh must be a regular file inside the hook folder",
      },
    ]);
    await writeFile(
      join(folder, "hook.json"),
      JSON.stringify({
        protocol_version: 2,
        name: "guard",
        events: [{ name: "Stop" }],
        command: "sh",
        args: ["x", "./gone.txt"],
      }),
    );
    expect((await validateHookFolder(folder, { snapshotDir: cache })).issues[0]?.path).toBe("/args/1");
  });

  it("warns about a bare command on no folder of PATH, and says so when the folder holds it", async () => {
    const { folder, cache } = await hookFolder({
      "hook.json": JSON.stringify({
        protocol_version: 2,
        name: "guard",
        events: [{ name: "Stop" }],
        command: "raw-no-such-command-4821",
      }),
    });
    const bin = join(folder, "..", "bin");
    await mkdir(bin);
    const result = await validateHookFolder(folder, { snapshotDir: cache, path: bin });
    // A warning, not an issue: the hook loads, and may run on a machine that has the command.
    expect(result.ok).toBe(true);
    expect(result.warnings).toEqual([
      {
        code: "hook_command_not_found",
        message: "hook command not found on PATH: raw-no-such-command-4821",
        path: "/command",
        hint: "install raw-no-such-command-4821 where the hook runs, or ship it in the hook folder and write it as ./raw-no-such-command-4821",
      },
    ]);
    await writeFile(join(folder, "raw-no-such-command-4821"), "#!/bin/sh\n");
    await chmod(join(folder, "raw-no-such-command-4821"), 0o755);
    const inFolder = await validateHookFolder(folder, { snapshotDir: cache, path: bin });
    expect(inFolder.warnings[0]?.hint).toBe(
      "raw-no-such-command-4821 is in the hook folder: write it as ./raw-no-such-command-4821 so the hook runs its own copy",
    );
    // Found on PATH (a real executable file there): no warning; not executable: still a warning.
    await writeFile(join(bin, "raw-no-such-command-4821"), "#!/bin/sh\n");
    expect((await validateHookFolder(folder, { snapshotDir: cache, path: bin })).warnings).toEqual([
      expect.objectContaining({ code: "hook_command_not_found" }),
    ]);
    await chmod(join(bin, "raw-no-such-command-4821"), 0o755);
    expect((await validateHookFolder(folder, { snapshotDir: cache, path: bin })).warnings).toEqual([]);
    expect((await validateHookFolder(folder, { snapshotDir: cache, path: false })).warnings).toEqual([]);
  });

  it("still warns about the command when the manifest has other issues", async () => {
    const { folder, cache } = await hookFolder({
      "hook.json": JSON.stringify({
        protocol_version: 2,
        name: "guard",
        events: [{ name: "Nope" }],
        command: "raw-no-such-command-4821",
      }),
    });
    const result = await validateHookFolder(folder, { snapshotDir: cache, path: "" });
    expect(result.issues.map((issue) => issue.code)).toEqual(["hook_event_invalid"]);
    expect(result.warnings.map((warning) => warning.code)).toEqual(["hook_command_not_found"]);
  });
});
