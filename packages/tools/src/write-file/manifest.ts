import { FILES_EFFECTS_SCHEMA, WRITE_FILE_INPUT_SCHEMA } from "@raw/effects";
import { FILES_PANEL } from "./constants.js";

/** The model-facing description of `write_file`: both forms, the modes, limits, preflight and partial success. */
export const WRITE_FILE_DESCRIPTION = [
  "Creates, edits, moves and deletes text files. Give exactly one of `operations` or `patch`; relative paths are resolved against the session working directory.",
  "",
  "`operations`: 1 to 16 independent operations, run in order. Modes:",
  '- `overwrite` {path, mode, content}: replace the whole file with `content`, creating it and missing parent directories ("" gives an empty file).',
  "- `append` {path, mode, content}: add `content` at the end, creating the file and parent directories if needed.",
  "- `replace_text` {path, mode, old_text, new_text}: replace the single occurrence of `old_text` (byte-exact). Fails with `text_not_found` when absent and `text_not_unique` when it occurs more than once (overlaps count): add surrounding text to make it unique.",
  "- `replace_lines` {path, mode, start_line, end_line, content, expected_sha256}: replace lines start_line..end_line (1-based, inclusive, line terminators included) with `content`; `expected_sha256` is the lowercase hex SHA-256 of exactly the selected bytes as they are now, else `guard_mismatch`; `line_out_of_range` when end_line is past the last line. A UTF-8 BOM and the selection's line ending are kept; empty `content` deletes the lines.",
  "Operations follow symbolic links and write in place, on regular files only: a FIFO, socket, device or directory fails with `not_regular_file`, and `replace_text` and `replace_lines` fail with `file_too_large` on a file over 16 MiB. A failed operation does not stop later ones (partial success): earlier and later writes stay.",
  "",
  "`patch`: one text from `*** Begin Patch` to `*** End Patch` with file sections `*** Add File: <path>` (then `+` lines), `*** Update File: <path>` (optionally `*** Move to: <path>`, then hunks starting with a line that is exactly `@@`, whose lines start with a space for context, `-` to delete or `+` to insert; `*** End of File` anchors a hunk to the end of the file) and `*** Delete File: <path>`. `*** No newline at end of file` after an Add or Update drops the final newline. Context and deleted lines must match the file exactly and uniquely, hunks in file order. Line endings, a BOM and the file mode are preserved.",
  "The patch is preflighted: every file is read and every new content computed before anything is written; any problem (for example `patch_context_not_found`, `patch_ambiguous_context`, `patch_destination_exists`, `patch_symlink_path`) fails the whole call with `patch_preflight_failed` and changes nothing. Adds and moves never overwrite an existing file. If a write fails while applying, later changes are skipped with `prior_patch_failure`; completed changes are not rolled back.",
  "",
  "Limits: patch text 1 MiB and 64 paths; a patched file 16 MiB and 200,000 lines; 64 MiB staged per patch; a file read by `replace_text` or `replace_lines` 16 MiB.",
  "",
  'Result: one JSON value {"results":[...]}, one row per operation or patch section with `index`, `path`, `mode`, `status` (`ok`, `error` or `skipped`) and `bytes_written` or `error`. The call is an error when any row is not ok.',
].join("\n");

/** The `tool.json` of `write_file` (effects.md §6.1). */
export const WRITE_FILE_MANIFEST = {
  api_version: 2,
  id: "write_file",
  version: "1.0.0",
  name: "write_file",
  description: WRITE_FILE_DESCRIPTION,
  input_schema: WRITE_FILE_INPUT_SCHEMA,
  entry: "./index.mjs",
  condition_sources: ["effects"],
  effects_schema: FILES_EFFECTS_SCHEMA,
  panels: [
    {
      id: FILES_PANEL,
      placement: "sidebar",
      title: "Files changed",
      icon: "folder-tree",
      open: "first_update",
      context: "none",
      acp_plan: false,
      actions: [],
    },
  ],
} as const;
