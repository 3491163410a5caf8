import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { accountsDbPath, openAccountService } from "../../../server/accounts";
import { tsEntryArgs } from "../../_helpers/ts-entry";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const FIXTURE = join(HERE, "ledger-hammer.fixture.ts");
const ROOT = join(HERE, "../..");

let dir: string;
let fixtureArgs: string[];
beforeAll(async () => {
  fixtureArgs = await tsEntryArgs(FIXTURE);
});

function child(args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [...fixtureArgs, ...args], { cwd: ROOT, stdio: "pipe" });
}

/** Feed the child's stdout lines to `onLine`; resolve once it has exited and its pipes are drained. */
function lines(p: ChildProcessWithoutNullStreams, onLine: (line: string) => void): Promise<number | null> {
  let buffer = "";
  let stderr = "";
  p.stdout.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let i = buffer.indexOf("\n"); i >= 0; i = buffer.indexOf("\n")) {
      onLine(buffer.slice(0, i));
      buffer = buffer.slice(i + 1);
    }
  });
  p.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    p.on("error", reject);
    p.on("close", (code, signal) => {
      if (code !== 0 && signal == null) reject(new Error(`child exited ${code}: ${stderr.slice(0, 2000)}`));
      else resolve(code);
    });
  });
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "osc-conc-"));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("64 concurrent clients against a small balance", () => {
  it("never overdraw, and every acknowledged debit is in the ledger", async () => {
    const dbPath = accountsDbPath(dir);
    const initial = 1000;
    const setup = openAccountService({ dbPath });
    const { accountId, key } = setup.createAccount({ plan: "top", credits: initial, dailyCapCredits: null });
    setup.close();

    const PROCESSES = 4;
    const CLIENTS = 16; // connections per process: 64 in all
    const procs = Array.from({ length: PROCESSES }, (_, i) => child(["hammer", dbPath, key, String(CLIENTS), String(i + 1)]));
    let ready = 0;
    const results: { acked: { ledgerId: number; credits: number }[]; otherErrors: number }[] = [];
    let go!: () => void;
    const allReady = new Promise<void>((r) => (go = r));
    const exits = procs.map((p) =>
      lines(p, (line) => {
        if (line === "ready") {
          if (++ready === PROCESSES) go();
        } else results.push(JSON.parse(line));
      }),
    );
    await allReady;
    for (const p of procs) p.stdin.write("go\n");
    await Promise.all(exits);

    expect(results).toHaveLength(PROCESSES);
    // The processes really did contend for the same balance.
    expect(results.filter((r) => r.acked.length > 0).length).toBeGreaterThanOrEqual(2);
    const acked = results.flatMap((r) => r.acked);
    const ackedCredits = acked.reduce((s, a) => s + a.credits, 0);
    expect(results.every((r) => r.otherErrors === 0)).toBe(true);

    const check = openAccountService({ dbPath });
    try {
      const final = check.balance(accountId);
      expect(final).toBeGreaterThanOrEqual(0);
      // Every client stopped on a 402, so what is left is below the largest cost (3).
      expect(final).toBeLessThan(3);
      expect(initial - final).toBe(ackedCredits);
      const debits = check.db.prepare("SELECT id, -delta AS credits, balance_after FROM ledger WHERE account_id = ? AND kind = 'debit'").all(accountId) as {
        id: number;
        credits: number;
        balance_after: number;
      }[];
      expect(debits).toHaveLength(acked.length);
      const byId = new Map(debits.map((d) => [d.id, d.credits]));
      for (const a of acked) expect(byId.get(a.ledgerId)).toBe(a.credits);
      expect(debits.every((d) => d.balance_after >= 0)).toBe(true);
      expect(check.verifyLedger()).toEqual([]);
    } finally {
      check.close();
    }
  });
});

describe("kill -9 during load", () => {
  it("loses no acknowledged debit, and the balance still equals the ledger's sum", async () => {
    const dbPath = accountsDbPath(dir);
    const initial = 1_000_000;
    const setup = openAccountService({ dbPath });
    const { accountId, key } = setup.createAccount({ plan: "top", credits: initial, dailyCapCredits: null });
    setup.close();

    for (let round = 0; round < 2; round++) {
      const acked: number[] = [];
      const p = child(["crash", dbPath, key]);
      const target = 150 + Math.floor(Math.random() * 100);
      const exited = lines(p, (line) => {
        if (line.trim() === "") return;
        acked.push(Number(line));
        if (acked.length === target) p.kill("SIGKILL");
      });
      await exited;
      expect(p.signalCode).toBe("SIGKILL");

      const check = openAccountService({ dbPath });
      try {
        const ids = new Set((check.db.prepare("SELECT id FROM ledger WHERE account_id = ? AND kind = 'debit'").all(accountId) as { id: number }[]).map((r) => r.id));
        for (const id of acked) expect(ids.has(id)).toBe(true);
        const debited = check.db.prepare("SELECT -sum(delta) AS s FROM ledger WHERE account_id = ? AND kind = 'debit'").get(accountId) as { s: number };
        expect(check.balance(accountId)).toBe(initial - debited.s);
        expect(check.verifyLedger()).toEqual([]);
      } finally {
        check.close();
      }
    }
  });
});
