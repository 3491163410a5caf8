// The generated operation tables against the live route table: no drift, a method per route with
// the route's own schemas, and a loud failure naming the route when a schema is not exported from lib/.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createClient, operations } from "../../lib/client";
import { operationSchemas } from "../../lib/client/schemas";
import { GridQuerySchema, HeatmapDataSchema } from "../../lib/api/positioning";
import { allRoutes, isToolRoute, type AnyRoute } from "../../server/modules";
import {
  GENERATED_PATH,
  GENERATED_SCHEMAS_PATH,
  generateClientOperations,
  indexLibSchemas,
  methodName,
  renderOperations,
  UnexportedSchemaError,
} from "../../scripts/gen-client";

describe("client generator", () => {
  it("operations.generated.ts and operation-schemas.generated.ts are what `npm run gen:client` writes from the current route table", async () => {
    const generated = await generateClientOperations();
    expect(generated.table).toBe(readFileSync(GENERATED_PATH, "utf8"));
    expect(generated.schemas).toBe(readFileSync(GENERATED_SCHEMAS_PATH, "utf8"));
  }, 60_000);

  it("every route of the table has a client method with the route's own schemas (by identity)", () => {
    const client = createClient({ baseUrl: "http://localhost:1", apiKey: "k" }) as unknown as Record<string, unknown>;
    expect(Object.keys(operations).length).toBe(allRoutes.length);
    expect(Object.keys(operationSchemas)).toEqual(Object.keys(operations));
    for (const route of allRoutes) {
      const op = (operations as Record<string, (typeof operations)[keyof typeof operations]>)[methodName(route.operationId)];
      const schemas = (operationSchemas as Record<string, (typeof operationSchemas)[keyof typeof operationSchemas]>)[methodName(route.operationId)];
      expect(op, route.operationId).toBeDefined();
      expect(op.path).toBe(route.path);
      expect(schemas.query).toBe(route.query);
      expect("params" in schemas ? schemas.params : undefined).toBe(route.params);
      expect(schemas.data).toBe(route.data);
      expect("meta" in schemas ? schemas.meta : undefined).toBe(route.meta);
      // The run-time table carries no schema: the client finds path parameters in the path, which
      // must name exactly the params schema's keys.
      expect(Object.values(op).some((v) => v !== null && typeof v === "object")).toBe(false);
      expect([...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]).sort(), route.operationId).toEqual(Object.keys(route.params?.shape ?? {}).sort());
      expect(op.kind).toBe(route.kind ?? "rest");
      expect(typeof client[methodName(route.operationId)]).toBe("function");
      // Every MCP tool route is a plain method returning a promise (not a stream).
      if (isToolRoute(route)) expect(op.kind).toBe("rest");
    }
  });

  it("method names are the camelCase of the operationId", () => {
    expect(methodName("getHeatmap")).toBe("getHeatmap");
    expect(methodName("GetDarkPoolTrades")).toBe("getDarkPoolTrades");
    expect(methodName("get_vol_screener")).toBe("getVolScreener");
    expect(methodName("flow-tide")).toBe("flowTide");
  });

  it("fails loudly, naming the route, when a schema is not exported from lib/", async () => {
    const index = await indexLibSchemas();
    const inline: AnyRoute = { ...allRoutes[0], operationId: "getInlineThing", path: "/v1/inline", query: GridQuerySchema, data: z.object({ x: z.number() }) };
    expect(() => renderOperations([inline], index)).toThrow(UnexportedSchemaError);
    expect(() => renderOperations([inline], index)).toThrow(/getInlineThing \(GET \/v1\/inline\): its data schema is not exported from lib\//);
    const fine: AnyRoute = { ...inline, data: HeatmapDataSchema };
    expect(renderOperations([fine], index).schemas).toContain("data: HeatmapDataSchema,");
    expect(renderOperations([fine], index).table).not.toContain("HeatmapDataSchema");
  }, 60_000);

  it("detects paging from the query's keys", async () => {
    const index = await indexLibSchemas();
    // Schemas with cursor/offset keys need a lib home: reuse lib/api params by identity through a fake index entry.
    const cursorQuery = z.object({ cursor: z.string().optional(), offset: z.number().optional() });
    const offsetQuery = z.object({ offset: z.number().optional() });
    index.set(cursorQuery, { from: "../api/fake", name: "CursorQuery" });
    index.set(offsetQuery, { from: "../api/fake", name: "OffsetQuery" });
    const base = { ...allRoutes[0], data: HeatmapDataSchema, meta: undefined };
    const { table: text } = renderOperations(
      [
        { ...base, operationId: "getA", query: cursorQuery },
        { ...base, operationId: "getB", query: offsetQuery },
      ],
      index,
    );
    expect(text).toMatch(/getA: \{[^}]*paging: "cursor\+offset"/);
    expect(text).toMatch(/getB: \{[^}]*paging: "offset"/);
  }, 60_000);
});
