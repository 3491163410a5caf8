// `optionscope serve --feed massive` as a real process against the loopback fake of the vendor:
// the live heatmap comes from the feed (equal to the independent exposure of the fixture), the
// feed status endpoint shows its state, the feed is recorded into the data directory, and the key
// never appears in the output. One child process for the file.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openRecordedMarket } from "../../../server/recording/recorded-market";
import { startFakeMassive, type FakeMassive } from "./_fake-massive";
import { fixture, independentGex, KEY, SPOT, START_MS } from "./_massive-fixture";

describe("optionscope serve --feed massive (real process, fake vendor)", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "optionscope-feed-"));
  let fake: FakeMassive | null = null;
  afterAll(async () => {
    await fake?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("serves the live heatmap from the feed, shows the feed's state, never prints the key, exits 0 on SIGTERM", async () => {
    fake = await startFakeMassive(KEY, () => START_MS * 1e6);
    fake.chains.set("SPY", fixture());
    fake.prices.set("SPY", SPOT);
    const env = {
      ...process.env,
      OPTIONSCOPE_DATA_DIR: dataDir,
      OPTIONSCOPE_NOW: new Date(START_MS).toISOString(),
      PORT: "0",
      MASSIVE_API_KEY: KEY,
      OPTIONSCOPE_MASSIVE_REST_URL: fake.restUrl,
      OPTIONSCOPE_MASSIVE_WS_URL: fake.wsUrl,
    };
    const child = spawn(process.execPath, ["bin/optionscope.mjs", "serve", "--feed", "massive", "--underlyings", "spy", "--hostname", "127.0.0.1"], { env });
    let stderr = "";
    let stdout = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    const curl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no curl line:\n${stderr}`)), 90_000);
      child.stderr.on("data", (d) => {
        stderr += d;
        const m = /curl -s -H "Authorization: Bearer (\S+)" "(\S+)"/.exec(stderr);
        if (m) {
          clearTimeout(timer);
          resolve(JSON.stringify([m[1], m[2]]));
        }
      });
      child.on("exit", (code) => reject(new Error(`exited ${code}:\n${stderr}`)));
    });
    expect(stderr).toMatch(/live massive feed: SPY/);
    const [key, url] = JSON.parse(curl) as [string, string];
    const origin = new URL(url).origin;
    const res = await fetch(`${origin}/v1/heatmap?symbols=SPY&metric=gamma`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { symbols: Array<{ strikes: Array<{ strike: number; value: number }> }> }; meta: Record<string, unknown> };
    expect(body.meta).toMatchObject({ mode: "live", simulated: false, stale: false, asOf: "2025-12-03T15:00:00Z" });
    const expected = independentGex(Date.parse("2025-12-03T15:00:00Z"));
    const off = body.data.symbols[0].strikes.filter((s) => Math.abs(s.value - expected.get(s.strike)!) > 1e-6 * Math.abs(expected.get(s.strike)!));
    expect(off).toEqual([]);
    const status = (await (await fetch(`${origin}/v1/status/feed`)).json()) as {
      data: { feed: string; state: string; boards: Record<string, number>; counters: Record<string, number> };
    };
    expect(status.data).toMatchObject({ feed: "massive", boards: { SPY: Date.parse("2025-12-03T15:00:00Z") } });
    // The snapshot was taken in the worker thread, from the CLI's source bundle too.
    expect(status.data.counters.snapshotsInWorker).toBe(1);
    expect(["live", "degraded"]).toContain(status.data.state);
    const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exit).toBe(0);
    expect(stdout).toMatch(/"msg":"feed_started"/);
    // The key reaches the vendor only: never a log line, the banner or an error.
    expect(stdout + stderr).not.toContain(KEY);
    // Recorded by default into the data directory's store of record (replay: record-feed.test.ts).
    const store = openRecordedMarket(dataDir);
    expect((await store.universe()).map((s) => s.ticker)).toEqual(["SPY"]);
    store.close();
  });
});
