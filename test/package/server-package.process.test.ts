import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PackResult, waitForPackage } from "./_wait";

// Issue 32, two packages: the server package (@optionscope/server) packed from the build the
// global setup made, installed with the library's tarball into an empty project the way a host
// installs it, and its `optionscope` command run from there (docs/operations.md#install-the-server).
// One install and one server for the file.
const run = promisify(execFile);
const root = join(__dirname, "..", "..");
const readJson = (p: string) => JSON.parse(readFileSync(p, "utf8"));
const serverPkg = readJson(join(root, "server", "package.json"));
const libraryPkg = readJson(join(root, "package.json"));

/** Package names installed in a project, from its lockfile (`node_modules/a/node_modules/b` -> `b`). */
function installedNames(project: string): Set<string> {
  const lock = readJson(join(project, "package-lock.json"));
  return new Set(Object.keys(lock.packages).map((k) => k.replace(/^.*node_modules\//, "")));
}

describe("the server package installed from its tarball beside the library's", () => {
  let pack: PackResult;
  let host: string;
  let dataDir: string;
  let cli: string;
  let child: ChildProcess | undefined;
  let origin: string;
  let key: string;
  const env = () => ({ ...process.env, OPTIONSCOPE_DATA_DIR: dataDir, OPTIONSCOPE_NOW: "2024-03-06T15:00:00Z", PORT: "0" });

  beforeAll(async () => {
    const build = await waitForPackage();
    pack = build.pack;
    // The pages' prebuilt scripts, which `npm run build` writes beside the server's entries (the
    // global setup builds only the entries and the library).
    await run(process.execPath, [join(root, "node_modules/tsx/dist/cli.mjs"), "scripts/build-page-scripts.ts", build.outDir, "heatmap-app.js"], { cwd: root });
    const out = mkdtempSync(join(tmpdir(), "optionscope-server-pack-"));
    const packed = await run(process.execPath, ["scripts/pack-server.mjs", "--build-dir", build.outDir, "--out", out], { cwd: root, encoding: "utf8" });
    const server: { tarball: string } = JSON.parse(packed.stdout);
    host = join(out, "host");
    dataDir = join(out, "data");
    mkdirSync(host);
    mkdirSync(dataDir);
    writeFileSync(join(host, "package.json"), JSON.stringify({ name: "host", private: true, type: "module" }));
    // Install scripts skipped: the only one that matters, the SQLite driver's, looks for the prebuilt
    // binary it ships, which the driver also does when loaded (server/sqlite.ts).
    await run("npm", ["install", "--ignore-scripts", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", pack.packed.tarball, server.tarball], {
      cwd: host,
      maxBuffer: 16 << 20,
    });
    cli = join(host, "node_modules", ".bin", "optionscope");
    // A key made the way the CLI tests make one: `optionscope account create --json` on the data dir.
    const created = await run(cli, ["account", "create", "--plan", "top", "--credits", "100", "--json"], { cwd: host, env: env(), encoding: "utf8" });
    key = JSON.parse(created.stdout).key;
    const proc = spawn(cli, ["serve", "--hostname", "127.0.0.1", "--no-access-log", "--no-daily-fill"], { cwd: host, env: env() });
    child = proc;
    let stderr = "";
    origin = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no listening line:\n${stderr}`)), 120_000);
      proc.stderr?.on("data", (d) => {
        stderr += d;
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      proc.on("exit", (code) => reject(new Error(`serve exited ${code}:\n${stderr}`)));
    });
  }, 900_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child?.on("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    if (host) rmSync(join(host, ".."), { recursive: true, force: true });
  });

  it("the installed `optionscope serve` answers /v1/heatmap on a free loopback port", async () => {
    const res = await fetch(`${origin}/v1/heatmap?symbols=SPY`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.data.symbols[0].symbol).toBe("SPY");
    expect(body.data.symbols[0].strikes.length).toBeGreaterThan(10);
    expect(body.meta).toMatchObject({ mode: "live", simulated: true });
  });

  it("serves the heatmap page's prebuilt script (the host has no esbuild to build it)", async () => {
    expect(existsSync(join(host, "node_modules", "esbuild"))).toBe(false);
    const res = await fetch(`${origin}/heatmap/app.js`);
    expect(res.status).toBe(200);
    expect((await res.text()).length).toBeGreaterThan(10_000);
  });

  it("serves the API reference page's Redoc script from its own build (redoc's ~100 packages are not installed)", async () => {
    expect(existsSync(join(host, "node_modules", "redoc"))).toBe(false);
    const res = await fetch(`${origin}/docs/redoc.standalone.js`);
    expect(res.status).toBe(200);
    const js = await res.text();
    expect(js.length).toBeGreaterThan(500_000);
    expect(js).toContain("Redoc");
    expect(existsSync(join(host, "node_modules", "@optionscope", "server", "dist", "web", "redoc.standalone.js.LICENSE"))).toBe(true);
  });

  it("reports the released version: the server package's, equal to the library's", async () => {
    const { stdout } = await run(cli, ["--version"], { cwd: host, encoding: "utf8" });
    expect(stdout.trim()).toBe(`optionscope ${libraryPkg.version}`);
    const installed = readJson(join(host, "node_modules", "@optionscope", "server", "package.json"));
    expect(installed.dependencies.optionscope).toBe(libraryPkg.version);
  });

  it("the library's tarball alone pulls none of the server's dependencies", () => {
    // The library's own runtime dependencies (package.json `dependencies`) may be shared; nothing else.
    const serverOnly = Object.keys(serverPkg.dependencies).filter((name) => name !== "optionscope" && !libraryPkg.dependencies?.[name]);
    expect(serverOnly).toContain("h3");
    const libraryAlone = installedNames(pack.consumer);
    expect(serverOnly.filter((name) => libraryAlone.has(name))).toEqual([]);
    const withServer = installedNames(host);
    expect(serverOnly.filter((name) => !withServer.has(name))).toEqual([]);
  });
});
