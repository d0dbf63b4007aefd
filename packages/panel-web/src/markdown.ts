import MarkdownIt from "markdown-it";
import { isAllowedLink } from "./safe-url.js";

/** Deepest nesting the markdown parser follows; deeper input is rendered as text. */
export const MAX_MARKDOWN_NESTING = 20;

type Parser = InstanceType<typeof MarkdownIt>;

let parser: Parser | undefined;

function markdownParser(): Parser {
  if (parser) return parser;
  const md = new MarkdownIt("default", {
    html: false,
    linkify: false,
    typographer: false,
    maxNesting: MAX_MARKDOWN_NESTING,
  });
  // Images would make the page fetch an address chosen by the document.
  md.disable(["image"]);
  md.validateLink = isAllowedLink;
  const defaultLinkOpen =
    md.renderer.rules.link_open ??
    ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    if (token) {
      token.attrSet("rel", "noopener noreferrer nofollow");
      token.attrSet("target", "_blank");
      token.attrSet("referrerpolicy", "no-referrer");
    }
    return defaultLinkOpen(tokens, idx, options, env, self);
  };
  parser = md;
  return md;
}

/**
 * Renders untrusted panel markdown to HTML: raw HTML is disabled (shown as text), images are not rendered, and a
 * link becomes live only when its target passes the URL allow-list (`isAllowedLink`).
 */
export function renderMarkdown(text: string): string {
  return markdownParser().render(text);
}
