// Issue 34, the API reference: every operation of the three documents carries a real response
// example (server/openapi/examples.generated.json, written from the simulated market by
// scripts/build-openapi-examples.ts), each valid against the route's own schemas; integer bounds
// only where a schema sets them; info.version is the package's; the documents are sent indented;
// /docs serves Redoc from this server.
import { readFileSync } from "node:fs";
import type { z } from "zod";
import { beforeAll, describe, expect, it } from "vitest";
import { allRoutes } from "../../../server/modules";
import type { AnyRoute } from "../../../server/modules/define-route";
import { exampleKey } from "../../../server/openapi/examples";
import { withApiReference } from "../../../scripts/gen-api-reference";
import { makeHarness, type Harness } from "../_harness";

type Operation = { operationId: string; responses: { "200": { content: Record<string, { example?: unknown }> } } };
type Doc = { info: { version: string }; paths: Record<string, Record<string, Operation>> };

const DOCUMENTS = ["/v1/openapi.json", "/v1/flow/openapi.json", "/atlas/v1/openapi.json"];

let h: Harness;
const texts = new Map<string, string>();

beforeAll(async () => {
  h = makeHarness();
  for (const path of DOCUMENTS) {
    const res = await h.get(path, { key: null });
    expect(res.status, path).toBe(200);
    texts.set(path, await res.text());
  }
});

/** The route an operation of a document stands for (operationIds are unique across the table). */
const routeByOperation = new Map<string, AnyRoute>(allRoutes.map((r) => [r.operationId, r]));

describe("OpenAPI response examples", () => {
  it("gives every operation of the three documents a 200 example that its route's schemas accept", () => {
    const problems: string[] = [];
    let operations = 0;
    for (const [path, text] of texts) {
      const doc = JSON.parse(text) as Doc;
      for (const [p, methods] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(methods)) {
          operations++;
          const where = `${path} ${method.toUpperCase()} ${p} (${op.operationId})`;
          const media = op.responses["200"].content["application/json"];
          if (!media || !("example" in media)) {
            problems.push(`${where}: no example`);
            continue;
          }
          const route = routeByOperation.get(op.operationId);
          if (!route) {
            problems.push(`${where}: no route`);
            continue;
          }
          const example = media.example as { data?: unknown; meta?: unknown };
          const checks: [string, z.ZodType, unknown][] =
            route.envelope === false
              ? [["body", route.data, example]]
              : [["data", route.data, example.data], ...(route.meta ? ([["meta", route.meta, example.meta]] as [string, z.ZodType, unknown][]) : [])];
          for (const [part, schema, value] of checks) {
            const parsed = schema.safeParse(value);
            if (!parsed.success) problems.push(`${where} ${part}: ${parsed.error.issues[0]?.path.join(".")} ${parsed.error.issues[0]?.message}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
    // Every keyed REST route and stream of the table is in one of the documents.
    expect(operations).toBe(new Set(allRoutes.map((r) => exampleKey(r))).size);
  });

  it("states integer bounds only where a schema sets them, and the package's version", () => {
    const version = (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version;
    for (const [path, text] of texts) {
      expect(text, path).not.toContain("9007199254740991");
      expect((JSON.parse(text) as Doc).info.version, path).toBe(version);
    }
    // A bound the API does set survives: /v1/heatmap's maxStrikes is 1-1000.
    const heat = (JSON.parse(texts.get("/v1/openapi.json")!) as Doc).paths["/v1/heatmap"].get as unknown as {
      parameters: { name: string; schema: { anyOf: { minimum?: number; maximum?: number }[] } }[];
    };
    const maxStrikes = heat.parameters.find((p) => p.name === "maxStrikes")!;
    expect(maxStrikes.schema.anyOf).toContainEqual(expect.objectContaining({ minimum: 1, maximum: 1000 }));
  });

  it("sends the documents indented, the same JSON as the compact form", () => {
    const text = texts.get("/v1/openapi.json")!;
    expect(text.startsWith('{\n  "openapi": "3.1.0"')).toBe(true);
    expect(JSON.stringify(JSON.parse(text), null, 2)).toBe(text);
  });
});

describe("/docs", () => {
  it("serves the reference page and Redoc's script from this server, keyless, with no other origin allowed", async () => {
    const page = await h.get("/docs", { key: null });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<redoc spec-url="/v1/openapi.json"');
    expect(html).toContain('<script src="/docs/redoc.standalone.js">');
    expect(html).not.toMatch(/https?:\/\//);
    const csp = page.headers.get("content-security-policy")!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/https?:/);
    expect(await (await h.get("/docs?api=flow", { key: null })).text()).toContain('spec-url="/v1/flow/openapi.json"');
    expect(await (await h.get("/docs?api=price", { key: null })).text()).toContain('spec-url="/atlas/v1/openapi.json"');
    const script = await h.get("/docs/redoc.standalone.js", { key: null });
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toContain("javascript");
    expect((await script.text()).length).toBeGreaterThan(100_000);
  });
});

describe("docs/api.md", () => {
  it("lists every endpoint as the route table declares it (run `npx tsx scripts/gen-api-reference.ts` after changing a route)", () => {
    const text = readFileSync("docs/api.md", "utf8");
    expect(withApiReference(text) === text).toBe(true);
  });
});
