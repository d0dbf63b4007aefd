import { execFileSync } from "node:child_process";
import {
  createReadStream,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const packageRoot = fileURLToPath(new URL("../..", import.meta.url));
const repoRoot = resolve(packageRoot, "../..");

const TYPES: Record<string, string> = {
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".html": "text/html; charset=utf-8",
  ".css": "text/css",
  ".json": "application/json",
};

/** The packed package, extracted: what a user installs (built first by `npm run build`). */
export function packedPackage(): { dir: string; cleanup(): void } {
  const bundle = join(packageRoot, "dist", "raw-panel.browser.js");
  if (!existsSync(bundle)) throw new Error(`build @raw/panel-web first: ${bundle} is missing`);
  const work = mkdtempSync(join(tmpdir(), "raw-panel-web-pack-"));
  const out = execFileSync("npm", ["pack", "--silent", "--pack-destination", work], {
    cwd: packageRoot,
    encoding: "utf8",
  });
  const tarball = join(work, out.trim().split("\n").pop() ?? "");
  execFileSync("tar", ["-xzf", tarball, "-C", work]);
  return { dir: join(work, "package"), cleanup: () => rmSync(work, { recursive: true, force: true }) };
}

/** The `html` example of the package README, as a page: its `/node_modules/` paths are served by this server. */
export function readmeExample(): string {
  const readme = readFileSync(join(packageRoot, "README.md"), "utf8");
  const block = /```html\n([\s\S]*?)```/u.exec(readme)?.[1];
  if (!block) throw new Error("README has no html example");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>README example</title></head><body><main><h1>README</h1>${block}</main></body></html>`;
}

/** The test page: the packed bundle, Mermaid mapped for lazy loading, and nothing else. */
const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>raw-panel test</title>
<script type="importmap">{"imports":{"mermaid":"/vendor/mermaid/mermaid.esm.min.mjs"}}</script>
<script type="module" src="/pkg/dist/raw-panel.browser.js"></script>
</head><body><main><h1>Panel test page</h1><raw-panel id="panel" declared-title="Test panel"></raw-panel></main></body></html>`;

/** A static server on 127.0.0.1 for the test page, the packed package and the Mermaid files. */
export interface PageServer {
  readonly origin: string;
  /** Every path requested so far. */
  readonly requests: string[];
  close(): Promise<void>;
}

function serveFile(root: string, relative: string): string | undefined {
  const full = normalize(join(root, relative));
  if (!full.startsWith(root + sep)) return undefined;
  return existsSync(full) && statSync(full).isFile() ? full : undefined;
}

/** Starts the page server over the extracted package folder. */
export async function startPageServer(packageDir: string): Promise<PageServer> {
  const mermaidDist = join(repoRoot, "node_modules", "mermaid", "dist");
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://127.0.0.1").pathname);
    requests.push(path);
    let file: string | undefined;
    if (path === "/") {
      res.writeHead(200, { "content-type": TYPES[".html"] ?? "text/html" }).end(PAGE);
      return;
    }
    if (path === "/readme") {
      res.writeHead(200, { "content-type": TYPES[".html"] ?? "text/html" }).end(readmeExample());
      return;
    }
    if (path.startsWith("/pkg/")) file = serveFile(packageDir, path.slice(5));
    else if (path.startsWith("/node_modules/@raw/panel-web/")) file = serveFile(packageDir, path.slice(29));
    else if (path.startsWith("/node_modules/mermaid/dist/")) file = serveFile(mermaidDist, path.slice(27));
    else if (path.startsWith("/vendor/mermaid/")) file = serveFile(mermaidDist, path.slice(16));
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return {
    origin: `http://127.0.0.1:${address.port}`,
    requests,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

/** Files in the extracted package (to check what ships). */
export function packedFiles(dir: string, prefix = ""): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? packedFiles(dir, join(prefix, entry.name)) : [join(prefix, entry.name)],
  );
}
