/**
 * `raw validate` as one classic (CommonJS) script: the same `runCli` as `bin.ts`, bundled into
 * `dist/validate-cli.cjs` with every module it reaches, so that the launcher (`launch.ts`) can compile it from a
 * V8 code cache. Node 20 caches no compiled ES module code, and compiling the CLI's modules was most of what
 * `raw validate` cost on top of Node's own start.
 */
import { isatty } from "node:tty";
import { runCli } from "./cli.js";

runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: () => process.stdin,
  interactive: isatty(0) && isatty(2),
}).then((code) => {
  process.exitCode = code;
});
