// Issue 38 item 2: every server cache holds a share of one byte budget (`--cache-mb` /
// OPTIONSCOPE_CACHE_MB); a flow tape larger than its cache's share is not kept, and a stream of cold
// requests never takes a cache past its share.
import { describe, expect, it } from "vitest";
import { CACHE_SHARES, cacheShareBytes, DEFAULT_CACHE_MB, defaultCacheMb, mebibytes, MIN_CACHE_MB } from "../../../server/cache/cache-budget";
import { estimateBytes } from "../../../server/cache/estimate-bytes";
import { resolveServeConfig } from "../../../server/config";
import { moduleStateOf } from "../../../server/modules";
import { flowModule } from "../../../server/modules/flow";
import type { FlowState } from "../../../server/modules/flow/flow-route";
import { tapeBytes, TAPE_ROW_BYTES } from "../../../server/modules/flow/sessions/tape-bytes";
import { sessionTape } from "../../../server/modules/flow/sessions/tape";
import { flowHarness, NOW_MS, TODAY } from "../modules/flow/_flow-harness";

const settle = () => new Promise((r) => setTimeout(r, 0));

describe("cache budget", () => {
  it("the shares split the whole total", () => {
    const sum = Object.values(CACHE_SHARES).reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo(1, 12);
    expect(cacheShareBytes(undefined, "flowTapes")).toBe(Math.floor(mebibytes(DEFAULT_CACHE_MB) * CACHE_SHARES.flowTapes));
  });

  it("without --cache-mb the total fits the V8 heap: 512 MiB on a large heap, 40% of a small one", () => {
    expect(defaultCacheMb(4144 * 2 ** 20)).toBe(DEFAULT_CACHE_MB);
    expect(defaultCacheMb(1072 * 2 ** 20)).toBe(428);
    expect(defaultCacheMb(540 * 2 ** 20)).toBe(216); // Node's default heap on a 2 GB host
    expect(defaultCacheMb(10 * 2 ** 20)).toBe(MIN_CACHE_MB);
  });

  it("--cache-mb / OPTIONSCOPE_CACHE_MB set it (flag wins); a bad value is a usage error naming both and the range", () => {
    expect(resolveServeConfig([], {}).cacheMb).toBeUndefined();
    expect(resolveServeConfig(["--cache-mb", "256"], { OPTIONSCOPE_CACHE_MB: "1024" }).cacheMb).toBe(256);
    expect(resolveServeConfig([], { OPTIONSCOPE_CACHE_MB: "1024" }).cacheMb).toBe(1024);
    for (const bad of ["0", "-5", "abc", String(MIN_CACHE_MB - 1), "1e9"]) {
      expect(() => resolveServeConfig([`--cache-mb=${bad}`], {})).toThrow(/--cache-mb \/ OPTIONSCOPE_CACHE_MB: .*expected a number of MiB from 16 to/);
    }
  });

  it("the app's caches get their shares of `cacheMb`", () => {
    const h = flowHarness({ cacheMb: 64 });
    expect(h.app.services.cacheBytes).toBe(mebibytes(64));
    const state = moduleStateOf(h.app.services, flowModule) as FlowState;
    expect(state.tapes.maxBytes).toBe(cacheShareBytes(mebibytes(64), "flowTapes"));
    expect(state.summaries.maxBytes).toBe(cacheShareBytes(mebibytes(64), "flowSummaries"));
    expect(state.memo.maxBytes).toBe(cacheShareBytes(mebibytes(64), "flowMemo"));
  });

  it("a tape is sized by its typed columns plus the measured per-print objects", async () => {
    const h = flowHarness({ universe: ["XOM"] });
    const state = moduleStateOf(h.app.services, flowModule) as FlowState;
    const tape = await sessionTape(state, "XOM", TODAY, NOW_MS);
    const n = tape.prints.length;
    expect(n).toBeGreaterThan(10);
    const perPrint = TAPE_ROW_BYTES.print + TAPE_ROW_BYTES.tapeParts + TAPE_ROW_BYTES.scoredTrade + TAPE_ROW_BYTES.feedItem;
    const typed = [...Object.values(tape.columns), ...Object.values(tape.scores)]
      .filter((v) => ArrayBuffer.isView(v))
      .reduce((s, v) => s + (v as ArrayBufferView).byteLength, 0);
    expect(tapeBytes(tape)).toBe(typed + n * perPrint);
    // The generic estimate of the prints alone is the same order as the measured figure.
    const generic = estimateBytes(tape.prints) / n;
    expect(generic).toBeGreaterThan(TAPE_ROW_BYTES.print / 3);
    expect(generic).toBeLessThan(TAPE_ROW_BYTES.print * 3);
  });

  it("with a small budget, cold one-credit requests never take the tape cache past its share, and a tape larger than the share is not kept", async () => {
    const h = flowHarness({ cacheMb: MIN_CACHE_MB, credits: 100_000 });
    const state = moduleStateOf(h.app.services, flowModule) as FlowState;
    const share = cacheShareBytes(mebibytes(MIN_CACHE_MB), "flowTapes");
    expect(state.tapes.maxBytes).toBe(share);
    for (const t of ["XOM", "TXN", "LMT", "XLU", "SPXW"]) {
      expect((await h.get(`/v1/flow/${t}?limit=5`)).status).toBe(200);
      await settle();
      expect(state.tapes.bytes).toBeLessThanOrEqual(share);
    }
    // SPXW's session so far is larger than the 6.4 MB share: built, served, not kept.
    const spxw = await sessionTape(state, "SPXW", TODAY, NOW_MS);
    expect(tapeBytes(spxw)).toBeGreaterThan(share);
    await settle();
    expect(state.tapes.has(`tape|SPXW|${TODAY}`)).toBe(false);
    // Small tapes are kept.
    expect(state.tapes.has(`tape|LMT|${TODAY}`)).toBe(true);
    // Every other flow cache stayed within its own share too.
    for (const c of [state.memo, state.summaries]) expect(c.bytes).toBeLessThanOrEqual(c.maxBytes);
  });
});
