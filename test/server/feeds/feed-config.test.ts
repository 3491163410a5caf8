// `serve --feed`: its flags and environment, and the usage errors a host sees before anything starts.
import { describe, expect, it } from "vitest";
import { resolveServeConfig, SERVE_USAGE } from "../../../server/config";
import { simulatedMarketAt } from "../../_helpers/simulated-market";
import { makeHarness } from "../_harness";

describe("serve --feed configuration", () => {
  const env = { MASSIVE_API_KEY: "k-123" };

  it("takes the feed, the underlyings (upper-cased, deduplicated) and the key from the environment only", () => {
    const c = resolveServeConfig(["--feed", "massive", "--underlyings", "spy, SPXW,spy"], env);
    expect(c.feed).toEqual({ name: "massive", underlyings: ["SPY", "SPXW"], apiKey: "k-123", restBaseUrl: undefined, wsBaseUrl: undefined, record: true });
    expect(resolveServeConfig(["--feed", "massive", "--underlyings", "SPY", "--no-record"], env).feed?.record).toBe(false);
    expect(resolveServeConfig(["--feed", "massive", "--underlyings", "SPY"], { ...env, OPTIONSCOPE_RECORD: "off" }).feed?.record).toBe(false);
    expect(resolveServeConfig([], { ...env, OPTIONSCOPE_FEED: "massive", OPTIONSCOPE_UNDERLYINGS: "QQQ" }).feed?.underlyings).toEqual(["QQQ"]);
    expect(resolveServeConfig([], env).feed).toBeUndefined();
    // The key is not a flag: parseArgs refuses an unknown option.
    expect(() => resolveServeConfig(["--feed", "massive", "--underlyings", "SPY", "--api-key", "x"], env)).toThrow();
  });

  it("names the allowed values when the feed, the underlyings, the key or the limit are wrong", () => {
    expect(() => resolveServeConfig(["--feed", "polygon", "--underlyings", "SPY"], env)).toThrow(/Invalid --feed: "polygon" \(expected one of: massive\)/);
    expect(() => resolveServeConfig(["--feed", "massive"], env)).toThrow(/--underlyings/);
    expect(() => resolveServeConfig(["--feed", "massive", "--underlyings", "SPY"], {})).toThrow(/MASSIVE_API_KEY/);
    expect(() => resolveServeConfig(["--feed", "massive", "--underlyings", "SPY", "--data", "/tmp/x"], env)).toThrow(/--feed and --data/);
    expect(() => resolveServeConfig(["--stale-after-s", "5"], env)).toThrow(/from 60 to 2592000/);
    expect(resolveServeConfig(["--stale-after-s", "600"], env).staleAfterMs).toBe(600_000);
  });

  it("documents the flags in --help", () => {
    expect(SERVE_USAGE).toMatch(/--feed massive/);
    expect(SERVE_USAGE).toMatch(/MASSIVE_API_KEY/);
    expect(SERVE_USAGE).toMatch(/--underlyings A,B/);
    expect(SERVE_USAGE).toMatch(/--stale-after-s N/);
  });
});

describe("GET /v1/status/feed without a feed", () => {
  const h = makeHarness({ market: simulatedMarketAt(42, Date.parse("2024-03-06T15:00:00Z")) });

  it("answers 404 not_found saying the server has no live feed, without a key", async () => {
    const res = await h.get("/v1/status/feed", { key: null });
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("not_found");
    expect(body.error.message).toMatch(/no live feed/);
  });
});
