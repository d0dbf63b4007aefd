/** Where the CLI writes; tests pass their own streams. */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

const PACKAGES: ReadonlyArray<readonly [string, string]> = [
  ["@raw/schema", "JSON Schema machinery, issues and contract errors"],
  ["@raw/predicate", "predicates {source, any, regex} and identity globs (RE2)"],
  ["@raw/effects", "intended effects, path normalization, write_file effects, the patch parser"],
  ["@raw/panel", "raw.panel/2 declarations, documents, updates, host, forms and rendering"],
  ["@raw/hook-protocol", "raw.hook/2 manifests, payloads, responses, runner and dispatcher"],
  ["@raw/tool-api", "raw.tool-api/2 manifests, folder loading, policy and dispatch"],
];

/** Runs the `raw` CLI with `argv` (without the node and script paths) and returns the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [command] = argv;
  if (command === undefined || command === "demo") {
    io.stdout.write("Raw contracts: raw.tool-api/2, raw.panel/2, raw.hook/2\n\n");
    for (const [name, what] of PACKAGES) io.stdout.write(`  ${name.padEnd(20)} ${what}\n`);
    io.stdout.write("\nThe scripted demo session arrives with the reference CLI (issue 6).\n");
    return 0;
  }
  io.stderr.write(`raw: unknown command "${command}"\n`);
  return 2;
}
