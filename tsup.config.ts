import { cpSync } from "node:fs";
import { defineConfig } from "tsup";

// Server entry points, ESM + CJS + .d.ts. The library is built per module by scripts/build-lib.mjs
// (dist/lib/, dist/wasm/), after this build: `clean` here would remove it.
export default defineConfig((cli) => [
  {
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
    },
    format: ["esm", "cjs"],
    dts: { entry: { server: "server/index.ts" } },
    platform: "node",
    target: "node20",
    sourcemap: true,
    clean: true,
    splitting: false,
    shims: true,
    external: ["better-sqlite3"],
    // The PostgreSQL store reads its SQL migrations from `./migrations` beside the running file
    // (server/accounts/postgres/migrate.ts), which in the build is dist/.
    onSuccess: async () => cpSync("server/accounts/postgres/migrations", `${cli.outDir ?? "dist"}/migrations`, { recursive: true }),
  },
]);
