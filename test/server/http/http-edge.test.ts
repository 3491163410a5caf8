// Issue 13 items 8 and 9: what Node itself answers before any route runs, over raw sockets
// against a real listening server. Every rejection is the JSON envelope, then the connection closes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkingIntervalMs, listen, type Listening } from "../../../server/http/listen";
import { rawExchange, type RawExchange } from "../../_helpers/raw-http";
import { makeHarness } from "../_harness";

function expectEnvelope(r: RawExchange, status: number, code: string): void {
  expect(r.status, r.text.slice(0, 200)).toBe(status);
  expect(r.headers["content-type"]).toMatch(/^application\/json/);
  expect(r.headers.connection).toBe("close");
  expect(JSON.parse(r.body)).toEqual({ error: { code, message: expect.any(String) } });
  // The server hangs up after the answer.
  expect(r.closedMs).not.toBeNull();
}

describe("headers timeout fires at its configured value (item 8)", () => {
  let server: Listening;
  beforeAll(async () => {
    // Only the timeout is injected; the checking interval follows from it.
    server = await listen(makeHarness().app, { port: 0, headersTimeoutMs: 1_000, requestTimeoutMs: 5_000 });
  });
  afterAll(() => server.close(true));

  it("a client that never finishes its headers gets 408 enveloped after ~1 s (Node's 30 s check would give up to 31 s)", async () => {
    const r = await rawExchange(server.port, "GET /v1/account HTTP/1.1\r\nHost: localhost\r\nX-Slow: 1", 8_000);
    expectEnvelope(r, 408, "request_timeout");
    // Not before the timeout; and not Node's 30 s check either, or the 8 s exchange would have
    // ended with no answer.
    expect(r.firstByteMs!).toBeGreaterThanOrEqual(950);
  });

  it("the default checking interval keeps the documented 10 s headers timeout within 0.5 s", () => {
    expect(checkingIntervalMs(10_000, 30_000)).toBe(500);
    expect(checkingIntervalMs(1_000, 5_000)).toBe(50);
    expect(checkingIntervalMs(0, 0)).toBe(500);
  });
});

describe("Node-level rejections are enveloped (item 9)", () => {
  let server: Listening;
  beforeAll(async () => {
    server = await listen(makeHarness().app, { port: 0 });
  });
  afterAll(() => server.close(true));

  it("HTTP/1.1 without Host: 400 invalid_request enveloped, not Node's bare 400", async () => {
    const r = await rawExchange(server.port, "GET /v1/account HTTP/1.1\r\n\r\n");
    expectEnvelope(r, 400, "invalid_request");
    expect(JSON.parse(r.body).error.message).toMatch(/Host/);
  });

  it("HTTP/1.0 without Host is still served (Host is optional there)", async () => {
    const r = await rawExchange(server.port, "GET /v1/openapi.json HTTP/1.0\r\n\r\n");
    expect(r.status).toBe(200);
  });

  it("CONNECT: 405 method_not_allowed enveloped instead of a silent close", async () => {
    const r = await rawExchange(server.port, "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n");
    expectEnvelope(r, 405, "method_not_allowed");
  });

  it("a Transfer-Encoding Node cannot frame: 400 invalid_request enveloped", async () => {
    for (const te of ["gzip", "chunked, gzip", "identity, chunked, chunked"]) {
      const r = await rawExchange(server.port, `POST /mcp HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: ${te}\r\n\r\nabc`);
      expect(r.status, te).toBe(400);
      expectEnvelope(r, 400, "invalid_request");
    }
  });

  it("a malformed chunked body after the headers: 400 invalid_request enveloped", async () => {
    const r = await rawExchange(
      server.port,
      "POST /mcp/oauth/register HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZZ\r\nabc\r\n",
    );
    expectEnvelope(r, 400, "invalid_request");
  });

  it("a 100 KB URL: 414 uri_too_long, not 431", async () => {
    const r = await rawExchange(server.port, `GET /v1/heatmap?symbols=${"A".repeat(100_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expectEnvelope(r, 414, "uri_too_long");
  });

  it("a 20 KB URL followed by normal headers in the same packet: 414", async () => {
    const r = await rawExchange(server.port, `GET /v1/heatmap?symbols=${"A".repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\nAccept: */*\r\nUser-Agent: test\r\n\r\n`);
    expectEnvelope(r, 414, "uri_too_long");
  });

  it("a 100 KB header (normal URL) stays 431 header_too_large", async () => {
    const r = await rawExchange(server.port, `GET /v1/account HTTP/1.1\r\nHost: localhost\r\nX-Big: ${"x".repeat(100_000)}\r\n\r\n`);
    expectEnvelope(r, 431, "header_too_large");
  });
});
