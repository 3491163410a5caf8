// The library's package build (issue 32; docs/methodology.md#package-budgets). Four outputs in dist/:
// - `lib/**.js`, `wasm/**.js`: ESM, one file per source module, for bundlers (the `import`
//   condition's `default`): a consumer's bundler drops every module a page does not reach
//   (`sideEffects: false`). Relative imports are rewritten to the emitted file (`./time` ->
//   `./time/index.js`, as Node and TypeScript's `nodenext` need); `zod` to the vendored copy.
// - `lib/vendor/zod.js`: the zod the library uses, bundled into one ESM file (only the members the
//   library's modules read, the `en` locale only): the package has no runtime dependency.
// - `lib/node/*.js`: Node's ESM (the `node` condition): the root entry and `client/schemas`
//   bundled with a shared chunk, the other subpaths re-exporting the root's bindings, all in one
//   folder so that the vendored zod is `../vendor/zod.js` from each. A cold `import` reads a few
//   files instead of ~320 (each file costs Node more than its code does).
// - `lib/node/all.cjs`: CJS, the whole library in one file; each entry's `.cjs` (`require`
//   condition) is a one-line stub taking its namespace from it, so `require`d subpaths share one
//   copy too.
// Declarations are per module (`.d.ts`, `.d.cts` twins), their `zod` specifiers rewritten to
// zod's own declaration files shipped in `lib/vendor/zod/` (what they reach, with zod's licence):
// a consumer type-checks without zod installed.
//
//   node scripts/build-lib.mjs [--out-dir dist] [--no-dts]
//
// Per-module output rather than splitting for bundlers: split chunks merge modules and keep their
// top-level calls, so a page's bundle grows (docs/methodology.md#package-budgets).
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** Source folders of the library (`lib/` imports the inline WASM from `wasm/`). */
const SOURCES = ["lib", "wasm"];
const zodDir = join(root, "node_modules", "zod");
/** Where the vendored zod lives in the build, relative to the build folder. */
const VENDOR_ZOD_JS = "lib/vendor/zod.js";
const VENDOR_ZOD_TYPES = "lib/vendor/zod";

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

/** A relative specifier from the folder `fromDir` to `target` (both absolute). */
function relativeSpecifier(fromDir, target) {
  const r = relative(fromDir, target).split(sep).join("/");
  return r.startsWith(".") ? r : `./${r}`;
}

/** The package's export entries from package.json: subpath, source file, Node build's file name, CJS stub (in dist/). */
function exportEntries() {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const out = [];
  for (const [subpath, e] of Object.entries(pkg.exports)) {
    const esm = e?.import?.default;
    if (typeof esm !== "string" || !esm.startsWith("./dist/lib/")) continue;
    const rel = esm.slice("./dist/".length).replace(/\.js$/, "");
    const node = e.import.node;
    if (typeof node !== "string" || !/^\.\/dist\/lib\/node\/[\w-]+\.js$/.test(node)) {
      throw new Error(`package.json exports["${subpath}"].import.node: expected ./dist/lib/node/<name>.js`);
    }
    const cjs = e.require?.default?.slice("./dist/".length);
    out.push({ subpath, source: join(root, `${rel}.ts`), node: node.slice("./dist/lib/node/".length, -".js".length), cjs });
  }
  return out;
}

