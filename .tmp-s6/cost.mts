import { createSimulatedMarket, scaledClock } from "../lib/market";
import { openAccountService } from "../server/accounts";
import { createApp } from "../server/app";
import { createConcurrencyLimiter, createRateLimiter } from "../server/limits";
import { buildBoardState } from "../server/streams/board-hub";
import { mkdtempSync } from "node:fs"; import { tmpdir } from "node:os"; import { join } from "node:path";
const clock = scaledClock({ startMs: Date.parse("2024-03-06T15:00:00Z"), speed: 1 });
const market = createSimulatedMarket({ seed: "soak", clock });
const dir = mkdtempSync(join(tmpdir(), "c-"));
const accounts = openAccountService({ dbPath: join(dir, "a.db") });
const app = createApp({ market, accounts, rateLimiter: createRateLimiter(), concurrency: createConcurrencyLimiter(), clock });
const q = { metric: "gamma", maxStrikes: 92, maxExpirations: 5, includeEmpty: false, layout: "net" } as const;
for (const minute of [0, 1]) for (const s of ["SPY", "QQQ", "IWM", "DIA", "XLF", "XLK", "GLD", "TLT", "XLE", "SPXW"]) {
  const t = performance.now();
  await buildBoardState(app.services, s, q as any, Date.parse("2024-03-06T15:00:00Z") + minute * 60000);
  console.log(minute, s, Math.round(performance.now() - t), "ms");
}
const { key } = accounts.createAccount({ plan: "top", credits: 100000 });
const p = accounts.authenticate(`Bearer ${key}`);
let t = performance.now();
for (let i = 0; i < 200; i++) accounts.debit(p, 5, { requestId: `r${i}`, route: "/v1/stream" });
console.log("debit avg ms", (performance.now() - t) / 200);
t = performance.now();
for (let i = 0; i < 200; i++) accounts.revalidate(p);
console.log("revalidate avg ms", (performance.now() - t) / 200);
