import type { Issue } from "@raw/schema";
import type { ToolRegistry } from "./registry.js";
import type { ToolPanelDeclaration } from "./types.js";

/** Code of the warning for a second declaration that sets `acp_plan` (`panels.md` §2.5). */
export const ACP_PLAN_IGNORED = "panel_acp_plan_ignored";

/** One selected tool as `selectAcpPlan` reads it: its canonical identity and its normalized panel declarations. */
export interface AcpPlanCandidate {
  readonly identity: string;
  readonly panels?: readonly ToolPanelDeclaration[] | undefined;
}

/** Outcome of `selectAcpPlan`. */
export interface AcpPlanSelection {
  /** The full id (`<owner>#<id>`) of the one panel that mirrors the ACP plan, if any. */
  mirror: string | undefined;
  /** Each candidate's declarations with `acp_plan` cleared on every declaration but the mirror's. */
  panels: Map<string, ToolPanelDeclaration[]>;
  /** One `panel_acp_plan_ignored` warning per cleared declaration, in selection order. */
  warnings: Issue[];
}

/**
 * The single ACP plan mirror of `panels.md` §2.5: across everything one agent selects, in selection order, only the
 * first declaration that sets `acp_plan` keeps it; each later one is cleared with the warning
 * `panel <owner>#<id>: acp_plan ignored, <first full id> already mirrors the ACP plan`.
 */
export function selectAcpPlan(candidates: readonly AcpPlanCandidate[]): AcpPlanSelection {
  let mirror: string | undefined;
  const panels = new Map<string, ToolPanelDeclaration[]>();
  const warnings: Issue[] = [];
  for (const candidate of candidates) {
    const out: ToolPanelDeclaration[] = [];
    for (const declaration of candidate.panels ?? []) {
      if (declaration.acp_plan !== true) {
        out.push(declaration);
        continue;
      }
      const fullId = `${candidate.identity}#${String(declaration.id)}`;
      if (mirror === undefined) {
        mirror = fullId;
        out.push(declaration);
        continue;
      }
      warnings.push({
        code: ACP_PLAN_IGNORED,
        message: `panel ${fullId}: acp_plan ignored, ${mirror} already mirrors the ACP plan`,
      });
      out.push(Object.freeze({ ...declaration, acp_plan: false }));
    }
    panels.set(candidate.identity, out);
  }
  return { mirror, panels, warnings };
}

/** `selectAcpPlan` over the tools a registry exposes for `whitelist` (the agent's selection), in that order. */
export function selectRegistryAcpPlan(
  registry: ToolRegistry,
  whitelist?: readonly string[] | ReadonlySet<string>,
): AcpPlanSelection {
  const candidates: AcpPlanCandidate[] = [];
  for (const definition of registry.definitions(whitelist)) {
    const inspection = registry.inspectionDefinition(definition.name);
    if (inspection !== undefined)
      candidates.push({ identity: inspection.identity, panels: inspection.panels });
  }
  return selectAcpPlan(candidates);
}
