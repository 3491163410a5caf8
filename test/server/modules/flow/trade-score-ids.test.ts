// /v1/score/{trade_id} with the reference's id forms (flowseeker.yaml getTradeScore):
// `flow_<hex ns>_<index>`, bare hex nanoseconds and raw decimal nanoseconds each name the same
// print as its feed id (found from the raw prints' `tsNs` here); the index ranks the prints of
// one exact time across the served tickers; unknown times are 404s naming `trade_id` and the
// accepted forms; a plan that does not cover the print's ticker gets 403; all uncharged.
import { beforeAll, describe, expect, it } from "vitest";
import { parseTradeRef, referenceTradeId } from "../../../../lib/flow";
import type { OptionPrint } from "../../../../lib/market";
import { sessionBounds } from "../../../../lib/time";
import { body, flowHarness, NOW_MS, TODAY, type FlowHarness } from "./_flow-harness";

const UNIVERSE = ["XOM", "KO", "XLU", "SPY"];
let h: FlowHarness;
const balance = () => h.accounts.balance(h.accountId);
const OPEN = sessionBounds(TODAY).openMs;

beforeAll(() => {
  h = flowHarness({ credits: 10_000, universe: UNIVERSE });
});

describe("trade id forms", () => {
  it("parses the reference forms: hex and decimal nanoseconds agree, the index is kept, junk is null", () => {
    const ns = 1709735400123456789n;
    const hex = ns.toString(16);
    expect(parseTradeRef(`flow_${hex}_3`)).toEqual({ kind: "time", tsNs: ns.toString(), index: 3 });
    expect(parseTradeRef(`FLOW_${hex.toUpperCase()}_0`)).toEqual({ kind: "time", tsNs: ns.toString(), index: 0 });
    expect(parseTradeRef(hex)).toEqual({ kind: "time", tsNs: ns.toString(), index: 0 });
    expect(parseTradeRef(ns.toString())).toEqual({ kind: "time", tsNs: ns.toString(), index: 0 });
    expect(parseTradeRef("XOM-28491200-4")).toEqual({ kind: "feed", id: "XOM-28491200-4", root: "XOM", minuteMs: 28491200 * 60_000 });
    expect(referenceTradeId(ns.toString(), 2)).toBe(`flow_${hex}_2`);
    for (const bad of ["flow_xyz_0", "flow_12_", "12345678901234567890123", "hello world", "flow_ffffffffffffffff_0"]) expect(parseTradeRef(bad), bad).toBeNull();
  });

  it("each form of a print's exact time scores the same trade as its feed id; 1 credit each", async () => {
    const tape = await h.sim.optionPrints("XOM", OPEN, NOW_MS);
    const prints = [0, 1, 2, 3, 4, 5].map((k) => tape[Math.floor((k * (tape.length - 1)) / 5)]);
    expect(prints.length).toBe(6);
    // Every print of the served tickers by exact time, in the market's universe order, each once.
    const order = (await h.sim.universe()).map((s) => s.ticker).filter((t) => UNIVERSE.includes(t));
    const all = new Map<string, OptionPrint[]>();
    for (const t of order) {
      for (const p of await h.sim.optionPrints(t, OPEN, NOW_MS)) {
        const same = all.get(p.tsNs) ?? [];
        if (!same.some((x) => x.id === p.id)) all.set(p.tsNs, [...same, p]);
      }
    }
    for (const p of prints) {
      const mine = (await body(await h.get(`/v1/score/${p.id}`))).data;
      const rank = all.get(p.tsNs)!.findIndex((x) => x.id === p.id);
      expect(rank).toBeGreaterThanOrEqual(0);
      const hex = BigInt(p.tsNs).toString(16);
      const forms = [`flow_${hex}_${rank}`, ...(rank === 0 ? [hex, p.tsNs] : [])];
      for (const f of forms) {
        const before = balance();
        const res = await h.get(`/v1/score/${f}`);
        expect(res.status, f).toBe(200);
        expect(balance()).toBe(before - 1);
        expect((await body(res)).data, f).toEqual(mine);
      }
      expect(mine.tradeId).toBe(p.id);
    }
  });

  it("404 naming trade_id and the forms for a time with no print or an index past the last; 400 for junk or a future day; uncharged", async () => {
    const p = (await h.sim.optionPrints("XOM", OPEN, NOW_MS))[10];
    const count = [...UNIVERSE].length; // more than any one nanosecond holds
    const taken = new Set((await Promise.all(UNIVERSE.map((t) => h.sim.optionPrints(t, p.tsMs, p.tsMs + 1)))).flat().map((x) => x.tsNs));
    let empty = BigInt(p.tsNs) + 1n;
    while (taken.has(empty.toString())) empty++;
    const before = balance();
    const cases: Array<[string, number, string, boolean]> = [
      [`/v1/score/flow_${empty.toString(16)}_0`, 404, "NOT_FOUND", true],
      [`/v1/score/flow_${BigInt(p.tsNs).toString(16)}_${count}`, 404, "NOT_FOUND", true],
      [`/v1/score/${(BigInt(NOW_MS + 60_000) * 1_000_000n).toString()}`, 404, "NOT_FOUND", true],
      ["/v1/score/not-a-trade", 400, "INVALID_PARAMETER", true],
      ["/v1/score/flow_188afe42c3a77af2_0", 400, "INVALID_PARAMETER", false], // 2026: after today
    ];
    for (const [path, status, code, namesForms] of cases) {
      const res = await h.get(path);
      expect(res.status, path).toBe(status);
      const { error } = await body(res);
      expect(error.code, path).toBe(code);
      expect(error.message, path).toContain("trade_id");
      if (namesForms) expect(error.message, path).toContain("flow_<hex nanoseconds>_<index>");
    }
    expect(balance()).toBe(before);
  });

  it("a plan without the print's ticker gets 403 for its time form (as for its feed id), refunded", async () => {
    const f = flowHarness({ credits: 100, universe: UNIVERSE, plan: "index-etf" });
    const p = (await f.sim.optionPrints("XOM", OPEN, NOW_MS))[0];
    const before = f.accounts.balance(f.accountId);
    for (const path of [`/v1/score/${p.id}`, `/v1/score/flow_${BigInt(p.tsNs).toString(16)}_0`]) {
      const res = await f.get(path);
      expect(res.status, path).toBe(403);
    }
    expect(f.accounts.balance(f.accountId)).toBe(before);
  });
});
