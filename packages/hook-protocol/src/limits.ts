/** The protocol version every hook manifest declares and every request carries: the JSON number `2`. */
export const HOOK_PROTOCOL_VERSION = 2;

/** Pattern of a hook name (hooks.md §3.1). */
export const HOOK_NAME_PATTERN = /^[a-z][a-z0-9_-]*$/;

/** Maximum `name` length in UTF-8 bytes. */
export const MAX_HOOK_NAME_BYTES = 64;

/** Maximum number of `events` subscriptions. */
export const MAX_HOOK_EVENTS = 32;

/** Maximum `command` length in UTF-8 bytes. */
export const MAX_HOOK_COMMAND_BYTES = 1024;

/** Maximum number of `args`. */
export const MAX_HOOK_ARGS = 64;

/** Maximum length of one `args` element in UTF-8 bytes. */
export const MAX_HOOK_ARG_BYTES = 4096;

/** `timeout_ms` when the manifest has none. */
export const DEFAULT_HOOK_TIMEOUT_MS = 60_000;

/** Largest allowed `timeout_ms`. */
export const MAX_HOOK_TIMEOUT_MS = 600_000;

/** Maximum size of `hook.json` in bytes (hooks.md §6 step 3). */
export const MAX_HOOK_MANIFEST_BYTES = 65_536;

/** Maximum size of one snapshotted file in bytes (hooks.md §6.1). */
export const MAX_HOOK_SNAPSHOT_FILE_BYTES = 16 * 1024 * 1024;

/** Maximum size of all snapshotted files together in bytes. */
export const MAX_HOOK_SNAPSHOT_BYTES = 16 * 1024 * 1024;

/** Maximum number of regular files in a hook folder (`hook.json` counts). */
export const MAX_HOOK_SNAPSHOT_FILES = 256;

/** Maximum size of the request line plus its newline in bytes (hooks.md §7). */
export const MAX_HOOK_INPUT_BYTES = 64 * 1024 * 1024;

/** Maximum size of stdout and stderr together in bytes (hooks.md §9). */
export const MAX_HOOK_OUTPUT_BYTES = 1024 * 1024;

/** How many trailing bytes of stderr a receipt keeps (hooks.md §9, §13). */
export const MAX_HOOK_STDERR_BYTES = 4096;

/** Maximum response `reason` length in UTF-8 bytes (hooks.md §8.1). */
export const MAX_HOOK_REASON_BYTES = 1024;

/** Maximum response `message` length in UTF-8 bytes (hooks.md §8.1). */
export const MAX_HOOK_MESSAGE_BYTES = 512;

/** Delay between `SIGTERM` and `SIGKILL` to the processes of the hook's session when a run is stopped (hooks.md §9). */
export const HOOK_KILL_GRACE_MS = 500;

/** Delay after a stop after which the output streams are destroyed and the run settles regardless (hooks.md §9). */
export const HOOK_SETTLE_GRACE_MS = 1500;

/** Most rounds of a session sweep (list the session's processes, stop them, kill them) before it gives up (A7). */
export const MAX_SESSION_SWEEP_ROUNDS = 20;

/** Pause between two rounds of a session sweep, so that killed processes can finish dying (A7). */
export const SESSION_SWEEP_INTERVAL_MS = 10;
/** Hook snapshots not used for this long are removed from the snapshot cache (amendment A8): 7 days. */
export const MAX_HOOK_SNAPSHOT_CACHE_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** At most this many hook snapshots stay in the snapshot cache (each at most `MAX_HOOK_SNAPSHOT_BYTES`). */
export const MAX_HOOK_SNAPSHOT_CACHE_ENTRIES = 64;

/** A staging folder left behind (a crashed loader) is removed after this long: 1 hour. */
export const HOOK_SNAPSHOT_STAGING_MAX_AGE_MS = 60 * 60 * 1000;
