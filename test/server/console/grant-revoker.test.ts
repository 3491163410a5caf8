// The background revocation of a revoked key's OAuth grants over a real SQLite OAuth store: done at
// once when the store works; on a closed database retried on the schedule, every failure reported,
// then given up (nothing left pending); a key is pending until a retry has succeeded; `close()`
// stops a pending retry.
import { signedInApp } from "../oauth/_signed-in-app";
import { openSqlite } from "../../../server/sqlite";
import { describe, expect, it } from "vitest";
import { createGrantRevoker } from "../../../server/console/grant-revoker";
import { openOAuthStore } from "../../../server/oauth/oauth-store";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An OAuth store holding one access and one refresh token signed in with `keyId`. */
async function storeWithGrant(keyId: string) {
  const db = openSqlite(":memory:");
  const oauth = openOAuthStore(db);
  await signedInApp(oauth, { accountId: "acct_1", keyId, resource: "http://x/mcp" });
  return { db, oauth };
}

describe("grant revoker", () => {
  it("revokes at once when the store works", async () => {
    const { oauth } = await storeWithGrant("key_a");
    const revoker = createGrantRevoker(oauth);
    expect(await revoker.revoke("key_a")).toEqual({ done: true, tokensRevoked: 2 });
    expect(revoker.pending()).toEqual([]);
  });

  it("on a closed database: retries on the schedule, reports each failure, then gives up", async () => {
    const { db, oauth } = await storeWithGrant("key_b");
    db.close();
    const failures: { attempt: number; gaveUp: boolean }[] = [];
    const revoker = createGrantRevoker(oauth, { retryMs: [20, 20], onFailure: (e) => failures.push({ attempt: e.attempt, gaveUp: e.gaveUp }) });
    expect(await revoker.revoke("key_b")).toEqual({ done: false });
    expect(revoker.pending()).toEqual(["key_b"]);
    for (let i = 0; i < 50 && failures.length < 3; i++) await sleep(20);
    expect(failures).toEqual([
      { attempt: 0, gaveUp: false },
      { attempt: 1, gaveUp: false },
      { attempt: 2, gaveUp: true },
    ]);
    expect(revoker.pending()).toEqual([]);
  });

  it("a key stays pending while its retry runs, until the grants are revoked (a slow store under load)", async () => {
    const { oauth } = await storeWithGrant("key_d");
    let failNext = true;
    let release: () => void = () => {};
    const slow = {
      ...oauth,
      revokeGrantsOfKey: async (keyId: string) => {
        if (failNext) {
          failNext = false;
          throw new Error("store down");
        }
        await new Promise<void>((r) => {
          release = r;
        });
        return oauth.revokeGrantsOfKey(keyId);
      },
    } as unknown as typeof oauth;
    const revoker = createGrantRevoker(slow, { retryMs: [10] });
    expect(await revoker.revoke("key_d")).toEqual({ done: false });
    await sleep(40); // the retry has started and waits on the store
    expect(revoker.pending()).toEqual(["key_d"]);
    release();
    for (let i = 0; i < 50 && revoker.pending().length > 0; i++) await sleep(10);
    expect(revoker.pending()).toEqual([]);
    expect(await oauth.revokeGrantsOfKey("key_d")).toBe(0);
  });

  it("close() stops a pending retry", async () => {
    const { db, oauth } = await storeWithGrant("key_c");
    db.close();
    let failures = 0;
    const revoker = createGrantRevoker(oauth, { retryMs: [30], onFailure: () => void failures++ });
    await revoker.revoke("key_c");
    revoker.close();
    await sleep(80);
    expect([failures, revoker.pending()]).toEqual([1, []]);
  });
});
