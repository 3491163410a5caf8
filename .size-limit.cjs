// Browser bundle budgets of the library (issue 32; docs/methodology.md#package-budgets): esbuild,
// minified, gzip, the WASM bytes included. `npm run build && npx size-limit` checks dist/; the
// package tests check the packed package (SIZE_LIMIT_DIST). The client and whole-library limits
// hold today's figures until they reach the 25 KB and 150 KB: neither may grow meanwhile.
const dist = process.env.SIZE_LIMIT_DIST ?? "dist";
const index = `${dist}/lib/index.js`;
const budget = (name, imports, limit) => ({ name, path: index, import: imports, limit, gzip: true });

module.exports = [
  budget("impliedVol", "{ impliedVol }", "10 KB"),
  budget("heatmap: loadKernels + exposureGrid + heatmapFrame + classifyNodes", "{ loadKernels, exposureGrid, heatmapFrame, classifyNodes }", "45 KB"),
  budget("typed client (issue target 25 KB)", "{ createClient }", "70 KB"),
  budget("whole library (issue target 150 KB)", "*", "200 KB"),
];
