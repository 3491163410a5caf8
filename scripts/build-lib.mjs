// The library's package build (issue 32): one output file per source module, so a consumer's
// bundler drops every module a page does not reach (`sideEffects: false`) and Node loads only the
// graph an import needs. ESM (`.js`), CJS (`.cjs`) and declarations per module (`.d.ts`, `.d.cts`),
// the server entry's declarations included (`buildServerDts`).
//
//   node scripts/build-lib.mjs [--out-dir dist] [--no-dts]
//
// Why per-module output rather than esbuild's `splitting`: splitting merges modules into shared
// chunks (one chunk per set of entries that reach them) and exists only for ESM, so a consumer's
// bundler sees big chunks whose unused statements it must prove side-effect-free one by one; per
// module, an unused file is skipped whole (docs/methodology.md#package-budgets).
// Relative imports are rewritten to the emitted file (`./time` -> `./time/index.js`) because
// Node's ESM loader and TypeScript's `nodenext` need full paths; `zod` stays an import.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** Source folders of the library (`lib/` imports the inline WASM from `wasm/`). */
const SOURCES = ["lib", "wasm"];

function sourceFiles(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (e.name.endsWith(".ts") && !e.name.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

/** `./x` from `fromDir` -> `./x.ext` or `./x/index.ext`, as the source tree has it. */
function withExtension(spec, fromDir, ext) {
  const abs = resolve(fromDir, spec);
  if (existsSync(`${abs}.ts`)) return `${spec}${ext}`;
  if (existsSync(join(abs, "index.ts"))) return `${spec.replace(/\/$/, "")}/index${ext}`;
  throw new Error(`cannot resolve ${spec} from ${relative(root, fromDir)}`);
}

/** Marks every import external: relative ones rewritten to the sibling output file. */
function perModule(ext) {
  return {
    name: "per-module",
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === "entry-point") return undefined;
        if (!args.path.startsWith(".")) return { path: args.path, external: true };
        return { path: withExtension(args.path, args.resolveDir, ext), external: true };
      });
    },
  };
}

async function buildJs(entryPoints, outDir, format) {
  const ext = format === "esm" ? ".js" : ".cjs";
  await build({
    entryPoints,
    outdir: outDir,
    outbase: root,
    bundle: true,
    format,
    platform: "neutral",
    target: "es2022",
    outExtension: { ".js": ext },
    plugins: [perModule(ext)],
    logLevel: "warning",
    // Library modules build their tables and schemas on first use; what stays at module level is
    // annotated pure, so esbuild keeps those annotations for the consumer's bundler.
    ignoreAnnotations: false,
  });
}

const tsc = join(root, "node_modules/typescript-native/bin/tsc");

/** A declaration's relative specifiers with the emitted file's extension (`ext`: ".js" or ".cjs"). */
function withExtensions(text, srcDir, ext) {
  return text.replace(/(from\s+|import\s*\(\s*|import\s+)(["'])(\.{1,2}\/[^"']*)\2/g, (_m, pre, q, spec) => `${pre}${q}${withExtension(spec, srcDir, ext)}${q}`);
}

/** `file` (a .d.ts emitted from the source file at `srcFile`) written to `target` and its .d.cts twin. */
function writeDeclarationPair(file, srcFile, target) {
  const text = readFileSync(file, "utf8");
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, withExtensions(text, dirname(srcFile), ".js"));
  writeFileSync(target.replace(/\.d\.ts$/, ".d.cts"), withExtensions(text, dirname(srcFile), ".cjs"));
}

/** Declarations per module: tsc emits .d.ts; specifiers get extensions; .d.cts twins for require. */
function buildDts(outDir) {
  execFileSync(process.execPath, [tsc, "-p", join(root, "tsconfig.lib.json"), "--outDir", outDir], { cwd: root, stdio: "inherit" });
  for (const dir of SOURCES) {
    for (const file of declFiles(join(outDir, dir))) writeDeclarationPair(file, join(root, relative(outDir, file)), file);
  }
}

/**
 * The server entry's declarations, per module like the library's (`dist/server/**`, behind
 * `dist/server.d.ts`), from TypeScript's native compiler: a bundled .d.ts from tsup took about a
 * minute of CPU, most of the package build. Emitted to a temporary folder because the emit also
 * holds lib/ declarations, which the library build has already written with its stricter config.
 */
export function buildServerDts(outDir) {
  const tmp = mkdtempSync(join(tmpdir(), "optionscope-server-dts-"));
  try {
    execFileSync(process.execPath, [tsc, "-p", join(root, "tsconfig.server.json"), "--outDir", tmp], { cwd: root, stdio: "inherit" });
    for (const file of declFiles(join(tmp, "server"))) {
      const rel = relative(tmp, file);
      writeDeclarationPair(file, join(root, rel), join(outDir, rel));
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  writeFileSync(join(outDir, "server.d.ts"), 'export * from "./server/index.js";\n');
  writeFileSync(join(outDir, "server.d.cts"), 'export * from "./server/index.cjs";\n');
}

function declFiles(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...declFiles(p));
    else if (p.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

export async function buildLib(outDir, { dts = true } = {}) {
  for (const dir of SOURCES) rmSync(join(outDir, dir), { recursive: true, force: true });
  const entryPoints = SOURCES.flatMap((d) => sourceFiles(join(root, d)));
  await Promise.all([buildJs(entryPoints, outDir, "esm"), buildJs(entryPoints, outDir, "cjs")]);
  if (dts) {
    buildDts(outDir);
    buildServerDts(outDir);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { "out-dir": { type: "string" }, "no-dts": { type: "boolean" } } });
  await buildLib(resolve(values["out-dir"] ?? join(root, "dist")), { dts: !values["no-dts"] });
}
