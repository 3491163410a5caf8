import { validate, compileErrors } from "@readme/openapi-parser";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeHarness } from "../_harness";

async function expectValid(doc: unknown) {
  const result = await validate(structuredClone(doc) as never);
  if (!result.valid) throw new Error(compileErrors(result));
  expect(result.valid).toBe(true);
}

describe("the three OpenAPI 3.1 documents", () => {
  it("are served without a key, free, and validate", async () => {
    const h = makeHarness({ credits: 5 });
    const docs: Record<string, { paths: Record<string, Record<string, { parameters: { name: string; schema: Record<string, unknown>; required: boolean }[] }>> }> = {};
    for (const [name, path] of [
      ["base", "/v1/openapi.json"],
      ["flow", "/v1/flow/openapi.json"],
      ["atlas", "/atlas/v1/openapi.json"],
    ]) {
      const res = await h.get(path, { key: null });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("x-credits-remaining")).toBeNull();
      const doc = await res.json();
      expect(doc.openapi).toBe("3.1.0");
      await expectValid(doc);
      docs[name] = doc;
    }
    expect(h.accounts.balance(h.accountId)).toBe(5);
    const heat = docs.base.paths["/v1/heatmap"].get;
    const metric = heat.parameters.find((p) => p.name === "metric")!;
    expect(metric.schema).toMatchObject({ enum: ["gamma", "vanna", "delta", "charm", "vomma"], default: "gamma" });
    expect(heat.parameters.find((p) => p.name === "symbols")!.required).toBe(true);
    expect(heat.parameters.find((p) => p.name === "maxStrikes")!.schema.default).toBe(92);
    expect(docs.base.paths["/v1/historical"].get.parameters.find((p) => p.name === "at")!.required).toBe(true);
    expect(Object.keys(docs.base.paths)).toEqual(
      expect.arrayContaining(["/v1/account", "/v1/heatmap", "/v1/historical", "/v1/gex/levels", "/v1/stats/daily", "/v1/symbols", "/v1/openapi.json"]),
    );
    expect(Object.keys(docs.flow.paths)).not.toContain("/v1/heatmap");
  });

  it("are written as static files by scripts/build-openapi.mjs", async () => {
    const dir = mkdtempSync(join(tmpdir(), "openapi-"));
    try {
      execFileSync(process.execPath, ["scripts/build-openapi.mjs", dir], { stdio: "pipe" });
      for (const f of ["openapi.json", "flow-openapi.json", "price-openapi.json"]) {
        await expectValid(JSON.parse(readFileSync(join(dir, f), "utf8")));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
