import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// The JSON report is what .ci/run counts; the default reporter is for people.
export default defineConfig({
  resolve: {
    // Tests (and the README's examples) import the package by name, served from source.
    alias: [
      { find: /^optionscope$/, replacement: src("./lib/index.ts") },
      { find: /^optionscope\/server$/, replacement: src("./server/index.ts") },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    reporters: ["default", ["json", { outputFile: ".vitest/report.json" }]],
  },
});
