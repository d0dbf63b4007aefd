import { describe, expect, it } from "vitest";
import { isAllowedLink } from "../src/safe-url.js";

describe("isAllowedLink", () => {
  it("allows https, http and mailto", () => {
    for (const url of ["https://example.com/a?b#c", "http://127.0.0.1:8080/", "mailto:someone@example.com"]) {
      expect(isAllowedLink(url), url).toBe(true);
    }
  });

  it("refuses script-bearing, local and relative targets, however they are spelled", () => {
    for (const url of [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      " javascript:alert(1)",
      "java\tscript:alert(1)",
      "java\nscript:alert(1)",
      "\u0000javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:msgbox(1)",
      "file:///etc/passwd",
      "/relative/path",
      "//example.com/protocol-relative",
      "#anchor",
      "",
      "https://exa mple.com",
    ]) {
      expect(isAllowedLink(url), JSON.stringify(url)).toBe(false);
    }
  });
});
