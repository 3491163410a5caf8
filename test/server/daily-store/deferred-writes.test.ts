// Writes that never wait for another connection's lock (server/daily-store/deferred-writes.ts):
// the queue's rules with a stand-in writer, then a real store file locked by a second SQLite
// connection (the fill worker's role), as the server's loop meets it.
import { afterEach, describe, expect, it, vi } from "vitest";
import { type BodyWrite, createDeferredWrites, isLockBusy } from "../../../server/daily-store/deferred-writes";
import { FLOW_SUMMARY, VOL_READING } from "../../../server/daily-store/kinds";
import { dailyDbPath, marketIdentity, openDailyStore } from "../../../server/daily-store";
import { openSqlite } from "../../../server/sqlite";
import { tempDir } from "./_store-fixtures";

const busy = () => Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });
const row = (symbol: string, n = 1): BodyWrite => ({ kind: VOL_READING, symbol, session: "2024-03-05", body: Uint8Array.of(n) });

/** A writer that is locked out while `locked` is true, recording each batch it writes. */
function standIn() {
  const state = { locked: false, batches: [] as string[][], attempts: 0, fail: null as Error | null };
  const writeAll = (ws: readonly BodyWrite[]) => {
    state.attempts++;
    if (state.fail) throw state.fail;
    if (state.locked) throw busy();
    state.batches.push(ws.map((w) => `${w.symbol}:${w.body[0]}`));
  };
  return { state, writeAll };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("createDeferredWrites", () => {
  it("writes at once when the file is free", () => {
    const s = standIn();
    const d = createDeferredWrites({ writeAll: s.writeAll, onError: () => {} });
    d.write([row("SPY")]);
    expect(s.state.batches).toEqual([["SPY:1"]]);
    expect(d.pending()).toBe(0);
    expect(d.stats()).toEqual({ deferred: 0, dropped: 0 });
  });

  it("keeps writes that meet the lock, in order, and writes them in one batch once it is released", () => {
    vi.useFakeTimers();
    const s = standIn();
    const d = createDeferredWrites({ writeAll: s.writeAll, onError: () => {}, firstDelayMs: 10, maxDelayMs: 40 });
    s.state.locked = true;
    d.write([row("SPY", 1)]);
    d.write([row("QQQ", 1), row("SPY", 2)]);
    expect(d.pending()).toBe(3);
    // While rows wait, a new write queues behind them (a later value of a key must land last),
    // even though the writer would take it now.
    vi.advanceTimersByTime(10); // busy: next try after 20
    vi.advanceTimersByTime(20); // busy: next after 40
    const triesWhileLocked = s.state.attempts;
    expect(triesWhileLocked).toBe(3); // the first write (the second queued behind it), then two retries
    s.state.locked = false;
    d.write([row("IWM", 1)]);
    expect(s.state.batches).toEqual([]);
    vi.advanceTimersByTime(40);
    expect(s.state.batches).toEqual([["SPY:1", "QQQ:1", "SPY:2", "IWM:1"]]);
    expect(d.pending()).toBe(0);
    expect(d.stats()).toEqual({ deferred: 4, dropped: 0 });
  });

  it("drops rows that waited longer than their age limit, and keeps at most maxRows (the oldest go)", () => {
    vi.useFakeTimers();
    let now = 0;
    const s = standIn();
    const d = createDeferredWrites({ writeAll: s.writeAll, onError: () => {}, firstDelayMs: 10, maxDelayMs: 10, maxAgeMs: 100, maxRows: 3, nowMs: () => now });
    s.state.locked = true;
    d.write([row("A"), row("B")]);
    now = 60;
    d.write([row("C"), row("D")]);
    expect(d.pending()).toBe(3); // A dropped: the bound
    now = 150; // B is 150 ms old, C and D 90 ms
    s.state.locked = false;
    vi.advanceTimersByTime(10);
    expect(s.state.batches).toEqual([["C:1", "D:1"]]);
    expect(d.stats()).toEqual({ deferred: 4, dropped: 2 });
  });

  it("a failure that is not the lock drops the waiting rows and reports them; a direct write throws it", () => {
    vi.useFakeTimers();
    const s = standIn();
    const errors: number[] = [];
    const d = createDeferredWrites({ writeAll: s.writeAll, onError: (_e, n) => errors.push(n), firstDelayMs: 10 });
    s.state.locked = true;
    d.write([row("A"), row("B")]);
    s.state.fail = new Error("disk I/O error");
    vi.advanceTimersByTime(10);
    expect(errors).toEqual([2]);
    expect(d.pending()).toBe(0);
    expect(() => d.write([row("C")])).toThrow("disk I/O error");
  });

  it("close makes one last attempt and drops what is still locked out", () => {
    const s = standIn();
    const d = createDeferredWrites({ writeAll: s.writeAll, onError: () => {} });
    s.state.locked = true;
    d.write([row("A")]);
    d.close();
    expect(d.stats()).toEqual({ deferred: 1, dropped: 1 });
    d.write([row("B")]);
    expect(s.state.batches).toEqual([]);
  });

  it("isLockBusy matches SQLite's busy codes only", () => {
    expect(isLockBusy(busy())).toBe(true);
    expect(isLockBusy({ code: "SQLITE_BUSY_SNAPSHOT" })).toBe(true);
    expect(isLockBusy({ code: "SQLITE_CONSTRAINT" })).toBe(false);
    expect(isLockBusy(null)).toBe(false);
  });
});

describe('a daily store opened with lockedWrites: "defer" (the server\'s loop)', () => {
  const identity = marketIdentity({ kind: "simulated", seed: 42 });

  it("never waits for another connection's write lock: writes land once it is released, reads meanwhile are served", async () => {
    const t = tempDir();
    const path = dailyDbPath(t.dir);
    const store = openDailyStore(path, identity, { lockedWrites: "defer" });
    const other = openSqlite(path, { timeoutMs: 0 });
    try {
      store.put(VOL_READING, "SPY", "2024-03-04", { iv: 0.2 });
      expect(store.get(VOL_READING, "SPY", "2024-03-04")).toEqual({ iv: 0.2 });
      // The fill worker's role: a write transaction held on the same file.
      other.exec("BEGIN IMMEDIATE");
      store.put(VOL_READING, "SPY", "2024-03-05", { iv: 0.21 });
      store.putMany(FLOW_SUMMARY, [
        { symbol: "SPY", session: "2024-03-05", value: { calls: 1 } },
        { symbol: "QQQ", session: "2024-03-05", value: { calls: 2 } },
      ]);
      // WAL: a reader is not blocked by the writer; the deferred rows are not in the file yet.
      expect(store.get(VOL_READING, "SPY", "2024-03-04")).toEqual({ iv: 0.2 });
      expect(store.get(VOL_READING, "SPY", "2024-03-05")).toBeUndefined();
      expect(store.stats()).toMatchObject({ writesDeferred: 3, writesDropped: 0 });
      other.exec("COMMIT");
      await vi.waitFor(() => expect(store.get(VOL_READING, "SPY", "2024-03-05")).toEqual({ iv: 0.21 }), { timeout: 5000 });
      expect(store.session(FLOW_SUMMARY, "2024-03-05")).toEqual(
        new Map([
          ["SPY", { calls: 1 }],
          ["QQQ", { calls: 2 }],
        ]),
      );
    } finally {
      other.close();
      store.close();
      t.remove();
    }
  });
});
