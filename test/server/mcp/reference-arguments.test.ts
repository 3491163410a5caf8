// Issue 16, item 3: an agent written for the reference tool server calls our tools with the
// reference's argument names (snake_case, mcp-tools.md), and they are listed in tools/list.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ProtocolError } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpHarness, type McpHarness } from "./_mcp-harness";

/** Tool name -> argument names, read from the reference catalogue's tables (bold = required). */
function referenceArguments(): Map<string, { name: string; required: boolean }[]> {
  const path = fileURLToPath(new URL("../../fixtures/reference/mcp-tools.md", import.meta.url));
  const out = new Map<string, { name: string; required: boolean }[]>();
  for (const line of readFileSync(path, "utf8").split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    const tool = /^`([a-z0-9_]+)`$/.exec(cells[1] ?? "")?.[1];
    if (!tool || cells.length < 6) continue;
    const args = [...cells[3].matchAll(/(\*\*)?`([a-z0-9_]+)`(\*\*)?/g)].map((m) => ({ name: m[2], required: m[1] === "**" }));
    out.set(tool, args);
  }
  return out;
}

describe("reference argument names on our tools", () => {
  let h: McpHarness;
  beforeAll(async () => {
    h = await startMcpHarness({ credits: 1000 });
  });
  afterAll(() => h.close());

  it("lists every reference argument of every tool we serve, required ones required", async () => {
    const client = await h.connect();
    const tools = (await client.listTools()).tools;
    const reference = referenceArguments();
    let checked = 0;
    for (const tool of tools) {
      const args = reference.get(tool.name);
      if (!args) continue;
      const props = Object.keys(tool.inputSchema.properties ?? {});
      for (const a of args) {
        expect(props, `${tool.name} lists ${a.name}`).toContain(a.name);
        if (a.required) expect(tool.inputSchema.required ?? [], `${tool.name} requires ${a.name}`).toContain(a.name);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(20); // the heat_* tools' arguments at least
  });

  it("heat_heatmap with {symbols, max_strikes} works and equals the camelCase call", async () => {
    const client = await h.connect();
    const snake = await client.callTool({ name: "heat_heatmap", arguments: { symbols: "SPY", max_strikes: 5, max_expirations: 2 } });
    expect(snake.isError).toBeFalsy();
    const camel = await client.callTool({ name: "heat_heatmap", arguments: { symbols: "SPY", maxStrikes: 5, maxExpirations: 2 } });
    const strikesOf = (r: typeof snake) => (r.structuredContent as { data: { symbols: { strikes: unknown[] }[] } }).data.symbols[0].strikes;
    expect(strikesOf(snake).length).toBe(5);
    expect(strikesOf(snake)).toEqual(strikesOf(camel));
  });

  it("refuses both names of one argument, and still refuses truly unknown arguments (-32602)", async () => {
    const client = await h.connect();
    for (const args of [
      { symbols: "SPY", max_strikes: 20, maxStrikes: 20 },
      { symbols: "SPY", max_strike: 20 },
      { symbols: "SPY", constructor: 1 },
    ]) {
      const error = await client.callTool({ name: "heat_heatmap", arguments: args }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, JSON.stringify(args)).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).code).toBe(-32602);
    }
  });
});
