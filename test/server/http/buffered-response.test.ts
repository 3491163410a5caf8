// A buffered API answer (JSON, gzip or not, success or error) is written to the Node response as
// status, headers and one body with its Content-Length (srvx's direct path for its own response
// class), not streamed in chunks through a web ReadableStream: the same headers and bytes a
// client always got, framed by length. docs/architecture.md#http-responses-on-node.
import { request as httpRequest } from "node:http";
import { gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { listen, type Listening } from "../../../server/http/listen";
import { makeHarness } from "../_harness";

let server: Listening | null = null;
afterEach(async () => {
  await server?.close(true);
  server = null;
});

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(url: string, path: string, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("buffered responses on a Node socket", () => {
  it("a JSON success carries Content-Length equal to its bytes, no chunked framing, and every pipeline header", async () => {
    const h = makeHarness();
    server = await listen(h.app, { port: 0 });
    const r = await get(server.url, "/v1/heatmap?symbols=SPXW", { Authorization: `Bearer ${h.key}` });
    expect(r.status).toBe(200);
    expect(r.headers["transfer-encoding"]).toBeUndefined();
    expect(Number(r.headers["content-length"])).toBe(r.body.byteLength);
    expect(r.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(r.headers["x-request-id"]).toMatch(/\S/);
    expect(r.headers["x-ratelimit-limit"]).toBe("120");
    expect(r.headers["x-ratelimit-remaining"]).toBe("119");
    expect(r.headers["x-credits-remaining"]).toMatch(/^\d+$/);
    // The same body the in-process fetch path gives.
    const inProcess = await (await h.get("/v1/heatmap?symbols=SPXW")).json();
    const parsed = JSON.parse(r.body.toString("utf8")) as { data: unknown };
    expect(Object.keys(parsed)).toEqual(Object.keys(inProcess as object));
  });

  it("a gzipped answer is length-framed too and inflates to JSON", async () => {
    const h = makeHarness();
    server = await listen(h.app, { port: 0 });
    const r = await get(server.url, "/v1/heatmap?symbols=SPXW", { Authorization: `Bearer ${h.key}`, "Accept-Encoding": "gzip" });
    expect(r.status).toBe(200);
    expect(r.headers["content-encoding"]).toBe("gzip");
    expect(r.headers["transfer-encoding"]).toBeUndefined();
    expect(Number(r.headers["content-length"])).toBe(r.body.byteLength);
    expect(() => JSON.parse(gunzipSync(r.body).toString("utf8"))).not.toThrow();
  });

  it("an error answer (401) is length-framed with its envelope and headers", async () => {
    const h = makeHarness();
    server = await listen(h.app, { port: 0 });
    const r = await get(server.url, "/v1/heatmap?symbols=SPXW", {});
    expect(r.status).toBe(401);
    expect(r.headers["transfer-encoding"]).toBeUndefined();
    expect(Number(r.headers["content-length"])).toBe(r.body.byteLength);
    expect(JSON.parse(r.body.toString("utf8"))).toMatchObject({ error: { code: "unauthorized" } });
  });
});
