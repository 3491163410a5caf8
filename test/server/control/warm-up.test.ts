// Issue 19 (operational states): with real data files the server listens at once and answers
// 503 warming_up (Retry-After, progress) until the data is ready, instead of refusing connections.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { fixedClock } from "../../../lib/market";
import type { MarketData } from "../../../lib/market/market-data";
import { resolveServeConfig } from "../../../server/config";
import { createServiceControl } from "../../../server/control/service-state";
import { warmingMarket, WARMING_RETRY_AFTER_S } from "../../../server/data/warming-market";
import { startServer } from "../../../server/serve";
import { fakeMarket } from "../_fake-market";
import { makeHarness, NOW_MS } from "../_harness";

describe("warm-up", () => {
  it("answers 503 warming_up with Retry-After and progress until the load resolves, then serves; uncharged", async () => {
    let finish: (m: MarketData) => void = () => {};
    const warming = warmingMarket(fixedClock(NOW_MS), (onProgress) => {
      onProgress({ file: "chains.csv", fileIndex: 0, fileCount: 3, bytesRead: 10, bytesTotal: 100, lines: 1, done: true });
      return new Promise<MarketData>((resolve) => (finish = resolve));
    });
    const h = makeHarness({ market: warming.market, control: createServiceControl({ warmup: warming.warmup }) });
    const before = h.accounts.balance(h.accountId);
    const res = await h.get("/v1/heatmap?symbols=SPY");
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe(String(WARMING_RETRY_AFTER_S));
    const body = await res.json();
    expect(body.error).toMatchObject({ code: "warming_up", retry_after: WARMING_RETRY_AFTER_S, progress: { done: 1, total: 3 } });
    expect((await h.get("/atlas/v1/history?symbol=SPY&resolution=D&from=1700000000&to=1700600000")).status).toBe(503);
    expect((await h.get("/v1/account")).status).toBe(200);
    expect(h.accounts.balance(h.accountId)).toBe(before);
    finish(fakeMarket(NOW_MS));
    await warming.ready;
    expect((await h.get("/v1/heatmap?symbols=SPY")).status).toBe(200);
  });

  it("startServer with --data listens before the files are read; ready resolves, or rejects on a bad file", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "optionscope-warm-"));
    const good = fileURLToPath(new URL("../../fixtures/data/", import.meta.url));
    const bad = fileURLToPath(new URL("../../fixtures/broken/", import.meta.url));
    const io = { log: () => {}, stderr: () => {} };
    try {
      const running = await startServer(resolveServeConfig(["--port", "0", "--hostname", "127.0.0.1", "--data", good, "--data-dir", dataDir], {}), io);
      await running.ready;
      const key = (await running.accounts.createAccount({ plan: "top", credits: 10 })).key;
      const res = await fetch(`${running.listening.url}/v1/symbols`, { headers: { Authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
      await running.shutdown(1000);
      const broken = await startServer(resolveServeConfig(["--port", "0", "--hostname", "127.0.0.1", "--data", bad, "--data-dir", dataDir], {}), io);
      await expect(broken.ready).rejects.toThrow();
      await broken.shutdown(1000);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
