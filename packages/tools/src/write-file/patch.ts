import { randomUUID } from "node:crypto";
import { constants } from "node:fs";
import { link, mkdir, open, rename, rm, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import {
  addedContent,
  applyHunks,
  createMatchingBudget,
  MAX_STAGED_BYTES,
  MAX_STAGED_LINES,
  type PatchChange,
  safeParsePatch,
} from "@raw/effects";
import type { HandlerResult, ToolHandlerContext } from "@raw/tool-api";
import { batchResult, errorResult, rowsFit, thrownCode } from "../shared/results.js";
import {
  OUTPUT_BUDGET_TOO_SMALL,
  PATCH_BUDGET_MESSAGE,
  WORST_CASE_BYTES_WRITTEN,
  WORST_CASE_ERROR,
} from "./constants.js";
import { type FileChange, publishFileChanges } from "./files-panel.js";
import {
  checkAbsent,
  checkAncestors,
  countLines,
  PatchFailure,
  patchCode,
  readSource,
  type SourceFile,
} from "./patch-fs.js";
import { IoAborted, NON_BLOCKING_OPEN, writeChunks } from "./regular-file.js";

/** A result row of the `patch` form (effects.md §8.3.3). */
export interface PatchRow {
  index: number;
  path: string;
  mode: "patch";
  status: "ok" | "error" | "skipped";
  destination?: string;
  bytes_written?: number;
  error?: string;
  destination_created?: true;
}

/** One change after preflight: its source as read and its new content. */
interface StagedChange {
  readonly change: PatchChange;
  /** Update and Delete: the source as read in preflight. */
  readonly source?: SourceFile;
  /** Add and Update: the new content. */
  readonly content?: Buffer;
}

/** Outcome of applying one change. */
type ChangeOutcome =
  | { status: "ok" }
  | { status: "skipped"; error: "aborted" }
  | { status: "error"; error: string; destinationCreated?: true };

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const ABORTED = Symbol("aborted");

function baseRow(change: PatchChange, index: number): PatchRow {
  const row: PatchRow = { index, path: change.rawPath, mode: "patch", status: "skipped" };
  if (change.rawDestination !== undefined) row.destination = change.rawDestination;
  return row;
}

function worstCaseRows(changes: readonly PatchChange[]): unknown[] {
  return changes.map((change, index) => ({
    ...baseRow(change, index),
    error: WORST_CASE_ERROR,
    bytes_written: WORST_CASE_BYTES_WRITTEN,
    destination_created: true,
  }));
}

function abortedRows(changes: readonly PatchChange[]): HandlerResult {
  return batchResult(
    changes.map((change, index) => ({ ...baseRow(change, index), error: "aborted" })),
    "aborted",
  );
}

function addStaged(total: number, bytes: number): number {
  const next = total + bytes;
  if (next > MAX_STAGED_BYTES) throw new PatchFailure("patch_staging_too_large");
  return next;
}

function checkLines(bytes: Uint8Array): void {
  if (countLines(bytes) > MAX_STAGED_LINES) throw new PatchFailure("patch_too_many_lines");
}

/**
 * Preflight (effects.md §8.3.1): reads and validates every file and computes every new content before any
 * mutation, with shared staging and matching limits. Throws the first failure; returns `ABORTED` when the signal
 * fires in between.
 */
async function preflight(
  changes: readonly PatchChange[],
  signal: AbortSignal | undefined,
): Promise<StagedChange[] | typeof ABORTED> {
  const budget = createMatchingBudget();
  const staged: StagedChange[] = [];
  let total = 0;
  for (const change of changes) {
    if (signal?.aborted) return ABORTED;
    await checkAncestors(change.path);
    if (change.destination !== undefined) await checkAncestors(change.destination);
    if (change.kind === "add") await checkAbsent(change.path);
    if (change.destination !== undefined) await checkAbsent(change.destination);
    if (change.kind === "add") {
      const content = Buffer.from(addedContent(change), "utf8");
      checkLines(content);
      total = addStaged(total, content.length);
      staged.push({ change, content });
      continue;
    }
    const source = await readSource(change.path, signal);
    if (source.bytes.includes(0)) throw new PatchFailure("patch_binary_source");
    checkLines(source.bytes);
    let text: string;
    try {
      text = STRICT_UTF8.decode(source.bytes);
    } catch {
      throw new PatchFailure("patch_invalid_utf8");
    }
    total = addStaged(total, source.bytes.length);
    if (change.kind === "delete") {
      staged.push({ change, source });
      continue;
    }
    const applied = applyHunks(text, change, budget);
    if (!applied.ok) throw new PatchFailure(applied.code);
    const content = Buffer.from(applied.content, "utf8");
    checkLines(content);
    total = addStaged(total, content.length);
    staged.push({ change, source, content });
  }
  return staged;
}

/**
 * Re-checks one staged change (effects.md §8.3.3): the source still has the same SHA-256, mode, device and inode;
 * an Add target and a Move destination are still absent with safe ancestors.
 */
async function recheck(staged: StagedChange, signal: AbortSignal | undefined): Promise<void> {
  const { change, source } = staged;
  await checkAncestors(change.path);
  if (change.destination !== undefined) await checkAncestors(change.destination);
  if (source === undefined) {
    await checkAbsent(change.path);
  } else {
    let now: SourceFile;
    try {
      now = await readSource(change.path, signal);
    } catch (error) {
      if (error instanceof PatchFailure && error.code === "patch_source_too_large") {
        throw new PatchFailure("patch_source_changed");
      }
      throw error;
    }
    if (
      now.sha256 !== source.sha256 ||
      now.mode !== source.mode ||
      now.dev !== source.dev ||
      now.ino !== source.ino
    ) {
      throw new PatchFailure("patch_source_changed");
    }
  }
  if (change.destination !== undefined) await checkAbsent(change.destination);
}

/**
 * Applies one change (effects.md §8.3.3): Delete removes the file; Add, Update and Move write a fresh temporary
 * file in the destination directory (exclusive create, the source's mode for Update and Move), re-check, then
 * link it without clobbering (Add, Move — a Move then removes its source) or rename it over the file (Update).
 * The temporary file is always removed.
 */
async function applyChange(staged: StagedChange, signal: AbortSignal | undefined): Promise<ChangeOutcome> {
  const { change, source } = staged;
  let temp: string | undefined;
  let destinationCreated = false;
  try {
    await recheck(staged, signal);
    if (change.kind === "delete") {
      await unlink(change.path);
      return { status: "ok" };
    }
    const destination = change.destination ?? change.path;
    const directory = dirname(destination);
    await mkdir(directory, { recursive: true });
    await checkAncestors(destination);
    temp = join(directory, `.raw-write-${randomUUID()}.tmp`);
    const flags =
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW | NON_BLOCKING_OPEN;
    const handle = await open(temp, flags, source?.mode ?? 0o666);
    try {
      await writeChunks(handle, staged.content as Buffer, 0, signal);
      if (source !== undefined) await handle.chmod(source.mode);
    } finally {
      await handle.close();
    }
    await recheck(staged, signal);
    if (signal?.aborted) return { status: "skipped", error: "aborted" };
    if (change.kind === "add" || change.destination !== undefined) {
      try {
        await link(temp, destination);
      } catch (error) {
        if (thrownCode(error) === "EEXIST") throw new PatchFailure("patch_destination_exists");
        throw error;
      }
      if (change.destination !== undefined) {
        destinationCreated = true;
        await unlink(change.path);
      }
    } else {
      await rename(temp, destination);
    }
    return { status: "ok" };
  } catch (error) {
    // Aborted between two chunks of the temporary file or of a re-read: the destination is untouched.
    if (error instanceof IoAborted && !destinationCreated) return { status: "skipped", error: "aborted" };
    const outcome: ChangeOutcome = { status: "error", error: patchCode(error) };
    if (destinationCreated) outcome.destinationCreated = true;
    return outcome;
  } finally {
    if (temp !== undefined) await rm(temp, { force: true }).catch(() => undefined);
  }
}

function fileChanges(change: PatchChange): FileChange[] {
  switch (change.kind) {
    case "add":
      return [{ path: change.path, status: "added" }];
    case "delete":
      return [{ path: change.path, status: "deleted" }];
    case "update":
      if (change.destination === undefined) return [{ path: change.path, status: "modified" }];
      return [
        { path: change.path, status: "deleted", label: `moved to ${change.rawDestination}` },
        { path: change.destination, status: "added", label: `moved from ${change.rawPath}` },
      ];
  }
}

/**
 * The `patch` form of `write_file` (effects.md §8.1, §8.3): re-parse in resolved-target mode (`invalid_patch`),
 * output budget, abort, preflight of every file (`patch_preflight_failed`), global recheck, then the changes in
 * order; a failure stops later changes (`prior_patch_failure`) and nothing is rolled back.
 */
export async function runPatch(text: string, context: ToolHandlerContext): Promise<HandlerResult> {
  const parsed = safeParsePatch(text, { cwd: context.cwd });
  if (!parsed.ok) return errorResult("invalid_patch", parsed.code);
  const changes = parsed.patch;
  const worst = worstCaseRows(changes);
  if (!rowsFit(worst, context.maxOutputBytes))
    return errorResult(OUTPUT_BUDGET_TOO_SMALL, PATCH_BUDGET_MESSAGE);
  const signal = context.signal;
  if (signal?.aborted) return abortedRows(changes);

  let staged: StagedChange[] | typeof ABORTED;
  try {
    staged = await preflight(changes, signal);
  } catch (error) {
    if (error instanceof IoAborted) return abortedRows(changes);
    return errorResult("patch_preflight_failed", patchCode(error));
  }
  if (staged === ABORTED) return abortedRows(changes);

  // Application step 1: output budget and signal; step 2: the global recheck before the first write.
  if (!rowsFit(worst, context.maxOutputBytes))
    return errorResult(OUTPUT_BUDGET_TOO_SMALL, PATCH_BUDGET_MESSAGE);
  if (signal?.aborted) return abortedRows(changes);
  try {
    for (const item of staged) await recheck(item, signal);
  } catch (error) {
    if (error instanceof IoAborted) return abortedRows(changes);
    return errorResult("patch_preflight_failed", patchCode(error));
  }

  const rows = changes.map(baseRow);
  const published: FileChange[] = [];
  let failed = false;
  for (let index = 0; index < staged.length; index++) {
    const item = staged[index] as StagedChange;
    const row = rows[index] as PatchRow;
    if (failed) {
      row.error = "prior_patch_failure";
      continue;
    }
    if (signal?.aborted) {
      row.error = "aborted";
      continue;
    }
    const outcome = await applyChange(item, signal);
    row.status = outcome.status;
    if (outcome.status === "ok") {
      row.bytes_written = item.content?.length ?? 0;
      published.push(...fileChanges(item.change));
    } else {
      row.error = outcome.error;
      if (outcome.status === "error") {
        failed = true;
        if (outcome.destinationCreated) row.destination_created = true;
      }
    }
  }
  await publishFileChanges(context.panels, context.cwd, published);
  return batchResult(rows, "patch_io_error");
}
