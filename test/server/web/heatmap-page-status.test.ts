// The heatmap page's status machine (server/web/heatmap/app/page-status.ts; docs/methodology.md,
// "Heatmap page states"): only the newest load's outcome is shown, every load settles, a refusal
// stands against the page's own loads until the user starts one.
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  INITIAL_STATUS,
  isRefusal,
  mayLoad,
  nextStatus,
  settleWithin,
  type LoadOrigin,
  type PageEvent,
  type PageStatus,
} from "../../../server/web/heatmap/app/page-status";
import { explainError, PageApiError } from "../../../server/web/heatmap/app/source";

const run = (events: PageEvent[], from: PageStatus = INITIAL_STATUS) => events.reduce(nextStatus, from);
const start = (load: number, origin: LoadOrigin = "user"): PageEvent => ({ kind: "load-started", load, origin, symbol: "SPY" });
const ok = (load: number): PageEvent => ({ kind: "board-loaded", load, message: `board ${load}` });
const fail = (load: number, error: unknown): PageEvent => ({ kind: "load-failed", load, error });
const outOfCredits = new PageApiError(402, "insufficient_credits", "This request costs 5 credits; the balance is 3.");

describe("heatmap page status", () => {
  it("a load shows loading, then its board or its error; 401/402/403 are refusals that stand", () => {
    expect(run([start(1)])).toEqual({ state: "loading", message: "Loading the SPY board...", errorCode: null, load: 1, refused: false });
    expect(run([start(1), ok(1)])).toEqual({ state: "ready", message: "board 1", errorCode: null, load: 1, refused: false });
    expect(run([start(1), fail(1, outOfCredits)])).toEqual({
      state: "needs-key",
      message: "Out of credits (insufficient_credits): This request costs 5 credits; the balance is 3.",
      errorCode: "insufficient_credits",
      load: 1,
      refused: true,
    });
    expect(run([start(1), fail(1, new PageApiError(401, "unauthorized", "x"))]).message).toBe("No API key: paste your key above (it stays in this browser).");
    expect(run([start(1), fail(1, new PageApiError(403, "forbidden", "x"))]).message).toBe("This API key is not valid (unknown, revoked or expired).");
    // Not a refusal: an error, and the page may keep trying by itself.
    const busy = run([start(1), fail(1, new PageApiError(503, "service_unavailable", "Busy."))]);
    expect(busy).toMatchObject({ state: "error", message: "Busy. (503 service_unavailable)", errorCode: "service_unavailable", refused: false });
    expect(run([start(1), fail(1, new Error("The SPY board did not arrive within 60 s"))])).toMatchObject({ state: "error", errorCode: "error", refused: false });
    expect([401, 402, 403, 404, 429, 503].map((s) => isRefusal(new PageApiError(s, "c", "m")))).toEqual([true, true, true, false, false, false]);
    expect(isRefusal(new Error("402"))).toBe(false);
  });

  it("the race of issue 17: a refusal then the page's own reload does not start; a stale outcome is dropped", () => {
    const refused = run([start(1, "page"), fail(1, outOfCredits)]);
    expect(mayLoad(refused, "page")).toBe(false);
    expect(nextStatus(refused, start(2, "page"))).toBe(refused); // the same object: nothing to write
    // Two loads in flight: the older one's refusal (or board) says nothing about the newer one.
    const racing = run([start(1), start(2)]);
    expect(nextStatus(racing, fail(1, outOfCredits))).toBe(racing);
    expect(nextStatus(racing, ok(1))).toBe(racing);
    expect(run([fail(1, outOfCredits), ok(2)], racing)).toMatchObject({ state: "ready", message: "board 2" });
    expect(run([ok(1), fail(2, outOfCredits)], racing)).toMatchObject({ state: "needs-key", refused: true });
  });

  it("the user's load lifts a refusal; its board replaces the message, its refusal restores it", () => {
    const refused = run([start(1, "page"), fail(1, outOfCredits)]);
    expect(mayLoad(refused, "user")).toBe(true);
    const retrying = nextStatus(refused, start(2, "user"));
    expect(retrying).toMatchObject({ state: "loading", errorCode: null, refused: false });
    expect(nextStatus(retrying, ok(2))).toEqual({ state: "ready", message: "board 2", errorCode: null, load: 2, refused: false });
    expect(nextStatus(retrying, fail(2, outOfCredits))).toEqual({ ...refused, load: 2 });
  });

  it("the stream's refusal is shown and stands; its other failures leave the board as it is", () => {
    const ready = run([start(1), ok(1)]);
    expect(nextStatus(ready, { kind: "stream-failed", error: new PageApiError(503, "credit_check_failed", "x") })).toBe(ready);
    expect(nextStatus(ready, { kind: "stream-failed", error: outOfCredits })).toMatchObject({ state: "needs-key", load: 1, refused: true });
  });

  it("whatever the order loads start and settle in, the page ends on the newest load's outcome, never loading", () => {
    type Outcome = "ok" | 401 | 402 | 403 | 404 | 503;
    const outcome = fc.constantFrom<Outcome>("ok", 401, 402, 403, 404, 503);
    const op = fc.oneof(
      fc.record({ op: fc.constant("start" as const), origin: fc.constantFrom<LoadOrigin>("user", "page") }),
      fc.record({ op: fc.constant("settle" as const), pick: fc.nat(), outcome }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), fc.array(outcome, { minLength: 40, maxLength: 40 }), (ops, rest) => {
        let status = INITIAL_STATUS;
        let loads = 0;
        const pending: number[] = [];
        const outcomes = new Map<number, Outcome>();
        const settle = (load: number, o: Outcome) => {
          outcomes.set(load, o);
          status = nextStatus(status, o === "ok" ? ok(load) : fail(load, new PageApiError(o, `code${o}`, "m")));
        };
        for (const o of ops) {
          if (o.op === "start") {
            // The page's driver: its own loads do not start while a refusal stands.
            const before = status;
            if (!mayLoad(status, o.origin)) {
              expect(status.refused && o.origin === "page").toBe(true);
              expect(nextStatus(status, start(loads + 1, o.origin))).toBe(before);
              continue;
            }
            status = nextStatus(status, start(++loads, o.origin));
            pending.push(loads);
          } else if (pending.length) {
            settle(pending.splice(o.pick % pending.length, 1)[0], o.outcome);
          }
          // What is shown is consistent at every step.
          expect(status.refused).toBe(status.state === "needs-key");
          expect(status.errorCode === null).toBe(status.state === "loading" || status.state === "ready" || status.state === "idle");
        }
        pending.forEach((load, i) => {
          settle(load, rest[i]);
        });
        if (loads === 0) {
          expect(status).toBe(INITIAL_STATUS);
          return;
        }
        const newest = outcomes.get(loads)!;
        const expected = newest === "ok" ? "ready" : newest === 404 || newest === 503 ? "error" : "needs-key";
        expect(status.state).toBe(expected);
        expect(status.load).toBe(loads);
        expect(status.message).toBe(newest === "ok" ? `board ${loads}` : explainError(new PageApiError(newest, `code${newest}`, "m")));
      }),
      { numRuns: 300 },
    );
  });
});

describe("settleWithin", () => {
  afterEach(() => vi.useRealTimers());

  it("a response that never comes fails at the deadline; one that comes passes through and leaves no timer", async () => {
    vi.useFakeTimers();
    const never = settleWithin(new Promise<number>(() => {}), 60_000, "The SPY board did not arrive within 60 s.");
    const caught = never.catch((e: Error) => e.message);
    await vi.advanceTimersByTimeAsync(59_999);
    let settled = false;
    void caught.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await caught).toBe("The SPY board did not arrive within 60 s.");

    await expect(settleWithin(Promise.resolve(7), 60_000, "late")).resolves.toBe(7);
    await expect(settleWithin(Promise.reject(outOfCredits), 60_000, "late")).rejects.toBe(outOfCredits);
    expect(vi.getTimerCount()).toBe(0);
  });
});
