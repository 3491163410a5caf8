// The flow_context intelligence tool over the simulator: the same numbers as the REST calls it
// stands for (chain bull/bear, sweeps, dark-pool top prints), charged as their sum (9 credits),
// and free when it fails.
import { beforeAll, describe, expect, it } from "vitest";
import { body, flowHarness, TODAY, type FlowHarness } from "../modules/flow/_flow-harness";

let h: FlowHarness;
const balance = () => h.accounts.balance(h.accountId);

/** One tools/call on the intelligence toolset, in process. */
async function callTool(name: string, args: Record<string, unknown>): Promise<any> {
  const res = await h.app.request("/mcp?toolset=intelligence", {
    method: "POST",
    headers: { Authorization: `Bearer ${h.key}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  });
  const text = await res.text();
  const dataLine = text.split("\n").find((l) => l.startsWith("data: "));
  return (text.trim().startsWith("{") ? JSON.parse(text) : JSON.parse(dataLine!.slice(6))).result;
}

beforeAll(() => {
  h = flowHarness({ credits: 10_000 });
});

describe("flow_context", () => {
  it("restates chain-bull-bear, sweeps and dark-pool top prints; costs the sum of the calls (9 with sweeps)", async () => {
    const hasSweeps = (await h.get("/v1/sweeps/AAPL?timeframe=1d")).status === 200;
    const restBefore = balance();
    const bb = (await body(await h.get("/v1/chain-bull-bear/AAPL"))).data;
    const dp = (await body(await h.get("/v1/dark-pool/top-prints/AAPL"))).data;
    const sw = hasSweeps ? (await body(await h.get("/v1/sweeps/AAPL?timeframe=1d"))).data : null;
    const restCost = restBefore - balance();

    const before = balance();
    const r = await callTool("flow_context", { ticker: "aapl" });
    expect(r.isError).toBeFalsy();
    const out = r.structuredContent;
    expect(restCost).toBe(hasSweeps ? 9 : 6);
    expect(balance()).toBe(before - restCost);
    expect(out.meta).toMatchObject({ cost: restCost, creditsRemaining: before - restCost, partial: !hasSweeps });
    expect(out.data.ticker).toBe("AAPL");
    expect(out.data.date).toBe(TODAY);
    expect(out.data.bullBear).toEqual({
      tradeCount: bb.tradeCount,
      totalVolume: bb.totalVolume,
      totalPremium: bb.totalPremium,
      ...bb.metrics,
      bullBearRatio: undefined,
      ...bb.interpretation,
      description: undefined,
    });
    expect(out.data.darkPool.topPrints).toEqual(dp);
    expect(dp.length).toBe(5);
    if (sw) expect(out.data.sweeps).toMatchObject({ totalSweeps: sw.summary.totalSweeps, totalSweepPremium: sw.summary.totalSweepPremium });
    expect(out.summary).toContain(`AAPL on ${TODAY}: ${bb.interpretation.bias}`);
    expect(out.summary).toContain(`${Math.round(bb.metrics.bullPct)}% of volume bullish`);
  });

  it("is free when it fails (unknown ticker), with the flow code in the text", async () => {
    const before = balance();
    const r = await callTool("flow_context", { ticker: "NOPE" });
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toContain("symbol_not_found");
    expect(balance()).toBe(before);
  });
});
