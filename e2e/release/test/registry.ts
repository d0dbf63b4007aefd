import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { repoRoot } from "./workspaces.js";

/** How long the local registry may take to answer its first ping. */
export const REGISTRY_START_TIMEOUT_MS = 60_000;

/** A local registry server (verdaccio) started for one test run. */
export interface LocalRegistry {
  url: string;
  /** An npm token of a user allowed to publish `@raw/*`. */
  token: string;
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (the kernel picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/**
 * The environment of every npm child process: the parent's without any `npm_*` variable (an `npm test` run passes
 * its own configuration, registry included, to its scripts), plus `extra`.
 */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key)) env[key] = value;
  return { ...env, ...extra };
}

/** Runs a command to completion; throws with its output when it exits non-zero. */
export function run(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): string {
  const result = spawnSync(command, args, { ...options, encoding: "utf8", timeout: 600_000 });
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} (in ${options.cwd}) exited ${result.status}\n${output}`);
  }
  return output;
}

/** Starts verdaccio on 127.0.0.1 with its storage under `dir`, serving `@raw/*` only (no uplink). */
export async function startRegistry(dir: string): Promise<LocalRegistry> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const config = join(dir, "verdaccio.yaml");
  writeFileSync(
    config,
    [
      `storage: ${JSON.stringify(join(dir, "storage"))}`,
      "auth:",
      "  htpasswd:",
      `    file: ${JSON.stringify(join(dir, "htpasswd"))}`,
      "    max_users: 10",
      "uplinks: {}",
      "packages:",
      "  '@raw/*':",
      "    access: $all",
      "    publish: $authenticated",
      "web:",
      "  enable: false",
      "max_body_size: 50mb",
      "log: { type: stdout, format: pretty, level: warn }",
      "",
    ].join("\n"),
  );
  const bin = join(repoRoot, "node_modules", "verdaccio", "bin", "verdaccio");
  const child: ChildProcess = spawn(
    process.execPath,
    [bin, "--config", config, "--listen", `127.0.0.1:${port}`],
    {
      cwd: dir,
      env: cleanEnv({}),
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let log = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    log += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    log += chunk.toString();
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  const deadline = Date.now() + REGISTRY_START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited ${child.exitCode}\n${log}`);
    try {
      if ((await fetch(`${url}-/ping`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`verdaccio did not answer on ${url} within ${REGISTRY_START_TIMEOUT_MS} ms\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const user = "raw-release";
  const response = await fetch(`${url}-/user/org.couchdb.user:${user}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: user, password: "raw-release-local-only", type: "user", roles: [] }),
  });
  const body = (await response.json()) as { token?: string };
  if (!response.ok || !body.token) {
    await stop();
    throw new Error(`verdaccio refused the publishing user: ${response.status} ${JSON.stringify(body)}`);
  }
  return { url, token: body.token, stop };
}
