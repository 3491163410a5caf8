// Issue 32: the library as a user gets it. Packs the package, installs the tarball into an empty
// project, bundles each budget's import with esbuild (minified, browser, gzip), times Node's cold
// import and the first `exposureGrid` on a 20,000-contract chain (fresh processes), and times a
// strict consumer `tsc --noEmit` (no skipLibCheck). Prints each figure against the target.
//
//   node scripts/measure-package.mjs [--build-dir dist] [--pkg DIR] [--tarball FILE] [--runs 5] [--skip-tsc] [--keep]
//
// --build-dir: a build's output (lib/ and wasm/ from scripts/build-lib.mjs; default dist, so
// `npm run build` first), staged as the library package (scripts/pack-library.mjs); --pkg: pack
// this folder as it is instead (e.g. an older checkout); --tarball: measure this tarball. Times are from whatever machine runs
// it: on a loaded one they are upper bounds (docs/methodology.md#package-budgets).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { installInto, pack, stageLibrary } from "./pack-library.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The numbers (sizes in bytes, gzip; times in ms). */
export const TARGETS = {
  installPackages: 6,
  installBytes: 5 * 1024 * 1024,
  nativeBuilds: 0,
  bundles: { impliedVol: 10 * 1024, heatmap: 45 * 1024, client: 25 * 1024, whole: 150 * 1024 },
  coldImportMs: 150,
  firstExposureGridMs: 60,
  consumerTscMs: 5000,
};

/** What each budget imports, as a consumer page would. */
export const BUNDLES = {
  impliedVol: 'export { impliedVol } from "optionscope";',
  heatmap: 'export { loadKernels, exposureGrid, heatmapFrame, classifyNodes } from "optionscope";',
  client: 'export { createClient } from "optionscope";',
  whole: 'export * from "optionscope";',
};

/** esbuild bundle of one budget's import from the consumer project: minified and gzip bytes. */
export async function bundleSize(consumerDir, contents) {
  const out = await build({
    stdin: { contents, resolveDir: consumerDir, loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  const bytes = out.outputFiles[0].contents;
  return { minBytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
}

// Runs in a fresh Node process inside the consumer project: the cold import, then the first
// exposureGrid (kernels loaded on that call) on a 40 x 250 x 2 = 20,000-contract chain.
const PROBE = `
const t0 = performance.now();
const lib = await import("optionscope");
const t1 = performance.now();
const nExp = 40, nStrikes = 250, n = nExp * nStrikes * 2, asOfMs = Date.UTC(2025, 2, 5, 16);
const strikes = Float64Array.from({ length: nStrikes }, (_, i) => 5200 + 5 * i);
const c = { strikeIndex: new Int32Array(n), expIndex: new Int32Array(n), right: new Uint8Array(n), oi: new Float64Array(n),
  bid: new Float64Array(n), ask: new Float64Array(n), last: new Float64Array(n), iv: new Float64Array(n), volume: new Float64Array(n) };
const expirations = [], expirySettleMs = [];
for (let e = 0; e < nExp; e++) {
  const ms = asOfMs + (e * 7 + 1) * 86400000;
  expirations.push(new Date(ms).toISOString().slice(0, 10)); expirySettleMs.push(ms);
}
let r = 0;
for (let e = 0; e < nExp; e++) for (let s = 0; s < nStrikes; s++) for (const right of [0, 1]) {
  c.strikeIndex[r] = s; c.expIndex[r] = e; c.right[r] = right; c.oi[r] = 100 + ((r * 7919) % 5000); c.iv[r] = 0.15 + 0.0002 * Math.abs(s - 125); r++;
}
const chain = { symbol: "SPXW", underlying: "SPX", asOfMs, sessionDate: "2025-03-05", spot: 5800, rate: 0.043, dividendYield: 0.013,
  simulated: true, expirations, expirySettleMs, strikes, ...c };
const t2 = performance.now();
const grid = lib.exposureGrid(chain, { metric: "gamma" }, await lib.loadKernels());
const t3 = performance.now();
if (!(grid.net.length > 0)) throw new Error("empty grid");
process.stdout.write(JSON.stringify({ importMs: t1 - t0, firstGridMs: t3 - t2 }));
`;

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Median over `runs` fresh processes of the cold import and the first exposureGrid. */
export function nodeTimes(consumerDir, runs) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", PROBE], { cwd: consumerDir, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`probe failed: ${r.stderr}`);
    samples.push(JSON.parse(r.stdout));
  }
  return { importMs: median(samples.map((s) => s.importMs)), firstGridMs: median(samples.map((s) => s.firstGridMs)) };
}

/** A consumer's strict `tsc --noEmit` (no skipLibCheck) over a file that uses the whole surface. */
export function consumerTsc(consumerDir) {
  writeFileSync(
    join(consumerDir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, skipLibCheck: false, module: "nodenext", moduleResolution: "nodenext", target: "es2022", types: [] },
      files: ["use.ts"],
    }),
  );
  writeFileSync(
    join(consumerDir, "use.ts"),
    'import * as os from "optionscope";\nconst r: os.ImpliedVolResult = os.impliedVol({ price: 5, spot: 100, strike: 100, tYears: 0.25, rate: 0, dividendYield: 0, right: "C" });\nexport const keys: string[] = [String(r.ok), ...Object.keys(os)];\n',
  );
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [join(repo, "node_modules/typescript-native/bin/tsc"), "-p", consumerDir], { encoding: "utf8" });
  return { ms: performance.now() - t0, ok: r.status === 0, errors: r.stdout.split("\n").slice(0, 10).join("\n") };
}

