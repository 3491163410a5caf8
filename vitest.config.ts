import { defineConfig } from "vitest/config";

// The JSON report is what .ci/run counts; the default reporter is for people.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ["default", ["json", { outputFile: ".vitest/report.json" }]],
  },
});
