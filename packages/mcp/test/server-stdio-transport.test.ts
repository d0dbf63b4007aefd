import { PassThrough } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { describe, expect, it } from "vitest";
import { MCP_STDIO_MAX_BUFFER_BYTES, ServerStdioTransport } from "../src/index.js";

// ServerStdioTransport replaces the SDK's StdioServerTransport under `raw mcp proxy` and `raw mcp serve` (issue 14:
// one message check instead of the whole union). It must behave as the SDK's, event for event and byte for byte.

const LINES = [
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ok","arguments":{"text":"héllo ✓"}}}',
  '{"method":"tools/call","params":{"arguments":{},"name":"x"},"id":"s","jsonrpc":"2.0"}',
  '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
  '{"jsonrpc":"2.0","id":3,"method":"m","params":{"_meta":{"progressToken":7},"a":1}}',
  '{"jsonrpc":"2.0","id":4,"method":"m","params":{"__proto__":{"x":1},"b":2}}',
  '{"jsonrpc":"2.0","method":"notifications/initialized"}',
  '{"jsonrpc":"2.0","id":5,"result":{"content":[]}}\r',
  '{"jsonrpc":"2.0","id":6,"error":{"code":-32601,"message":"nope"}}',
  "",
  "not json",
  '{"jsonrpc":"2.0","id":7,"method":"m","params":[1]}',
  '{"jsonrpc":"2.0","id":null,"method":"m"}',
  '{"jsonrpc":"2.0","id":8,"method":"m","extra":1}',
  "[]",
];

/** Feeds `input` to a transport in chunks of `size` bytes and records what it reports. */
async function run(
  make: (stdin: PassThrough, stdout: PassThrough) => Transport,
  input: Buffer,
  size: number,
) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const transport = make(stdin, stdout);
  const events: string[] = [];
  transport.onmessage = (message) => events.push(`message ${JSON.stringify(message)}`);
  transport.onerror = (error) => events.push(`error ${error.message}`);
  transport.onclose = () => events.push("close");
  await transport.start();
  for (let i = 0; i < input.length; i += size) stdin.write(input.subarray(i, i + size));
  await new Promise((resolve) => setImmediate(resolve));
  return { events, transport, stdin, stdout };
}

const sdk = (stdin: PassThrough, stdout: PassThrough) => new StdioServerTransport(stdin, stdout);
const ours = (stdin: PassThrough, stdout: PassThrough) => new ServerStdioTransport(stdin, stdout);

describe("ServerStdioTransport: the SDK's StdioServerTransport, with one message check", () => {
  it("reports the same messages (same parsed output) and the same errors, however the input is split", async () => {
    const input = Buffer.from(`${LINES.join("\n")}\n{"jsonrpc":"2.0","id":9,"method":"unfinished"`);
    for (const size of [1, 7, 64, input.length]) {
      const want = await run(sdk, input, size);
      const got = await run(ours, input, size);
      expect(got.events).toEqual(want.events);
      expect(got.events.filter((e) => e.startsWith("message"))).toHaveLength(8);
      expect(got.events.filter((e) => e.startsWith("error"))).toHaveLength(6);
    }
    // What they say, explicitly: the UTF-8 text across chunks, the key order of the schema, `_meta` kept.
    const { events } = await run(ours, input, 1);
    expect(events[0]).toBe(
      'message {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ok","arguments":{"text":"héllo ✓"}}}',
    );
    expect(events[1]).toBe(
      'message {"jsonrpc":"2.0","id":"s","method":"tools/call","params":{"arguments":{},"name":"x"}}',
    );
    expect(events[3]).toBe(
      'message {"jsonrpc":"2.0","id":3,"method":"m","params":{"_meta":{"progressToken":7},"a":1}}',
    );
    expect(events[4]).toBe('message {"jsonrpc":"2.0","id":4,"method":"m","params":{"b":2}}');
  });

  it("writes the same bytes, and waits for drain the same way", async () => {
    const message = { jsonrpc: "2.0" as const, id: 1, result: { content: [{ type: "text", text: "ä\n" }] } };
    const outputs: string[] = [];
    for (const make of [sdk, ours]) {
      const { transport, stdout } = await run(make, Buffer.alloc(0), 1);
      await transport.send(message);
      outputs.push(String(stdout.read()));
    }
    expect(outputs[1]).toBe(outputs[0]);
    expect(outputs[1]).toBe(`${JSON.stringify(message)}\n`);
  });

  it("overflow of the unread input: the same error, then closed and stdin paused", async () => {
    expect(MCP_STDIO_MAX_BUFFER_BYTES).toBe(10 * 1024 * 1024);
    const input = Buffer.from(`{"jsonrpc":"2.0","id":1,"method":"${"x".repeat(200)}`);
    const want = await run((i, o) => new StdioServerTransport(i, o, { maxBufferSize: 100 }), input, 64);
    const got = await run((i, o) => new ServerStdioTransport(i, o, { maxBufferBytes: 100 }), input, 64);
    expect(got.events).toEqual(want.events);
    expect(got.events).toEqual(["error ReadBuffer exceeded maximum size of 100 bytes", "close"]);
    expect(got.stdin.isPaused()).toBe(true);
    expect(got.stdin.listenerCount("data")).toBe(0);
  });

  it("starts once", async () => {
    const transport = new ServerStdioTransport(new PassThrough(), new PassThrough());
    await transport.start();
    await expect(transport.start()).rejects.toThrow("already started");
    await transport.close();
  });
});
