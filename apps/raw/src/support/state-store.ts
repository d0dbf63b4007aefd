import { resolve } from "node:path";
import { isContractError } from "@raw/schema";
import type { SqliteInteractionStore } from "@raw/store-sqlite";
import { CliFailure } from "./io.js";

/**
 * Opens the `--state <file>` interaction store (`@raw/store-sqlite`): requests live in that SQLite file and
 * survive a restart. `better-sqlite3` is an optional peer of the CLI, so a missing one is a coded failure that says
 * what to install; an unusable file is the store's own coded error.
 */
export async function openStateStore(path: string, cwd: string): Promise<SqliteInteractionStore> {
  let open: typeof import("@raw/store-sqlite").openSqliteInteractionStore;
  try {
    ({ openSqliteInteractionStore: open } = await import("@raw/store-sqlite"));
  } catch {
    throw new CliFailure(
      "state_unavailable",
      "--state needs the better-sqlite3 package; install it next to the CLI: npm install better-sqlite3@12",
    );
  }
  try {
    return open({ path: resolve(cwd, path) });
  } catch (error) {
    if (!isContractError(error))
      throw new CliFailure("interaction_store_error", "cannot open the state file");
    throw new CliFailure(error.code, error.message.replace(`${error.code}: `, ""));
  }
}
