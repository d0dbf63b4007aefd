import { isatty } from "node:tty";

const argv = process.argv.slice(2);
// `raw validate` imports tool entries in a child process: start it first, so that it boots while this process loads
// the command and reads the folders.
if (argv[0] === "validate" && argv.length > 1) {
  const { prestartEntryChild } = await import("./support/entry-child.js");
  prestartEntryChild(process.cwd());
}
const { runCli } = await import("./cli.js");

// The binary is `runCli` over the process's own streams, environment and folder; tests call `runCli` in-process.
process.exitCode = await runCli(argv, {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: () => process.stdin,
  interactive: isatty(0) && isatty(2),
  env: process.env,
  cwd: process.cwd(),
});
