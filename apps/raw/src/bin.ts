import { fileURLToPath } from "node:url";

const argv = process.argv.slice(2);
const options = argv.includes("--") ? argv.slice(0, argv.indexOf("--")) : argv;
// `raw validate` imports tool entries in a child process: start it first, before this process loads the command, so
// that both boot at the same time (the child script sits next to this file in dist/). Not for `--help`; and until
// the command takes it, the child does not keep this process alive (a usage error exits at once and kills it).
if (argv[0] === "validate" && argv.length > 1 && !options.includes("--help") && !options.includes("-h")) {
  const { prestartValidateChild, useChildScript } = await import("@raw/validate/prestart");
  // The child script ships in this package's dist (a copy of `@raw/validate/child`, see tsup.config.ts).
  const script = fileURLToPath(new URL("validate-child.cjs", import.meta.url));
  useChildScript(script);
  prestartValidateChild(script, process.cwd());
  // A validation run is short: V8's optimizing compiler (TurboFan) never pays for itself in it, and its code and
  // compile zones were a sixth of the run's peak memory (`bench/suites/08-cli.mjs`: peak RSS on 100 folders 64 MB
  // with it, 58 MB without, same time; 1,000 folders no slower). Set before the command's modules load. (Keeping the
  // young generation from growing saves 3 MB more, but costs a quarter more CPU on 1,000 folders in collections.)
  const { setFlagsFromString } = await import("node:v8");
  setFlagsFromString("--no-opt");
  // The command's modules start loading now, side by side with the CLI's own: their files are read and compiled
  // while this process would otherwise wait for the file system (the command imports them again, from the cache).
  for (const load of [
    () => import("./commands/validate.js"),
    () => import("@raw/validate"),
    () => import("@raw/tool-api"),
  ])
    load().catch(() => undefined);
}
const [{ isatty }, { runCli }] = await Promise.all([import("node:tty"), import("./cli.js")]);

// The binary is `runCli` over the process's own streams, environment and folder; tests call `runCli` in-process.
process.exitCode = await runCli(argv, {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: () => process.stdin,
  interactive: isatty(0) && isatty(2),
  env: process.env,
  cwd: process.cwd(),
});
