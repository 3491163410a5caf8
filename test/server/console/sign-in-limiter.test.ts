// The sliding-window failure counts behind the console's brute-force limits.
import { describe, expect, it } from "vitest";
import { createSignInLimiter } from "../../../server/console/sign-in-limiter";

describe("sign-in limiter", () => {
  const limits = { perAccount: 3, perIp: 5, windowMs: 60_000 };

  it("blocks an account at its limit until its oldest counted failure leaves the window", () => {
    const l = createSignInLimiter(limits);
    l.recordFailure("acct_a", "ip1", 0);
    l.recordFailure("acct_a", "ip2", 10_000);
    expect(l.blockedForS("acct_a", "ip3", 20_000)).toBe(0);
    l.recordFailure("acct_a", "ip3", 20_000);
    // Failures at 0, 10 s and 20 s: free again when the first leaves the window, at 60 s.
    expect(l.blockedForS("acct_a", "ip9", 20_000)).toBe(40);
    expect(l.blockedForS("acct_a", "ip9", 59_999)).toBe(1);
    expect(l.blockedForS("acct_a", "ip9", 60_000)).toBe(0);
    expect(l.blockedForS("acct_b", "ip9", 20_000)).toBe(0);
  });

  it("blocks an address at its limit whatever the accounts tried, and a success clears only the account", () => {
    const l = createSignInLimiter(limits);
    for (let i = 0; i < 5; i++) l.recordFailure(`acct_${i}`, "ip1", i);
    expect(l.blockedForS(null, "ip1", 10)).toBe(60);
    expect(l.blockedForS("acct_new", "ip2", 10)).toBe(0);
    l.recordFailure("acct_x", "ip7", 0);
    l.recordFailure("acct_x", "ip7", 0);
    l.recordSuccess("acct_x");
    l.recordFailure("acct_x", "ip8", 1);
    expect(l.blockedForS("acct_x", "ip8", 2)).toBe(0);
  });
});
