// A process killed in the middle of a batch leaves no part of it: the store holds the batches
// committed before, and none of the rows of the one being written (one transaction per batch).
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { dailyDbPath, FLOW_SUMMARY, marketIdentity, openDailyStore } from "../../../server/daily-store";
import { tempDir } from "./_store-fixtures";
import { tsEntryArgs } from "../../_helpers/ts-entry";

const t = tempDir();
afterAll(() => t.remove());

describe("crash mid-write", () => {
  it("SIGKILL during a batch: earlier batches kept, no row of the interrupted one", async () => {
    const path = dailyDbPath(t.dir);
    const identity = marketIdentity({ kind: "simulated", seed: 42 });
    const fixture = fileURLToPath(new URL("./crash-write.fixture.ts", import.meta.url));
    const child = spawn(process.execPath, [...(await tsEntryArgs(fixture)), path, identity], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    const outcome = await new Promise<string>((resolve) => {
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        // Kill once the big batch is under way (after its rows are built, inside the transaction or about to enter it).
        if (out.includes("writing")) setTimeout(() => child.kill("SIGKILL"), 300);
      });
      child.on("exit", (code, signal) => resolve(signal ?? String(code)));
    });
    expect(out).toContain("committed");
    expect(outcome).toBe("SIGKILL");
    expect(out).not.toContain("done");
    const store = openDailyStore(path, identity);
    try {
      expect(store.get(FLOW_SUMMARY, "KEEP", "2024-03-04")).toEqual({ kept: true });
      expect(store.symbolsAt(FLOW_SUMMARY, "2024-03-05").size).toBe(0);
      expect(store.count(FLOW_SUMMARY)).toBe(1);
    } finally {
      store.close();
    }
  }, 60_000);
});
