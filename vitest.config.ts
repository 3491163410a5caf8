import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { DurationSequencer } from "./test/_setup/duration-sequencer.mjs";

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * The test layers (docs/architecture.md#test-layers). A file's layer follows from where it lives
 * and its name, so a new test lands in the right one without touching this file:
 * - integration: real PostgreSQL/Redis (`*.services.test.ts`), Chromium (`*.browser.test.ts`),
 *   child processes (`*.process.test.ts`), the package build (test/package/), and a server on a
 *   machine kept busy by CPU burners (`*.loaded.test.ts`, alone after everything else);
 * - server: everything else under test/server/, test/client/ and test/stream-client/ (an app or
 *   server in process, loopback sockets at most);
 * - simulation: `*.sim.test.ts`, statistics of the simulated market over many sessions;
 * - unit: the rest (the library and pure helpers: no server, no network, no child process).
 * The files of a worker share one module graph (`isolate: false`): loading the server's modules
 * once per worker instead of once per file is most of what a server test file costs. A file that
 * replaces modules (`vi.mock`) is named `*.isolated.test.ts` and gets a fresh graph.
 */
const PACKAGE = ["test/package/**/*.test.ts"];
const LOADED = ["test/**/*.loaded.test.ts"];
const INTEGRATION = ["test/**/*.services.test.ts", "test/**/*.browser.test.ts", "test/**/*.process.test.ts", ...PACKAGE, ...LOADED];
const SERVER = ["test/server/**/*.test.ts", "test/client/**/*.test.ts", "test/stream-client/**/*.test.ts"];
const ISOLATED = ["test/**/*.isolated.test.ts"];
// The simulated market's statistics over hundreds of sessions (realism bands, coverage, the flow
// OI estimate's error): library code, but seconds each, so not in the unit layer's quick loop.
const SIMULATION = ["test/**/*.sim.test.ts"];
const WORKERS = Number(process.env.VITEST_MAX_WORKERS) || 3;
// The integration layer's load tests (three instances under 64 clients, Redis and PostgreSQL
// stopped mid-run) keep their time limits only with one neighbour at a time.
const INTEGRATION_WORKERS = Number(process.env.VITEST_MAX_WORKERS) || 2;

export default defineConfig({
  resolve: {
    // Tests (and the README's examples) import the package by name, served from source.
    alias: [
      { find: /^optionscope$/, replacement: src("./lib/index.ts") },
      { find: /^optionscope\/server$/, replacement: src("./server/index.ts") },
      // The library's subpath exports (package.json "exports"): one per lib/ area.
      { find: /^optionscope\/([a-z-]+)$/, replacement: `${src("./lib")}/$1/index.ts` },
    ],
  },
  test: {
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Vitest's default is one worker per core less one: a single worker on a 2-core machine.
    // Most files wait on sockets, child processes or a browser as much as they compute.
    maxWorkers: WORKERS,
    // Longest files first in each project, from test/durations.json (a fresh clone has no cache).
    sequence: { sequencer: DurationSequencer },
    // The JSON report is what .ci/run counts (scripts/ci-summary.mjs); the default reporter is for people.
    reporters: ["default", ["json", { outputFile: ".vitest/report.json" }]],
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          exclude: [...INTEGRATION, ...SERVER, ...ISOLATED, ...SIMULATION],
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
      { extends: true, test: { name: "simulation", include: SIMULATION, isolate: false, sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: "server", include: SERVER, exclude: [...INTEGRATION, ...ISOLATED], isolate: false, sequence: { groupOrder: 1 } } },
      {
        extends: true,
        // First, on its own (group 0), with fewer workers.
        test: {
          name: "integration",
          include: INTEGRATION,
          exclude: [...PACKAGE, ...LOADED, ...ISOLATED],
          isolate: false,
          maxWorkers: INTEGRATION_WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      // Part of the integration layer, a project of its own so that its global setup (the package
      // build, started once in the background as the run begins) runs only when its tests do.
      {
        extends: true,
        test: { name: "package", include: PACKAGE, globalSetup: ["test/package/_build-once.ts"], maxWorkers: INTEGRATION_WORKERS, sequence: { groupOrder: 0 } },
      },
      // Part of the integration layer, last and alone (group 2): its CPU burners would push its
      // neighbours' load tests past their limits.
      { extends: true, test: { name: "loaded", include: LOADED, maxWorkers: 1, sequence: { groupOrder: 2 } } },
      // Files that replace modules, each in a fresh module graph (in the layer of its folder).
      { extends: true, test: { name: "isolated", include: ISOLATED, sequence: { groupOrder: 1 } } },
    ],
  },
});
