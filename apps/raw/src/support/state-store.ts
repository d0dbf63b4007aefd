import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import { type PanelHost, type PanelState, restorePanelStates, snapshotPanelHost } from "@raw/panel/host";
import { isContractError } from "@raw/schema";
import type { SqliteInteractionStore } from "@raw/store-sqlite";
import { CliFailure } from "./io.js";

/** The reserved snapshot key under which `raw serve --state` keeps its address (never a real session id). */
export const SERVE_ADDRESS_KEY = "raw-serve/address";

/** The reserved snapshot key under which `raw serve --state` keeps its committed sidebar panels. */
export const SERVE_PANELS_KEY = "raw-serve/panels";

/** What `raw serve --state` keeps so a restart serves the same URL: the per-run token and the port. */
export interface ServeAddress {
  /** 32 random bytes, base64url (43 characters). */
  readonly token: string;
  /** The port the last run listened on. */
  readonly port: number;
}

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/u;

/**
 * Opens the `--state <file>` interaction store (`@raw/store-sqlite`): requests live in that SQLite file and
 * survive a restart. `better-sqlite3` is an optional peer of the CLI, so a missing one is a coded failure that says
 * what to install; an unusable file is the store's own coded error, and nothing falls back to memory. The store
 * creates a new file with mode 0600 without following a link, refuses a link to a file that does not exist yet and
 * another user's file (`interaction_store_unsafe`), and keeps the file and its `-wal`/`-shm` companions 0600 (an
 * existing file is restricted once it opened as a Raw database), since `raw serve` keeps its token there. `exclusive` (`raw serve`) holds the file for this process alone: any other
 * process that opens it meanwhile fails with `interaction_store_busy`, so no second host takes its questions.
 */
export async function openStateStore(
  path: string,
  cwd: string,
  options: { exclusive?: boolean } = {},
): Promise<SqliteInteractionStore> {
  let open: typeof import("@raw/store-sqlite").openSqliteInteractionStore;
  try {
    ({ openSqliteInteractionStore: open } = await import("@raw/store-sqlite"));
  } catch {
    throw new CliFailure(
      "state_unavailable",
      "--state needs the better-sqlite3 package; install it next to the CLI: npm install better-sqlite3@12",
    );
  }
  const file = resolve(cwd, path);
  try {
    return open({ path: file, ...(options.exclusive === true ? { exclusive: true } : {}) });
  } catch (error) {
    if (!isContractError(error))
      throw new CliFailure("interaction_store_error", "cannot open the state file");
    throw new CliFailure(error.code, error.message.replace(`${error.code}: `, ""));
  }
}

/**
 * The address `raw serve --state` kept from its last run, or a fresh one (a new random token, no port) when the
 * file holds none or an invalid one.
 */
export function loadServeAddress(store: SqliteInteractionStore): { token: string; port?: number } {
  let kept: unknown;
  try {
    kept = store.loadPanels(SERVE_ADDRESS_KEY);
  } catch {
    kept = undefined;
  }
  const value = kept as Partial<ServeAddress> | undefined;
  const token =
    typeof value?.token === "string" && TOKEN_PATTERN.test(value.token)
      ? value.token
      : randomBytes(32).toString("base64url");
  const port =
    typeof value?.port === "number" && Number.isInteger(value.port) && value.port > 0 && value.port <= 65_535
      ? value.port
      : undefined;
  return port === undefined ? { token } : { token, port };
}

/** Keeps the address of this run of `raw serve --state` for the next one. */
export function saveServeAddress(store: SqliteInteractionStore, address: ServeAddress): void {
  store.savePanels(SERVE_ADDRESS_KEY, { token: address.token, port: address.port });
}

/**
 * Recovery after owner loss (`panels.md` §13.5): the requests still pending in a state file belong to calls of a
 * process that ended (one host process per file), and no call can take their answer any more, so each ends
 * `interrupted` and a late answer gets `interaction_conflict`. Returns how many.
 */
export function interruptOrphans(store: SqliteInteractionStore): number {
  let count = 0;
  for (const owner of new Set(store.pending().map((record) => record.identity.owner))) {
    count += store.interruptPending(owner);
  }
  return count;
}

/**
 * The sidebar panels `raw serve --state` kept from its last run, for `createPanelHost({ restore })`: their revisions
 * continue where they stopped (`panels.md` §13.5). A panel that holds a form is left out, since its question ended
 * with the run that asked it (`interruptOrphans`). A snapshot that does not parse restores nothing.
 */
export function loadServePanels(store: SqliteInteractionStore): PanelState[] {
  try {
    const kept = store.loadPanels(SERVE_PANELS_KEY);
    if (kept === undefined) return [];
    return restorePanelStates(kept).filter(
      (state) => !state.document.blocks.some((block) => block.kind === "form"),
    );
  } catch {
    return [];
  }
}

/** Keeps the committed sidebar panels of `host` for the next run of `raw serve --state`. */
export function saveServePanels(store: SqliteInteractionStore, host: PanelHost): void {
  store.savePanels(SERVE_PANELS_KEY, snapshotPanelHost(host));
}
