import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, openWatchedPage, screenshotsDir } from "../../../test-support/browser.js";
import { checklist, EVERY_KIND, HOSTILE } from "./support/documents.js";
import { type PageServer, packedFiles, packedPackage, startPageServer } from "./support/page-server.js";

const require = createRequire(import.meta.url);
const SCREENSHOTS = screenshotsDir(fileURLToPath(new URL("..", import.meta.url)));
const openPanelPage = (b: Browser, origin: string) => openWatchedPage(b, `${origin}/`);
const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

let browser: Browser;
let server: PageServer;
let packed: { dir: string; cleanup(): void };

beforeAll(async () => {
  packed = packedPackage();
  server = await startPageServer(packed.dir);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  packed?.cleanup();
});

/** Shows a document through a final frame, as a host's commit would. */
async function show(page: Page, document: unknown, revision = 1): Promise<boolean> {
  return page.evaluate(
    ([doc, rev]) => {
      const panel = globalThis.document.querySelector("raw-panel") as unknown as {
        applyFrame(f: unknown): boolean;
      };
      return panel.applyFrame({ type: "update", revision: rev, document: doc, closed: false, live: false });
    },
    [document, revision] as const,
  );
}

async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const panel = globalThis.document.querySelector("raw-panel") as unknown as {
      updateComplete: Promise<unknown>;
    };
    await panel.updateComplete;
  });
}

