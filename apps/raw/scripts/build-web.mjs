// Builds the page of `raw serve` into dist/web: one ES module (the page code and <raw-panel>) and its stylesheet.
import { copyFileSync, mkdirSync } from "node:fs";
import { build } from "esbuild";

mkdirSync("dist/web", { recursive: true });
await build({
  entryPoints: ["web/app.ts"],
  outfile: "dist/web/app.js",
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  minify: true,
  external: ["mermaid", "node:*"],
  legalComments: "eof",
  logLevel: "warning",
});
copyFileSync("web/app.css", "dist/web/app.css");
