import { ContractError, deepFreeze, type Issue, isPlainObject } from "@raw/schema";
import { parsePanelDeclaration } from "./declarations.js";
import { validatePanelDocument } from "./document.js";
import { PANEL_ID_PATTERN } from "./field-checks.js";
import { MAX_PANELS_PER_SESSION, type PanelHost, type PanelState } from "./host.js";

/** The version of `PanelHostSnapshot` this package writes and reads. */
export const PANEL_SNAPSHOT_VERSION = 1;

/** A panel host's committed sidebar panels as JSON, for a store to keep across restarts (issue 16 §4). */
export interface PanelHostSnapshot {
  version: typeof PANEL_SNAPSHOT_VERSION;
  panels: Array<{
    owner: string;
    id: string;
    declaration: unknown;
    revision: number;
    document: unknown;
    closed: boolean;
    createdAt: number;
    updatedAt: number;
  }>;
}

/** The committed sidebar panels of `host` as a JSON snapshot (chat views are per call and not kept). */
export function snapshotPanelHost(host: PanelHost): PanelHostSnapshot {
  return JSON.parse(
    JSON.stringify({
      version: PANEL_SNAPSHOT_VERSION,
      panels: host.list().map((state) => ({
        owner: state.owner,
        id: state.id,
        declaration: state.declaration,
        revision: state.revision,
        document: state.document,
        closed: state.closed,
        createdAt: state.createdAt,
        updatedAt: state.updatedAt,
      })),
    }),
  ) as PanelHostSnapshot;
}

function invalid(path: string, reason: string): { ok: false; issues: Issue[] } {
  return { ok: false, issues: [{ code: "panel_snapshot_invalid", message: `${path}: ${reason}`, path }] };
}

/**
 * Checks a stored snapshot before a host restores it (`createPanelHost({ restore })`): version, at most
 * `MAX_PANELS_PER_SESSION` panels, each with a non-empty owner, a panel id, a valid declaration of that id and a
 * valid document, a positive revision and timestamps. The first failure is `panel_snapshot_invalid` with
 * `<pointer>: <reason>`; nothing is restored from a snapshot that fails.
 */
export function parsePanelSnapshot(
  value: unknown,
): { ok: true; panels: PanelState[] } | { ok: false; issues: Issue[] } {
  if (!isPlainObject(value)) return invalid("", "must be an object");
  if (value.version !== PANEL_SNAPSHOT_VERSION)
    return invalid("/version", `must be ${PANEL_SNAPSHOT_VERSION}`);
  const panels = value.panels;
  if (!Array.isArray(panels)) return invalid("/panels", "must be an array");
  if (panels.length > MAX_PANELS_PER_SESSION)
    return invalid("/panels", `at most ${MAX_PANELS_PER_SESSION} panels`);
  const out: PanelState[] = [];
  const seen = new Set<string>();
  for (const [i, entry] of panels.entries()) {
    const at = `/panels/${i}`;
    if (!isPlainObject(entry)) return invalid(at, "must be an object");
    const { owner, id, revision, closed, createdAt, updatedAt } = entry;
    if (typeof owner !== "string" || owner === "")
      return invalid(`${at}/owner`, "must be a non-empty string");
    if (typeof id !== "string" || !PANEL_ID_PATTERN.test(id))
      return invalid(`${at}/id`, "must be a panel id");
    const fullId = `${owner}#${id}`;
    if (seen.has(fullId)) return invalid(`${at}/id`, `duplicate panel ${fullId}`);
    seen.add(fullId);
    if (!Number.isSafeInteger(revision) || (revision as number) < 1) {
      return invalid(`${at}/revision`, "must be a positive integer");
    }
    if (typeof closed !== "boolean") return invalid(`${at}/closed`, "must be a boolean");
    for (const [name, time] of [
      ["createdAt", createdAt],
      ["updatedAt", updatedAt],
    ] as const) {
      if (typeof time !== "number" || !Number.isFinite(time))
        return invalid(`${at}/${name}`, "must be a number");
    }
    const declaration = parsePanelDeclaration(entry.declaration, { pointer: `${at}/declaration` });
    if (!declaration.ok) return { ok: false, issues: declaration.issues };
    if (declaration.declaration.id !== id) return invalid(`${at}/declaration/id`, `must be ${id}`);
    const document = validatePanelDocument(entry.document);
    if (!document.ok) {
      const issue = document.issues[0];
      return invalid(
        `${at}/document${issue?.path ?? ""}`,
        issue?.message.replace(/^[^:]*: /, "") ?? "invalid",
      );
    }
    out.push(
      deepFreeze({
        fullId,
        owner,
        id,
        declaration: declaration.declaration,
        revision: revision as number,
        document: document.document,
        closed,
        createdAt: createdAt as number,
        updatedAt: updatedAt as number,
      }),
    );
  }
  return { ok: true, panels: out };
}

/** The throwing twin of `parsePanelSnapshot`: the restored states, or a `ContractError` (`panel_snapshot_invalid`). */
export function restorePanelStates(value: unknown): PanelState[] {
  const parsed = parsePanelSnapshot(value);
  if (!parsed.ok) throw ContractError.fromIssues(parsed.issues);
  return parsed.panels;
}
