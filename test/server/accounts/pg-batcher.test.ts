// The PostgreSQL group commit's batching rule (server/accounts/postgres/pg-batcher.ts): at most
// `maxInFlight` batches at the server; what arrives while one commits waits and goes as the next
// batch, in one call. A fake `sql` stands in for the server so the commit can be held open.
import { afterEach, describe, expect, it, vi } from "vitest";
import { storeFailure } from "../../../server/accounts/account-errors";
import { createPgBatcher, GATE_WAIT_WINDOWS, type PgOp } from "../../../server/accounts/postgres/pg-batcher";
import type { Sql } from "../../../server/accounts/postgres/pg-connection";

/** A fake pool: each `os_apply` call is recorded and answered only when the test releases it. */
function heldSql() {
  const calls: { ops: PgOp[]; release: () => void }[] = [];
  let open = 0;
  let maxOpen = 0;
  const sql = Object.assign(
    (_strings: TemplateStringsArray, ...values: unknown[]) => {
      const ops = (values[0] as { ops: PgOp[] }).ops;
      open++;
      maxOpen = Math.max(maxOpen, open);
      return new Promise((resolve) => {
        calls.push({
          ops,
          release: () => {
            open--;
            resolve(ops.map((o, i) => ({ i, code: "ok", balance: 1000 - o.n, ledger_id: i + 1, cap: null })));
          },
        });
      });
    },
    { json: (ops: PgOp[]) => ({ ops }) },
  ) as unknown as Sql;
  return { sql, calls, maxOpen: () => maxOpen };
}

const op = (a: string, rq: string): PgOp => ({ op: "debit", a, n: 1, rq, rt: "/v1/heatmap", ts: 0, d: "d:x", m: "m:x", gp: "once", gc: 0, gm: false });
/** Two check phases: a released commit resolves, then the batcher's own `setImmediate` flush runs. */
const turn = () => new Promise((r) => setImmediate(() => setImmediate(r)));

