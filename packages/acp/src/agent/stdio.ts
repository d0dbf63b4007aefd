import { Readable, Writable } from "node:stream";
import { ndJsonStream, type Stream } from "@agentclientprotocol/sdk";

/** The ACP stream of this process's stdio (newline-delimited JSON, the SDK's `ndJsonStream`): stdout out, stdin in. */
export function stdioStream(
  input: NodeJS.ReadableStream = process.stdin,
  output: NodeJS.WritableStream = process.stdout,
): Stream {
  return ndJsonStream(
    Writable.toWeb(output as Writable) as WritableStream<Uint8Array>,
    Readable.toWeb(input as Readable) as unknown as ReadableStream<Uint8Array>,
  );
}
