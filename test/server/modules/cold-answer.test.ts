// With a compute pool, a flow or volatility call still computing after `coldAnswerMs` answers
// 503 warming_up with Retry-After, uncharged, and its work goes on: the retry is answered from it.
// Routes of other modules, and apps without a pool, are unaffected.
import { describe, expect, it } from "vitest";
import type { ComputePool, ComputeTask } from "../../../server/daily-store/compute-pool";
import { FLOW_RVOL } from "../../../server/daily-store/compute-pool";
import { moduleStateOf } from "../../../server/modules";
import { flowModule } from "../../../server/modules/flow";
import type { FlowState } from "../../../server/modules/flow/flow-route";
import { rvolAnswer } from "../../../server/modules/flow/underlyings/rvol";
import { flowHarness } from "./flow/_flow-harness";

/** A pool whose tasks run on this thread once `open()` is called; counts the tasks it finished. */
function gatedPool(flow: () => FlowState) {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const done: ComputeTask[] = [];
  const pool: ComputePool = {
    async run<T>(task: ComputeTask) {
      await gate;
      if (task.kind !== FLOW_RVOL) throw new Error(`unexpected task ${task.kind}`);
      const value = await rvolAnswer(flow(), task.target, task.query, task.nowMs);
      done.push(task);
      return value as T;
    },
    prestart: () => {},
    stats: () => ({ name: "compute", workers: 1, queued: 0, running: done.length === 0 ? 1 : 0, completed: done.length }),
    close: async () => {},
  };
  return { pool, open, done };
}

describe("cold answers with a compute pool", () => {
  it("503 warming_up with Retry-After at the budget, uncharged; the work goes on and the retry answers 200", async () => {
    let flow: FlowState | undefined;
    const { pool, open, done } = gatedPool(() => flow!);
    const h = flowHarness({ credits: 100, universe: ["XOM"], computePool: pool, coldAnswerMs: 200 });
    flow = moduleStateOf(h.app.services, flowModule);
    const res = await h.get("/v1/underlying/XOM/rvol?interval=2D&avg_period=3d");
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("10");
    const { error } = await res.json();
    expect(error.code).toBe("WARMING_UP");
    expect(error.message).toContain("compute worker");
    expect(h.accounts.balance(h.accountId)).toBe(100);
    // The call's task was queued and finishes once the workers get to it.
    open();
    // A generous wait: the queued task runs once a worker is free (seconds on a loaded machine).
    await expect.poll(() => done.length, { timeout: 30_000 }).toBe(1);
    const again = await h.get("/v1/underlying/XOM/rvol?interval=2D&avg_period=3d");
    expect(again.status).toBe(200);
    expect(h.accounts.balance(h.accountId)).toBe(99);
  });

  it("positioning routes have no cold budget; without a pool nothing changes", async () => {
    const { pool } = gatedPool(() => {
      throw new Error("not used");
    });
    const h = flowHarness({ credits: 100, computePool: pool, coldAnswerMs: 1 });
    expect((await h.get("/v1/heatmap?symbols=SPY")).status).toBe(200);
    const plain = flowHarness({ credits: 100, universe: ["XOM"], coldAnswerMs: 1 });
    expect((await plain.get("/v1/underlying/XOM/rvol?interval=2D&avg_period=3d")).status).toBe(200);
  });
});
