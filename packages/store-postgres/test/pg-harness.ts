import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A throwaway PostgreSQL cluster on a loopback port, its files (and unix socket) in a temp folder. */
export interface TestCluster {
  readonly url: string;
  readonly port: number;
  stop(): void;
}

function binDir(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const dir = join(root, version, "bin");
    if (existsSync(join(dir, "initdb"))) return dir;
  }
  throw new Error("PostgreSQL is not installed (apt-get install -y postgresql)");
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/**
 * Runs `initdb` as the `postgres` user into a temp folder and starts the server on a free loopback port with its
 * unix socket in that folder too (trust authentication, no fsync: a test cluster). `stop()` stops it at once and
 * removes the folder.
 */
export async function startCluster(): Promise<TestCluster> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), "raw-pg-"));
  const data = join(dir, "data");
  const socket = join(dir, "sock");
  mkdirSync(socket);
  for (const path of [dir, socket]) chownSync(path, uid("postgres"), gid("postgres"));
  const as = (command: string, args: string[]) =>
    execFileSync("runuser", ["-u", "postgres", "--", join(bin, command), ...args], { stdio: "pipe" });
  as("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  as("pg_ctl", [
    "-D",
    data,
    "-w",
    "-l",
    join(dir, "server.log"),
    "-o",
    `-p ${port} -k ${socket} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`,
    "start",
  ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop() {
      try {
        as("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

function uid(user: string): number {
  return Number(execFileSync("id", ["-u", user]).toString().trim());
}

function gid(user: string): number {
  return Number(execFileSync("id", ["-g", user]).toString().trim());
}
