import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";

/** The intended effect: one write, at the path as given (the host resolves and shows it). */
export function describeEffects(args) {
  return { files: [{ path: args.path, operation: "write" }] };
}

/** Writes the note, then shows it on the Notes panel. */
export async function handler(args, context) {
  await writeFile(resolve(context.cwd, args.path), `${args.text}\n`);
  await context.panels?.update("notes", {
    op: "replace",
    document: { blocks: [{ id: "last", kind: "markdown", text: `Last note: ${args.path}` }] },
  });
  return { isError: false, content: [{ type: "text", text: `wrote ${args.path}` }] };
}
