import { describe, expect, it } from "vitest";
import {
  ChainRatioResultSchema,
  ContractRatioResultSchema,
  ContractRvolSchema,
  ExpirationChainSchema,
  FlowMomentumSchema,
  MarketOverviewSchema,
  ScoredTradeSchema,
  TickerDailyRowSchema,
  TickerRvolSchema,
  TideBarSchema,
  TopContractRowSchema,
  WindowScoresSchema,
  chainRatio,
  contractDailyRollups,
  contractRatio,
  expirationChain,
  flowMomentum,
  flowTide,
  marketOverview,
  openInterestBySymbol,
  premiumNorm,
  rvol,
  scoreFlow,
  tickerDailyRollup,
  windowScores,
} from "../../lib/flow";
import { sessionBounds } from "../../lib/time";
import { simulatedMarketAt } from "../_helpers/simulated-market";

// Every record parses with its schema unchanged: no missing field, no wrong type, no extra key
// (zod strips unknown keys, so an extra key would make the parse differ from the input).
describe("flow records match their schemas (simulated SPY, two sessions)", async () => {
  const market = simulatedMarketAt(9, Date.UTC(2024, 3, 1));
  const day = "2024-03-15";
  const prev = "2024-03-14";
  const { openMs } = sessionBounds(day);
  const asOfMs = openMs + 45 * 60_000;
  const today = await market.optionPrints("SPY", openMs, asOfMs);
  const before = await market.optionPrints("SPY", sessionBounds(prev).openMs, sessionBounds(prev).openMs + 45 * 60_000);
  const board = await market.chain("SPY", openMs);
  const oi = board ? openInterestBySymbol(board) : new Map<string, number>();
  const scored = scoreFlow(today, { normPremiumUsd: premiumNorm(before), openInterest: oi });
  const scoredBefore = scoreFlow(before, { normPremiumUsd: premiumNorm(before), openInterest: oi });
  const same = <T>(schema: { parse(x: unknown): T }, x: T) => expect(schema.parse(x)).toEqual(x);

  it("scored trades and window scores", () => {
    expect(scored.length).toBeGreaterThan(100);
    for (const t of scored.slice(0, 200)) same(ScoredTradeSchema, t);
    same(WindowScoresSchema, windowScores(scored));
  });

  it("RVOL, ratios, chain, tide, momentum, overview, rollups", () => {
    const sessions = [
      { date: day, prints: today },
      { date: prev, prints: before },
    ];
    const opts = { date: day, avgPeriod: "1d", asOfMs };
    same(TickerRvolSchema, rvol({ kind: "ticker" }, sessions, opts));
    same(ContractRvolSchema, rvol({ kind: "contract", symbol: today[0].symbol }, sessions, opts));
    same(
      ContractRatioResultSchema,
      contractRatio(
        scored.filter((t) => t.symbol === today[0].symbol),
        {
          symbol: today[0].symbol,
          ticker: "SPY",
          right: today[0].right,
          date: day,
          timeframe: "1d",
        },
      ),
    );
    same(ChainRatioResultSchema, chainRatio(scored, { ticker: "SPY", date: day, timeframe: "1h" }));
    same(ExpirationChainSchema, expirationChain(scored, board, { ticker: "SPY", expiration: today[0].expiry }));
    for (const b of flowTide(scored, { date: day, bucket: "15min", toMs: asOfMs })) same(TideBarSchema, b);
    same(
      FlowMomentumSchema,
      flowMomentum(
        scored,
        [
          { date: prev, trades: scoredBefore },
          { date: prev, trades: scoredBefore },
        ],
        { date: day, asOfMs },
      ),
    );
    same(MarketOverviewSchema, marketOverview(day, [{ ticker: "SPY", trades: scored }], [1]));
    same(TickerDailyRowSchema, tickerDailyRollup(day, scored) ?? undefined);
    for (const r of contractDailyRollups(day, scored, { openInterest: oi }).slice(0, 100)) same(TopContractRowSchema, r);
  });
});
