// Issue 13 item 3: dynamic client registration was unlimited and never pruned (22,416
// registrations in 10 s from one address). Now: 20 per address in any 60 s (429 + Retry-After),
// at most 1000 clients that never signed in (oldest evicted), and those expire after 24 h.
import { openSqlite, type Sqlite } from "../../../server/sqlite";
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REGISTRATIONS_PER_MINUTE } from "../../../server/oauth/authorization-server";
import { openOAuthStore } from "../../../server/oauth";
import { DEFAULT_REGISTRATION_LIMITS } from "../../../server/oauth/registration-limits";
import { startMcpHarness, type McpHarness } from "../mcp/_mcp-harness";

const RESOURCE = "http://localhost:8080/mcp";
const REDIRECT = "http://127.0.0.1:53123/callback";
const reg = (name = "c") => ({ clientName: name, redirectUris: ["https://c.example/cb"], authMethod: "none" as const, metadata: {} });

function setup(registration: { maxUnusedClients?: number; unusedClientTtlS?: number } = {}) {
  const db = openSqlite(":memory:");
  const clock = { ms: Date.parse("2025-01-02T03:04:05Z") };
  const store = openOAuthStore(db, { now: () => clock.ms, registration });
  const count = () => (db.prepare("SELECT count(*) AS n FROM oauth_clients").get() as { n: number }).n;
  return { db, clock, store, count };
}

describe("documented defaults", () => {
  it("20 registrations per address per 60 s, 1000 unused clients, 24 h TTL", () => {
    expect(REGISTRATIONS_PER_MINUTE).toBe(20);
    expect(DEFAULT_REGISTRATION_LIMITS).toEqual({ maxUnusedClients: 1000, unusedClientTtlS: 86_400 });
  });
});

describe("store: unused clients are capped and expire", () => {
  it("keeps at most maxUnusedClients unused clients, evicting the oldest; used clients are never evicted", () => {
    const { store, clock, count } = setup({ maxUnusedClients: 5 });
    const used = store.registerClient(reg("used"));
    store.connectApp({ accountId: "acct_1", clientId: used.clientId, resource: RESOURCE, scope: "mcp" });
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      clock.ms += 1000;
      ids.push(store.registerClient(reg(`c${i}`)).clientId);
    }
    // 5 unused + the one that signed in.
    expect(count()).toBe(6);
    for (const id of ids.slice(0, 7)) expect(store.getClient(id), id).toBeNull();
    for (const id of ids.slice(7)) expect(store.getClient(id)).not.toBeNull();
    expect(store.getClient(used.clientId)).not.toBeNull();
    expect(() => store.authenticateClient(ids[0]!, null, "none")).toThrow(/Unknown client_id/);
  });

  it("a client that never signed in is unknown after the TTL and deleted at the next registration; one that did stays", () => {
    const { store, clock, count } = setup({ unusedClientTtlS: 3600 });
    const idle = store.registerClient(reg("idle"));
    const active = store.registerClient(reg("active"));
    store.connectApp({ accountId: "acct_1", clientId: active.clientId, resource: RESOURCE, scope: "mcp" });
    clock.ms += 3_599_000;
    expect(store.getClient(idle.clientId)).not.toBeNull();
    clock.ms += 1000;
    expect(store.getClient(idle.clientId)).toBeNull();
    expect(() => store.authenticateClient(idle.clientId, null, "none")).toThrow(/Unknown client_id/);
    expect(store.getClient(active.clientId)).not.toBeNull();
    expect(count()).toBe(2);
    store.registerClient(reg("new"));
    expect(count()).toBe(2);
  });

  it("a flood of 22,416 registrations leaves at most the cap behind (the issue's figure)", () => {
    const { store, clock, count } = setup();
    for (let i = 0; i < 22_416; i++) {
      if (i % 100 === 0) clock.ms += 1;
      store.registerClient(reg());
    }
    expect(count()).toBeLessThanOrEqual(DEFAULT_REGISTRATION_LIMITS.maxUnusedClients);
    expect(count()).toBeGreaterThan(DEFAULT_REGISTRATION_LIMITS.maxUnusedClients - 60);
  });

  it("the unused count never passes the cap between batched prunes", () => {
    const { store, count } = setup({ maxUnusedClients: 200 });
    for (let i = 0; i < 1000; i++) {
      store.registerClient(reg());
      expect(count()).toBeLessThanOrEqual(200);
    }
  });
});

describe("over a real server: registrations per address", () => {
  let h: McpHarness;
  beforeAll(async () => {
    h = await startMcpHarness();
  });
  afterAll(() => h.close());

  const register = () =>
    fetch(`${h.origin}/mcp/oauth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ client_name: "Flood", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" }),
    });

  /** One registration sent from `localAddress`; resolves with the status. */
  const registerFrom = (localAddress: string) =>
    new Promise<number>((resolve, reject) => {
      const body = JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" });
      const req = httpRequest(
        `${h.origin}/mcp/oauth/register`,
        { method: "POST", localAddress, headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end(body);
    });

  it("the 21st registration from one address within 60 s is 429 temporarily_unavailable with Retry-After", async () => {
    for (let i = 0; i < REGISTRATIONS_PER_MINUTE; i++) expect((await register()).status, `registration ${i + 1}`).toBe(201);
    const refused = await register();
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await refused.json()).toEqual({ error: "temporarily_unavailable", error_description: expect.stringMatching(/Too many client registrations/) });
    // Another source address has its own count (Linux answers all of 127/8 on loopback).
    expect(await registerFrom("127.0.0.2")).toBe(201);
  });

  it("a registered client that never signs in is refused at authorize once 24 h have passed", async () => {
    // A fresh address window is not needed: this reads a client registered in the previous test.
    const db = (h.accounts as unknown as { db: Sqlite }).db;
    const row = db.prepare("SELECT client_id FROM oauth_clients ORDER BY created_ms LIMIT 1").get() as { client_id: string };
    const authorize = () =>
      fetch(
        `${h.origin}/mcp/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: row.client_id, redirect_uri: REDIRECT, code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", code_challenge_method: "S256" })}`,
        { redirect: "manual" },
      );
    expect((await authorize()).status).toBe(200);
    h.wall.ms += 86_400_000;
    const expired = await authorize();
    expect(expired.status).toBe(400);
    expect(await expired.text()).toMatch(/Unknown client_id/);
  });
});