/** The members of zod the library's modules read (`z.object`, `z.iso`, ...) that zod exports at run time. */
async function zodMembersUsed() {
  const runtime = new Set(Object.keys(await import(join(zodDir, "index.js"))));
  const used = new Set();
  for (const file of SOURCES.flatMap((d) => sourceFiles(join(root, d)))) {
    const text = readFileSync(file, "utf8");
    // Namespace imports only: a named import would need its own export from the vendored file.
    if (/from "zod/.test(text) && !/^import (type )?\* as z from "zod";$/m.test(text)) throw new Error(`${file}: import zod as \`import * as z from "zod"\``);
    if (!/^import \* as z from "zod";$/m.test(text)) continue;
    for (const m of text.matchAll(/\bz\.([A-Za-z_$][\w$]*)/g)) if (runtime.has(m[1])) used.add(m[1]);
  }
  return [...used].sort();
}

/** dist/lib/vendor/zod.js: those members of zod, one ESM file (zod's pure annotations kept for bundlers). */
async function buildVendorZod(outDir) {
  const names = await zodMembersUsed();
  const zodVersion = JSON.parse(readFileSync(join(zodDir, "package.json"), "utf8")).version;
  await build({
    stdin: { contents: `export { ${names.join(", ")} } from "zod";\n`, resolveDir: root, loader: "js", sourcefile: "vendor-zod.js" },
    outfile: join(outDir, VENDOR_ZOD_JS),
    banner: { js: `// zod ${zodVersion} (MIT licence: ./zod/LICENSE): the members optionscope uses, bundled by its build.` },
    bundle: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    target: "es2022",
    // Syntax only: whitespace minification drops zod's `/*@__PURE__*/` annotations, which let a
    // consumer's bundler drop the schema classes a page does not reach.
    minifySyntax: true,
    legalComments: "none",
    logLevel: "warning",
  });
  mkdirSync(join(outDir, VENDOR_ZOD_TYPES), { recursive: true });
  copyFileSync(join(zodDir, "LICENSE"), join(outDir, VENDOR_ZOD_TYPES, "LICENSE"));
}

/** Per-module ESM: every import external; relative ones rewritten to the sibling file, zod to the vendored file. */
function perModule(outDir) {
  return {
    name: "per-module",
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === "entry-point") return undefined;
        if (args.path === "zod") {
          const emittedDir = join(outDir, relative(root, args.resolveDir));
          return { path: relativeSpecifier(emittedDir, join(outDir, VENDOR_ZOD_JS)), external: true };
        }
        if (!args.path.startsWith(".")) throw new Error(`${relative(root, args.importer)} imports ${args.path}: the library has no runtime dependency`);
        return { path: withExtension(args.path, args.resolveDir, ".js"), external: true };
      });
    },
  };
}

async function buildEsmPerModule(entryPoints, outDir) {
  await build({
    entryPoints,
    outdir: outDir,
    outbase: root,
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    plugins: [perModule(outDir)],
    logLevel: "warning",
    // Library modules build their tables and schemas on first use; what stays at module level is
    // annotated pure, so esbuild keeps those annotations for the consumer's bundler.
    ignoreAnnotations: false,
  });
}

/**
 * Node's builds load the client's schema table (`validateResponses: true`) through the package's
 * own `client/schemas` entry (a self-reference), since the per-module sibling file the source
 * names is not beside their chunks; so the table is the one `optionscope/client/schemas` gives.
 */
function schemaTableBySelfReference() {
  const pkgName = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).name;
  const source = 'const SCHEMAS_MODULE = "./operation-schemas.generated.js";';
  return {
    name: "schema-table-self-reference",
    setup(b) {
      b.onLoad({ filter: /[\\/]lib[\\/]client[\\/]create-client\.ts$/ }, (args) => {
        const text = readFileSync(args.path, "utf8");
        if (!text.includes(source)) throw new Error(`${args.path}: expected \`${source}\` (scripts/build-lib.mjs rewrites it for Node's builds)`);
        return { contents: text.replace(source, `const SCHEMAS_MODULE = "${pkgName}/client/schemas";`), loader: "ts" };
      });
    },
  };
}

/** Each entry's run-time export names (source path -> names), from a bundle esbuild does not write. */
async function entryExports(entries) {
  const { metafile } = await build({
    entryPoints: entries.map((e) => e.source),
    outdir: join(tmpdir(), "optionscope-entry-exports"),
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "neutral",
    external: ["zod"],
    write: false,
    metafile: true,
    logLevel: "warning",
  });
  const outputs = Object.values(metafile.outputs).filter((o) => o.entryPoint);
  return new Map(outputs.map((o) => [resolve(root, o.entryPoint), o.exports]));
}

/**
 * Node's ESM in dist/lib/node/: the root entry and each entry that exports a name the root does not
 * (`client/schemas`) bundled with `splitting` (their shared modules in one chunk); every other
 * entry is a file re-exporting its names from the root's (the root re-exports each area, so these
 * are the same objects: test/package/consumer.test.ts), and a subpath costs Node what the root does.
 * All files sit in one folder, the vendored zod `../vendor/zod.js` from each. Each file Node loads
 * costs far more than its code: a few files instead of ~300 (docs/methodology.md#package-budgets).
 */
