// "Last used" is noted on successful authentication and written in batches, never per request.
import { describe, expect, it } from "vitest";
import { createKeyUseTracker } from "../../../server/console/key-use-tracker";
import type { Principal } from "../../../server/accounts/types";

const principal = (keyId: string): Principal => ({ accountId: "acct_a", keyId, plan: "top", limits: {} as Principal["limits"] });

describe("key use tracker", () => {
  it("records accepted keys only, writes them in one batch on flush, and retries a failed write", () => {
    const writes: Map<string, number>[] = [];
    let fail = false;
    let now = 1000;
    const tracker = createKeyUseTracker(
      (uses) => {
        if (fail) throw new Error("busy");
        writes.push(new Map(uses));
      },
      { now: () => now, flushEveryMs: 3_600_000 },
    );
    const service = tracker.wrap({
      authenticate: (h: string | null | undefined) => {
        if (h !== "good" && h !== "other") throw new Error("403");
        return principal(h === "good" ? "key_a" : "key_b");
      },
    });
    service.authenticate("good");
    now = 2000;
    service.authenticate("good");
    service.authenticate("other");
    expect(() => service.authenticate("bad")).toThrow("403");
    expect(writes).toEqual([]);
    fail = true;
    tracker.flush();
    fail = false;
    tracker.flush();
    expect(writes).toEqual([
      new Map([
        ["key_a", 2000],
        ["key_b", 2000],
      ]),
    ]);
    tracker.flush();
    expect(writes).toHaveLength(1);
    tracker.stop();
  });
});
