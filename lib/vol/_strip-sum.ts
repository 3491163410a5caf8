// The VIX strip sum's JS loop lives with the kernels (the JS engine and the WASM kernel's oracle);
// lib/vol keeps exporting it under its old name.
export { vixStripSumInto } from "../kernels/_js-strip-sum";