describe("PostgreSQL group commit batching", () => {
  it("holds what arrives during a commit and sends it as ONE next batch; never two batches at once", async () => {
    const fake = heldSql();
    const b = createPgBatcher(fake.sql, { storeFailure });
    const first = [b.submit(op("acct_a", "r0"))];
    await turn();
    expect(fake.calls.map((c) => c.ops.length)).toEqual([1]);
    // 40 requests over several event-loop turns while the first batch is still committing.
    const later: Promise<unknown>[] = [];
    for (let t = 0; t < 4; t++) {
      for (let k = 0; k < 10; k++) later.push(b.submit(op(k % 2 ? "acct_b" : "acct_a", `r${t}.${k}`)));
      await turn();
    }
    expect(fake.calls).toHaveLength(1);
    fake.calls[0]!.release();
    await Promise.all(first);
    await turn();
    expect(fake.calls.map((c) => c.ops.length)).toEqual([1, 40]);
    // Sorted by account inside the batch (lock order), each account's operations in submit order.
    const second = fake.calls[1]!.ops;
    expect(second.map((o) => o.a)).toEqual([...Array(20).fill("acct_a"), ...Array(20).fill("acct_b")]);
    expect(second.filter((o) => o.a === "acct_a").map((o) => o.rq)).toEqual([0, 1, 2, 3].flatMap((t) => [0, 2, 4, 6, 8].map((k) => `r${t}.${k}`)));
    fake.calls[1]!.release();
    const results = (await Promise.all(later)) as { balance: number }[];
    expect(results.every((r) => r.balance === 999)).toBe(true);
    expect(fake.maxOpen()).toBe(1);
    expect(b.stats()).toMatchObject({ batches: 2, ops: 41, largestBatch: 40 });
    b.close();
  });

  it("splits a queue longer than maxBatch, still one batch at a time, and answers every operation once", async () => {
    const fake = heldSql();
    const b = createPgBatcher(fake.sql, { storeFailure, maxBatch: 16 });
    const all = Array.from({ length: 50 }, (_, k) => b.submit(op("acct_a", `q${k}`)));
    const settled = new Set<number>();
    all.forEach((p, k) => {
      p.then(() => settled.add(k));
    });
    const sizes: number[] = [];
    while (sizes.reduce((s, n) => s + n, 0) < 50) {
      await turn();
      expect(fake.calls.length).toBe(sizes.length + 1);
      const c = fake.calls[sizes.length]!;
      sizes.push(c.ops.length);
      c.release();
    }
    await Promise.all(all);
    expect(sizes).toEqual([16, 16, 16, 2]);
    expect(settled.size).toBe(50);
    expect(fake.maxOpen()).toBe(1);
    b.close();
  });

  it("maxInFlight 2 lets a second batch start while the first commits, never a third", async () => {
    const fake = heldSql();
    const b = createPgBatcher(fake.sql, { storeFailure, maxInFlight: 2 });
    const ps = [b.submit(op("acct_a", "x0"))];
    await turn();
    ps.push(b.submit(op("acct_a", "x1")));
    await turn();
    ps.push(b.submit(op("acct_a", "x2")), b.submit(op("acct_a", "x3")));
    await turn();
    expect(fake.calls.map((c) => c.ops.length)).toEqual([1, 1]);
    fake.calls[0]!.release();
    await turn();
    expect(fake.calls.map((c) => c.ops.length)).toEqual([1, 1, 2]);
    fake.calls[1]!.release();
    fake.calls[2]!.release();
    await Promise.all(ps);
    expect(fake.maxOpen()).toBe(2);
    b.close();
  });
  describe("the group-commit window (docs/methodology.md#postgresql-group-commit-window)", () => {
    afterEach(() => {
      vi.useRealTimers();
    });
    /** Runs due timers and immediates, and the promise jobs they start. */
    const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);

    it("waits windowMs from a batch's first operation only once a batch found company, and no longer than until it is as large as the last; a lone operation at idle goes at once", async () => {
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setImmediate", "clearImmediate", "performance"] });
      const fake = heldSql();
      const b = createPgBatcher(fake.sql, { storeFailure, windowMs: 50 });
      const sizes = () => fake.calls.map((c) => c.ops.length);
      const settle = async () => {
        for (const c of fake.calls) c.release();
        await advance(0);
      };
      // Idle: no batch has had company yet, so nothing waits.
      const ps = [b.submit(op("acct_a", "w0"))];
      await advance(0);
      expect(sizes()).toEqual([1]);
      await settle();
      ps.push(b.submit(op("acct_a", "w1")), b.submit(op("acct_a", "w2")));
      await advance(0);
      expect(sizes()).toEqual([1, 2]);
      await settle();
      // Under load (the last batch held 2): the next batch waits up to 50 ms from its first
      // operation, and goes as soon as it holds as many as the last (a closed loop's next wave).
      ps.push(b.submit(op("acct_a", "w3")));
      await advance(30);
      expect(sizes()).toEqual([1, 2]);
      ps.push(b.submit(op("acct_b", "w4")));
      await advance(0);
      expect(sizes()).toEqual([1, 2, 2]);
      await settle();
      // Fewer than the last batch: the whole window.
      ps.push(b.submit(op("acct_a", "w3b")));
      await advance(49);
      expect(sizes()).toEqual([1, 2, 2]);
      ps.push(b.submit(op("acct_a", "w3c")));
      await advance(0);
      expect(sizes()).toEqual([1, 2, 2, 2]);
      await settle();
      // Still under load: a lone operation waits the window, and its batch of one ends the load.
      ps.push(b.submit(op("acct_a", "w5")));
      await advance(49);
      expect(sizes()).toEqual([1, 2, 2, 2]);
      await advance(1);
      expect(sizes()).toEqual([1, 2, 2, 2, 1]);
      await settle();
      ps.push(b.submit(op("acct_a", "w6")));
      await advance(0);
      expect(sizes()).toEqual([1, 2, 2, 2, 1, 1]);
      await settle();
      expect((await Promise.all(ps)).length).toBe(9);
      b.close();
    });

    it("counts the window from the first queued operation, so operations held behind a commit longer than it go when it returns", async () => {
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setImmediate", "clearImmediate", "performance"] });
      const fake = heldSql();
      const b = createPgBatcher(fake.sql, { storeFailure, windowMs: 50 });
      const ps = [b.submit(op("acct_a", "h0")), b.submit(op("acct_a", "h1"))];
      await advance(0);
      expect(fake.calls).toHaveLength(1);
      // Arrives while the batch of two commits (so under load), and waits behind it for 80 ms.
      ps.push(b.submit(op("acct_a", "h2")));
      await advance(80);
      expect(fake.calls).toHaveLength(1);
      fake.calls[0]!.release();
      await advance(0);
      expect(fake.calls.map((c) => c.ops.length)).toEqual([2, 1]);
      fake.calls[1]!.release();
      await Promise.all(ps);
      b.close();
    });
  });

  describe("gated operations (the rate-limit answer still coming: docs/architecture.md#admission-overlap)", () => {
    afterEach(() => {
      vi.useRealTimers();
    });
    const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);
    /** A gate the test opens or closes. */
    function gate() {
      let open!: () => void;
      let refuse!: (e: Error) => void;
      const promise = new Promise<void>((res, rej) => {
        open = res;
        refuse = rej;
      });
      return { promise, open, refuse };
    }

    it("never sends an operation before its gate opens; sends it as soon as it does", async () => {
      const fake = heldSql();
      const b = createPgBatcher(fake.sql, { storeFailure });
      const g = gate();
      const gated = b.submit(op("acct_a", "g0"), g.promise);
      const plain = b.submit(op("acct_a", "p0"));
      await turn();
      expect(fake.calls.map((c) => c.ops.map((o) => o.rq))).toEqual([["p0"]]);
      fake.calls[0]!.release();
      await plain;
      await turn();
      expect(fake.calls).toHaveLength(1);
      g.open();
      await turn();
      expect(fake.calls.map((c) => c.ops.map((o) => o.rq))).toEqual([["p0"], ["g0"]]);
      fake.calls[1]!.release();
      expect((await gated).code).toBe("ok");
      b.close();
    });

    it("drops an operation whose gate refuses, unsent, with the gate's error", async () => {
      const fake = heldSql();
      const b = createPgBatcher(fake.sql, { storeFailure });
      const g = gate();
      const refused = b.submit(op("acct_a", "g1"), g.promise);
      const other = b.submit(op("acct_a", "p1"));
      const limited = new Error("429 rate_limited");
      g.refuse(limited);
      await expect(refused).rejects.toBe(limited);
      await turn();
      expect(fake.calls.map((c) => c.ops.map((o) => o.rq))).toEqual([["p1"]]);
      fake.calls[0]!.release();
      await other;
      await turn();
      expect(fake.calls).toHaveLength(1);
      await b.drain(100);
      b.close();
    });

    it("counts the window from the submit, so the gate's wait overlaps it", async () => {
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setImmediate", "clearImmediate", "performance"] });
      const fake = heldSql();
      const b = createPgBatcher(fake.sql, { storeFailure, windowMs: 50 });
      // Under load: a batch of two went first.
      const ps = [b.submit(op("acct_a", "w0")), b.submit(op("acct_a", "w1"))];
      await advance(0);
      fake.calls[0]!.release();
      await advance(0);
      const g = gate();
      ps.push(b.submit(op("acct_a", "w2"), g.promise));
      await advance(40);
      g.open();
      // Opened 40 ms into its 50 ms window: the batch goes 10 ms later, not 50.
      await advance(9);
      expect(fake.calls).toHaveLength(1);
      await advance(1);
      expect(fake.calls.map((c) => c.ops.map((o) => o.rq))).toEqual([["w0", "w1"], ["w2"]]);
      fake.calls[1]!.release();
      await advance(0);
      await Promise.all(ps);
      b.close();
    });

    it(`under load, a batch waits for its admissions still coming (up to ${GATE_WAIT_WINDOWS} windows), then its admitted part goes`, async () => {
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setImmediate", "clearImmediate", "performance"] });
      const fake = heldSql();
      const b = createPgBatcher(fake.sql, { storeFailure, windowMs: 50 });
      const ps = [b.submit(op("acct_a", "l0")), b.submit(op("acct_a", "l1"))];
      await advance(0);
      fake.calls[0]!.release();
      await advance(0);
      // A turn's requests: two admitted at once (an in-process answer), two still waiting for theirs.
      const late = [gate(), gate()];
      ps.push(b.submit(op("acct_a", "l2")), b.submit(op("acct_a", "l3")), b.submit(op("acct_a", "l4"), late[0]!.promise), b.submit(op("acct_a", "l5"), late[1]!.promise));
      await advance(60);
      expect(fake.calls).toHaveLength(1);
      late[0]!.open();
      late[1]!.open();
      await advance(0);
      expect(fake.calls.map((c) => c.ops.length)).toEqual([2, 4]);
      fake.calls[1]!.release();
      await advance(0);
      // One admission never comes in time: the admitted part goes after 4 windows (200 ms).
      const slow = gate();
      ps.push(b.submit(op("acct_a", "l6")), b.submit(op("acct_a", "l7"), slow.promise));
      await advance(199);
      expect(fake.calls).toHaveLength(2);
      await advance(1);
      expect(fake.calls.map((c) => c.ops.map((o) => o.rq))).toEqual([["l0", "l1"], ["l2", "l3", "l4", "l5"], ["l6"]]);
      fake.calls[2]!.release();
      await advance(0);
      slow.open();
      await advance(0);
      expect(fake.calls[3]!.ops.map((o) => o.rq)).toEqual(["l7"]);
      fake.calls[3]!.release();
      await advance(0);
      expect(await Promise.all(ps)).toHaveLength(8);
      b.close();
    });
  });
});
