import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FairQueue } from "../../../server/limits/fair-queue";

describe("FairQueue: FIFO per tenant, round-robin across tenants", () => {
  it("serves a tenant's single job right after one job of the tenant that queued many", () => {
    const q = new FairQueue<string>();
    for (let i = 0; i < 1000; i++) q.push("attacker", `a${i}`);
    q.push("victim", "v0");
    expect(q.shift()).toBe("a0");
    expect(q.shift()).toBe("v0");
    expect(q.size).toBe(999);
  });

  it("keeps every job exactly once, each tenant's in its own order, and never serves a tenant twice in a row while another waits", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom("a", "b", "c", "d"), fc.integer()), { maxLength: 200 }), (pushes) => {
        const q = new FairQueue<{ tenant: string; n: number }>();
        pushes.forEach(([tenant], n) => {
          q.push(tenant, { tenant, n });
        });
        const out = q.drain();
        expect(out.length).toBe(pushes.length);
        expect(q.size).toBe(0);
        for (const tenant of ["a", "b", "c", "d"]) {
          const mine = out.filter((j) => j.tenant === tenant).map((j) => j.n);
          expect(mine).toEqual([...mine].sort((x, y) => x - y));
        }
        // Round-robin: between two jobs of one tenant, every other tenant with jobs left is served.
        const left = new Map<string, number>();
        for (const j of out) left.set(j.tenant, (left.get(j.tenant) ?? 0) + 1);
        let i = 0;
        while (i < out.length) {
          const waiting = [...left].filter(([, n]) => n > 0).map(([t]) => t);
          const round = out.slice(i, i + waiting.length).map((j) => j.tenant);
          expect(new Set(round).size).toBe(round.length);
          for (const t of round) left.set(t, left.get(t)! - 1);
          i += round.length;
        }
      }),
    );
  });
});
