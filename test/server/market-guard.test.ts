// A market read that fails is 503 `data_unavailable` with Retry-After, refunded, logged; never a 500.
import { describe, expect, it } from "vitest";
import { CodedError } from "../../lib/coded-error";
import type { MarketData } from "../../lib/market/market-data";
import { ApiError } from "../../server/errors";
import { guardMarket, MARKET_RETRY_AFTER_S } from "../../server/market-guard";
import { makeHarness } from "./_harness";

describe("market failures on the API", () => {
  it("/v1/market/tide over a market whose minute bars throw: 503 DATA_UNAVAILABLE, Retry-After, not charged", async () => {
    const h = makeHarness({ plan: "top", credits: 100 });
    const res = await h.get("/v1/market/tide");
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe(String(MARKET_RETRY_AFTER_S));
    const body = (await res.json()) as { error: { code: string; retry_after: number } };
    expect(body.error.code).toBe("DATA_UNAVAILABLE"); // the flow module's upper-case form
    expect(body.error.retry_after).toBe(MARKET_RETRY_AFTER_S);
    expect(await h.accounts.balance(h.accountId)).toBe(100);
    expect(h.logs.some((l) => l.msg === "market_read_failed" && l.method === "minuteBars")).toBe(true);
    expect(h.logs.some((l) => l.msg === "unhandled")).toBe(false);
  });

  it("the same failure on another module (the positioning `/v1/board` read) is 503 too, lower-case code", async () => {
    const h = makeHarness({ plan: "top", credits: 100 });
    h.market.chain = (async () => {
      throw new Error("provider down");
    }) as never;
    const res = await h.get("/v1/board?symbol=SPY");
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe(String(MARKET_RETRY_AFTER_S));
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("data_unavailable");
    expect(await h.accounts.balance(h.accountId)).toBe(100);
  });
});

describe("guardMarket", () => {
  const base = {
    clock: { now: () => 0 },
    extra: 42,
    spot: async (s: string) => (s === "X" ? 1 : null),
    chain: () => {
      throw new Error("sync throw");
    },
    minuteBars: async () => {
      throw new CodedError("invalid_parameter", "library error");
    },
    optionPrints: async () => {
      throw new ApiError(404, "not_found", "as is");
    },
  } as unknown as MarketData & { extra: number };

  it("passes values, other properties, library and API errors through; maps the rest to 503", async () => {
    const seen: string[] = [];
    const m = guardMarket(base, (_e, method) => seen.push(method));
    expect(await m.spot("X", 0)).toBe(1);
    expect(m.extra).toBe(42);
    expect(m.clock).toBe(base.clock);
    await expect(m.chain("X", 0)).rejects.toMatchObject({ status: 503, code: "data_unavailable" });
    await expect(m.minuteBars("X", 0, 1)).rejects.toBeInstanceOf(CodedError);
    await expect(m.optionPrints("X", 0, 1)).rejects.toMatchObject({ status: 404 });
    expect(seen).toEqual(["chain"]);
  });
});
