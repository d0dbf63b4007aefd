/**
 * The names of the bundled tools, in the order a host lists them: each is the `id` and `name` of its `tool.json`,
 * the folder name under the package's `tools/`, and the `<name>` of its builtin identity `builtin/<name>`.
 */
export const BUNDLED_TOOL_NAMES = ["write_file", "bash", "todo", "ask_user", "diagram"] as const;

/** The name of one bundled tool (`"write_file"`, `"bash"`, `"todo"`, `"ask_user"` or `"diagram"`). */
export type BundledToolName = (typeof BUNDLED_TOOL_NAMES)[number];
