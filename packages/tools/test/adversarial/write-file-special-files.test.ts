/**
 * Issue 11, surface 3 (amendment A3): the `write_file` operations form touches regular files only. Real FIFOs
 * (`mkfifo`), a real Unix socket, `/dev/zero`, `/dev/urandom` and a directory must give the row error
 * `not_regular_file` at once, with nothing read or written; reads are capped at 16 MiB (`file_too_large`); I/O
 * is chunked and stops when the signal aborts; and no call may hold a libuv thread-pool thread, so a plain
 * `fs.readFile` in the same process still completes after the calls, with memory flat.
 */
import { execFileSync } from "node:child_process";
import {
  closeSync,
  constants,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { handler } from "../../src/write-file/index.js";
import { contextFor, rowsOf, tempDir } from "../helpers.js";

/** Longest a call on a special file may take before the test calls it hung. */
const PROMPT_MS = 3_000;

/** FIFOs made by a test; afterwards each is opened read-write once, which releases any open blocked on it. */
const fifos: string[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const path of fifos.splice(0)) {
    try {
      closeSync(openSync(path, constants.O_RDWR | constants.O_NONBLOCK));
    } catch {
      // Already removed with its folder.
    }
  }
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

function mkfifo(path: string): string {
  execFileSync("mkfifo", [path]);
  fifos.push(path);
  return path;
}

async function unixSocket(path: string): Promise<string> {
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, resolve);
  });
  return path;
}

/** Resolves to the value of `promise`, or rejects when it has not settled within `ms` (the call is hung). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: still pending after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const sha0 = "0".repeat(64);
const MODES = {
  overwrite: (path: string) => ({ path, mode: "overwrite" as const, content: "planted" }),
  append: (path: string) => ({ path, mode: "append" as const, content: "planted" }),
  replace_text: (path: string) => ({ path, mode: "replace_text" as const, old_text: "a", new_text: "b" }),
  replace_lines: (path: string) => ({
    path,
    mode: "replace_lines" as const,
    start_line: 1,
    end_line: 1,
    content: "x",
    expected_sha256: sha0,
  }),
};

/** Every special kind of path, made inside `dir` (devices through links and by absolute path). */
async function specialPaths(dir: string): Promise<Array<[string, string]>> {
  mkdirSync(join(dir, "folder"));
  symlinkSync("/dev/zero", join(dir, "zero-link"));
  symlinkSync("folder", join(dir, "folder-link"));
  return [
    ["a FIFO", mkfifo(join(dir, "pipe"))],
    ["a Unix socket", await unixSocket(join(dir, "sock"))],
    ["/dev/zero", "/dev/zero"],
    ["/dev/urandom", "/dev/urandom"],
    ["a link to /dev/zero", "zero-link"],
    ["a directory", "folder"],
    ["a link to a directory", "folder-link"],
  ];
}

