import type { ChildProcess } from "node:child_process";

/** The stdout of a child process read as lines, for tests that drive a host process by what it prints. */
export interface LineReader {
  /**
   * Takes the first line not taken yet that starts with `prefix`, whole, waiting for it at most `ms` (default 15 s);
   * rejects naming the prefix and what the process wrote to stderr so far.
   */
  line(prefix: string, ms?: number): Promise<string>;
  /** What the process wrote to stderr so far. */
  stderr(): string;
}

/** Reads the stdout of `child` as lines (and keeps its stderr for error messages). */
export function readLines(child: ChildProcess): LineReader {
  const lines: string[] = [];
  const waiting = new Set<() => void>();
  let buffer = "";
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdout?.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split("\n");
    buffer = parts.pop() ?? "";
    lines.push(...parts);
    for (const wake of [...waiting]) wake();
  });
  const take = (prefix: string): string | undefined => {
    const index = lines.findIndex((line) => line.startsWith(prefix));
    return index === -1 ? undefined : lines.splice(index, 1)[0];
  };
  return {
    stderr: () => stderr,
    line: (prefix, ms = 15_000) =>
      new Promise<string>((resolve, reject) => {
        const found = take(prefix);
        if (found !== undefined) return resolve(found);
        const done = () => {
          clearTimeout(timer);
          waiting.delete(check);
        };
        const check = () => {
          const line = take(prefix);
          if (line === undefined) return;
          done();
          resolve(line);
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no "${prefix}" line; stderr: ${stderr}`));
        }, ms);
        waiting.add(check);
      }),
  };
}
