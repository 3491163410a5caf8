import { cpSync } from "node:fs";
import { defineConfig } from "tsup";

// Server entry points, ESM (and CJS for the server entry): the build of the @optionscope/server
// package (staged and packed by scripts/pack-server.mjs). The library (dist/lib/, dist/wasm/) and
// every declaration file, the server's included, are built per module by scripts/build-lib.mjs
// after this build: `clean` here would remove them.

/** What both builds share: Node 20, the server package's dependencies external (see below). */
const common = {
  platform: "node",
  target: "node20",
  sourcemap: true,
  splitting: false,
  shims: true,
  // The server package's dependencies (server/package.json: h3, the stores' drivers, the MCP SDK,
  // zod...) stay imports, installed with @optionscope/server; tsup's own default reads only the
  // root package.json, the library's, which no longer lists them. The library's code the server
  // imports by relative path (`../lib/...`) is bundled: docs/architecture.md#packages. The SQLite
  // addon, among them, finds its prebuilt binary beside its own files (server/sqlite.ts).
  external: ["server/package.json"],
} as const;

export default defineConfig((cli) => [
  {
    ...common,
    entry: {
      server: "server/index.ts",
      cli: "server/main.ts",
      // Daily-statistics worker: started by server/modules/positioning/stats-pool.ts as a sibling file.
      "stats-worker": "server/modules/positioning/stats-worker.ts",
      // Persisted daily store's background fill: started by server/daily-store/filler.ts as a sibling file.
      "daily-fill-worker": "server/daily-store/fill-worker.ts",
      // The request path's cold rows off the event loop: started by server/daily-store/compute-pool.ts.
      "compute-worker": "server/daily-store/compute-worker.ts",
      // The live Massive feed's snapshot polls off the event loop: started by server/feeds/massive/massive-feed.ts.
      "massive-snapshot-worker": "server/feeds/massive/snapshot-worker.ts",
      // The recorder's encoding, writes and compaction off the event loop: started by server/recording/writer.ts.
      "recording-worker": "server/recording/write-worker.ts",
    },
    format: ["esm"],
    clean: true,
    // The PostgreSQL store reads its SQL migrations from `./migrations` beside the running file
    // (server/accounts/postgres/migrate.ts), which in the build is dist/.
    onSuccess: async () => cpSync("server/accounts/postgres/migrations", `${cli.outDir ?? "dist"}/migrations`, { recursive: true }),
  },
  // `require("@optionscope/server")`: the server entry only. The command and the workers are ESM
  // whatever loads the server (a worker is started from its ESM sibling file:
  // server/spawn-sibling-worker.ts), so CommonJS copies of them would be megabytes nothing loads.
  { ...common, entry: { server: "server/index.ts" }, format: ["cjs"], clean: false },
]);
