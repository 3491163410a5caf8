// Tool calls while the shared limits' Redis is stopped: every tool, the REST tools and the
// intelligence toolset alike, answers with a tool result `isError: true` carrying 503
// `unavailable` and its Retry-After (never a JSON-RPC error, never an HTTP failure), charges
// nothing, and works again once Redis is back; and a call over the key's rate limit is the same kind of
// result (429). Through the MCP SDK client.
import type { Client } from "@modelcontextprotocol/client";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRateLimiter } from "../../../server/limits";
import { openRedis, REDIS_RETRY_AFTER_S } from "../../../server/limits/redis-connection";
import { createRedisRateLimiter } from "../../../server/limits/redis-rate-limiter";
import { startRedis, type RedisProcess } from "../../_services/redis-server";
import { startMcpHarness, type McpHarness } from "./_mcp-harness";

let redisServer: RedisProcess;
let redis: Redis;
let h: McpHarness;
beforeAll(async () => {
  redisServer = await startRedis();
  redis = await openRedis(redisServer.url);
  h = await startMcpHarness({ credits: 1000, rateLimiter: createRedisRateLimiter(redis) });
}, 30_000);
afterAll(async () => {
  await h?.close();
  redis?.disconnect();
  await redisServer?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
type ToolResult = Awaited<ReturnType<Client["callTool"]>>;

/** One call of each kind: an intelligence tool and the REST tool it restates (each costs 1). */
async function calls(intel: Client, plain: Client): Promise<[string, ToolResult][]> {
  return [
    ["explain_levels", await intel.callTool({ name: "explain_levels", arguments: { symbol: "SPY" } })],
    ["heat_levels", await plain.callTool({ name: "heat_levels", arguments: { symbols: "SPY" } })],
  ];
}

describe("tool calls with the limits' Redis stopped", () => {
  it("are tool results with isError and 503 unavailable, free, for the intelligence tools as for the others; served again once Redis is back", async () => {
    const intel = await h.connect(undefined, `${h.mcpUrl}?toolset=intelligence`);
    const plain = await h.connect();
    for (const [name, r] of await calls(intel, plain)) expect(r.isError, `${name}: ${JSON.stringify(r.content)}`).toBeFalsy();
    const before = h.accounts.balance(h.accountId);

    await redisServer.stop();
    for (const [name, r] of await calls(intel, plain)) {
      expect(r.isError, name).toBe(true);
      expect((r._meta as { error: unknown }).error, name).toMatchObject({ status: 503, code: "unavailable", retryAfterS: REDIS_RETRY_AFTER_S });
      expect((r.content as { text: string }[])[0]!.text, name).toMatch(/^unavailable: .*Redis.* \(HTTP 503; failed calls are not charged\)$/);
      expect(r._meta?.creditsRemaining, name).toBe(before);
    }
    expect(h.accounts.balance(h.accountId)).toBe(before);
    // Calls that are not counted are served, without the rate-limit figures they cannot read.
    const late = await h.connect(undefined, `${h.mcpUrl}?toolset=intelligence`);
    expect((await late.listTools()).tools.map((t) => t.name)).toContain("explain_levels");

    redisServer = await startRedis(redisServer.port);
    let back: [string, ToolResult][] = [];
    // ioredis reconnects on its own schedule (at most 2 s between tries).
    for (let i = 0; i < 50; i++) {
      back = await calls(intel, plain);
      if (back.every(([, r]) => !r.isError)) break;
      await sleep(200);
    }
    for (const [name, r] of back) expect(r.isError, `${name}: ${JSON.stringify(r.content)}`).toBeFalsy();
    expect(h.accounts.balance(h.accountId)).toBe(before - 2);
  }, 30_000);
});

describe("an intelligence tool over the key's rate limit", () => {
  it("is a tool result with isError and 429 rate_limited, not charged, like the other tools", async () => {
    const limiter = createRateLimiter();
    const own = await startMcpHarness({ credits: 100, rateLimiter: limiter });
    try {
      const principal = await own.accounts.authenticate(`Bearer ${own.key}`);
      const rpm = principal.limits.requestsPerMinute;
      // Spend the key's minute on the limiter the server uses.
      for (let i = 0; i < rpm; i++) expect(limiter.take(principal.keyId, rpm, own.wall.ms).allowed).toBe(true);
      const intel = await own.connect(undefined, `${own.mcpUrl}?toolset=intelligence`);
      const plain = await own.connect();
      for (const [name, r] of await calls(intel, plain)) {
        expect(r.isError, name).toBe(true);
        expect((r._meta as { error: unknown }).error, name).toMatchObject({ status: 429, code: "rate_limited" });
        expect(r._meta?.creditsRemaining, name).toBe(100);
      }
      expect(own.accounts.balance(own.accountId)).toBe(100);
    } finally {
      await own.close();
    }
  });
});
