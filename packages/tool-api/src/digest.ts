import { createHash } from "node:crypto";
import type { FolderFile } from "./file-set.js";

/** The relative path of the manifest inside a tool folder. */
export const MANIFEST_FILE = "tool.json";

const DOMAIN = "raw.tool-api/2 source digest";

function frame(hash: ReturnType<typeof createHash>, bytes: Uint8Array): void {
  const length = Buffer.alloc(8);
  length.writeBigUInt64BE(BigInt(bytes.length));
  hash.update(length);
  hash.update(bytes);
}

function frameText(hash: ReturnType<typeof createHash>, text: string): void {
  frame(hash, Buffer.from(text, "utf8"));
}

/** The bytes that stand for `tool.json` in the digest: the parsed manifest serialized without `version`. */
export function manifestDigestBytes(parsed: unknown): Uint8Array {
  let value = parsed;
  if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
    const { version: _version, ...rest } = parsed as Record<string, unknown>;
    value = rest;
  }
  return Buffer.from(JSON.stringify(value) ?? "", "utf8");
}

/**
 * The source digest of tool-api.md §5.4: hex SHA-256 over a domain tag, the selection id and, for every file in
 * sorted order, its relative path, mode, size and bytes, each field length-prefixed (8-byte big-endian). The bytes
 * (and size) of `tool.json` are those of the parsed manifest serialized without `version`, so changing only the
 * version keeps the digest.
 */
export function sourceDigest(
  selectionId: string,
  files: readonly FolderFile[],
  parsedManifest: unknown,
): string {
  const hash = createHash("sha256");
  frameText(hash, DOMAIN);
  frameText(hash, selectionId);
  frameText(hash, String(files.length));
  for (const file of files) {
    const bytes = file.relpath === MANIFEST_FILE ? manifestDigestBytes(parsedManifest) : file.bytes;
    frameText(hash, file.relpath);
    frameText(hash, file.mode.toString(8));
    frameText(hash, String(bytes.length));
    frame(hash, bytes);
  }
  return hash.digest("hex");
}
