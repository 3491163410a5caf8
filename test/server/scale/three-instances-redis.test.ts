// Three `optionscope serve` instances (startServer, each with its own accounts connection, limiters
// and HTTP listener) on one data directory and one redis-server: the per-key rate limit and the
// per-account stream-symbol cap hold across them, wherever each request lands.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveServeConfig } from "../../../server/config";
import { startServer, type RunningServer } from "../../../server/serve";
import { startRedis, type RedisProcess } from "../../_services/redis-server";

/** Wednesday 2024-03-06 10:00 ET: a session minute, so streams have boards. */
const NOW = "2024-03-06T15:00:00Z";

let redis: RedisProcess;
let dataDir: string;
const servers: RunningServer[] = [];
const io = { log: () => {}, stderr: () => {} };

beforeAll(async () => {
  redis = await startRedis();
  dataDir = mkdtempSync(join(tmpdir(), "optionscope-scale-"));
  for (let i = 0; i < 3; i++) {
    const argv = ["--port", "0", "--hostname", "127.0.0.1", "--data-dir", dataDir, "--now", NOW, "--redis", redis.url, "--ip-ceiling", "off", "--no-access-log"];
    servers.push(await startServer(resolveServeConfig(argv, {}), io));
  }
}, 60_000);

afterAll(async () => {
  for (const s of servers) await s.shutdown(500);
  await redis?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const url = (i: number, path: string) => `${servers[i % 3]!.listening.url}${path}`;

describe("three instances on one Redis", () => {
  it("the 121st request of a key in the minute is 429 rate_limited on whichever instance it lands", async () => {
    const { key } = await servers[0]!.accounts.createAccount({ plan: "top", credits: 1_000 });
    const auth = { headers: { Authorization: `Bearer ${key}` } };
    const remaining: number[] = [];
    for (let i = 0; i < 120; i++) {
      const res = await fetch(url(i, "/v1/account"), auth);
      expect(res.status).toBe(200);
      remaining.push(Number(res.headers.get("x-ratelimit-remaining")));
      await res.arrayBuffer();
    }
    // One window across the three: the counts run down 119 .. 0 whatever instance answered.
    expect(remaining).toEqual(Array.from({ length: 120 }, (_, i) => 119 - i));
    for (let i = 0; i < 3; i++) {
      const res = await fetch(url(i, "/v1/account"), auth);
      expect(res.status).toBe(429);
      expect((await res.json()).error.code).toBe("rate_limited");
      expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(res.headers.get("retry-after")).toBeNull();
    }
  });

  it("limits.streamSymbolsConcurrent (25) holds across instances: 10 + 10 streamed symbols leave room for 5, not 10", async () => {
    const { key } = await servers[1]!.accounts.createAccount({ plan: "top", credits: 1_000 });
    const auth = { headers: { Authorization: `Bearer ${key}` } };
    const ten = ["SPY", "QQQ", "IWM", "DIA", "AAPL", "MSFT", "NVDA", "AMZN", "META", "TSLA"];
    const controllers: AbortController[] = [];
    const open = async (i: number, symbols: string[]) => {
      const c = new AbortController();
      controllers.push(c);
      const res = await fetch(url(i, `/v1/stream?symbols=${symbols.join(",")}`), { ...auth, signal: c.signal });
      return res;
    };
    try {
      const a = await open(0, ten);
      const b = await open(1, ten);
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      const refused = await open(2, ten);
      expect(refused.status).toBe(429);
      expect((await refused.json()).error.code).toBe("stream_limit_reached");
      expect(refused.headers.get("retry-after")).not.toBeNull();
      const fits = await open(2, ten.slice(0, 5));
      expect(fits.status).toBe(200);
    } finally {
      for (const c of controllers) c.abort();
    }
  });
});
