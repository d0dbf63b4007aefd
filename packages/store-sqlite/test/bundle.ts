import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleHost as bundle } from "@raw/test-support/bundle-host";

const here = dirname(fileURLToPath(import.meta.url));

/** Bundles a host script of this test folder for a child `node` process (`@raw/test-support/bundle-host`). */
export function bundleHost(entry: string): Promise<string> {
  return bundle(here, entry);
}
