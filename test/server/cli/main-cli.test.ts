import { execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resolveServeConfig } from "../../../server/config";
import { clockFor } from "../../../server/serve";

const run = promisify(execFile);

describe("serve configuration", () => {
  it("reads flags and environment (flags win) and pins the clock with OPTIONSCOPE_NOW", () => {
    const env = { PORT: "9000", OPTIONSCOPE_NOW: "2024-03-06T15:00:00Z", OPTIONSCOPE_SEED: "7", STREAM_MAX_DURATION_S: "5" };
    const c = resolveServeConfig(["--port", "0", "--host-atlas", "atlas.test"], env);
    expect(c.port).toBe(0);
    expect(c.seed).toBe("7");
    expect(c.hosts.atlas).toBe("atlas.test");
    expect(c.streams).toEqual({ maxDurationS: 5, billingIntervalS: 60, keepaliveS: 15 });
    expect(clockFor(c).now()).toBe(Date.parse("2024-03-06T15:00:00Z"));
    expect(resolveServeConfig([], env).port).toBe(9000);
    expect(() => resolveServeConfig(["--port", "x"], {})).toThrow(/port/);
    expect(() => resolveServeConfig([], { OPTIONSCOPE_NOW: "soon" })).toThrow(/OPTIONSCOPE_NOW/);
    expect(() => resolveServeConfig(["--bogus"], {})).toThrow();
  });
});

describe("optionscope serve (real process, simulated market)", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "optionscope-serve-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("prints a curl line that returns a live SPXW heatmap; the CLI changes accounts while it runs; SIGTERM exits 0", async () => {
    const env = { ...process.env, OPTIONSCOPE_DATA_DIR: dataDir, OPTIONSCOPE_NOW: "2024-03-06T15:00:00Z", PORT: "0" };
    // No daily fill: nothing here reads it, and its worker would compute the whole universe's history
    // beside the test (serve's fill is test/server/daily-store/serve-fill.test.ts's).
    const child = spawn(process.execPath, ["bin/optionscope.mjs", "serve", "--hostname", "127.0.0.1", "--no-access-log", "--no-daily-fill"], { env });
    let stderr = "";
    const curl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no curl line:\n${stderr}`)), 60_000);
      child.stderr.on("data", (d) => {
        stderr += d;
        const m = /curl -s -H "Authorization: Bearer (\S+)" "(\S+)"/.exec(stderr);
        if (m) {
          clearTimeout(timer);
          resolve(JSON.stringify([m[1], m[2]]));
        }
      });
      child.on("exit", (code) => reject(new Error(`exited ${code}:\n${stderr}`)));
    });
    const [key, url] = JSON.parse(curl) as [string, string];
    const res = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.data.symbols[0].symbol).toBe("SPXW");
    expect(body.data.symbols[0].strikes.length).toBeGreaterThan(10);
    expect(body.meta).toMatchObject({ mode: "live", simulated: true });

    // Async, not spawnSync: a test blocked for seconds cannot see the server close an idle
    // keep-alive socket, and the next fetch would reuse it ("other side closed").
    const created = await run(process.execPath, ["bin/optionscope.mjs", "account", "create", "--plan", "top", "--credits", "3", "--json"], { env, encoding: "utf8" });
    expect(created.stderr).not.toMatch(/error/i); // execFile rejects on a non-zero exit
    const acct = JSON.parse(created.stdout) as { accountId: string; key: string };
    const origin = new URL(url).origin;
    const account = await (await fetch(`${origin}/v1/account`, { headers: { Authorization: acct.key } })).json();
    expect(account.data.creditsBalance).toBe(3);
    await run(process.execPath, ["bin/optionscope.mjs", "account", "set", acct.accountId, "--status", "suspended"], { env, encoding: "utf8" });
    const after = await fetch(`${origin}/v1/account`, { headers: { Authorization: acct.key } });
    expect((await after.json()).error.code).toBe("account_suspended");

    const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exit).toBe(0);
  });
});

describe("serve config: the per-IP ceiling", () => {
  it("defaults to 6000 per 5 minutes, takes a number or off, and trusted proxies", () => {
    expect(resolveServeConfig([], {}).ipCeiling).toEqual({ maxRequests: 6000, trustedProxies: [] });
    expect(resolveServeConfig(["--ip-ceiling", "off"], {}).ipCeiling).toBeNull();
    expect(resolveServeConfig([], { OPTIONSCOPE_IP_CEILING: "100", OPTIONSCOPE_TRUSTED_PROXIES: "10.0.0.2, 10.0.0.3" }).ipCeiling).toEqual({
      maxRequests: 100,
      trustedProxies: ["10.0.0.2", "10.0.0.3"],
    });
    expect(() => resolveServeConfig(["--ip-ceiling", "many"], {})).toThrow(/ip ceiling/);
    expect(() => resolveServeConfig([], { OPTIONSCOPE_IP_CEILING: "-1" })).toThrow(/ip ceiling/);
  });
});

describe("serve config: the group-commit window", () => {
  it("is unset by default (each store's own), read from the flag or the environment, the flag first", () => {
    expect(resolveServeConfig([], {}).groupCommitMs).toBeUndefined();
    expect(resolveServeConfig(["--group-commit-ms", "6"], {}).groupCommitMs).toBe(6);
    expect(resolveServeConfig([], { OPTIONSCOPE_GROUP_COMMIT_MS: "0" }).groupCommitMs).toBe(0);
    expect(resolveServeConfig(["--group-commit-ms", "1.5"], { OPTIONSCOPE_GROUP_COMMIT_MS: "9" }).groupCommitMs).toBe(1.5);
  });

  it("refuses anything but 0-1000 ms, naming the flag and the allowed values", () => {
    for (const bad of ["-1", "1001", "soon", "Infinity"]) {
      expect(() => resolveServeConfig([`--group-commit-ms=${bad}`], {})).toThrow(
        /--group-commit-ms \/ OPTIONSCOPE_GROUP_COMMIT_MS: .*expected a number of milliseconds from 0 to 1000/,
      );
    }
    expect(() => resolveServeConfig([], { OPTIONSCOPE_GROUP_COMMIT_MS: "2000" })).toThrow(/OPTIONSCOPE_GROUP_COMMIT_MS: 2000/);
  });
});
