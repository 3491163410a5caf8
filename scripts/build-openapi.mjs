#!/usr/bin/env node
// Writes the three API descriptions as static files (spec: "Copies that need no key are also
// published as static files"): dist/openapi/{openapi,flow-openapi,price-openapi}.json.
// Runs the TypeScript route table through tsx, so it works before or after tsup.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = resolve(root, process.argv[2] ?? "dist/openapi");
const serverUrl = process.env.OPTIONSCOPE_PUBLIC_URL ?? "http://localhost:8080";

const unregister = register();
try {
  const { buildOpenApiDocument } = await import(join(root, "server/openapi/build-document.ts"));
  const { allRoutes } = await import(join(root, "server/modules/index.ts"));
  mkdirSync(outDir, { recursive: true });
  const files = [
    ["openapi.json", "base", serverUrl],
    ["flow-openapi.json", "flow", serverUrl],
    ["price-openapi.json", "atlas", `${serverUrl}/atlas`],
  ];
  for (const [name, kind, url] of files) {
    const doc = buildOpenApiDocument(allRoutes, kind, { serverUrl: url });
    writeFileSync(join(outDir, name), JSON.stringify(doc, null, 2) + "\n");
    console.log(`wrote ${join(outDir, name)} (${Object.keys(doc.paths).length} paths)`);
  }
} finally {
  await unregister();
}
