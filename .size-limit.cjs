// Browser bundle budgets of the library (issue 32; docs/methodology.md#package-budgets): esbuild,
// minified, gzip, the WASM bytes included. `npm run build && npx size-limit` checks dist/; the
// package tests check the packed package (SIZE_LIMIT_DIST). The typed client is at the issue's
// 25 KB (its route table carries no schema); the whole library is the root entry, which leaves the
// simulated market to `optionscope/market` (docs/methodology.md#package-budgets).
const dist = process.env.SIZE_LIMIT_DIST ?? "dist";
const index = `${dist}/lib/index.js`;
const budget = (name, imports, limit) => ({ name, path: index, import: imports, limit, gzip: true });

module.exports = [
  budget("impliedVol", "{ impliedVol }", "10 KB"),
  budget("heatmap: loadKernels + exposureGrid + heatmapFrame + classifyNodes", "{ loadKernels, exposureGrid, heatmapFrame, classifyNodes }", "45 KB"),
  budget("typed client", "{ createClient }", "25 KB"),
  budget("whole library", "*", "150 KB"),
];
