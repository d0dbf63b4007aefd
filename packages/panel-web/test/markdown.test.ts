import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../src/markdown.js";

describe("renderMarkdown", () => {
  it("renders ordinary markdown", () => {
    expect(renderMarkdown("**bold** and `code`")).toBe(
      "<p><strong>bold</strong> and <code>code</code></p>\n",
    );
  });

  it("shows raw HTML as text", () => {
    const html = renderMarkdown('<script>alert(1)</script>\n\n<img src=x onerror="alert(1)">');
    expect(html).not.toMatch(/<script|<img/u);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it("makes only allowed links live, with no referrer and no opener", () => {
    expect(renderMarkdown("[a](https://example.com)")).toBe(
      '<p><a href="https://example.com" rel="noopener noreferrer nofollow" target="_blank" referrerpolicy="no-referrer">a</a></p>\n',
    );
    for (const target of ["javascript:alert(1)", "data:text/html,x", "/local", "vbscript:x"]) {
      expect(renderMarkdown(`[a](${target})`), target).not.toContain("<a ");
    }
  });

  it("never renders an image (it would fetch an address chosen by the document)", () => {
    expect(renderMarkdown("![t](https://example.com/t.png)")).not.toContain("<img");
  });

  // How its cost grows with the depth is the bench row "markdown, deep nesting" (bench/suites/10-bounds.mjs).
  it("stays bounded on deep nesting", () => {
    const html = renderMarkdown("> ".repeat(8000) + "deep");
    expect((html.match(/<blockquote>/gu) ?? []).length).toBeLessThanOrEqual(20);
  });
});
