// Issue 13, item 4: a client that disconnects while a synchronous handler holds the event loop
// (a cold heatmap or replay) is refunded and logged 499, as docs/api.md promises for every route.
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { listen, type Listening } from "../../../server/http/listen";
import { makeHarness, NOW_MS, type Harness } from "../_harness";

/** Holds the event loop for `ms`, as a cold board computation does. */
function busyWait(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // spin
  }
}

/** A harness whose market takes `blockMs` of synchronous work per board. */
function slowBoardHarness(blockMs: number): Harness {
  const h = makeHarness();
  const chain = h.market.chain.bind(h.market);
  h.market.chain = async (symbol: string, atMs: number) => {
    busyWait(blockMs);
    return chain(symbol, atMs);
  };
  return h;
}

/** Sends one GET and closes the socket `closeAfterMs` later, without reading the answer. */
function requestAndHangUp(url: string, path: string, key: string, closeAfterMs: number): Promise<void> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${key}\r\n\r\n`);
      setTimeout(() => {
        socket.destroy();
        resolve();
      }, closeAfterMs);
    });
    socket.on("error", reject);
  });
}

async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("clients that disconnect during a synchronous handler", () => {
  let listening: Listening | null = null;
  afterEach(async () => {
    await listening?.close(true);
    listening = null;
  });

  const cases = [
    { name: "heatmap", path: "/v1/heatmap?symbols=SPY" },
    { name: "historical", path: `/v1/historical?symbols=SPY&at=${new Date(NOW_MS - 3_600_000).toISOString()}` },
  ];
  for (const c of cases) {
    it(`${c.name}: 14 of 14 aborted requests are refunded and logged 499`, async () => {
      const h = slowBoardHarness(150);
      listening = await listen(h.app, { port: 0 });
      const before = h.accounts.balance(h.accountId);
      for (let i = 0; i < 14; i++) {
        // Close while the handler spins: after the debit, before the answer. A new strike count
        // each time, so no answer comes from the heatmap cache.
        await requestAndHangUp(listening.url, `${c.path}&maxStrikes=${20 + i}`, h.key, 40);
      }
      await until(() => h.logs.filter((l) => l.msg === "request" && l.route !== undefined).length >= 14);
      const lines = h.logs.filter((l) => l.msg === "request");
      expect(lines.map((l) => l.status)).toEqual(Array(14).fill(499));
      expect(lines.every((l) => l.credits === 0)).toBe(true);
      expect(h.accounts.balance(h.accountId)).toBe(before);
    });
  }

  it("a client that stays is charged as usual", async () => {
    const h = slowBoardHarness(20);
    listening = await listen(h.app, { port: 0 });
    const before = h.accounts.balance(h.accountId);
    const res = await fetch(`${listening.url}/v1/heatmap?symbols=SPY`, { headers: { Authorization: `Bearer ${h.key}` } });
    expect(res.status).toBe(200);
    expect(h.accounts.balance(h.accountId)).toBe(before - 1);
  });
});
