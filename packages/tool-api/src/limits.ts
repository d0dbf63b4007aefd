/** The only `api_version` a `raw.tool-api/2` manifest may declare (the JSON number 2). */
export const TOOL_API_VERSION = 2;

/** Maximum UTF-8 length of a manifest `description`, in bytes (tool-api.md §2.1). */
export const MAX_DESCRIPTION_BYTES = 8192;

/** Maximum UTF-8 length of a policy rule's `match` glob, in bytes (tool-api.md §9.1). */
export const MAX_RULE_MATCH_BYTES = 256;

/** The default output budget of a call, in UTF-8 bytes (tool-api.md §8.3). */
export const DEFAULT_MAX_OUTPUT_BYTES = 65536;

/**
 * How long dispatch still waits for a handler after the call's signal aborted (tool-api.md §7.6: abort is then the
 * handler's concern). A handler that settles within it keeps its own result; one that has not settled by then is
 * abandoned and the call ends `aborted`, so a handler that ignores its signal cannot hold a call forever.
 */
export const HANDLER_ABORT_GRACE_MS = 1500;

/** Maximum total decoded size of the images of one result, in bytes (tool-api.md §8.3). */
export const MAX_IMAGE_BYTES = 16 * 1024 * 1024;

/**
 * How many identities a policy remembers its plan for (a bounded cache evicted by recency). Plans are shared by the
 * rules they hold, so an entry is only a map slot: 16,384 identities cost about 1.5 MB.
 */
export const MAX_POLICY_CACHE_ENTRIES = 16_384;

/** The manifest `id` pattern (tool-api.md §2.1); also the folder name of a tool. */
export const TOOL_ID_PATTERN = "^[a-z][a-z0-9_-]{0,63}$";

/** The manifest `version` pattern: major.minor.patch without leading zeros (tool-api.md §2.1). */
export const TOOL_VERSION_PATTERN = "^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)$";

/** The manifest `name` pattern: the model-facing name, 1–64 characters (tool-api.md §2.1). */
export const TOOL_NAME_PATTERN = "^[A-Za-z_][A-Za-z0-9_-]{0,63}$";

/** The manifest `entry` pattern: a `./` relative module path ending in `.mjs`, `.js` or `.cjs` (tool-api.md §2.1). */
export const TOOL_ENTRY_PATTERN = "^\\./(?:[^/\\\\\\x00]+/)*[^/\\\\\\x00]+\\.(?:mjs|js|cjs)$";

/** Snapshots not used for this long are removed from the snapshot cache (amendment A8): 7 days. */
export const MAX_SNAPSHOT_CACHE_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** At most this many snapshots stay in the snapshot cache; the least recently used go first. */
export const MAX_SNAPSHOT_CACHE_ENTRIES = 64;

/** The snapshots of the cache together hold at most this many bytes (as recorded when they were written). */
export const MAX_SNAPSHOT_CACHE_BYTES = 512 * 1024 * 1024;

/** A staging folder left behind (a crashed loader) is removed after this long: 1 hour. */
export const SNAPSHOT_STAGING_MAX_AGE_MS = 60 * 60 * 1000;
