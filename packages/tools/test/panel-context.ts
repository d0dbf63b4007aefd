import { parsePanelDeclarations } from "@raw/panel";
import { createPanelHost, type PanelCall, type PanelHost } from "@raw/panel/host";
import type { ToolHandlerContext } from "@raw/tool-api";

/** The normalized panel declarations of a bundled tool manifest. */
export function declarationsOf(manifest: { panels: readonly unknown[] }) {
  const parsed = parsePanelDeclarations(manifest.panels);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.declarations;
}

/** A panel host and a way to begin calls of one tool on it, with a matching handler context. */
export function panelSession(owner: string, manifest: { panels: readonly unknown[] }) {
  const host: PanelHost = createPanelHost();
  const declarations = declarationsOf(manifest);
  let calls = 0;
  return {
    host,
    declarations,
    begin(
      cwd: string,
      source: "model" | "user_action" = "model",
    ): {
      call: PanelCall;
      context: ToolHandlerContext & { panels: NonNullable<ToolHandlerContext["panels"]> };
    } {
      calls++;
      const call = host.beginCall({ owner, declarations, toolCallId: `call-${calls}`, source });
      return { call, context: { cwd, maxOutputBytes: 65_536, panels: call.context as never } };
    },
  };
}
