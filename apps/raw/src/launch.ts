import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

/**
 * The `raw` executable (`dist/bin.js`). `raw validate`, the command CI runs on every push, starts from
 * `dist/validate-cli.cjs` (the whole command as one classic script) compiled with the V8 code cache written next to
 * it at build time (`validate-cli.cjs.cache`): V8 checks the cache against its version, flags and the script's
 * source and silently compiles from scratch when it does not fit. Every other command, and `validate` when that
 * bundle is missing, loads the ES module CLI (`bin.ts`, a chunk of its own).
 *
 * `RAW_WRITE_CODE_CACHE=1` (used by the build) writes the cache after the run, from the functions that run compiled.
 */
const here = dirname(fileURLToPath(import.meta.url));
const bundle = join(here, "validate-cli.cjs");

function runValidateBundle(): void {
  const source = readFileSync(bundle, "utf8");
  const cacheFile = `${bundle}.cache`;
  const writeCache = process.env.RAW_WRITE_CODE_CACHE === "1";
  let cachedData: Buffer | undefined;
  if (!writeCache) {
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      cachedData = undefined;
    }
  }
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new vm.Script(wrapped, {
    filename: bundle,
    ...(cachedData === undefined ? {} : { cachedData }),
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const main = script.runInThisContext() as (...args: unknown[]) => void;
  const module = { exports: {} };
  main.call(module.exports, module.exports, createRequire(bundle), module, bundle, here);
  if (writeCache) process.once("beforeExit", () => writeFileSync(cacheFile, script.createCachedData()));
}

if (process.argv[2] === "validate" && existsSync(bundle)) runValidateBundle();
else await import("./bin.js");
