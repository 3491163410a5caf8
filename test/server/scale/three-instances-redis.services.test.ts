// Three `optionscope serve` instances (startServer, each with its own accounts connection, limiters
// and HTTP listener) on one data directory and one redis-server: the per-key rate limit, the
// per-account stream-symbol cap, the per-IP ceiling and the console's sign-in limits hold across
// them, wherever each request lands. Loopback is a trusted proxy here, so `X-Forwarded-For` names
// the client address a test stands for.
import { describe, expect, it } from "vitest";
import { useServeInstances } from "./_redis-instances";

/** Wednesday 2024-03-06 10:00 ET: a session minute, so streams have boards. */
const NOW = "2024-03-06T15:00:00Z";

/** The per-IP ceiling of these instances (requests per address over 5 minutes). */
const CEILING = 300;

const { servers } = useServeInstances({ now: NOW, args: ["--ip-ceiling", String(CEILING), "--trusted-proxies", "127.0.0.1"] });

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

  it("the per-IP ceiling is one count across instances: request 301 from an address is 429 ip_rate_limited on each", async () => {
    // Three keys (100 requests each stays under one key's 120 a minute), one address.
    const keys = await Promise.all([0, 1, 2].map(async () => (await servers[0]!.accounts.createAccount({ plan: "top", credits: 10 })).key));
    const from = (i: number) => ({ headers: { "X-Forwarded-For": "198.51.100.23", Authorization: `Bearer ${keys[i % 3]}` } });
    const statuses = new Map<number, number>();
    for (let i = 0; i < CEILING; i++) {
      const res = await fetch(url(i, "/v1/account"), from(i));
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      await res.arrayBuffer();
    }
    expect([...statuses]).toEqual([[200, CEILING]]);
    for (let i = 0; i < 3; i++) {
      const res = await fetch(url(i, "/v1/account"), from(i));
      expect(res.status).toBe(429);
      expect((await res.json()).error.code).toBe("ip_rate_limited");
      expect(res.headers.get("retry-after")).toBe("60");
    }
    // Another address is not affected.
    const other = await fetch(url(0, "/v1/no-such-path"), { headers: { "X-Forwarded-For": "198.51.100.24" } });
    expect(other.status).toBe(404);
  });

  it("console sign-in: 5 failures on an account (any instance, any address) lock it on all three; 20 from an address block that address", async () => {
    const signIn = (i: number, accountId: string, ip: string) =>
      fetch(url(i, "/console/api/sign-in"), {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: servers[i % 3]!.listening.url, "X-Forwarded-For": ip },
        body: JSON.stringify({ accountId, password: "not the password" }),
      });
    const { accountId } = await servers[0]!.accounts.createAccount({ plan: "top", credits: 10 });
    for (let i = 0; i < 5; i++) expect((await signIn(i, accountId, `192.0.2.${10 + i}`)).status).toBe(401);
    for (let i = 0; i < 3; i++) {
      const res = await signIn(i, accountId, "192.0.2.99");
      expect(res.status).toBe(429);
      expect((await res.json()).error.code).toBe("sign_in_rate_limited");
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    for (let i = 0; i < 20; i++) expect((await signIn(i, `acct_guess${i}`, "203.0.113.77")).status).toBe(401);
    for (let i = 0; i < 3; i++) expect((await signIn(i, "acct_guess_next", "203.0.113.77")).status).toBe(429);
    expect((await signIn(1, "acct_guess_next", "203.0.113.78")).status).toBe(401);
  });
});