describe("A3: special files give not_regular_file, promptly, without reading or writing", () => {
  for (const [mode, make] of Object.entries(MODES)) {
    it(`${mode}: FIFO, socket, /dev/zero, /dev/urandom, links to them, a directory`, async () => {
      const dir = tempDir();
      const paths = await specialPaths(dir);
      const operations = paths.map(([, path]) => make(path));
      const result = await within(handler({ operations }, contextFor(dir)), PROMPT_MS, mode);
      expect(result.isError).toBe(true);
      expect(result.code).toBe("not_regular_file");
      expect(rowsOf(result)).toEqual(
        paths.map(([, path], index) => ({ index, path, mode, status: "error", error: "not_regular_file" })),
      );
      // A directory stays empty: nothing was created inside it or next to it.
      expect(statSync(join(dir, "folder")).isDirectory()).toBe(true);
    });
  }

  it("overwrite and append on a FIFO that has a reader write nothing into it", async () => {
    const dir = tempDir();
    const fifo = mkfifo(join(dir, "pipe"));
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const result = await within(
        handler({ operations: [MODES.overwrite("pipe"), MODES.append("pipe")] }, contextFor(dir)),
        PROMPT_MS,
        "write to a FIFO with a reader",
      );
      expect(rowsOf(result).map((row) => row.error)).toEqual(["not_regular_file", "not_regular_file"]);
      const buffer = Buffer.alloc(64);
      let read = 0;
      try {
        read = readSync(reader, buffer, 0, buffer.length, null);
      } catch (error) {
        expect((error as NodeJS.ErrnoException).code).toBe("EAGAIN");
      }
      expect(buffer.subarray(0, read).toString()).toBe("");
    } finally {
      closeSync(reader);
    }
  });

  it("replace_text on a FIFO that has a writer reads nothing from it", async () => {
    const dir = tempDir();
    const fifo = mkfifo(join(dir, "pipe"));
    const keeper = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    try {
      writeFileSync(writer, "a a a");
      const result = await within(
        handler({ operations: [MODES.replace_text("pipe")] }, contextFor(dir)),
        PROMPT_MS,
        "read from a FIFO with a writer",
      );
      expect(rowsOf(result)[0]).toMatchObject({ status: "error", error: "not_regular_file" });
      const buffer = Buffer.alloc(64);
      const read = readSync(keeper, buffer, 0, buffer.length, null);
      expect(buffer.subarray(0, read).toString()).toBe("a a a");
    } finally {
      closeSync(writer);
      closeSync(keeper);
    }
  });

  it("a missing path is still the OS code, and overwrite still creates it", async () => {
    const dir = tempDir();
    const result = await handler(
      { operations: [MODES.replace_text("missing.txt"), MODES.overwrite("new/file.txt")] },
      contextFor(dir),
    );
    expect(rowsOf(result).map((row) => row.error ?? row.status)).toEqual(["ENOENT", "ok"]);
    expect(readFileSync(join(dir, "new/file.txt"), "utf8")).toBe("planted");
  });
});

describe("A3: the thread pool stays free and memory stays flat", () => {
  it("after four calls on FIFOs and devices, fs.readFile completes promptly and memory is flat", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "plain.txt"), "still readable");
    const pipes = [0, 1, 2, 3].map((i) => mkfifo(join(dir, `pipe${i}`)));
    globalThis.gc?.();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 5);
    try {
      const calls = [
        handler({ operations: [MODES.replace_text(pipes[0] as string)] }, contextFor(dir)),
        handler({ operations: [MODES.overwrite(pipes[1] as string)] }, contextFor(dir)),
        handler({ operations: [MODES.replace_lines(pipes[2] as string)] }, contextFor(dir)),
        handler({ operations: [MODES.append(pipes[3] as string)] }, contextFor(dir)),
        handler({ operations: [MODES.replace_text("/dev/zero")] }, contextFor(dir)),
        handler({ operations: [MODES.replace_lines("/dev/urandom")] }, contextFor(dir)),
      ];
      const results = await within(Promise.all(calls), PROMPT_MS, "six calls on special files");
      for (const result of results) expect(result.code).toBe("not_regular_file");
      const text = await within(
        readFile(join(dir, "plain.txt"), "utf8"),
        PROMPT_MS,
        "fs.readFile after the calls",
      );
      expect(text).toBe("still readable");
    } finally {
      clearInterval(sampler);
    }
    const after = process.memoryUsage();
    const mib = 1024 * 1024;
    expect((peakRss - before.rss) / mib).toBeLessThan(64);
    expect((after.arrayBuffers - before.arrayBuffers) / mib).toBeLessThan(16);
  });
});

