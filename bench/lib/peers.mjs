// Installs heavy comparison peers on demand into bench/.peers (never part of the default `npm install`).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const cache = fileURLToPath(new URL("../.peers/", import.meta.url));

/**
 * Makes `spec` (for example `re2@1.22`) importable from its own folder under bench/.peers and returns
 * `{ ok: true, import(name) }`, or `{ ok: false, reason }` when it cannot be installed here.
 */
export function ensurePeer(folder, specs, { timeoutMs = 150_000 } = {}) {
  const dir = join(cache, folder);
  const marker = join(dir, ".installed");
  if (!existsSync(marker)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "package.json"),
      `${JSON.stringify({ name: `peer-${folder}`, private: true })}\n`,
    );
    const run = spawnSync(
      "npm",
      ["install", "--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error", ...specs],
      { cwd: dir, encoding: "utf8", timeout: timeoutMs },
    );
    if (run.status !== 0) {
      const why = run.error
        ? run.error.message
        : (run.stderr || run.stdout || "").trim().split("\n").slice(-3).join(" ");
      return { ok: false, reason: `npm install ${specs.join(" ")} failed: ${why.slice(0, 300)}` };
    }
    writeFileSync(marker, `${new Date().toISOString()}\n`);
  }
  const require = createRequire(join(dir, "package.json"));
  return {
    ok: true,
    async import(name) {
      return import(pathToFileURL(require.resolve(name)).href);
    },
    require,
  };
}

/**
 * Like `ensurePeer`, for peers that build from source and take minutes: when not installed yet, starts the
 * install in the background (so a later run has it) and reports it as unavailable now.
 */
export function peerIfInstalled(folder, specs) {
  const dir = join(cache, folder);
  if (existsSync(join(dir, ".installed"))) return ensurePeer(folder, specs);
  if (!existsSync(join(dir, ".started"))) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "package.json"),
      `${JSON.stringify({ name: `peer-${folder}`, private: true })}\n`,
    );
    writeFileSync(join(dir, ".started"), `${new Date().toISOString()}\n`);
    const script = `npm install --no-audit --no-fund --no-package-lock --loglevel=error ${specs.join(" ")} > install.log 2>&1 && date > .installed`;
    spawn("sh", ["-c", script], { cwd: dir, detached: true, stdio: "ignore" }).unref();
    return {
      ok: false,
      reason: `${specs.join(" ")} builds from source; its install started in the background (bench/.peers/${folder}); run the bench again later`,
    };
  }
  return {
    ok: false,
    reason: `${specs.join(" ")} is still installing or failed (see bench/.peers/${folder}/install.log)`,
  };
}
