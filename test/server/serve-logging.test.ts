// `--no-access-log` drops the per-request lines only: the server's other log lines (refunds,
// failures, stream notices) still reach the log (`appLogger` in server/serve.ts; before, the flag
// silenced every line, errors included).
import { describe, expect, it } from "vitest";
import { appLogger } from "../../server/serve";
import { makeHarness, NOW_MS } from "./_harness";
import { fakeMarket } from "./_fake-market";

describe("serve logging", () => {
  it("--no-access-log keeps every line but the per-request ones", async () => {
    for (const accessLog of [false, true]) {
      const lines: Record<string, unknown>[] = [];
      const market = fakeMarket(NOW_MS);
      // A market read that fails: the request line (503) and the failure's own error line.
      market.chain = async () => {
        throw new Error("feed down");
      };
      const h = makeHarness({ market, logger: appLogger(accessLog, (l) => lines.push(l)) });
      const res = await h.get("/v1/heatmap?symbols=SPY");
      expect(res.status).toBe(503);
      expect(lines.some((l) => l.msg === "market_read_failed" && l.level === "error")).toBe(true);
      expect(lines.some((l) => l.msg === "request" && l.status === 503)).toBe(accessLog);
    }
  });
});
