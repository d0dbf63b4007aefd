import { mkdir, readdir, writeFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { displayPath, hookScaffold, SCAFFOLD_HOOK_NAME, SCAFFOLD_TOOL_ID, toolScaffold } from "@raw/validate";
import { parseCommand } from "../support/args.js";
import { CliFailure, type CliIo, cwdOf, EXIT_OK, UsageError } from "../support/io.js";
import { displayLine } from "../support/present.js";

async function isEmptyOrMissing(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length === 0;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return true;
    if (code === "ENOTDIR") return false;
    throw new CliFailure("init_unreadable", `cannot read ${dir}: ${code ?? (error as Error).message}`);
  }
}

/**
 * `raw init tool <dir>` / `raw init hook <dir>`: scaffolds a valid folder (the folder name is the tool id or hook
 * name) with a `node:test` test, into a missing or empty folder.
 */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const args = parseCommand("init", argv);
  const usage = args.usage;
  const kind = args.sub as "tool" | "hook";
  const target = args.positionals[0] as string;
  const cwd = cwdOf(io);
  const dir = resolve(cwd, target);
  const name = basename(dir);
  const pattern = kind === "tool" ? SCAFFOLD_TOOL_ID : SCAFFOLD_HOOK_NAME;
  if (!pattern.test(name)) {
    throw new UsageError(
      `the folder name ${JSON.stringify(name)} is the ${kind === "tool" ? "tool id" : "hook name"} and must match ${pattern.source}`,
      usage,
    );
  }
  if (!(await isEmptyOrMissing(dir))) {
    throw new CliFailure(
      "init_target_not_empty",
      `${displayPath(dir, cwd)} exists and is not an empty folder`,
    );
  }
  const files = kind === "tool" ? toolScaffold(name) : hookScaffold(name);
  try {
    await mkdir(dir, { recursive: true });
    for (const [file, content] of files) await writeFile(join(dir, file), content, { flag: "wx" });
  } catch (error) {
    throw new CliFailure(
      "init_unwritable",
      `cannot write ${displayPath(dir, cwd)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  const shown = displayLine(displayPath(dir, cwd));
  for (const [file] of files) io.stdout.write(`created ${displayLine(displayPath(join(dir, file), cwd))}\n`);
  io.stdout.write(`next: node --test ${shown}/test.mjs && npm run raw -- validate ${shown}\n`);
  return EXIT_OK;
}
