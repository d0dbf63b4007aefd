import { type ChildProcess, spawn } from "node:child_process";
import { request } from "node:http";
import { bin } from "../cli/helpers.js";

/** A `raw serve` child process and the address it printed. */
export interface ServeProcess {
  readonly url: string;
  readonly origin: string;
  readonly token: string;
  readonly child: ChildProcess;
  stop(): Promise<number | null>;
}

/** Starts the built `raw serve` (or another command that serves the page) and waits for its address. */
export async function startServeProcess(
  args: readonly string[],
  cwd: string,
  command: readonly string[] = ["serve"],
): Promise<ServeProcess & { output(): string }> {
  const child = spawn(process.execPath, [bin, ...command, ...args], {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stderr?.on("data", (d: Buffer) => {
    err += d.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`raw serve printed no address: ${out}${err}`)), 20_000);
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      const found = /open (http:\/\/\S+)/u.exec(out)?.[1];
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`raw serve exited ${code}: ${out}${err}`));
    });
  });
  const parsed = new URL(url);
  return {
    output: () => out,
    url,
    origin: parsed.origin,
    token: parsed.pathname.split("/")[1] ?? "",
    child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once("exit", (code) => resolve(code));
        child.kill("SIGINT");
      }),
  };
}

/** One raw HTTP request (any method and headers, including `Host`), resolved to status, headers and body. */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? "GET", headers: options.headers ?? {} }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        body += chunk;
        if (res.headers["content-type"]?.startsWith("text/event-stream")) res.destroy();
      });
      res.on("close", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end(options.body);
  });
}