async function buildNodeEsm(outDir, entries, exportsOf, own) {
  const names = (e) => exportsOf.get(e.source);
  const rootEntry = entries.find((e) => e.subpath === ".");
  await build({
    entryPoints: own.map((e) => ({ in: e.source, out: e.node })),
    outdir: join(outDir, "lib", "node"),
    chunkNames: "chunk-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "es2022",
    // Whitespace and syntax, not names: stack traces keep the library's function names.
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: "none",
    plugins: [
      schemaTableBySelfReference(),
      { name: "vendored-zod", setup: (b) => b.onResolve({ filter: /^zod$/ }, () => ({ path: "../vendor/zod.js", external: true })) },
    ],
    logLevel: "warning",
  });
  for (const e of entries.filter((x) => !own.includes(x))) {
    writeFileSync(join(outDir, "lib", "node", `${e.node}.js`), `export { ${names(e).join(", ")} } from "./${rootEntry.node}.js";\n`);
  }
}

/**
 * The CJS build: dist/lib/node/all.cjs (every entry's namespace, by subpath) and a stub per entry's
 * `.cjs`. An entry beyond the root's names (`client/schemas`) is `require`d on first access, so its
 * modules are initialised then (esbuild wraps them), still one copy shared with the root's.
 */
async function buildCjs(outDir, entries, lazy) {
  const all = join(outDir, "lib", "node", "all.cjs");
  const eager = entries.filter((e) => !lazy.includes(e));
  const contents = [
    ...eager.map((e, i) => `import * as e${i} from ${JSON.stringify(e.source)};`),
    `const entries = { ${eager.map((e, i) => `${JSON.stringify(e.subpath)}: e${i}`).join(", ")} };`,
    // `__esModule` as esbuild's per-file CJS had it, for transpiled `import x from` interop (a
    // `require`d module has it already).
    'for (const ns of Object.values(entries)) Object.defineProperty(ns, "__esModule", { value: true });',
    ...lazy.map((e) => {
      const load = `require(${JSON.stringify(e.source)})`;
      return `{ let m; Object.defineProperty(entries, ${JSON.stringify(e.subpath)}, { enumerable: true, get: () => (m ??= ${load}) }); }`;
    }),
    "export { entries };",
  ].join("\n");
  await build({
    stdin: { contents, resolveDir: root, loader: "js", sourcefile: "optionscope-cjs.js" },
    outfile: all,
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "es2022",
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: "none",
    plugins: [schemaTableBySelfReference()],
    logLevel: "warning",
  });
  for (const e of entries) {
    if (!e.cjs) continue;
    const stub = join(outDir, e.cjs);
    mkdirSync(dirname(stub), { recursive: true });
    writeFileSync(stub, `"use strict";\nmodule.exports = require(${JSON.stringify(relativeSpecifier(dirname(stub), all))}).entries[${JSON.stringify(e.subpath)}];\n`);
  }
}

const tsc = join(root, "node_modules/typescript-native/bin/tsc");

/** zod's declaration file for `zod` or `zod/<sub>` (zod's `exports` map, `types` condition), relative to zod's folder. */
function zodTypesFile(spec) {
  const exports = JSON.parse(readFileSync(join(zodDir, "package.json"), "utf8")).exports;
  const types = exports[spec === "zod" ? "." : `./${spec.slice("zod/".length)}`]?.types;
  if (typeof types !== "string") throw new Error(`no declarations for ${spec} in zod's exports`);
  return types.slice(2);
}

/**
 * A declaration's specifiers as the package ships them: relative ones with the emitted file's
 * extension (`ext`: ".js" or ".cjs"); `zod` and `zod/<sub>`, when `vendorFrom` (the declaration's
 * folder in the build) is given, to the vendored copy of zod's declaration file (`zodTypes` collects
 * which were used).
 */
function withExtensions(text, srcDir, ext, vendorFrom, zodTypes) {
  if (vendorFrom) text = zodImportTypesAliased(text);
  return text.replace(/(from\s+|import\s*\(\s*|import\s+)(["'])(\.{1,2}\/[^"']*|zod(?:\/[^"']*)?)\2/g, (_m, pre, q, spec) => {
    if (!spec.startsWith(".")) {
      if (!vendorFrom) return `${pre}${q}${spec}${q}`;
      const file = zodTypesFile(spec);
      zodTypes.add(file);
      // `x.d.cts` is imported as `x.cjs` (zod's declarations are CommonJS-format, so they serve both).
      return `${pre}${q}${relativeSpecifier(vendorFrom.dir, join(vendorFrom.zod, file.replace(/\.d\.cts$/, ".cjs")))}${q}`;
    }
    return `${pre}${q}${withExtension(spec, srcDir, ext)}${q}`;
  });
}

