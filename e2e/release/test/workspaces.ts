import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (this file is e2e/release/test/workspaces.ts). */
export const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

/** What the release tests read of a workspace's package.json. */
export interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  files?: string[];
  bin?: Record<string, string>;
  exports?: Record<string, unknown>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  publishConfig?: Record<string, unknown>;
}

/** A published workspace: its folder relative to the root and its manifest. */
export interface Workspace {
  dir: string;
  manifest: Manifest;
}

/** The folders of every published workspace, dependencies first. */
export const PUBLISHED_DIRS = [
  "packages/schema",
  "packages/predicate",
  "packages/effects",
  "packages/panel",
  "packages/hook-protocol",
  "packages/tool-api",
  "packages/host",
  "packages/tools",
  "packages/validate",
  "packages/ai-sdk",
  "packages/mcp",
  "packages/acp",
  "packages/panel-web",
  "packages/store-sqlite",
  "packages/store-postgres",
  "apps/raw",
] as const;

/** Reads a JSON file. */
export function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, "utf8")) as T;
}

/** Every published workspace with its manifest. */
export function publishedWorkspaces(): Workspace[] {
  return PUBLISHED_DIRS.map((dir) => ({
    dir,
    manifest: readJson<Manifest>(join(repoRoot, dir, "package.json")),
  }));
}

/** Packs a workspace with `npm pack` into `destination` and returns the tarball's path. */
export function pack(dir: string, destination: string): string {
  mkdirSync(destination, { recursive: true });
  const out = execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", destination], {
    cwd: join(repoRoot, dir),
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const [result] = JSON.parse(out) as [{ filename: string }];
  return join(destination, result.filename);
}

/** Unpacks a tarball into `destination` (the package is then under `destination/package`). */
export function unpack(tarball: string, destination: string): string {
  mkdirSync(destination, { recursive: true });
  execFileSync("tar", ["-xzf", tarball, "-C", destination]);
  return join(destination, "package");
}
