import { escapeDisplayText, stringifyForDisplay } from "@raw/schema";

/** Longest argument text shown in an approval elicitation before it is shortened (bytes of JSON, approximately). */
export const MAX_APPROVAL_ARGUMENT_CHARS = 8_192;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Untrusted text (paths, arguments) as a client shows it: JSON through `stringifyForDisplay`, the one
 * display-escaping function of amendment A1 (C0, C1, bidi and zero-width controls become `\uXXXX`).
 */
function shown(value: unknown): string {
  try {
    return stringifyForDisplay(value);
  } catch {
    return escapeDisplayText(String(value));
  }
}

/** One line per intended effect: `<operation> <path>` for file effects, else the effect as JSON. Never shortened. */
function effectLines(effects: unknown): string[] {
  if (effects === undefined) return [];
  const files = isRecord(effects) ? effects.files : undefined;
  if (Array.isArray(files)) {
    return files.map((file) =>
      isRecord(file) && typeof file.path === "string"
        ? `  ${String(file.operation ?? "change")} ${shown(file.path)}`
        : `  ${shown(file)}`,
    );
  }
  return [`  ${shown(effects)}`];
}

/**
 * The text of an approval shown to an MCP client (amendment A1's order): the tool, every intended effect one per
 * line, then the arguments (shortened, saying by how much).
 */
export function approvalMessage(request: {
  identity: string;
  arguments: unknown;
  effects?: unknown;
}): string {
  const lines = [`Approve the call of ${request.identity}?`];
  const effects = effectLines(request.effects);
  lines.push(effects.length > 0 ? "Intended effects:" : "Intended effects: none declared");
  lines.push(...effects);
  let args = JSON.stringify(request.arguments, null, 2) ?? "null";
  if (args.length > MAX_APPROVAL_ARGUMENT_CHARS) {
    const left = args.length - MAX_APPROVAL_ARGUMENT_CHARS;
    args = `${args.slice(0, MAX_APPROVAL_ARGUMENT_CHARS)}… ${left.toLocaleString("en-US")} more characters`;
  }
  lines.push("Arguments:", args);
  return lines.join("\n");
}
