// The fill lease: one holder at a time among any number of takers on one store file; a holder's
// renewals keep it; an expired lease, or one whose pid is gone on this host (SIGKILL), is taken
// over; a lease of another host is waited out until it expires, however dead its pid looks here.
import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { dailyDbPath, marketIdentity, openDailyStore, openFillLease, type FillLease } from "../../../server/daily-store";
import { pidAlive } from "../../../server/daily-store/lease";
import { tempDir } from "./_store-fixtures";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

/** A store file in a fresh directory (the lease lives in it) and a wall clock the test moves. */
function storeFile(): { path: string; clock: { ms: number } } {
  const t = tempDir();
  const store = openDailyStore(dailyDbPath(t.dir), marketIdentity({ kind: "simulated", seed: 42 }));
  cleanups.push(() => {
    store.close();
    return t.remove();
  });
  return { path: store.path, clock: { ms: 1_000_000 } };
}

function lease(path: string, clock: { ms: number }, o: { pid?: number; host?: string; isAlive?: (pid: number) => boolean } = {}): FillLease {
  const l = openFillLease(path, { leaseMs: 60_000, now: () => clock.ms, isAlive: o.isAlive ?? (() => true), pid: o.pid, host: o.host });
  cleanups.push(() => l.close());
  return l;
}

describe("fill lease", () => {
  it("one holder among several takers; the others see who holds it until it is released", () => {
    const { path, clock } = storeFile();
    const [a, b, c] = [lease(path, clock), lease(path, clock), lease(path, clock)];
    expect(a.take()).toEqual({ held: true, replaced: null });
    for (const other of [b, c]) {
      const t = other.take();
      expect(t.held).toBe(false);
      if (!t.held) expect(t.holder).toMatchObject({ owner: a.owner, pid: process.pid, expiresMs: clock.ms + 60_000 });
    }
    // Taking again is a renewal for the holder, not a second lease.
    expect(a.take().held).toBe(true);
    a.release();
    expect(a.holder()).toBeNull();
    expect(b.take().held).toBe(true);
    expect(c.take().held).toBe(false);
    expect(a.take().held).toBe(false);
  });

  it("renewals keep it past its first expiry; once expired without renewal anyone takes it, and the old holder's renewal fails", () => {
    const { path, clock } = storeFile();
    const a = lease(path, clock);
    const b = lease(path, clock);
    a.take();
    clock.ms += 50_000;
    expect(a.renew()).toBe(true);
    clock.ms += 50_000; // 100 s after the take, 50 s after the renewal
    expect(b.take().held).toBe(false);
    clock.ms += 10_000; // exactly the renewal's expiry
    const t = b.take();
    expect(t.held).toBe(true);
    if (t.held) expect(t.replaced?.owner).toBe(a.owner);
    expect(a.renew()).toBe(false);
    a.release(); // not a's any more: nothing happens
    expect(b.holder()?.owner).toBe(b.owner);
  });

  it("a holder whose pid is gone on this host is taken over at once; another host's holder is waited out", () => {
    const { path, clock } = storeFile();
    const dead = new Set([4242]);
    const isAlive = (pid: number) => !dead.has(pid);
    const gone = lease(path, clock, { pid: 4242, host: "here", isAlive });
    gone.take();
    expect(lease(path, clock, { host: "here", isAlive }).take().held).toBe(true);

    const { path: p2, clock: c2 } = storeFile();
    lease(p2, c2, { pid: 4242, host: "elsewhere", isAlive }).take();
    const here = lease(p2, c2, { host: "here", isAlive });
    expect(here.take().held).toBe(false);
    c2.ms += 60_000;
    expect(here.take().held).toBe(true);
  });

  it("pidAlive: this process is alive; a killed and reaped child is not", async () => {
    expect(pidAlive(process.pid)).toBe(true);
    const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    await new Promise((resolve) => child.once("spawn", resolve));
    expect(pidAlive(child.pid!)).toBe(true);
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    expect(pidAlive(child.pid!)).toBe(false);
  });
});
