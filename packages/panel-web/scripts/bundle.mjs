// Builds the self-contained browser bundle (`@raw/panel-web/browser`): the element and every dependency but
// Mermaid in one ES module. Mermaid stays a bare `import("mermaid")`, loaded lazily; the page maps it with an
// import map (see README) or leaves it out, and diagrams then show their fallback text.
import { build } from "esbuild";

await build({
  entryPoints: { "raw-panel.browser": "src/define.ts" },
  outdir: "dist",
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  minify: true,
  legalComments: "eof",
  external: ["mermaid", "node:*"],
  metafile: false,
  logLevel: "warning",
});
