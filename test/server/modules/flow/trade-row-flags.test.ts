// The trade rows' `cacheMiss` and `mlSibling` (flowseeker.yaml OptionTradeRow, optional fields):
// `cacheMiss` is true exactly when the request computed the row's enrichment (a fresh app's first
// request for a tape, a session not seen before) and false when it read it (a repeat, the other
// feed over the same tape), the rows otherwise identical; `mlSibling` is false on every row and
// every row passes the filters on its own (no leg rides along with its package).
import { beforeAll, describe, expect, it } from "vitest";
import { sessionBounds } from "../../../../lib/time";
import { body, flowHarness, PRIOR, TODAY, type FlowHarness } from "./_flow-harness";

let h: FlowHarness;
const OPEN = sessionBounds(TODAY).openMs;
const M = 60_000;

async function rows(path: string): Promise<any[]> {
  const res = await h.get(path);
  expect(res.status, path).toBe(200);
  return (await body(res)).data;
}

const withoutMiss = (r: any[]) => r.map(({ cacheMiss: _c, ...rest }) => rest);

beforeAll(() => {
  h = flowHarness({ credits: 10_000, universe: ["XOM", "AAPL"] });
});

describe("cacheMiss", () => {
  it("is true on the first read of a tape's enrichment and false once cached; nothing else changes", async () => {
    const path = `/v1/underlying/XOM/trades?end=${(OPEN + 20 * M) / 1000}&limit=40`;
    const first = await rows(path);
    expect(first.length).toBeGreaterThan(0);
    expect(first.every((r) => r.cacheMiss === true)).toBe(true);
    const again = await rows(path);
    expect(again.every((r) => r.cacheMiss === false)).toBe(true);
    expect(withoutMiss(again)).toEqual(withoutMiss(first));
    // The contract feed reads the same tape's enrichment: a hit.
    const contract = first[0].rawSymbol.replace(/\s+/g, "");
    const c = await rows(`/v1/contract/${contract}/trades?limit=10`);
    expect(c.length).toBeGreaterThan(0);
    expect(c.every((r) => r.cacheMiss === false)).toBe(true);
  });

  it("another ticker or another session is computed for its first request", async () => {
    expect((await rows("/v1/underlying/AAPL/trades?limit=5")).map((r) => r.cacheMiss)).toEqual([true, true, true, true, true]);
    const prior = sessionBounds(PRIOR);
    const past = `/v1/underlying/XOM/trades?start=${prior.openMs / 1000}&end=${(prior.openMs + 30 * M) / 1000}&limit=5`;
    expect((await rows(past)).every((r) => r.cacheMiss === true)).toBe(true);
    expect((await rows(past)).every((r) => r.cacheMiss === false)).toBe(true);
  });
});

describe("mlSibling", () => {
  it("is false on every row, and every row matches the filters itself, even when its package's other legs do not", async () => {
    const all = await rows("/v1/underlying/XOM/trades?only_multi_leg=true&limit=500");
    expect(all.length).toBeGreaterThan(0);
    for (const r of all) {
      expect(r.mlSibling).toBe(false);
      expect(r.multiLeg).toBe(true);
    }
    // A premium floor between the legs of a package: only the legs above it come back.
    const withGroup = all.filter((r) => r.strategyGroupId !== undefined);
    const groups = new Map<string, any[]>();
    for (const r of withGroup) groups.set(r.strategyGroupId, [...(groups.get(r.strategyGroupId) ?? []), r]);
    const split = [...groups.values()].find((legs) => legs.length > 1 && new Set(legs.map((l) => l.totalPremium)).size > 1);
    expect(split, "a package whose legs differ in premium").toBeDefined();
    const floor = Math.max(...split!.map((l) => l.totalPremium));
    const above = await rows(`/v1/underlying/XOM/trades?only_multi_leg=true&min_premium=${floor}&limit=500`);
    for (const r of above) {
      expect(r.totalPremium).toBeGreaterThanOrEqual(floor);
      expect(r.mlSibling).toBe(false);
    }
    const returnedOfSplit = above.filter((r) => r.strategyGroupId === split![0].strategyGroupId);
    expect(returnedOfSplit.length).toBe(split!.filter((l) => l.totalPremium >= floor).length);
    expect(returnedOfSplit.length).toBeLessThan(split!.length);
  });
});
