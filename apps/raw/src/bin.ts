import { isatty } from "node:tty";
import { runCli } from "./cli.js";

// The binary is `runCli` over the process's own streams, environment and folder; tests call `runCli` in-process.
process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: () => process.stdin,
  interactive: isatty(0) && isatty(2),
  env: process.env,
  cwd: process.cwd(),
});
