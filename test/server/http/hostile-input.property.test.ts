import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeHarness } from "../_harness";

const PATHS = [
  "/v1/heatmap",
  "/v1/historical",
  "/v1/gex/levels",
  "/v1/stats/daily",
  "/v1/account",
  "/v1/symbols",
  "/v1/openapi.json",
  "/flow-alias/v1/flow/openapi.json",
  "/atlas/v1/openapi.json",
  "/v1/nope",
  "/atlas/v1/x",
];
const NAMES = ["symbols", "metric", "at", "from", "to", "extended", "maxStrikes", "maxExpirations", "expirations", "includeEmpty", "layout", "x"];
const HOSTILE = [
  "",
  "%",
  "%ZZ",
  "%00",
  "../../etc/passwd",
  "<script>",
  "'; DROP TABLE accounts;--",
  "\u0000",
  "\uFFFF",
  "💥",
  "1e309",
  "-0",
  "NaN",
  "Infinity",
  "all",
  "9".repeat(40),
  ",,,",
  "SPY,".repeat(30),
  "2023-02-29",
  "2024-02-30T25:61:00Z",
  "true",
  "false",
  "SPY",
  "SPXW,SPY,QQQ",
];

const value = fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ maxLength: 40 }), fc.string({ unit: "binary", maxLength: 20 }), fc.integer().map(String));
const query = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...NAMES), fc.string({ maxLength: 8 })), value), { maxLength: 6 });

describe("random and hostile query strings", () => {
  it("never produce a 5xx or a body outside the envelope", async () => {
    const h = makeHarness({ credits: 1_000_000 });
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PATHS), query, fc.boolean(), fc.boolean(), async (path, params, rawEncoding, withKey) => {
        h.wall.ms += 1_000; // keep under the per-minute rate limit
        const qs = params.map(([k, v]) => (rawEncoding ? `${k}=${v}` : `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)).join("&");
        let url: string;
        try {
          url = new URL(`http://localhost${path}?${qs}`).href;
        } catch {
          return; // not even a URL: no client can send it
        }
        const res = await h.get(url, withKey ? {} : { key: null });
        seen.add(res.status);
        expect(res.status).toBeLessThan(500);
        const body = await res.json();
        if (res.status >= 400) {
          expect(typeof body.error.code).toBe("string");
          expect(typeof body.error.message).toBe("string");
        } else if (!path.endsWith("openapi.json")) {
          expect(body).toHaveProperty("data");
          expect(body).toHaveProperty("meta");
        }
        expect(res.headers.get("x-ratelimit-limit")).not.toBeNull();
      }),
      { numRuns: 300, seed: 20240306 },
    );
    for (const row of h.accounts.verifyLedger()) expect(row.balance).toBe(row.ledgerSum);
    // The generator reaches successes, validation errors, missing keys and unknown paths alike.
    expect([...seen]).toEqual(expect.arrayContaining([200, 400, 401, 404]));
  });

  it("hostile paths are enveloped too", async () => {
    const h = makeHarness();
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ maxLength: 12 })), { minLength: 1, maxLength: 4 }), async (segs) => {
        h.wall.ms += 1_000;
        let url: string;
        try {
          url = new URL(`http://localhost/${segs.join("/")}`).href;
        } catch {
          return;
        }
        const res = await h.get(url);
        expect(res.status).toBeLessThan(500);
        const text = await res.text();
        if (res.status >= 400) expect(JSON.parse(text).error.code).toEqual(expect.any(String));
      }),
      { numRuns: 200, seed: 7 },
    );
  });
});
