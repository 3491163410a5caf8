// A corrupt daily store is a cache to rebuild, not an outage: garbage or a truncated file at start
// and pages damaged under an open store are moved aside (with -wal and -shm, named in the log), a
// fresh store takes their place, the routes answer 200 and the fill refills the new file.
// See docs/operations.md#corrupt-daily-store.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fixedClock } from "../../../lib/market/clock";
import { resolveServeConfig } from "../../../server/config";
import { dailyDbPath, DAILY_DB_FILE, FLOW_SUMMARY, marketIdentity, openDailyStore, startRebuildingFill, VOL_READING } from "../../../server/daily-store";
import { headerProblem } from "../../../server/daily-store/corruption";
import { metaModule } from "../../../server/modules/meta";
import { flowModule } from "../../../server/modules/flow";
import { createVolModule } from "../../../server/modules/vol";
import { startServer } from "../../../server/serve";
import { makeHarness } from "../_harness";
import { narrowedMarket, NOW_MS, PRIOR } from "../modules/flow/_flow-harness";
import { corruptPages, noise, truncateFile } from "./_corrupt-file";
import { LAST_SESSION, LOCK_SCOPE, tempDir } from "./_store-fixtures";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function dataDir(): string {
  const t = tempDir();
  cleanups.push(t.remove);
  return t.dir;
}

