import type { ToolResult } from "@raw/tool-api";
import { describe, expect, it } from "vitest";
import { mapMcpResult, toMcpResult } from "../src/index.js";

describe("mapMcpResult (MCP → Raw)", () => {
  it("maps text, PNG/JPEG images, other media, resources, links, structured content and panel meta", () => {
    const result = mapMcpResult({
      content: [
        { type: "text", text: "hi" },
        { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" },
        { type: "image", mimeType: "image/gif", data: "R0lGODlh" },
        { type: "audio", mimeType: "audio/wav", data: "UklGRg==" },
        { type: "resource", resource: { uri: "file:///a", blob: "AAAA" } },
        { type: "resource_link", uri: "file:///b", name: "b" },
      ],
      structuredContent: { n: 1 },
      _meta: { "raw/panel": { panel: "status", op: "close" } },
    });
    expect(result).toEqual({
      isError: false,
      content: [
        { type: "text", text: "hi" },
        { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" },
        { type: "text", text: "[image image/gif, 6 bytes not shown]" },
        { type: "text", text: "[audio audio/wav, 6 bytes not shown]" },
        { type: "json", value: { type: "resource", resource: { uri: "file:///a", blobBytes: 3 } } },
        { type: "json", value: { type: "resource_link", uri: "file:///b", name: "b" } },
        { type: "json", value: { n: 1 } },
        { type: "panel", panel: "status", op: "close" },
      ],
    });
  });

  it("an isError result carries mcp_tool_error", () => {
    expect(mapMcpResult({ content: [{ type: "text", text: "no" }], isError: true })).toEqual({
      isError: true,
      code: "mcp_tool_error",
      content: [{ type: "text", text: "no" }],
    });
  });
});

describe("toMcpResult (Raw → MCP)", () => {
  it("a lone json object is structuredContent, with its JSON text only when no other text is present", () => {
    expect(toMcpResult({ isError: false, content: [{ type: "json", value: { a: 1 } }] })).toEqual({
      isError: false,
      content: [{ type: "text", text: '{"a":1}' }],
      structuredContent: { a: 1 },
    });
    expect(
      toMcpResult({
        isError: false,
        content: [
          { type: "text", text: "a is 1" },
          { type: "json", value: { a: 1 } },
        ],
      }),
    ).toEqual({ isError: false, content: [{ type: "text", text: "a is 1" }], structuredContent: { a: 1 } });
  });

  it("an MCP result survives the round trip through Raw unchanged", () => {
    const original = {
      content: [{ type: "text" as const, text: '{"x":[1]}' }],
      structuredContent: { x: [1] },
    };
    expect(toMcpResult(mapMcpResult(original) as ToolResult)).toEqual({ ...original, isError: false });
  });

  it("errors keep their code as text and in _meta; truncation is flagged", () => {
    expect(
      toMcpResult({
        isError: true,
        code: "tool_denied",
        truncated: true,
        content: [{ type: "text", text: "denied" }],
      }),
    ).toEqual({
      isError: true,
      content: [
        { type: "text", text: "tool_denied" },
        { type: "text", text: "denied" },
      ],
      _meta: { "raw/code": "tool_denied", "raw/truncated": true },
    });
  });
});

describe("a mounted tool's links and structured content survive the round trip (MCP → Raw → MCP)", () => {
  it("links and text resources go back out as they came, binary ones as a size note; structuredContent stays", () => {
    const upstream = {
      content: [
        { type: "text" as const, text: "two files" },
        { type: "resource_link" as const, uri: "file:///b", name: "b", mimeType: "text/plain", size: 3 },
        { type: "resource" as const, resource: { uri: "file:///c", text: "C" } },
        { type: "resource" as const, resource: { uri: "file:///d", blob: "AAAA" } },
      ],
      structuredContent: { files: 2 },
    };
    const back = toMcpResult(mapMcpResult(upstream) as ToolResult);
    expect(back.structuredContent).toEqual({ files: 2 });
    expect(back.content).toEqual([
      { type: "text", text: "two files" },
      { type: "resource_link", uri: "file:///b", name: "b", mimeType: "text/plain", size: 3 },
      { type: "resource", resource: { uri: "file:///c", text: "C" } },
      { type: "text", text: '{"type":"resource","resource":{"uri":"file:///d","blobBytes":3}}' },
    ]);
  });

  it("a json value that is not a well-formed link stays JSON text; fields a link does not have are not passed", () => {
    const back = toMcpResult({
      isError: false,
      content: [
        { type: "json", value: { type: "resource_link", uri: 7, name: "x" } },
        {
          type: "json",
          value: { type: "resource_link", uri: "u:/a", name: "a", extra: "\u001b[31m", size: -1 },
        },
      ],
    });
    expect(back.content).toEqual([
      { type: "text", text: '{"type":"resource_link","uri":7,"name":"x"}' },
      { type: "resource_link", uri: "u:/a", name: "a" },
    ]);
    expect(back.structuredContent).toEqual({ type: "resource_link", uri: 7, name: "x" });
  });
});
