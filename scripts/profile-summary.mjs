// Summarises a .cpuprofile (scripts/profile-test.config.ts): total, the functions with the most
// self time, and the project functions with the most inclusive time.
// Usage: node scripts/profile-summary.mjs <file.cpuprofile>
import { readFileSync } from "node:fs";
const p = JSON.parse(readFileSync(process.argv[2], "utf8"));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = new Map();
for (let i = 0; i < p.samples.length; i++) dt.set(p.samples[i], (dt.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const incl = new Map();
let total = 0;
for (const [id, t] of dt) {
  total += t;
  const n = byId.get(id);
  const k = `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.split("/").slice(-2).join("/")}:${n.callFrame.lineNumber}`;
  self.set(k, (self.get(k) ?? 0) + t);
  const seen = new Set();
  let cur = id;
  while (cur !== undefined) {
    const m = byId.get(cur);
    const kk = `${m.callFrame.functionName || "(anon)"} ${m.callFrame.url.split("/").slice(-2).join("/")}:${m.callFrame.lineNumber}`;
    if (!seen.has(kk)) {
      seen.add(kk);
      incl.set(kk, (incl.get(kk) ?? 0) + t);
    }
    cur = parent.get(cur);
  }
}
console.log("total ms", (total / 1000).toFixed(0));
console.log("--- self");
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log((v / 1000).toFixed(0).padStart(7), k);
console.log("--- inclusive (project frames)");
for (const [k, v] of [...incl]
  .sort((a, b) => b[1] - a[1])
  .filter(([k]) => !/node_modules|chai|dist\//.test(k))
  .slice(0, 40))
  console.log((v / 1000).toFixed(0).padStart(7), k);
