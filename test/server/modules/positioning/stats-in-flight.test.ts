// Issue 13, item 5: /v1/stats/daily has a per-account in-flight cap (429 with Retry-After,
// uncharged) and does not stop another account's requests.
import { describe, expect, it } from "vitest";
import { STATS_IN_FLIGHT_PER_ACCOUNT, STATS_RETRY_AFTER_S } from "../../../../server/modules/positioning/stats-daily";
import { makeHarness } from "../../_harness";

/** A harness whose boards wait for `open()`, so requests stay in flight as long as the test wants. */
function gatedHarness() {
  const h = makeHarness({ credits: 1000 });
  let open = () => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  const chain = h.market.chain.bind(h.market);
  h.market.chain = async (symbol: string, atMs: number) => {
    await gate;
    return chain(symbol, atMs);
  };
  return { h, open };
}

describe("/v1/stats/daily in flight per account", () => {
  it(`allows ${STATS_IN_FLIGHT_PER_ACCOUNT} at once per account; the next is 429 with Retry-After, uncharged`, async () => {
    const { h, open } = gatedHarness();
    const other = h.accounts.createAccount({ plan: "top", credits: 1000 });
    const path = "/v1/stats/daily?symbols=SPY&from=2023-11-20&to=2023-11-21";
    const held = Array.from({ length: STATS_IN_FLIGHT_PER_ACCOUNT }, () => h.get(path));
    await new Promise((r) => setTimeout(r, 20));
    const refused = await h.get(path);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe(String(STATS_RETRY_AFTER_S));
    const body = await refused.json();
    expect(body.error.code).toBe("too_many_concurrent_requests");
    expect(body.error.retry_after).toBe(STATS_RETRY_AFTER_S);
    // Only the requests in flight are charged (5 each).
    expect(h.accounts.balance(h.accountId)).toBe(1000 - 5 * STATS_IN_FLIGHT_PER_ACCOUNT);
    // Another account is not refused by the first account's slots.
    const theirs = h.get(path, { key: other.key });
    open();
    expect((await theirs).status).toBe(200);
    for (const r of await Promise.all(held)) expect(r.status).toBe(200);
    // Slots are free again once the requests finished.
    expect((await h.get(path)).status).toBe(200);
  });
});
