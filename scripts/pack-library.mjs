// The library package as npm publishes it (issue 32): staged from a build's dist/lib and dist/wasm
// with the library's manifest, packed with `npm pack`, installed into an empty project the way a
// user installs it. Used by scripts/measure-package.mjs and the package tests' global setup.
//
//   node scripts/pack-library.mjs [--build-dir dist] [--out DIR]   # prints { tarball, consumer }
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** What the library package ships: its two build folders and the two files npm shows. */
const LIBRARY_FILES = ["dist/lib", "dist/wasm", "README.md", "LICENSE"];

function sh(cmd, args, cwd) {
  return execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 << 20 });
}

function jsFiles(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...jsFiles(p));
    else if (/\.c?js$/.test(e.name)) out.push(p);
  }
  return out;
}

/** Bare specifiers the built library imports or requires (its runtime dependencies). */
export function bareImports(distDir) {
  const found = new Set();
  for (const f of jsFiles(distDir)) {
    for (const m of readFileSync(f, "utf8").matchAll(/(?:from\s*|import\s*\(\s*|require\s*\(\s*)["']([^."'][^"']*)["']/g)) {
      const spec = m[1];
      found.add(spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]);
    }
  }
  return found;
}

/**
 * The library's manifest from the repository's package.json: the library's fields and exports,
 * and of its dependencies only those the built library imports (the server's stay out).
 */
export function libraryManifest(pkg, imports) {
  const keep = ["name", "version", "description", "license", "type", "engines", "main", "module", "types", "sideEffects", "keywords", "repository", "homepage"];
  const out = Object.fromEntries(keep.filter((k) => pkg[k] !== undefined).map((k) => [k, pkg[k]]));
  out.exports = Object.fromEntries(Object.entries(pkg.exports).filter(([k]) => k !== "./server"));
  out.files = LIBRARY_FILES;
  // Node's builds load `optionscope/client/schemas` by the package's own name (scripts/build-lib.mjs).
  const external = new Set([...imports].filter((name) => name !== pkg.name));
  const deps = Object.entries(pkg.dependencies ?? {}).filter(([name]) => external.has(name));
  const missing = [...external].filter((name) => !pkg.dependencies?.[name]);
  if (missing.length > 0) throw new Error(`the library imports ${missing.join(", ")}, which package.json does not list as dependencies`);
  if (deps.length > 0) out.dependencies = Object.fromEntries(deps);
  return out;
}

/** Stages the package in `stageDir` from a build folder (the one holding lib/ and wasm/). */
export function stageLibrary(buildDir, stageDir) {
  rmSync(stageDir, { recursive: true, force: true });
  mkdirSync(join(stageDir, "dist"), { recursive: true });
  for (const d of ["lib", "wasm"]) cpSync(join(buildDir, d), join(stageDir, "dist", d), { recursive: true });
  for (const f of ["README.md", "LICENSE"]) if (existsSync(join(root, f))) cpSync(join(root, f), join(stageDir, f));
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  writeFileSync(join(stageDir, "package.json"), `${JSON.stringify(libraryManifest(pkg, bareImports(join(buildDir, "lib"))), null, 2)}\n`);
  return stageDir;
}

/** `npm pack` of a folder: tarball path, packed and unpacked sizes, largest .d.ts, source-map bytes. */
export function pack(pkgDir, dest) {
  mkdirSync(dest, { recursive: true });
  const [info] = JSON.parse(sh("npm", ["pack", "--json", "--pack-destination", dest], pkgDir));
  const dts = info.files.filter((f) => /\.d\.c?ts$/.test(f.path)).sort((a, b) => b.size - a.size);
  const maps = info.files.filter((f) => f.path.endsWith(".map"));
  return {
    tarball: join(dest, info.filename),
    packedBytes: info.size,
    unpackedBytes: info.unpackedSize,
    files: info.entryCount,
    largestDts: dts[0] ? { path: dts[0].path, bytes: dts[0].size } : null,
    sourceMapBytes: maps.reduce((s, f) => s + f.size, 0),
  };
}

function duBytes(dir) {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) total += duBytes(p);
    else if (e.isFile()) total += statSync(p).size;
  }
  return total;
}

/** Installs a tarball into a new empty project; counts what came with it. */
export function installInto(tarball, dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  // Scripts are skipped (a native build would fail offline); `hasInstallScript` names what would build.
  sh("npm", ["install", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error", tarball], dir);
  const lock = JSON.parse(readFileSync(join(dir, "package-lock.json"), "utf8"));
  const pkgs = Object.entries(lock.packages).filter(([k]) => k !== "");
  return {
    packages: pkgs.length,
    nativeBuilds: pkgs.filter(([, v]) => v.hasInstallScript).map(([k]) => k.replace(/^node_modules\//, "")),
    bytes: duBytes(join(dir, "node_modules")),
  };
}

/** Stage, pack and install: what the package tests and the measurements start from. */
export function packAndInstall(buildDir, outDir) {
  const packed = pack(stageLibrary(buildDir, join(outDir, "stage")), outDir);
  const consumer = join(outDir, "consumer");
  const installed = installInto(packed.tarball, consumer);
  return { stage: join(outDir, "stage"), consumer, packed, installed };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { "build-dir": { type: "string" }, out: { type: "string" } } });
  const r = packAndInstall(resolve(values["build-dir"] ?? join(root, "dist")), resolve(values.out ?? join(root, ".vitest", "package-pack")));
  console.log(JSON.stringify(r, null, 2));
}