const kb = (b) => `${(b / 1024).toFixed(1)} KB`;
const row = (name, value, target, pass) => console.log(`${pass ? "PASS" : "FAIL"}  ${name.padEnd(44)} ${String(value).padStart(12)}  (target ${target})`);

async function main() {
  const { values } = parseArgs({
    options: {
      "build-dir": { type: "string" },
      pkg: { type: "string" },
      tarball: { type: "string" },
      runs: { type: "string" },
      "skip-tsc": { type: "boolean" },
      keep: { type: "boolean" },
    },
  });
  const work = mkdtempSync(join(tmpdir(), "optionscope-measure-"));
  try {
    let tarball = values.tarball && resolve(values.tarball);
    if (!tarball) {
      const pkgDir = values.pkg ? resolve(values.pkg) : stageLibrary(resolve(values["build-dir"] ?? join(repo, "dist")), join(work, "stage"));
      const p = pack(pkgDir, work);
      tarball = p.tarball;
      console.log(`packed: ${kb(p.packedBytes)} (${kb(p.unpackedBytes)} unpacked, ${p.files} files), source maps ${kb(p.sourceMapBytes)}`);
      if (p.largestDts) console.log(`largest declaration file: ${p.largestDts.path} ${kb(p.largestDts.bytes)}`);
    }
    const consumer = join(work, "consumer");
    const inst = installInto(tarball, consumer);
    row("install: packages", inst.packages, `<= ${TARGETS.installPackages}`, inst.packages <= TARGETS.installPackages);
    row("install: native builds", inst.nativeBuilds.length, `${TARGETS.nativeBuilds}`, inst.nativeBuilds.length === 0);
    if (inst.nativeBuilds.length) console.log(`      (${inst.nativeBuilds.join(", ")})`);
    row("install: node_modules on disk", `${(inst.bytes / 1048576).toFixed(2)} MB`, "<= 5 MB", inst.bytes <= TARGETS.installBytes);
    for (const [name, code] of Object.entries(BUNDLES)) {
      const b = await bundleSize(consumer, code);
      row(`bundle ${name} (min ${kb(b.minBytes)})`, `${kb(b.gzipBytes)} gz`, `<= ${kb(TARGETS.bundles[name])}`, b.gzipBytes <= TARGETS.bundles[name]);
    }
    const t = nodeTimes(consumer, Number(values.runs ?? 5));
    row("node: cold import (median)", `${t.importMs.toFixed(0)} ms`, `<= ${TARGETS.coldImportMs} ms`, t.importMs <= TARGETS.coldImportMs);
    row(
      "node: first exposureGrid 20k, cold (median)",
      `${t.firstGridMs.toFixed(0)} ms`,
      `<= ${TARGETS.firstExposureGridMs} ms`,
      t.firstGridMs <= TARGETS.firstExposureGridMs,
    );
    if (!values["skip-tsc"]) {
      const c = consumerTsc(consumer);
      // The library vendors zod's declarations: the consumer must type-check without zod installed.
      const zod = existsSync(join(consumer, "node_modules", "zod")) ? ", zod installed" : ", no zod";
      row(`consumer tsc --noEmit strict${zod}${c.ok ? "" : " (ERRORS)"}`, `${(c.ms / 1000).toFixed(1)} s`, "<= 5 s", c.ok && c.ms <= TARGETS.consumerTscMs);
      if (!c.ok) console.log(c.errors);
    }
    console.log(`load average: ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")} (times are upper bounds on a loaded machine)`);
  } finally {
    if (values.keep) console.log(`kept: ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
