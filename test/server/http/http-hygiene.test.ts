import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, type Listening } from "../../../server/http/listen";
import { makeHarness, type Harness } from "../_harness";

describe("router-level errors are enveloped", () => {
  it("unknown path: 404 not_found with rate-limit headers; flow alias upper-cases, price host adds s/errmsg", async () => {
    const h = makeHarness();
    const base = await h.get("/v2/nothing");
    expect(base.status).toBe(404);
    expect(await base.json()).toEqual({ error: { code: "not_found", message: expect.any(String) } });
    expect(base.headers.get("x-ratelimit-limit")).toBe("120");
    const flow = await h.get("/flow-alias/v1/nothing");
    expect((await flow.json()).error.code).toBe("NOT_FOUND");
    const atlas = await (await h.get("/atlas/v1/nothing")).json();
    expect(atlas.s).toBe("error");
    expect(typeof atlas.errmsg).toBe("string");
    expect(atlas.error.code).toBe("not_found");
    // `/` is the landing page (issue 34); any other unrouted path is still the enveloped 404.
    expect((await h.get("/")).headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect((await h.get("/nothing")).status).toBe(404);
  });

  it("wrong method on a known path: 405 method_not_allowed with Allow: GET (HEAD included)", async () => {
    const h = makeHarness();
    for (const method of ["POST", "PUT", "DELETE", "PATCH", "HEAD"]) {
      const res = await h.get("/v1/heatmap?symbols=SPY", { method });
      expect(res.status, method).toBe(405);
      expect(res.headers.get("allow")).toBe("GET");
      if (method !== "HEAD") expect((await res.json()).error.code).toBe("method_not_allowed");
    }
    expect(h.accounts.balance(h.accountId)).toBe(1000);
  });

  it("bad percent-encoding in the path: 400 enveloped", async () => {
    const h = makeHarness();
    for (const path of ["/v1/heat%ZZmap", "/v1/heatmap%", "/flow-alias/v1/%E0%A4%A"]) {
      const res = await h.get(path);
      expect(res.status, path).toBe(400);
      const body = await res.json();
      expect(body.error.code.toLowerCase()).toBe("invalid_request");
    }
  });
});

describe("CORS", () => {
  it("preflight: 204, Authorization allowed by name, no credentials", async () => {
    const h = makeHarness();
    const res = await h.app.request("/v1/heatmap?symbols=SPY", {
      method: "OPTIONS",
      headers: { Origin: "https://example.org", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "authorization" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-headers")?.split(/,\s*/)).toContain("Authorization");
    expect(res.headers.get("access-control-allow-methods")).toContain("GET");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("responses and errors expose the credit and rate-limit headers", async () => {
    const h = makeHarness();
    for (const res of [await h.get("/v1/heatmap?symbols=SPY"), await h.get("/v1/heatmap?symbols=SPY", { key: null })]) {
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      const exposed = res.headers.get("access-control-expose-headers") ?? "";
      for (const name of ["X-Credits-Remaining", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "Retry-After"]) {
        expect(exposed).toContain(name);
      }
    }
  });
});

describe("Cache-Control", () => {
  it("private on keyed responses, no-store on errors", async () => {
    const h = makeHarness();
    expect((await h.get("/v1/heatmap?symbols=SPY")).headers.get("cache-control")).toMatch(/^private/);
    expect((await h.get("/v1/account")).headers.get("cache-control")).toMatch(/^private/);
    expect((await h.get("/v1/heatmap?metric=x")).headers.get("cache-control")).toBe("no-store");
  });
});

describe("hosts", () => {
  it("path prefixes by default: the flow alias serves flow routes only", async () => {
    const h = makeHarness();
    expect((await h.get("/flow-alias/v1/flow/openapi.json")).status).toBe(200);
    expect((await h.get("/v1/flow/openapi.json")).status).toBe(200);
    expect((await h.get("/flow-alias/v1/heatmap?symbols=SPY")).status).toBe(404);
    expect((await h.get("/atlas/v1/openapi.json")).status).toBe(200);
    // The tool server is mounted by default; a plain GET (no SSE session) is not allowed there.
    expect((await h.get("/mcp")).status).toBe(405);
  });

  it("Host header matching when host names are configured; other hosts fall back to prefixes", async () => {
    let mcpSeen = "";
    const h = makeHarness({
      hosts: { base: "api.test", flowAlias: "flow.test", atlas: "atlas.test", mcp: "mcp.test" },
      mcp: (req) => {
        mcpSeen = new URL(req.url).pathname;
        return new Response("{}", { status: 200 });
      },
    });
    const atlasDoc = await (await h.get("http://atlas.test:8080/v1/openapi.json", { headers: { Host: "atlas.test:8080" } })).json();
    expect(atlasDoc.info.title).toMatch(/price/);
    const flowDoc = await (await h.get("http://flow.test/v1/flow/openapi.json", { headers: { Host: "flow.test" } })).json();
    expect(flowDoc.info.title).toMatch(/flow/);
    const notOnFlow = await h.get("http://flow.test/v1/heatmap?symbols=SPY", { headers: { Host: "flow.test" } });
    expect((await notOnFlow.json()).error.code).toBe("NOT_FOUND");
    expect((await h.get("http://mcp.test/anything", { headers: { Host: "mcp.test" } })).status).toBe(200);
    expect(mcpSeen).toBe("/anything");
    expect((await h.get("http://localhost/v1/heatmap?symbols=SPY")).status).toBe(200);
  });
});

describe("over a real socket", () => {
  let h: Harness;
  let server: Listening;
  beforeAll(async () => {
    h = makeHarness();
    server = await listen(h.app, { port: 0, maxHeaderSize: 4096, headersTimeoutMs: 2000, requestTimeoutMs: 3000 });
  });
  afterAll(async () => {
    await server.close(true);
  });

  it("serves keyed requests with the same rules", async () => {
    const ok = await fetch(`${server.url}/v1/heatmap?symbols=SPY`, h.auth());
    expect(ok.status).toBe(200);
    expect(ok.headers.get("x-credits-remaining")).toBe("999");
    const no = await fetch(`${server.url}/v1/heatmap?symbols=SPY`);
    expect(no.status).toBe(401);
    const post = await fetch(`${server.url}/v1/heatmap?symbols=SPY`, { method: "POST", ...h.auth() });
    expect(post.status).toBe(405);
  });

  it("64 concurrent clients against a small balance never overdraw; the ledger balances", async () => {
    const { accountId, key } = h.accounts.createAccount({ plan: "top", credits: 10 });
    const keys = [key, ...Array.from({ length: 3 }, () => h.accounts.createKey(accountId).key)];
    const results = await Promise.all(
      Array.from({ length: 64 }, (_, i) =>
        fetch(`${server.url}/v1/heatmap?symbols=SPY`, { headers: { Authorization: `Bearer ${keys[i % keys.length]}` } }).then(async (r) => ({
          status: r.status,
          code: r.status === 200 ? null : (await r.json()).error.code,
          remaining: Number(r.headers.get("x-credits-remaining")),
        })),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    expect(results.filter((r) => r.status === 402).every((r) => r.code === "insufficient_credits" && r.remaining === 0)).toBe(true);
    expect(results.filter((r) => r.status === 402)).toHaveLength(54);
    expect(h.accounts.balance(accountId)).toBe(0);
    for (const row of h.accounts.verifyLedger()) expect(row.balance).toBe(row.ledgerSum);
  });

  it("oversized headers: 431 with the envelope, not Node's bare answer", async () => {
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${server.url}/v1/account`, { headers: { "X-Big": "x".repeat(8000) } }, (r) => {
        let body = "";
        r.on("data", (c) => (body += c));
        r.on("end", () => resolve({ status: r.statusCode ?? 0, body }));
      });
      req.on("error", reject);
      req.end();
    });
    expect(res.status).toBe(431);
    expect(JSON.parse(res.body).error.code).toBe("header_too_large");
  });

  it("malformed HTTP: 400 with the envelope", async () => {
    const { connect } = await import("node:net");
    const text = await new Promise<string>((resolve) => {
      const sock = connect(server.port, "127.0.0.1", () => sock.write("GARBAGE / HTTP/1.1\r\n\r\n"));
      let out = "";
      sock.on("data", (d) => (out += d));
      sock.on("close", () => resolve(out));
    });
    expect(text).toMatch(/^HTTP\/1\.1 400/);
    expect(JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4)).error.code).toBe("invalid_request");
  });
});

describe("405 answers carry the rate-limit headers (issue 13, item 10)", () => {
  it("counts a keyed wrong-method request against the key, an unkeyed one against the IP", async () => {
    const h = makeHarness();
    const keyed = await h.get("/v1/heatmap?symbols=SPY", { method: "POST" });
    expect(keyed.status).toBe(405);
    expect(keyed.headers.get("x-ratelimit-limit")).toBe("120");
    const first = Number(keyed.headers.get("x-ratelimit-remaining"));
    const again = await h.get("/v1/heatmap?symbols=SPY", { method: "DELETE" });
    expect(Number(again.headers.get("x-ratelimit-remaining"))).toBe(first - 1);
    const anonymous = await h.get("/atlas/v1/history?symbol=SPY", { method: "PUT", key: null });
    expect(anonymous.status).toBe(405);
    expect(anonymous.headers.get("x-ratelimit-limit")).toBe("120");
    expect(anonymous.headers.get("x-ratelimit-remaining")).not.toBeNull();
  });
});