/** Resolves once `pred` holds (polled). */
async function until(pred: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!pred()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The moved-aside files in `dir` (database, -wal, -shm). */
const asideIn = (dir: string) => readdirSync(dir).filter((f) => f.startsWith(`${DAILY_DB_FILE}.corrupt-`));

/** A store of `n` synthetic rows (a few pages each), closed and checkpointed. */
function writeRows(path: string, n: number): void {
  const store = openDailyStore(path, marketIdentity({ kind: "simulated", seed: 7 }));
  store.putMany(
    VOL_READING,
    Array.from({ length: n }, (_, i) => ({ symbol: `S${i}`, session: LAST_SESSION, value: { i, pad: noise(3000, i + 1).toString("base64") } })),
  );
  store.close();
}

describe("at open", () => {
  it("garbage: moved aside under a name the log gives, and an empty store opens in its place", () => {
    const dir = dataDir();
    const path = dailyDbPath(dir);
    const garbage = noise(50_000);
    writeFileSync(path, garbage);
    expect(headerProblem(path)).toMatch(/not an SQLite database/);
    const logs: Record<string, unknown>[] = [];
    const store = openDailyStore(path, marketIdentity({ kind: "simulated", seed: 7 }), { log: (l) => logs.push(l), nowMs: () => Date.parse("2026-01-02T03:04:05.678Z") });
    cleanups.push(() => store.close());
    expect(logs).toEqual([
      expect.objectContaining({ level: "error", msg: "daily_store_corrupt", file: path, at: "open", movedTo: `${path}.corrupt-20260102T030405-678Z` }),
    ]);
    expect(readFileSync(logs[0].movedTo as string).equals(garbage)).toBe(true);
    expect(store.count(VOL_READING)).toBe(0);
    store.put(VOL_READING, "KO", LAST_SESSION, { ok: 1 });
    expect(store.get(VOL_READING, "KO", LAST_SESSION)).toEqual({ ok: 1 });
    expect(headerProblem(path)).toBeNull();
  });

  it("truncated: the header's page count beyond the end of the file", () => {
    const dir = dataDir();
    const path = dailyDbPath(dir);
    writeRows(path, 60);
    truncateFile(path, 0.5);
    expect(headerProblem(path)).toMatch(/^truncated/);
    const logs: Record<string, unknown>[] = [];
    const store = openDailyStore(path, marketIdentity({ kind: "simulated", seed: 7 }), { log: (l) => logs.push(l) });
    cleanups.push(() => store.close());
    expect(logs.map((l) => [l.msg, l.file])).toEqual([["daily_store_corrupt", path]]);
    expect(asideIn(dir)).toEqual([(logs[0].movedTo as string).slice(dir.length + 1)]);
    expect(store.count(VOL_READING)).toBe(0);
  });

  it("pages damaged behind a sound header: found by quick_check, moved aside with its -wal and -shm", () => {
    const dir = dataDir();
    const path = dailyDbPath(dir);
    writeRows(path, 60);
    // Damaged while another connection holds the file, so its -wal and -shm exist too.
    const holder = openDailyStore(path, marketIdentity({ kind: "simulated", seed: 7 }), { corruption: "throw" });
    corruptPages(path);
    expect(headerProblem(path)).toBeNull();
    const logs: Record<string, unknown>[] = [];
    const store = openDailyStore(path, marketIdentity({ kind: "simulated", seed: 7 }), { log: (l) => logs.push(l) });
    cleanups.push(() => store.close());
    holder.close();
    expect(logs).toEqual([expect.objectContaining({ msg: "daily_store_corrupt", file: path, at: "open", error: expect.stringMatching(/quick_check/) })]);
    const base = (logs[0].movedTo as string).slice(dir.length + 1);
    expect(asideIn(dir).sort()).toEqual([base, `${base}-shm`, `${base}-wal`]);
    expect(store.count(VOL_READING)).toBe(0);
  });

  it("a sound file is kept as it is", () => {
    const dir = dataDir();
    const path = dailyDbPath(dir);
    writeRows(path, 20);
    const logs: Record<string, unknown>[] = [];
    const store = openDailyStore(path, marketIdentity({ kind: "simulated", seed: 7 }), { log: (l) => logs.push(l) });
    cleanups.push(() => store.close());
    expect(logs).toEqual([]);
    expect(store.count(VOL_READING)).toBe(20);
    expect(asideIn(dir)).toEqual([]);
  });
});

describe("serve over a corrupt daily store", () => {
  // No compute workers: the routes compute on the loop, so each start does not also load and warm
  // worker threads (the store's recovery is the same either way; the fill's workers are tested below).
  const NO_WORKERS = ["--compute-workers", "0"];
  const ARGS = ["--port", "0", "--hostname", "127.0.0.1", "--seed", "42", "--now", "2024-03-06T15:00:00Z", "--ip-ceiling", "off", "--no-daily-fill", ...NO_WORKERS];
  const ROUTES = [`/v1/vol/history?symbols=KO&from=2024-02-29&to=${LAST_SESSION}&fields=svx30,close`, `/v1/contract/top/daily?date=${LAST_SESSION}&ticker=KO&limit=5`];

  async function serveAndAsk(dir: string): Promise<Record<string, unknown>[]> {
    const logs: Record<string, unknown>[] = [];
    const running = await startServer(resolveServeConfig([...ARGS, "--data-dir", dir], {}), { log: (l) => logs.push(l), stderr: () => {} });
    try {
      await running.ready;
      for (const route of ROUTES) {
        const res = await fetch(`${running.listening.url}${route}`, { headers: { Authorization: `Bearer ${running.demoKey}` } });
        expect([route, res.status]).toEqual([route, 200]);
      }
    } finally {
      await running.shutdown(100);
    }
    return logs;
  }

  it("(a) garbage file: serve starts, the routes answer 200, the file is moved aside and named in the log", async () => {
    const dir = dataDir();
    const garbage = noise(200_000, 42);
    writeFileSync(dailyDbPath(dir), garbage);
    const logs = await serveAndAsk(dir);
    const line = logs.find((l) => l.msg === "daily_store_corrupt");
    expect(line).toMatchObject({ level: "error", file: dailyDbPath(dir), at: "open" });
    expect(readFileSync(line!.movedTo as string).equals(garbage)).toBe(true);
    // The new store holds what the routes computed.
    const store = openDailyStore(dailyDbPath(dir), marketIdentity({ kind: "simulated", seed: 42 }));
    expect([store.count(VOL_READING) > 0, store.count(FLOW_SUMMARY)]).toEqual([true, 1]);
    store.close();
  }, 120_000);

  it("(b) truncated file: serve starts, the routes answer 200, the file is moved aside", async () => {
    const dir = dataDir();
    writeRows(dailyDbPath(dir), 80);
    truncateFile(dailyDbPath(dir), 0.4);
    const logs = await serveAndAsk(dir);
    const line = logs.find((l) => l.msg === "daily_store_corrupt");
    expect(line).toMatchObject({ file: dailyDbPath(dir), error: expect.stringMatching(/truncated/) });
    expect(existsSync(line!.movedTo as string)).toBe(true);
  }, 120_000);
});

describe("(c) pages damaged under a running app", () => {
  // One ticker: the weekly flow route still reads 5 sessions from the store per request.
  const TICKERS = ["TXN"];
  const flowAt = (date: string) => `/v1/underlying/top/weekly?date=${date}`;
  const volAt = (from: string, to: string) => `/v1/vol/history?symbols=TXN&from=${from}&to=${to}&fields=svx30,close`;

  function app(path: string) {
    const logs: Record<string, unknown>[] = [];
    const store = openDailyStore(path, marketIdentity({ kind: "simulated", seed: 7 }), { log: (l) => logs.push(l) });
    const vol = createVolModule({ historySessions: 5, symbols: ["TXN"] });
    const h = makeHarness({ market: narrowedMarket(TICKERS), nowMs: NOW_MS, credits: 100_000, modules: [metaModule, flowModule, vol], dailyStore: store });
    cleanups.push(async () => {
      await h.app.shutdown(0);
      store.close();
    });
    return { h, store, logs };
  }

  it("volatility and flow routes answer 200 after the damage, not 503/500, and the store refills", async () => {
    const dir = dataDir();
    const path = dailyDbPath(dir);
    const { h, store, logs } = app(path);
    // Rows written by the routes themselves.
    for (const route of [flowAt(PRIOR), volAt("2024-02-26", PRIOR)]) expect([route, (await h.get(route)).status]).toEqual([route, 200]);
    expect(store.count(FLOW_SUMMARY)).toBeGreaterThan(0);
    // Damaged before a flow request, then again before a volatility one; each route then reads
    // sessions no in-memory cache holds, so it reads the store.
    for (const routes of [
      [flowAt("2024-02-27"), volAt("2024-02-12", "2024-02-16")],
      [volAt("2024-02-05", "2024-02-09"), flowAt("2024-02-20")],
    ]) {
      corruptPages(path);
      for (const route of routes) expect([route, (await h.get(route)).status]).toEqual([route, 200]);
    }
    const lines = logs.filter((l) => l.msg === "daily_store_corrupt");
    expect(lines).toEqual([1, 2].map(() => expect.objectContaining({ level: "error", file: path, at: "run", error: expect.any(String) })));
    for (const l of lines) expect(existsSync(l.movedTo as string)).toBe(true);
    expect(h.logs.filter((l) => l.msg === "store_unavailable" || l.msg === "unhandled")).toEqual([]);
    // The fresh file holds what was computed since.
    expect(store.count(FLOW_SUMMARY)).toBeGreaterThan(0);
    expect(store.count(VOL_READING)).toBeGreaterThan(0);
  }, 180_000);

  it("the background fill starts over on the new file", async () => {
    const dir = dataDir();
    const path = dailyDbPath(dir);
    const logs: Record<string, unknown>[] = [];
    const store = openDailyStore(path, marketIdentity({ kind: "simulated", seed: 42 }), { log: (l) => logs.push(l) });
    const fill = () =>
      startRebuildingFill({
        store,
        source: { kind: "simulated", seed: 42 },
        clock: fixedClock(Date.parse("2024-03-06T15:00:00Z")),
        ...LOCK_SCOPE,
        log: (l) => logs.push(l),
      });
    const first = fill();
    cleanups.push(() => store.close());
    cleanups.push(() => first.close());
    expect(await first.idle()).toBe(4);
    const rows = store.count(FLOW_SUMMARY);
    expect(rows).toBe(3);
    corruptPages(path);
    // A read meets the damage: the file is moved aside and the filler starts over on the new one.
    expect(store.get(FLOW_SUMMARY, "KO", LAST_SESSION)).toBeUndefined();
    expect(logs.map((l) => l.msg)).toContain("daily_fill_rebuild");
    expect(await first.idle()).toBe(4);
    expect(store.count(FLOW_SUMMARY)).toBe(3);
    expect(store.get(FLOW_SUMMARY, "KO", LAST_SESSION)).toBeDefined();
    expect(asideIn(dir).length).toBeGreaterThan(0);
  }, 180_000);
});

describe("the fill meets the damage first", () => {
  it("its lease or worker reports it: the store moves the file aside and the fill starts over on a new one", async () => {
    const dir = dataDir();
    const path = dailyDbPath(dir);
    writeRows(path, 60);
    const logs: Record<string, unknown>[] = [];
    const store = openDailyStore(path, marketIdentity({ kind: "simulated", seed: 42 }), { log: (l) => logs.push(l) });
    cleanups.push(() => store.close());
    // Damaged after the server's check, before the fill's own connections read anything.
    corruptPages(path);
    const filler = startRebuildingFill({
      store,
      source: { kind: "simulated", seed: 42 },
      clock: fixedClock(Date.parse("2024-03-06T15:00:00Z")),
      ...LOCK_SCOPE,
      log: (l) => logs.push(l),
    });
    cleanups.push(() => filler.close());
    await until(() => logs.some((l) => l.msg === "daily_fill_rebuild"), 60_000);
    expect(logs.filter((l) => l.msg === "daily_store_corrupt")).toEqual([expect.objectContaining({ file: path, at: "run" })]);
    expect(await filler.idle()).toBe(4);
    expect(store.count(FLOW_SUMMARY)).toBe(3);
  }, 180_000);
});

describe("another process recovered the file", () => {
  it("an open store follows the replaced file within a second", async () => {
    const dir = dataDir();
    const path = dailyDbPath(dir);
    const a = openDailyStore(path, marketIdentity({ kind: "simulated", seed: 7 }));
    const b = openDailyStore(path, marketIdentity({ kind: "simulated", seed: 7 }));
    cleanups.push(() => {
      a.close();
      return b.close();
    });
    let resets = 0;
    b.onReset(() => resets++);
    a.put(VOL_READING, "KO", LAST_SESSION, { v: 1 });
    expect(b.get(VOL_READING, "KO", LAST_SESSION)).toEqual({ v: 1 });
    a.reportCorruption(Object.assign(new Error("found elsewhere"), { code: "SQLITE_CORRUPT" }));
    a.put(VOL_READING, "KO", LAST_SESSION, { v: 2 });
    await new Promise((r) => setTimeout(r, 1100));
    // b reads the new file (not the moved one) and its filler would start over.
    expect(b.get(VOL_READING, "KO", LAST_SESSION)).toEqual({ v: 2 });
    expect(resets).toBe(1);
    expect(asideIn(dir).filter((f) => !f.endsWith("-wal") && !f.endsWith("-shm"))).toHaveLength(1);
    expect(join(dir, DAILY_DB_FILE)).toBe(path);
  });
});
