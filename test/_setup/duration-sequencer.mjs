// Longest files first, from a committed table of file durations (test/durations.json), so a fresh
// clone schedules like a warm run: vitest's own sequencer orders by its results cache, which a fresh
// clone has not got, and then falls back to file size. Longest-first keeps each group's tail short:
// the run is CPU-bound on 2 cores, so a long file started last is time both cores are not shared.
// Projects stay contiguous and in vitest's order: a worker is reused only for the next file of the
// same project, so interleaving projects would restart workers and reload the server's module graph.
// Refresh the table with `node scripts/record-test-durations.mjs` after a full run.
// Plain JavaScript: vitest.config.ts imports it, and Vite's config loader wants a file extension.
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { BaseSequencer } from "vitest/node";

/** @type {Record<string, number>} */
const table = JSON.parse(readFileSync(new URL("../durations.json", import.meta.url), "utf8"));

export class DurationSequencer extends BaseSequencer {
  /** @param {import("vitest/node").TestSpecification[]} files */
  async sort(files) {
    const root = this.ctx.config.root;
    // Unknown files (new since the table was recorded) first, as vitest does: they may be long.
    /** @param {import("vitest/node").TestSpecification} spec */
    const seconds = (spec) => table[relative(root, spec.moduleId)] ?? Number.POSITIVE_INFINITY;
    return [...files].sort((a, b) => {
      const group = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder;
      if (group !== 0) return group;
      if (a.project.name !== b.project.name) return a.project.name < b.project.name ? -1 : 1;
      const diff = seconds(b) - seconds(a);
      return Number.isNaN(diff) ? 0 : diff;
    });
  }
}