describe("A3: reads are capped at 16 MiB", () => {
  it("replace_text and replace_lines on a file of 16 MiB + 1 give file_too_large; 16 MiB is read", async () => {
    const dir = tempDir();
    const big = join(dir, "big.txt");
    const edge = join(dir, "edge.txt");
    writeFileSync(big, "");
    truncateSync(big, 16 * 1024 * 1024 + 1);
    writeFileSync(edge, "");
    truncateSync(edge, 16 * 1024 * 1024);
    const result = await handler(
      {
        operations: [
          MODES.replace_text("big.txt"),
          MODES.replace_lines("big.txt"),
          MODES.replace_text("edge.txt"),
        ],
      },
      contextFor(dir),
    );
    expect(rowsOf(result).map((row) => row.error)).toEqual([
      "file_too_large",
      "file_too_large",
      "text_not_found",
    ]);
    expect(statSync(big).size).toBe(16 * 1024 * 1024 + 1);
  });

  it("a regular file that reports size 0 (/proc) is read by its bytes, not by its st_size", async () => {
    const dir = tempDir();
    const result = await handler({ operations: [MODES.replace_text("/proc/self/maps")] }, contextFor(dir));
    // Read whole (far below the cap): "a" occurs many times in the memory map.
    expect(rowsOf(result)[0]?.error).toBe("text_not_unique");
  });
});

describe("A3: chunked I/O stops once the signal aborts", () => {
  it("overwrite of 8 MiB stops after the chunk during which the signal aborted", async () => {
    const dir = tempDir();
    const path = join(dir, "out.bin");
    const content = "x".repeat(8 * 1024 * 1024);
    // The signal aborts as soon as any byte of the file has reached the disk.
    const signal = {
      get aborted() {
        try {
          return statSync(path).size > 0;
        } catch {
          return false;
        }
      },
      addEventListener() {},
      removeEventListener() {},
    } as unknown as AbortSignal;
    const result = await handler(
      { operations: [{ ...MODES.overwrite("out.bin"), content }, MODES.append("out.bin")] },
      contextFor(dir, { signal }),
    );
    const rows = rowsOf(result);
    const written = statSync(path).size;
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(content.length);
    expect(rows[0]).toEqual({
      index: 0,
      path: "out.bin",
      mode: "overwrite",
      status: "error",
      error: "aborted",
    });
    expect(rows[1]).toEqual({
      index: 1,
      path: "out.bin",
      mode: "append",
      status: "skipped",
      error: "aborted",
    });
  });

  it("replace_text aborted while reading changes nothing and is skipped", async () => {
    const dir = tempDir();
    const path = join(dir, "f.txt");
    writeFileSync(path, `${"y".repeat(4 * 1024 * 1024)}needle`);
    let looks = 0;
    // Not aborted when the operation starts; aborted at every later look (between chunks).
    const signal = {
      get aborted() {
        looks++;
        return looks > 1;
      },
      addEventListener() {},
      removeEventListener() {},
    } as unknown as AbortSignal;
    const result = await handler(
      { operations: [{ path: "f.txt", mode: "replace_text", old_text: "needle", new_text: "pin" }] },
      contextFor(dir, { signal }),
    );
    expect(rowsOf(result)).toEqual([
      { index: 0, path: "f.txt", mode: "replace_text", status: "skipped", error: "aborted" },
    ]);
    expect(readFileSync(path, "utf8").endsWith("needle")).toBe(true);
  });
});

describe("A3: openRegularFile (shared by both forms) never blocks on a special file", () => {
  it("refuses a FIFO without a writer, for reading and for writing, at once", async () => {
    const dir = tempDir();
    const fifo = mkfifo(join(dir, "pipe"));
    const { openRegularFile } = await import("../../src/write-file/regular-file.js");
    for (const flags of [constants.O_RDONLY, constants.O_WRONLY, constants.O_RDWR]) {
      await expect(within(openRegularFile(fifo, flags), PROMPT_MS, "open FIFO")).rejects.toMatchObject({
        code: "not_regular_file",
      });
    }
  });
});

