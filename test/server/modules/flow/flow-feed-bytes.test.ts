// GET /v1/flow/{ticker} after the warm-path work (memoized rows and pages): for random queries the
// body is byte for byte what the plain path gives, `JSON.stringify` of the envelope with every row
// made by `flowTradeItem` and `feedTradeExtras` (issue 37's context fields: the previous IV by a
// plain walk here, the cluster from the tape's sweeps and packages) from the session's scored
// trades, the page chosen here from the raw prints (premium = price x size x 100); repeated and
// paged calls answer the same bytes.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_FLOW_SCORE_WEIGHTS, detectMultiLeg, flowTradeItem } from "../../../../lib/flow";
import { feedTradeExtras, packageCluster, sweepCluster } from "../../../../lib/flow/feed-extras";
import { sessionBounds } from "../../../../lib/time";
import { moduleStateOf } from "../../../../server/modules";
import { flowModule } from "../../../../server/modules/flow";
import { sessionTape, tapeTrades } from "../../../../server/modules/flow/sessions/tape";
import { flowHarness, NOW_MS, TODAY } from "./_flow-harness";

const h = flowHarness();
const OPEN = sessionBounds(TODAY).openMs;

const rawCache = new Map<string, Promise<Awaited<ReturnType<typeof h.sim.optionPrints>>>>();
/** The ticker's raw prints of the session so far (read once per ticker). */
function rawPrints(ticker: string) {
  let p = rawCache.get(ticker);
  if (!p) {
    p = h.sim.optionPrints(ticker, OPEN, NOW_MS);
    rawCache.set(ticker, p);
  }
  return p;
}

/** The body without its per-request parts (request id, timestamp, query time). */
function stable(text: string): string {
  return text.replace(/"queryTimeMs":\d+/, '"queryTimeMs":0').replace(/"timestamp":"[^"]*","requestId":"[^"]*"/, '"timestamp":"","requestId":""');
}

describe("/v1/flow/{ticker} bytes", () => {
  it("random queries: the rows are exactly JSON.stringify of flowTradeItem over the independently chosen page", async () => {
    const state = moduleStateOf(h.app.services, flowModule);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("AAPL", "SPY", "SPXW"),
        fc.integer({ min: 1, max: 500 }),
        fc.option(fc.constantFrom(0, 500, 5000, 50_000), { nil: undefined }),
        fc.constantFrom("all", "call", "put"),
        fc.option(fc.integer({ min: 1, max: 20 }), { nil: undefined }),
        async (ticker, limit, minPremium, optionType, minContracts) => {
          const qs = new URLSearchParams({ limit: String(limit), timeframe: "1d", option_type: optionType });
          if (minPremium !== undefined) qs.set("min_premium", String(minPremium));
          if (minContracts !== undefined) qs.set("min_contracts", String(minContracts));
          const res = await h.get(`/v1/flow/${ticker}?${qs}`);
          expect(res.status).toBe(200);
          const text = await res.text();
          // The whole body is what JSON.stringify makes of it (no hand-made JSON drifts from it).
          expect(text).toBe(JSON.stringify(JSON.parse(text)));
          // The page from the raw prints: newest first, filters applied here.
          const raw = (await rawPrints(ticker)).filter(
            (p) =>
              (minPremium === undefined || p.price * p.size * 100 >= minPremium - 1e-6) &&
              (optionType === "all" || (optionType === "call") === (p.right === "C")) &&
              (minContracts === undefined || p.size >= minContracts),
          );
          const pageIds = raw
            .slice(-limit)
            .reverse()
            .map((p) => p.id);
          const tape = await sessionTape(state, ticker, TODAY, NOW_MS);
          const all = tapeTrades(tape);
          const indexOf = new Map(tape.prints.map((p, i) => [p.id, i]));
          const { packages, packageOf } = detectMultiLeg(tape.prints);
          const rows = pageIds.map((id) => {
            const i = indexOf.get(id)!;
            const t = all[i];
            // The contract's previous IV of the session: the last earlier trade of the same symbol.
            let prevIv: number | null = null;
            for (let k = i - 1; k >= 0; k--) {
              if (all[k].symbol === t.symbol) {
                prevIv = all[k].iv;
                break;
              }
            }
            const pk = packageOf[i] >= 0 ? packages[packageOf[i]] : null;
            const cluster =
              t.sweepGroup >= 0
                ? sweepCluster(TODAY, ticker, tape.sweeps.groups[t.sweepGroup])
                : pk
                  ? packageCluster(TODAY, ticker, pk, tape.prints[pk.printIndices[pk.printIndices.length - 1]].tsMs)
                  : undefined;
            const rates = tape.board ? { rate: tape.board.rate, dividendYield: tape.board.dividendYield } : null;
            return {
              ...flowTradeItem(t, t.sweepGroup >= 0 ? tape.sweeps.groups[t.sweepGroup] : null),
              ...feedTradeExtras(t, { rates, weights: DEFAULT_FLOW_SCORE_WEIGHTS, prevIv, cluster }),
            };
          });
          expect(text).toContain(`"trades":${JSON.stringify(rows)},"aggregate":`);
          // The same query again (served from the memoized page) answers the same bytes.
          const again = await (await h.get(`/v1/flow/${ticker}?${qs}`)).text();
          expect(stable(again)).toBe(stable(text));
        },
      ),
      { numRuns: 15 },
    );
  }, 60_000);

  it("a cursor walk gives the same rows as one page per call without the memo (every page, in order)", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 200; i++) {
      const res = await h.get(`/v1/flow/SPY?limit=97&timeframe=1d${cursor ? `&cursor=${cursor}` : ""}`);
      const b = await res.json();
      seen.push(...b.data.trades.map((t: any) => t.tradeId));
      cursor = b.meta.nextCursor;
      if (!cursor) break;
    }
    const raw = await h.sim.optionPrints("SPY", OPEN, NOW_MS);
    expect(seen).toEqual(raw.map((p) => p.id).reverse());
  }, 60_000);
});
