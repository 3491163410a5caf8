// The background revocation of a revoked key's OAuth grants over a real SQLite OAuth store: done at
// once when the store works; on a closed database retried on the schedule, every failure reported,
// then given up (nothing left pending); `close()` stops a pending retry.
import { signedInApp } from "../oauth/_signed-in-app";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createGrantRevoker } from "../../../server/console/grant-revoker";
import { openOAuthStore } from "../../../server/oauth/oauth-store";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An OAuth store holding one access and one refresh token signed in with `keyId`. */
async function storeWithGrant(keyId: string) {
  const db = new Database(":memory:");
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
