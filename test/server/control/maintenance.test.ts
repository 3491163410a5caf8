// Issue 19 (operational states): `optionscope pause` / `resume` through the shared store: data
// calls answer 503 api_paused with both retry fields, uncharged; the account view and the API
// descriptions keep answering; open streams are asked to reconnect.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { accountsDbPath, openAccountService } from "../../../server/accounts";
import { createServiceControl, openPauseStore } from "../../../server/control/service-state";
import { runPauseCli } from "../../../server/cli/pause-cli";
import { makeHarness } from "../_harness";
import { openRaw } from "../streams/_sse";
import { startStreamServer } from "../streams/_server";

const collect = () => {
  const out: string[] = [];
  return { io: { stdout: (t: string) => out.push(t), stderr: (t: string) => out.push(t) }, out };
};

describe("maintenance pause", () => {
  const dir = mkdtempSync(join(tmpdir(), "optionscope-pause-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("the CLI's pause reaches a server on the same store: 503 api_paused, Retry-After and retry_after, uncharged", async () => {
    const accounts = openAccountService({ dbPath: accountsDbPath(dir) });
    const control = createServiceControl({ pauses: openPauseStore(accounts.db), refreshMs: 0 });
    const h = makeHarness({ control });
    const c = collect();
    expect(await runPauseCli(["pause", "--retry-after", "120", "--message", "Upgrading the store", "--data-dir", dir], {}, c.io)).toBe(0);
    // The harness's own store is in memory; the control reads the CLI's file store.
    const before = h.accounts.balance(h.accountId);
    for (const path of ["/v1/heatmap?symbols=SPY", "/flow-alias/v1/nothing-yet", "/atlas/v1/history?symbol=SPY&resolution=D&from=1700000000&to=1700600000"]) {
      const res = await h.get(path);
      if (path.startsWith("/flow-alias")) continue; // unrouted: still 404
      expect(res.status, path).toBe(503);
      expect(res.headers.get("retry-after")).toBe("120");
      const body = await res.json();
      const error = body.error;
      expect(error.code).toBe("api_paused");
      expect(error.retry_after).toBe(120);
      expect(error.message).toBe("Upgrading the store");
    }
    expect(h.accounts.balance(h.accountId)).toBe(before);
    expect((await h.get("/v1/account")).status).toBe(200);
    expect((await h.get("/v1/openapi.json", { key: null })).status).toBe(200);
    expect(await runPauseCli(["resume", "--data-dir", dir], {}, c.io)).toBe(0);
    expect((await h.get("/v1/heatmap?symbols=SPY")).status).toBe(200);
    accounts.close();
  });

  it("refuses a pause without a valid --retry-after (usage error, exit 2)", async () => {
    const c = collect();
    expect(await runPauseCli(["pause", "--data-dir", dir], {}, c.io)).toBe(2);
    expect(await runPauseCli(["pause", "--retry-after", "0", "--data-dir", dir], {}, c.io)).toBe(2);
  });

  it("open streams get reconnect {reason: api_paused}, and a new open is 503 until resumed", async () => {
    let pauses: ReturnType<typeof openPauseStore> | null = null;
    const s = await startStreamServer({
      control: (a) => {
        pauses = openPauseStore(a.db);
        return createServiceControl({ pauses, refreshMs: 0 });
      },
    });
    try {
      const raw = await openRaw(s.url, s.key, "symbols=SPY");
      await raw.waitFor((f) => f.event === "snapshot");
      pauses!.pause({ retryAfterS: 30, message: "Maintenance" }, Date.now());
      const reconnect = await raw.waitFor((f) => f.event === "reconnect", 5000);
      expect(reconnect.data).toEqual({ reason: "api_paused" });
      const refused = await openRaw(s.url, s.key, "symbols=SPY", { lastEventId: reconnect.id! });
      expect(refused.status).toBe(503);
      expect(refused.body.error.code).toBe("api_paused");
      pauses!.resume();
      const again = await openRaw(s.url, s.key, "symbols=SPY", { lastEventId: reconnect.id! });
      expect(again.status).toBe(200);
      await again.waitFor((f) => f.event === "resumed");
      again.abort();
    } finally {
      await s.close();
    }
  });
});
