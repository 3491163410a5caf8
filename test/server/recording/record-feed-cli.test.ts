// Issue 33: `optionscope record --feed massive` against the loopback fake vendor: a wrong key is a
// clear error (exit 1, the feed's code), a missing key or a bad feed name a usage error (exit 2).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runRecordCli } from "../../../server/cli/record-cli";
import { startFakeMassive, type FakeMassive } from "../feeds/_fake-massive";
import { fixture, KEY, SPOT } from "../feeds/_massive-fixture";

describe("optionscope record --feed massive", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "optionscope-record-feed-"));
  let fake: FakeMassive;
  beforeAll(async () => {
    fake = await startFakeMassive(KEY);
    fake.chains.set("SPY", fixture());
    fake.prices.set("SPY", SPOT);
  });
  afterAll(async () => {
    await fake?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const run = async (argv: string[], env: NodeJS.ProcessEnv) => {
    const err: string[] = [];
    const code = await runRecordCli(["record", ...argv], env, { stdout: () => {}, stderr: (t) => err.push(t) });
    return { code, err: err.join("") };
  };

  it("a key the vendor refuses ends it with the feed's error", async () => {
    const env = { MASSIVE_API_KEY: "not-the-key", OPTIONSCOPE_MASSIVE_REST_URL: fake.restUrl, OPTIONSCOPE_MASSIVE_WS_URL: fake.wsUrl };
    const r = await run(["--underlyings", "SPY", "--feed", "massive", "--data-dir", dataDir], env);
    expect(r.code).toBe(1);
    expect(r.err).toContain("record: bad_key");
    expect(r.err).not.toContain("not-the-key");
  });

  it("no key, a feed it does not know, or --now with a feed are usage errors", async () => {
    expect((await run(["--underlyings", "SPY", "--feed", "massive"], {})).err).toContain("MASSIVE_API_KEY");
    const bad = await run(["--underlyings", "SPY", "--feed", "thetadata"], { MASSIVE_API_KEY: "k" });
    expect(bad).toEqual({ code: 2, err: 'Invalid --feed: expected massive (got "thetadata")\n' });
    expect((await run(["--underlyings", "SPY", "--feed", "massive", "--now", "2024-03-06T15:00:00Z"], { MASSIVE_API_KEY: "k" })).code).toBe(2);
  });
});
