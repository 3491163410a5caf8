// Moved from prints-simulated.test.ts: the one check that starts another process (the integration layer).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { simulatedOffExchangePrints, simulatedOptionPrints } from "../../lib/market/prints";
import { sessionBounds } from "../../lib/time";
import { syntheticContext } from "./prints-synthetic-board";
import { tsEntryArgs } from "../_helpers/ts-entry";

const DAY = "2024-03-15"; // as prints-simulated.test.ts and prints-determinism-child.ts
const session = sessionBounds(DAY);
const AFTER = session.closeMs + 3_600_000;
const digest = (x: unknown) => createHash("sha256").update(JSON.stringify(x)).digest("hex");

describe("simulated option prints: determinism", () => {
  it("gives the same bytes in another process", async () => {
    const child = fileURLToPath(new URL("./prints-determinism-child.ts", import.meta.url));
    const out = execFileSync(process.execPath, await tsEntryArgs(child), { encoding: "utf8" }).trim();
    const { ctx } = syntheticContext(5, AFTER);
    const here = {
      options: simulatedOptionPrints(ctx, "SPY", session.openMs + 200 * 60_000, session.openMs + 205 * 60_000),
      dark: simulatedOffExchangePrints(ctx, ["SPY"], session.openMs + 200 * 60_000, session.openMs + 205 * 60_000),
    };
    expect(out).toBe(digest(here));
  });
});
