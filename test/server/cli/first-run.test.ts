// The first-run banner (server/cli/first-run.ts) and `optionscope --version`: the banner names the
// demo account and the commands that need its id, asks for a symbol the data has, and outside a
// live session tells how to watch one; the `--now` it suggests does start a live session.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { MarketData } from "../../../lib/market/market-data";
import { bannerSymbol, firstRunFacts, firstRunLines } from "../../../server/cli/first-run";
import { main } from "../../../server/main";
import { simulatedMarketAt } from "../../_helpers/simulated-market";

const WEDNESDAY_1000_ET = Date.parse("2024-03-06T15:00:00Z");
const SATURDAY_1200_ET = Date.parse("2024-03-09T17:00:00Z");
const market = (nowMs: number) => simulatedMarketAt(42, nowMs);

describe("first-run banner", () => {
  it("inside a session: the account id, both commands, a curl line for SPXW, no --now hint", async () => {
    const facts = await firstRunFacts(market(WEDNESDAY_1000_ET));
    expect(facts).toMatchObject({ symbol: "SPXW", live: true, lastSession: "2024-03-06" });
    const lines = firstRunLines({ baseUrl: "http://localhost:8080", accountId: "acct_demo", key: "os_live_k", facts });
    const text = lines.join("\n");
    expect(text).toContain("http://localhost:8080/ ");
    expect(text).toContain("Demo account acct_demo created");
    expect(text).toContain('curl -s -H "Authorization: Bearer os_live_k" "http://localhost:8080/v1/heatmap?symbols=SPXW"');
    expect(text).toContain("optionscope console link --account acct_demo");
    expect(text).not.toContain("--now");
  });

  it("on a Saturday: the last session is Friday's, and the hint's --now opens a live Friday session", async () => {
    const facts = await firstRunFacts(market(SATURDAY_1200_ET));
    expect(facts).toMatchObject({ live: false, lastSession: "2024-03-08" });
    const text = firstRunLines({ baseUrl: "http://h:1", accountId: "acct_demo", key: null, facts }).join("\n");
    expect(text).toContain("No live session now (Sat 2024-03-09 12:00 ET): the pages show the 2024-03-08 session as of its close.");
    // Later starts: no key, but the commands that make one and sign in still name the account.
    expect(text).toContain("optionscope key create --account acct_demo");
    expect(text).toContain("optionscope console link --account acct_demo");
    const hint = /--now (\S+) --clock-speed 1/.exec(text);
    expect(hint?.[1]).toBe("2024-03-08T16:00:00Z"); // 11:00 EST
    expect((await firstRunFacts(market(Date.parse(hint![1])))).live).toBe(true);
  });

  it("asks for a symbol the data has: SPXW, SPX, SPY in that order, else the first root", async () => {
    expect(bannerSymbol(["QQQ", "SPY", "SPXW"])).toBe("SPXW");
    expect(bannerSymbol(["QQQ", "SPY"])).toBe("SPY");
    expect(bannerSymbol(["AAPL", "QQQ"])).toBe("AAPL");
    expect(bannerSymbol([])).toBeNull();
    // A data folder without SPX (only SPY and QQQ listed): the curl line asks for SPY, which answers.
    const sim = market(WEDNESDAY_1000_ET);
    const withoutSpx: MarketData = Object.create(sim, {
      universe: { value: async () => (await sim.universe()).filter((s) => s.ticker === "SPY" || s.ticker === "QQQ") },
    });
    const facts = await firstRunFacts(withoutSpx);
    expect(facts.symbol).toBe("SPY");
    expect(firstRunLines({ baseUrl: "http://h:1", accountId: "a", key: "k", facts }).join("\n")).toContain("/v1/heatmap?symbols=SPY");
  });
});

describe("optionscope --version", () => {
  afterEach(() => vi.restoreAllMocks());

  it("prints package.json's version and exits 0", async () => {
    const out: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      out.push(String(chunk));
      return true;
    });
    const version = JSON.parse(readFileSync(resolve(__dirname, "../../../package.json"), "utf8")).version;
    expect(await main(["--version"])).toBe(0);
    expect(await main(["-v"])).toBe(0);
    expect(out).toEqual([`optionscope ${version}\n`, `optionscope ${version}\n`]);
  });
});
