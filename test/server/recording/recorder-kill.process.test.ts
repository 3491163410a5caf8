// Issue 33: `optionscope record` killed with SIGKILL mid-recording loses at most the minute in
// progress: every minute it had acknowledged is on disk and readable, the store opens, and a
// restart resumes after the last acknowledged minute, ending with each minute once and boards
// equal to the simulator's.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { createSimulatedMarket, fixedClock } from "../../../lib/market";
import { etInstant } from "../../../lib/time";
import { openRecordedMarket } from "../../../server/recording/recorded-market";
import { readPending, recordedRoot } from "../../../server/recording/store";
import { tsEntryArgs } from "../../_helpers/ts-entry";

const DATE = "2024-03-06";
const FROM = etInstant(DATE, "09:40");
const NOW = etInstant(DATE, "10:05");
const MINUTES = (NOW - FROM) / 60_000 + 1;

interface Ack {
  symbol: string;
  t: string;
  board: boolean;
}

/** Runs `optionscope record` (its command function, record-child.fixture.ts); with `killAfter`, SIGKILLs it as soon as that many minutes are acknowledged. */
async function record(dataDir: string, killAfter?: number): Promise<{ acks: Ack[]; code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  const fixture = fileURLToPath(new URL("./record-child.fixture.ts", import.meta.url));
  const args = [...(await tsEntryArgs(fixture)), "--underlyings", "AAPL", "--seed", "7", "--json"];
  args.push("--from", new Date(FROM).toISOString(), "--now", new Date(NOW).toISOString(), "--data-dir", dataDir);
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  const acks: Ack[] = [];
  let buf = "";
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += String(d);
  });
  child.stdout.on("data", (d) => {
    buf += String(d);
    for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
      acks.push(JSON.parse(buf.slice(0, nl)) as Ack);
      buf = buf.slice(nl + 1);
      if (killAfter !== undefined && acks.length === killAfter) child.kill("SIGKILL");
    }
  });
  return new Promise((resolve) => child.on("close", (code, signal) => resolve({ acks, code, signal, stderr })));
}

describe("optionscope record under SIGKILL", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "optionscope-kill-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("keeps every acknowledged minute readable and resumes after the last one", async () => {
    const killed = await record(dataDir, 12);
    expect(killed.signal).toBe("SIGKILL");
    // Killed as its 12th acknowledgement was read (a few more may have been printed by then:
    // each one printed counts, and must be on disk).
    const acked = killed.acks.map((a) => Date.parse(a.t));
    expect(acked.length).toBeGreaterThanOrEqual(12);
    expect(acked.length).toBeLessThan(MINUTES);
    expect(acked).toEqual(Array.from({ length: acked.length }, (_, i) => FROM + i * 60_000));

    const root = recordedRoot(dataDir);
    const pending = readPending(root, DATE, "AAPL");
    const journalTimes = pending.lines.map((l) => l.t);
    for (const t of acked) expect(journalTimes).toContain(t);
    for (const t of acked) expect(pending.boardTimes).toContain(t);
    // What the killed process left opens, and its boards are the simulator's.
    const clock = fixedClock(NOW);
    const sim = createSimulatedMarket({ seed: 7, clock });
    const rec = openRecordedMarket(dataDir, { clock });
    const last = acked[acked.length - 1];
    const board = await rec.chain("AAPL", last);
    expect(board?.asOfMs).toBeGreaterThanOrEqual(last);
    const want = (await sim.chain("AAPL", board!.asOfMs))!;
    expect(Array.from(board!.iv)).toEqual(Array.from(want.iv));
    expect(Array.from(board!.volume)).toEqual(Array.from(want.volume));
    rec.close();

    const resumed = await record(dataDir);
    expect(resumed.code, resumed.stderr).toBe(0);
    const after = readPending(root, DATE, "AAPL");
    // Each minute once, no gap: the killed run's and the resumed run's together.
    expect(after.lines.filter((l) => l.t >= FROM).map((l) => l.t)).toEqual(Array.from({ length: MINUTES }, (_, i) => FROM + i * 60_000));
    expect(after.boardTimes).toEqual(Array.from({ length: MINUTES }, (_, i) => FROM + i * 60_000));
    expect(Date.parse(resumed.acks[0].t)).toBeLessThanOrEqual(last + 60_000);
    const rec2 = openRecordedMarket(dataDir, { clock });
    for (const t of [FROM, last + 60_000, NOW]) {
      const b = (await rec2.chain("AAPL", t))!;
      expect(b.asOfMs).toBe(t);
      expect(Array.from(b.bid)).toEqual(Array.from((await sim.chain("AAPL", t))!.bid));
    }
    rec2.close();
  });
});
