/** The part of the `mermaid` package this renderer uses. */
export interface MermaidApi {
  initialize(config: Record<string, unknown>): void;
  render(id: string, source: string): Promise<{ svg: string }>;
}

/** Loads the `mermaid` package on first use (a host may pass its own loader to `<raw-panel>`). */
export type MermaidLoader = () => Promise<MermaidApi>;

/** The default loader: a dynamic import of the optional peer dependency `mermaid`. */
export const loadMermaidPackage: MermaidLoader = async () => {
  const module: { default: MermaidApi } = await import("mermaid");
  return module.default;
};

let ready: Promise<MermaidApi> | undefined;
let counter = 0;

/**
 * Renders a Mermaid source to SVG with the `strict` security level (no HTML labels, no click handlers, sanitized
 * output; directives cannot lower it). The package is loaded once, lazily, the first time a diagram is shown.
 */
export async function renderMermaid(
  source: string,
  loader: MermaidLoader = loadMermaidPackage,
): Promise<string> {
  ready ??= loader().then((mermaid) => {
    mermaid.initialize({
      startOnLoad: false,
      securityLevel: "strict",
      htmlLabels: false,
      flowchart: { htmlLabels: false },
      secure: [
        "secure",
        "securityLevel",
        "startOnLoad",
        "maxTextSize",
        "maxEdges",
        "htmlLabels",
        "flowchart",
        "themeCSS",
        "themeVariables",
        "fontFamily",
        "altFontFamily",
      ],
    });
    return mermaid;
  });
  const mermaid = await ready.catch((error: unknown) => {
    ready = undefined;
    throw error;
  });
  counter += 1;
  const { svg } = await mermaid.render(`raw-panel-mermaid-${counter}`, source);
  return svg;
}
