// Run in a separate process by prints-determinism.process.test.ts: prints a digest of a fixed request.
import { createHash } from "node:crypto";
import { simulatedOffExchangePrints, simulatedOptionPrints } from "../../lib/market/prints";
import { sessionBounds } from "../../lib/time";
import { syntheticContext } from "./prints-synthetic-board";

const session = sessionBounds("2024-03-15");
const { ctx } = syntheticContext(5, session.closeMs + 3_600_000);
const out = {
  options: simulatedOptionPrints(ctx, "SPY", session.openMs + 200 * 60_000, session.openMs + 205 * 60_000),
  dark: simulatedOffExchangePrints(ctx, ["SPY"], session.openMs + 200 * 60_000, session.openMs + 205 * 60_000),
};
process.stdout.write(createHash("sha256").update(JSON.stringify(out)).digest("hex") + "\n");