describe("the packed package", () => {
  it("ships the element, its declarations and the browser bundle, and nothing from node:", () => {
    const files = packedFiles(packed.dir);
    expect(files).toEqual(
      expect.arrayContaining([
        "package.json",
        "dist/raw-panel.browser.js",
        "dist/index.js",
        "dist/index.d.ts",
        "dist/define.js",
      ]),
    );
    for (const file of files.filter((f) => f.endsWith(".js"))) {
      expect(readFileSync(join(packed.dir, file), "utf8"), file).not.toMatch(/["'`]node:/u);
    }
  });
});

describe("<raw-panel> in Chromium", () => {
  it("runs the README example as written", async () => {
    const page = await browser.newPage();
    const logs: string[] = [];
    page.on("console", (m) => logs.push(m.text()));
    await page.goto(`${server.origin}/readme`);
    const panel = page.locator("raw-panel#build");
    await expect.poll(() => panel.locator("li[data-item=a]").getAttribute("data-status")).toBe("done");
    expect(await panel.locator("header h2").textContent()).toContain("Build");
    expect(await panel.locator("[data-role=summary]").textContent()).toBe("1/1");
    await page.close();
  });

  it("renders all ten block kinds, derived progress and summary, and an unknown kind's fallback", async () => {
    const { page, watch } = await openPanelPage(browser, server.origin);
    expect(await show(page, EVERY_KIND)).toBe(true);
    await settle(page);
    const panel = page.locator("raw-panel");
    await expect.poll(() => panel.locator("header h2").textContent()).toContain("Release");
    // Derived progress: leaves t1, t5, t3 → 1/3, and the first in-progress label.
    expect(await panel.locator("[data-role=summary]").textContent()).toBe("1/3 · Fix the API");
    expect(
      await panel
        .locator("progress.overall")
        .evaluate((p) => [(p as HTMLProgressElement).value, (p as HTMLProgressElement).max]),
    ).toEqual([1, 3]);
    const kinds = await panel
      .locator("section.block")
      .evaluateAll((s) => s.map((e) => e.getAttribute("data-kind")));
    expect(kinds).toEqual([
      "checklist",
      "steps",
      "progress",
      "key_value",
      "table",
      "markdown",
      "timeline",
      "files",
      "form",
      "mermaid",
      "future_kind",
    ]);
    expect(await panel.locator("[data-item=t5]").getAttribute("data-status")).toBe("blocked");
    expect(await panel.locator("[data-item=t2] .glyph").first().getAttribute("aria-label")).toBe(
      "in progress",
    );
    expect(await panel.locator("[data-block=plan]").textContent()).toContain("(3.0 s)");
    expect(
      await panel.locator("[data-block=bar] progress").evaluate((p) => (p as HTMLProgressElement).value),
    ).toBe(3);
    expect(await panel.locator("[data-block=kv] dd").textContent()).toBe("main");
    expect(await panel.locator("[data-block=tbl] th").allTextContents()).toEqual(["Name", "Time"]);
    expect(await panel.locator("[data-block=md] h2").textContent()).toBe("Heading");
    expect(await panel.locator("[data-block=md] a").getAttribute("href")).toBe("https://example.com/docs");
    expect(await panel.locator("[data-block=log] li").first().getAttribute("data-level")).toBe("error");
    expect(await panel.locator("[data-block=changed] li").first().textContent()).toContain("src/a.ts:3");
    expect(await panel.locator("[data-block=q] label[for$=-notes]").textContent()).toContain("Notes");
    expect(await panel.locator("[data-block=x]").textContent()).toContain("Shown as fallback text");
    // Mermaid is loaded lazily, then draws an SVG in place of the fallback.
    await expect.poll(() => panel.locator("[data-block=flow] svg").count(), { timeout: 20_000 }).toBe(1);
    expect(server.requests.some((p) => p.startsWith("/vendor/mermaid/"))).toBe(true);
    expect(watch.errors).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, "every-kind.png"), fullPage: true });
    await page.close();
  });

  it("does not load Mermaid for a document without a diagram", async () => {
    const before = server.requests.length;
    const { page } = await openPanelPage(browser, server.origin);
    await show(page, checklist(1, 3));
    await settle(page);
    await page.waitForTimeout(300);
    expect(server.requests.slice(before).filter((p) => p.startsWith("/vendor/mermaid/"))).toEqual([]);
    await page.close();
  });

  it("ticks a checklist through 20 live frames and never goes back in revision order", async () => {
    const { page } = await openPanelPage(browser, server.origin);
    const panel = page.locator("raw-panel");
    for (let revision = 1; revision <= 20; revision++) {
      const applied = await page.evaluate(
        ([doc, rev]) =>
          (
            globalThis.document.querySelector("raw-panel") as unknown as { applyFrame(f: unknown): boolean }
          ).applyFrame({
            type: "update",
            revision: rev,
            document: doc,
            closed: false,
            live: true,
          }),
        [checklist(revision, 20), revision] as const,
      );
      expect(applied).toBe(true);
      await settle(page);
      expect(await panel.locator("li[data-status=done]").count()).toBe(revision);
    }
    expect(await panel.locator("[data-role=summary]").textContent()).toBe("20/20");
    // A late live frame with an older revision changes nothing.
    const stale = await page.evaluate(
      (doc) =>
        (
          globalThis.document.querySelector("raw-panel") as unknown as { applyFrame(f: unknown): boolean }
        ).applyFrame({
          type: "update",
          revision: 7,
          document: doc,
          live: true,
        }),
      checklist(0, 20),
    );
    expect(stale).toBe(false);
    expect(await panel.locator("li[data-status=done]").count()).toBe(20);
    await page.screenshot({ path: join(SCREENSHOTS, "live-checklist.png"), fullPage: true });
    await page.close();
  });

  it("takes typed answers, keeps invalid ones pending with the message, and keeps input across live frames", async () => {
    const { page } = await openPanelPage(browser, server.origin);
    await show(page, EVERY_KIND);
    await settle(page);
    await page.evaluate(() => {
      const w = globalThis as unknown as { __submitted: unknown[] };
      w.__submitted = [];
      globalThis.document.addEventListener("raw-form-submit", (e) =>
        w.__submitted.push((e as CustomEvent).detail),
      );
    });
    const panel = page.locator("raw-panel");
    const notes = panel.locator("textarea[name=notes]");
    await notes.click();
    await page.keyboard.type("ship it on friday please");
    // A live frame changes another block while the user is typing: the text stays.
    const next = structuredClone(EVERY_KIND);
    (next.blocks[0] as { items: { status?: string }[] }).items[2] = {
      id: "t3",
      label: "Update docs",
      status: "done",
    } as never;
    expect(await show(page, next, 2)).toBe(true);
    await settle(page);
    expect(await notes.inputValue()).toBe("ship it on friday please");
    // Submitting without the required choice keeps the form pending with the contract's message.
    await panel.getByRole("button", { name: "Submit" }).click();
    await expect
      .poll(() => panel.locator("[role=alert]").textContent())
      .toBe("interaction_invalid: env is required");
    expect(await panel.locator("fieldset[data-field=env]").getAttribute("aria-invalid")).toBe("true");
    expect(await panel.locator("fieldset[data-field=env]").getAttribute("role")).toBe("radiogroup");
    // The text is over its 20-byte limit: the next message names that.
    await panel.getByLabel("Production").check();
    await panel.getByRole("button", { name: "Submit" }).click();
    await expect
      .poll(() => panel.locator("[role=alert]").textContent())
      .toBe("interaction_invalid: notes exceeds its effective byte limit");
    expect(
      await page.evaluate(() => (globalThis as unknown as { __submitted: unknown[] }).__submitted),
    ).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, "form-invalid.png"), fullPage: true });
    await notes.fill("");
    await page.keyboard.type("friday");
    await panel.getByRole("button", { name: "Submit" }).click();
    await expect
      .poll(() =>
        page.evaluate(() => (globalThis as unknown as { __submitted: unknown[] }).__submitted.length),
      )
      .toBe(1);
    expect(
      await page.evaluate(() => (globalThis as unknown as { __submitted: unknown[] }).__submitted[0]),
    ).toEqual({
      block: "q",
      answers: { env: "prod", notes: "friday" },
      canonicalResult: '{"status":"answered","answers":{"env":"prod","notes":"friday"}}',
    });
    expect(await panel.locator("[role=alert]").textContent()).toBe("");
    await page.close();
  });

  it("renders a hostile document as inert text: no script, no dialog, no request, nothing hidden", async () => {
    const { page, watch } = await openPanelPage(browser, server.origin);
    const before = new Set(watch.requests);
    expect(await show(page, HOSTILE)).toBe(true);
    await settle(page);
    const panel = page.locator("raw-panel");
    await expect.poll(() => panel.locator("[data-block=flow]").getAttribute("data-kind")).toBe("mermaid");
    await page.waitForTimeout(1500);
    expect(
      await page.evaluate(() => (globalThis as unknown as { __pwned?: unknown }).__pwned),
    ).toBeUndefined();
    expect(watch.dialogs).toEqual([]);
    const after = watch.requests.filter((url) => !before.has(url));
    expect(after.filter((url) => !url.startsWith(`${server.origin}/vendor/mermaid/`))).toEqual([]);
    expect(server.requests.filter((p) => /evil|tracker|frame/u.test(p))).toEqual([]);
    // What the document said is visible, as text.
    expect(await panel.locator("header h2").textContent()).toContain(
      "<img src=x onerror=\"window.__pwned='title'\">",
    );
    expect(await panel.locator("[data-block=md]").textContent()).toContain(
      "<script>window.__pwned='script'</script>",
    );
    const live = await panel
      .locator("[data-block=md] a")
      .evaluateAll((links) => links.map((a) => a.getAttribute("href")));
    expect(live).toEqual(["https://example.com/safe"]);
    expect(await panel.locator("script, iframe, img, [onerror], [onload]").count()).toBe(0);
    // The only style elements are the ones Mermaid writes for its own diagram, and they carry none of the
    // document's CSS (its init directive tried to set themeCSS).
    const styles = await panel
      .locator("style")
      .evaluateAll((nodes) => nodes.map((n) => [n.closest("svg") !== null, n.textContent ?? ""] as const));
    for (const [inSvg, text] of styles) {
      expect(inSvg).toBe(true);
      expect(text).not.toContain("display: none");
    }
    // Nothing the document said hides content.
    expect(await panel.locator("[data-block=kv]").isVisible()).toBe(true);
    expect(await panel.locator("[data-block=md] p").first().isVisible()).toBe(true);
    // The diagram (if Mermaid drew it) carries no live handler or javascript: link.
    const svgLinks = await panel
      .locator("[data-block=flow] a")
      .evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? a.getAttribute("xlink:href")));
    expect(svgLinks.filter((href) => href?.startsWith("javascript:"))).toEqual([]);
    expect(await panel.locator("[data-block=flow] [onclick], [data-block=flow] foreignObject").count()).toBe(
      0,
    );
    await page.screenshot({ path: join(SCREENSHOTS, "hostile.png"), fullPage: true });
    await page.close();
  });

  it("refuses malformed frames and oversized documents and shows its connection state", async () => {
    const { page } = await openPanelPage(browser, server.origin);
    await show(page, checklist(1, 2), 3);
    await settle(page);
    const results = await page.evaluate(() => {
      const panel = globalThis.document.querySelector("raw-panel") as unknown as {
        applyFrame(f: unknown): boolean;
      };
      const reasons: string[] = [];
      globalThis.document.addEventListener("raw-frame-rejected", (e) =>
        reasons.push((e as CustomEvent).detail.reason),
      );
      const big = {
        blocks: [
          { id: "m", kind: "markdown", text: "x".repeat(16_000) },
          { id: "n", kind: "markdown", text: "x".repeat(16_000) },
          { id: "o", kind: "markdown", text: "x".repeat(16_000) },
          { id: "p", kind: "markdown", text: "x".repeat(16_000) },
          { id: "q", kind: "markdown", text: "x".repeat(2_000) },
        ],
      };
      return {
        applied: [
          panel.applyFrame(null),
          panel.applyFrame("update"),
          panel.applyFrame({ type: "update", revision: "4", document: { blocks: [] } }),
          panel.applyFrame({ type: "update", revision: 4, document: { blocks: "nope" } }),
          panel.applyFrame({ type: "update", revision: 4, document: big }),
        ],
        reasons,
      };
    });
    expect(results.applied).toEqual([false, false, false, false, false]);
    expect(results.reasons).toEqual([
      "malformed_frame",
      "malformed_frame",
      "malformed_frame",
      "invalid_document",
      "invalid_document",
    ]);
    const panel = page.locator("raw-panel");
    expect(await panel.locator("li").count()).toBe(2);
    await page.evaluate(() => {
      (globalThis.document.querySelector("raw-panel") as unknown as { status: string }).status =
        "reconnecting";
    });
    await expect.poll(() => panel.locator("[role=status]").textContent()).toBe("Reconnecting…");
    await page.close();
  });

  it("passes axe-core with a full document, light and dark", async () => {
    for (const scheme of ["light", "dark"] as const) {
      const { page } = await openPanelPage(browser, server.origin);
      await page.emulateMedia({ colorScheme: scheme });
      await show(page, EVERY_KIND);
      await settle(page);
      await page.addScriptTag({ content: AXE });
      const violations = await page.evaluate(async () => {
        const axe = (
          globalThis as unknown as {
            axe: { run(ctx: unknown): Promise<{ violations: { id: string; nodes: unknown[] }[] }> };
          }
        ).axe;
        const result = await axe.run(globalThis.document);
        return result.violations.map((v) => `${v.id} (${v.nodes.length})`);
      });
      expect(violations, scheme).toEqual([]);
      await page.screenshot({ path: join(SCREENSHOTS, `axe-${scheme}.png`), fullPage: true });
      await page.close();
    }
  });

  it("is usable from the keyboard: tab reaches the form, space picks, enter submits", async () => {
    const { page } = await openPanelPage(browser, server.origin);
    await show(page, { blocks: [EVERY_KIND.blocks[8]] });
    await settle(page);
    await page.evaluate(() => {
      const w = globalThis as unknown as { __submitted: unknown[] };
      w.__submitted = [];
      globalThis.document.addEventListener("raw-form-submit", (e) =>
        w.__submitted.push((e as CustomEvent).detail),
      );
    });
    await page.keyboard.press("Tab");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Tab");
    await page.keyboard.type("ok");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await expect
      .poll(() => page.evaluate(() => (globalThis as unknown as { __submitted: unknown[] }).__submitted))
      .toEqual([
        {
          block: "q",
          answers: { env: "prod", notes: "ok" },
          canonicalResult: '{"status":"answered","answers":{"env":"prod","notes":"ok"}}',
        },
      ]);
    await page.close();
  });
});
