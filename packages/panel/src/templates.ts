/** The four action templates (`panels.md` §10.2). */
export const PANEL_TEMPLATE_NAMES = Object.freeze(["panel.id", "block.id", "item.id", "item.label"] as const);

/** One template name. */
export type PanelTemplateName = (typeof PANEL_TEMPLATE_NAMES)[number];

const NAMES: ReadonlySet<string> = new Set(PANEL_TEMPLATE_NAMES);

/**
 * Matches one `{{…}}` template; group 1 is the text between the braces (whitespace around the name is allowed).
 * Global: reset `lastIndex` or use `String.prototype.replace`/`matchAll`.
 */
export const PANEL_TEMPLATE_PATTERN = /\{\{([^{}]*)\}\}/g;

/** The template name written between the braces, without surrounding whitespace. */
export function templateName(inner: string): string {
  return inner.trim();
}

/** True for one of the four template names. */
export function isTemplateName(name: string): name is PanelTemplateName {
  return NAMES.has(name);
}

/** The first `{{…}}` in `text` whose name is not one of the four, as its trimmed name; undefined when all are known. */
export function firstUnknownTemplate(text: string): string | undefined {
  if (!text.includes("{{")) return undefined;
  for (const match of text.matchAll(PANEL_TEMPLATE_PATTERN)) {
    const name = templateName(match[1] as string);
    if (!NAMES.has(name)) return name;
  }
  return undefined;
}
