// The server package as npm publishes it (issue 32, `@optionscope/server`): staged from a build
// (`npm run build`: tsup's server entries and workers, the pages' prebuilt scripts, the SQL
// migrations, the declarations) with server/package.json as its manifest, packed with `npm pack`.
// The library ships as its own package (scripts/pack-library.mjs); the server package depends on
// it at the same version. Used by test/package/server-package.process.test.ts.
//
//   node scripts/pack-server.mjs [--build-dir dist] [--out DIR]   # prints { tarball, ... }
import { execFileSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Files the server's build must hold: the API entry, the CLI, and the pages' prebuilt scripts. */
const REQUIRED = ["server.js", "server.cjs", "server.d.ts", "cli.js", "migrations", "web/heatmap-app.js", "web/redoc.standalone.js"];

/**
 * A declaration file (the server's `.d.ts` import the library's, which ship beside them), or the
 * licence of declarations the library build vendors (zod's, in lib/vendor/zod/).
 */
const DECLARATION = /(\.d\.[cm]?ts|[/\\]LICENSE)$/;

/**
 * A top-level build file the package ships: no source maps, and of the CommonJS copies only the
 * API entry's (`require("@optionscope/server")`): the bin imports cli.js, and every worker, whoever
 * starts it, is its ESM sibling (server/spawn-sibling-worker.ts), so cli.cjs and the workers'
 * .cjs files would be 3 MB nothing loads.
 */
function shipsTopLevel(name) {
  if (name.endsWith(".map")) return false;
  return !name.endsWith(".cjs") || name === "server.cjs";
}

function walk(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/**
 * The published manifest: server/package.json with its `optionscope` dependency (a `file:..` link
 * inside this repository's workspace) pinned to the library's version, released together.
 */
export function serverManifest(serverPkg, libraryPkg) {
  if (serverPkg.version !== libraryPkg.version) {
    throw new Error(`server/package.json is at ${serverPkg.version} and package.json at ${libraryPkg.version}: the two packages are released together`);
  }
  const out = structuredClone(serverPkg);
  out.dependencies = { ...out.dependencies, [libraryPkg.name]: libraryPkg.version };
  return out;
}

/**
 * Stages the package in `stageDir` from a build folder: the top-level build files it loads
 * (`shipsTopLevel`: entries, workers, their declarations), `migrations/`, `web/`, `openapi/` when built, the
 * server's declarations (`server/`) and the library's declarations they import (`lib/`, `wasm/`:
 * the library's code itself is bundled into the entries), the `optionscope` bin.
 */
export function stageServer(buildDir, stageDir) {
  const missing = REQUIRED.filter((f) => !existsSync(join(buildDir, f)));
  if (missing.length > 0) throw new Error(`${buildDir} lacks ${missing.join(", ")}: run \`npm run build\` first`);
  rmSync(stageDir, { recursive: true, force: true });
  const dist = join(stageDir, "dist");
  mkdirSync(dist, { recursive: true });
  for (const e of readdirSync(buildDir, { withFileTypes: true })) {
    const from = join(buildDir, e.name);
    if (e.isFile() && shipsTopLevel(e.name)) cpSync(from, join(dist, e.name));
    else if (e.isDirectory() && ["migrations", "web", "openapi"].includes(e.name)) cpSync(from, join(dist, e.name), { recursive: true });
    else if (e.isDirectory() && ["server", "lib", "wasm"].includes(e.name)) {
      for (const f of walk(from).filter((p) => DECLARATION.test(p))) {
        const to = join(dist, relative(buildDir, f));
        mkdirSync(dirname(to), { recursive: true });
        cpSync(f, to);
      }
    }
  }
  mkdirSync(join(stageDir, "bin"), { recursive: true });
  cpSync(join(root, "server", "bin", "optionscope.mjs"), join(stageDir, "bin", "optionscope.mjs"));
  chmodSync(join(stageDir, "bin", "optionscope.mjs"), 0o755);
  for (const f of ["README.md", "LICENSE"]) if (existsSync(join(root, f))) cpSync(join(root, f), join(stageDir, f));
  const read = (p) => JSON.parse(readFileSync(p, "utf8"));
  const manifest = serverManifest(read(join(root, "server", "package.json")), read(join(root, "package.json")));
  writeFileSync(join(stageDir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  return stageDir;
}

/** `npm pack` of the staged folder into `dest`: the tarball's path, packed and unpacked bytes, file count. */
export function packStaged(stageDir, dest) {
  mkdirSync(dest, { recursive: true });
  const out = execFileSync("npm", ["pack", "--json", "--pack-destination", dest], { cwd: stageDir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const [info] = JSON.parse(out);
  return { tarball: join(dest, info.filename), packedBytes: info.size, unpackedBytes: info.unpackedSize, files: info.entryCount };
}

/** Stage and pack: the tarball `npm install` takes, beside the library's. */
export function packServer(buildDir, outDir) {
  const stage = stageServer(buildDir, join(outDir, "server-stage"));
  return { stage, ...packStaged(stage, outDir) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { "build-dir": { type: "string" }, out: { type: "string" } } });
  const buildDir = resolve(values["build-dir"] ?? join(root, "dist"));
  if (!statSync(buildDir, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`no build at ${buildDir}: run \`npm run build\` first`);
  console.log(JSON.stringify(packServer(buildDir, resolve(values.out ?? join(root, ".vitest", "package-pack"))), null, 2));
}