/**
 * tsc writes each zod type as an import type, `import("zod").ZodObject<...>` (thousands of times in
 * the client's schema table): each becomes `$zod.ZodObject<...>` with one `import type * as $zod`
 * at the top, so the longer vendored path is written once and the file is smaller than before.
 */
function zodImportTypesAliased(text) {
  const aliases = new Map();
  const body = text.replace(/import\((["'])(zod(?:\/[\w/-]*)?)\1\)\./g, (_m, _q, spec) => {
    if (!aliases.has(spec)) aliases.set(spec, `$${spec.replace(/[^\w]/g, "_")}`);
    return `${aliases.get(spec)}.`;
  });
  for (const alias of aliases.values()) if (new RegExp(`\\${alias}\\b`).test(text)) throw new Error(`declaration already uses ${alias}`);
  return [...aliases].map(([spec, alias]) => `import type * as ${alias} from "${spec}";\n`).join("") + body;
}

/** `file` (a .d.ts emitted from the source file at `srcFile`) written to `target` and its .d.cts twin. */
function writeDeclarationPair(file, srcFile, target, vendorZod) {
  const text = readFileSync(file, "utf8");
  const vendorFrom = vendorZod && { dir: dirname(target), zod: vendorZod.dir };
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, withExtensions(text, dirname(srcFile), ".js", vendorFrom, vendorZod?.files));
  writeFileSync(target.replace(/\.d\.ts$/, ".d.cts"), withExtensions(text, dirname(srcFile), ".cjs", vendorFrom, vendorZod?.files));
}

/** zod's declaration files reachable from `files` (relative to zod's folder), copied into `dir`. */
function copyZodTypes(files, dir) {
  const seen = new Set();
  const queue = [...files];
  while (queue.length > 0) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(join(zodDir, file), "utf8");
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
    // Specifiers of import/export statements and import types, outside comments (zod's doc comments quote imports).
    const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
    for (const m of code.matchAll(/(?:from\s+|import\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm)) {
      if (!m[1].startsWith(".")) throw new Error(`zod's ${file} imports ${m[1]}: not vendored`);
      const target = relative(zodDir, resolve(dirname(join(zodDir, file)), m[1])).replace(/\.c?js$/, ".d.cts");
      queue.push(target.split(sep).join("/"));
    }
  }
  return seen.size;
}

/** Declarations per module: tsc emits .d.ts; specifiers get extensions; .d.cts twins for require; zod's declarations vendored. */
function buildDts(outDir) {
  execFileSync(process.execPath, [tsc, "-p", join(root, "tsconfig.lib.json"), "--outDir", outDir], { cwd: root, stdio: "inherit" });
  const vendorZod = { dir: join(outDir, VENDOR_ZOD_TYPES), files: new Set() };
  for (const dir of SOURCES) {
    for (const file of declFiles(join(outDir, dir))) writeDeclarationPair(file, join(root, relative(outDir, file)), file, vendorZod);
  }
  copyZodTypes(vendorZod.files, vendorZod.dir);
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
    // --noCheck: the same files (compared when this was added), half the CPU; `npm run typecheck` checks the server.
    execFileSync(process.execPath, [tsc, "-p", join(root, "tsconfig.server.json"), "--outDir", tmp, "--noCheck"], { cwd: root, stdio: "inherit" });
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
  const entries = exportEntries();
  // Entries bundled for Node on their own: the root and any exporting a name the root does not.
  const exportsOf = await entryExports(entries);
  const rootNames = new Set(exportsOf.get(entries.find((e) => e.subpath === ".").source));
  const own = entries.filter((e) => e.subpath === "." || exportsOf.get(e.source).some((n) => !rootNames.has(n)));
  const lazy = own.filter((e) => e.subpath !== ".");
  await Promise.all([buildEsmPerModule(entryPoints, outDir), buildVendorZod(outDir), buildNodeEsm(outDir, entries, exportsOf, own), buildCjs(outDir, entries, lazy)]);
  if (dts) {
    buildDts(outDir);
    buildServerDts(outDir);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { "out-dir": { type: "string" }, "no-dts": { type: "boolean" } } });
  await buildLib(resolve(values["out-dir"] ?? join(root, "dist")), { dts: !values["no-dts"] });
}