describe("A3 and effects.md §8.3: the patch form meets the same hazards", () => {
  const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch", ""].join("\n");
  const preflight = async (dir: string, text: string) => {
    const result = await within(handler({ patch: text }, contextFor(dir)), PROMPT_MS, "patch");
    expect(result.code).toBe("patch_preflight_failed");
    return (result.content[0] as { text: string }).text;
  };

  it("Update and Delete of a FIFO, a socket, a directory: patch_not_regular_file, nothing read", async () => {
    const dir = tempDir();
    mkfifo(join(dir, "pipe"));
    await unixSocket(join(dir, "sock"));
    mkdirSync(join(dir, "folder"));
    for (const name of ["pipe", "sock", "folder"]) {
      expect(await preflight(dir, patch(`*** Update File: ${name}`, "@@", "-a", "+b"))).toBe(
        "patch_not_regular_file",
      );
      expect(await preflight(dir, patch(`*** Delete File: ${name}`))).toBe("patch_not_regular_file");
    }
  });

  it("a link to /dev/zero is patch_symlink_path; an Add over a FIFO is patch_destination_exists", async () => {
    const dir = tempDir();
    symlinkSync("/dev/zero", join(dir, "zero"));
    mkfifo(join(dir, "pipe"));
    expect(await preflight(dir, patch("*** Update File: zero", "@@", "-a", "+b"))).toBe("patch_symlink_path");
    expect(await preflight(dir, patch("*** Add File: pipe", "+x"))).toBe("patch_destination_exists");
    expect(await preflight(dir, patch("*** Update File: /dev/zero", "@@", "-a", "+b"))).toBe(
      "patch_not_regular_file",
    );
  });

  it("readSource opens without blocking: a FIFO given to it directly is refused at once", async () => {
    const dir = tempDir();
    const fifo = mkfifo(join(dir, "pipe"));
    const { readSource } = await import("../../src/write-file/patch-fs.js");
    await expect(within(readSource(fifo), PROMPT_MS, "readSource")).rejects.toMatchObject({
      code: "patch_not_regular_file",
    });
  });

  it("four patch calls on FIFOs leave fs.readFile working", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "plain.txt"), "still readable");
    const calls = [0, 1, 2, 3].map((i) => {
      mkfifo(join(dir, `pipe${i}`));
      return handler({ patch: patch(`*** Update File: pipe${i}`, "@@", "-a", "+b") }, contextFor(dir));
    });
    const results = await within(Promise.all(calls), PROMPT_MS, "four patch calls");
    for (const result of results) expect(result.code).toBe("patch_preflight_failed");
    expect(await within(readFile(join(dir, "plain.txt"), "utf8"), PROMPT_MS, "fs.readFile")).toBe(
      "still readable",
    );
  });

  it("an abort while the temporary file is written stops it: the target is unchanged, no temporary is left", async () => {
    const dir = tempDir();
    // A 3 MiB source (a patch itself is at most 1 MiB): its new content takes three chunks.
    const source = `1\n${"z".repeat(3 * 1024 * 1024)}\n`;
    writeFileSync(join(dir, "a"), source);
    let tempSeen = false;
    let largestTemp = 0;
    // Aborted once a temporary file has any byte on disk.
    const signal = {
      get aborted() {
        for (const name of readdirSync(dir)) {
          if (!name.startsWith(".raw-write-")) continue;
          largestTemp = Math.max(largestTemp, statSync(join(dir, name)).size);
          if (largestTemp > 0) tempSeen = true;
        }
        return tempSeen;
      },
      addEventListener() {},
      removeEventListener() {},
    } as unknown as AbortSignal;
    const result = await handler(
      { patch: patch("*** Update File: a", "@@", "-1", "+one") },
      contextFor(dir, { signal }),
    );
    expect(tempSeen).toBe(true);
    // Stopped between chunks: the temporary file never held the whole new content.
    expect(largestTemp).toBeLessThan(source.length - 2);
    expect(rowsOf(result)).toEqual([
      { index: 0, path: "a", mode: "patch", status: "skipped", error: "aborted" },
    ]);
    expect(readdirSync(dir)).toEqual(["a"]);
    expect(readFileSync(join(dir, "a"), "utf8")).toBe(source);
  });
});
