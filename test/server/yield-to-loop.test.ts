// timeSlicer yields to the loop (an immediate queued before it runs first) only once its budget
// of work has run since the last yield, and yieldToLoop always does.
import { afterEach, describe, expect, it, vi } from "vitest";
import { runStepsOnLoop, timeSlicer, yieldToLoop } from "../../server/yield-to-loop";

/** Whether an immediate queued now runs before `p` resolves. */
async function yielded(p: () => Promise<void>): Promise<boolean> {
  let ran = false;
  setImmediate(() => {
    ran = true;
  });
  await p();
  return ran;
}

describe("yieldToLoop and timeSlicer", () => {
  afterEach(() => vi.restoreAllMocks());

  it("yieldToLoop lets the loop's queued work run first", async () => {
    expect(await yielded(yieldToLoop)).toBe(true);
  });

  it("a slicer yields only after its budget has run, then counts from the yield", async () => {
    let now = 1000;
    vi.spyOn(performance, "now").mockImplementation(() => now);
    const slice = timeSlicer(10);
    now = 1009;
    expect(await yielded(slice)).toBe(false);
    now = 1010;
    expect(await yielded(slice)).toBe(true);
    now = 1015;
    expect(await yielded(slice)).toBe(false);
    now = 1021;
    expect(await yielded(slice)).toBe(true);
  });
});

describe("a turn's budget of resumed work", () => {
  it("sixteen pieces yielding at once do not all resume in one check phase, and all resume", async () => {
    const turnOf: number[] = [];
    let turn = 0;
    // A timer per loop turn: counts the turns in which timers got to run.
    const ticker = setInterval(() => turn++, 0);
    const busy = (ms: number) => {
      const end = performance.now() + ms;
      while (performance.now() < end);
    };
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        await yieldToLoop();
        turnOf.push(turn);
        busy(5);
      }),
    );
    clearInterval(ticker);
    expect(turnOf).toHaveLength(16);
    // 16 x 5 ms of work with a 15 ms turn budget: spread over several turns, timers between them.
    expect(new Set(turnOf).size).toBeGreaterThanOrEqual(4);
  });
});

describe("runStepsOnLoop", () => {
  it("returns the steps' result, and the loop's queued work runs between pieces longer than a slice", async () => {
    const busy = (ms: number) => {
      const end = performance.now() + ms;
      while (performance.now() < end);
    };
    let ranBetween = 0;
    const order: string[] = [];
    function* steps(): Generator<void, number, void> {
      for (let i = 0; i < 3; i++) {
        order.push(`piece ${i}`);
        setImmediate(() => {
          ranBetween++;
          order.push(`other ${i}`);
        });
        busy(12); // over the 10 ms slice budget: the driver yields after each piece
        yield;
      }
      return 42;
    }
    expect(await runStepsOnLoop(steps())).toBe(42);
    expect(ranBetween).toBe(3);
    expect(order.slice(0, 4)).toEqual(["piece 0", "other 0", "piece 1", "other 1"]);
  });
});
