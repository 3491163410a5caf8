// Issue 36: hostile arguments for every MCP tool (the REST tools, from the route table, and the
// intelligence toolset), sent through the MCP SDK's own client to one listening server. A call
// ends in a result or a JSON-RPC error (-32602 for arguments the tool refuses), never a dropped
// connection; a failed result is never a status >= 500 other than a documented 503, its code is
// in the module's case, and nothing is charged for it. Long run: test/server/hostile/README.md.
import { ProtocolError, type Client } from "@modelcontextprotocol/client";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INTELLIGENCE_TOOLS } from "../../../server/mcp/intelligence-tools";
import { routeTools } from "../../../server/mcp/route-tools";
import { allRoutes, isToolRoute, type AnyRoute } from "../../../server/modules";
import { startMcpHarness, type McpHarness } from "../mcp/_mcp-harness";
import { HOSTILE_VALUES, PROTOTYPE_NAMES, hostileRuns, hostileSeed, inModuleCase, routePlan, statusAllowed, valueFor, type ParamPlan } from "./_hostile-inputs";

let h: McpHarness;
let rest: Client;
let intelligence: Client;

beforeAll(async () => {
  h = await startMcpHarness({ credits: 1_000_000 });
  rest = await h.connect();
  intelligence = await h.connect(undefined, `${h.mcpUrl}?toolset=intelligence`);
});

afterAll(async () => {
  await h?.close();
});

interface ToolCase {
  name: string;
  /** The route behind a REST tool (its module's error case); null for an intelligence tool. */
  route: AnyRoute | null;
  /** Argument name -> what its parameter accepts and refuses. */
  args: [string, ParamPlan][];
  intelligence: boolean;
}

const TOOLS: ToolCase[] = [
  ...routeTools(allRoutes.filter(isToolRoute)).map((t) => {
    const plan = routePlan(t.route);
    const planOf = (param: string, where: "query" | "path") => (where === "path" ? plan.path : plan.query).find((p) => p.name === param)!;
    return { name: t.name, route: t.route, args: [...t.args].map(([arg, spec]): [string, ParamPlan] => [arg, planOf(spec.param, spec.in)]), intelligence: false };
  }),
  ...INTELLIGENCE_TOOLS.map((t) => ({
    name: t.name,
    route: null,
    args: Object.entries(t.properties).map(([arg, schema]): [string, ParamPlan] => {
      const values = Array.isArray(schema.enum) ? schema.enum.map(String) : ["SPY", "SPXW", "QQQ"];
      return [arg, { name: arg, valid: values, invalid: [...HOSTILE_VALUES] }];
    }),
    intelligence: true,
  })),
];

// Built once (as in _hostile-inputs.ts): building an `fc.jsonValue` or `fc.string` costs
// milliseconds, and every argument of every tool asked for its own. Arbitraries are stateless, so a
// shared one generates exactly what a fresh one would.
const ANY_JSON_2 = fc.jsonValue({ maxDepth: 2 });
const ANY_JSON_1 = fc.jsonValue({ maxDepth: 1 });
const ANY_NAME_8 = fc.string({ maxLength: 8 });

/** A JSON argument value: the parameter's text, or that text as another JSON kind, or a wrong kind. */
function jsonValue(p: ParamPlan): fc.Arbitrary<unknown> {
  const text = valueFor(p, 4);
  return fc.oneof(
    { weight: 6, arbitrary: text },
    { weight: 2, arbitrary: text.map((v) => (Number.isFinite(Number(v)) && v.trim() !== "" ? Number(v) : v)) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(true, false, null, 0, -1, 1e308, Number.MAX_SAFE_INTEGER + 2, [], ["SPY", "QQQ"], {}, { a: 1 }, [[]]) },
    { weight: 1, arbitrary: ANY_JSON_2 },
  );
}

/** Arguments of one call: known names (required ones mostly present), unknown and prototype names. */
function argsFor(tool: ToolCase): fc.Arbitrary<Record<string, unknown>> {
  const share = Math.min(0.5, 3 / Math.max(1, tool.args.length));
  const known = tool.args.map(([arg, p]) =>
    fc.oneof(
      { weight: Math.round((1 - share) * 100), arbitrary: fc.constant(null) },
      { weight: Math.round(share * 100), arbitrary: jsonValue(p).map((v): [string, unknown] => [arg, v]) },
    ),
  );
  const unknown = fc.tuple(fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES, "x", ""), ANY_NAME_8), ANY_JSON_1);
  return fc
    .tuple(fc.tuple(...known), fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(unknown, { minLength: 1, maxLength: 2 }) }))
    .map(([picked, extra]) => Object.fromEntries([...picked.filter((e): e is [string, unknown] => e !== null), ...extra]));
}

/** Cases per tool: the total spread over every tool. */
const PER_TOOL = Math.max(3, Math.ceil(hostileRuns(450) / TOOLS.length));
const SEED = hostileSeed(36);

const balance = () => h.accounts.balance(h.accountId);

describe("hostile MCP tool arguments (MCP SDK client, one listening server)", () => {
  it("covers every tool the server lists, on both toolsets", async () => {
    const listed = [...(await rest.listTools()).tools, ...(await intelligence.listTools()).tools].map((t) => t.name);
    expect(TOOLS.map((t) => t.name).sort()).toEqual(listed.sort());
  });

  it.each(TOOLS)("$name", async (tool) => {
    await fc.assert(
      fc.asyncProperty(argsFor(tool), async (args) => {
        h.wall.ms += 1_000; // one call a second: under the key's per-minute limit
        const before = await balance();
        const client = tool.intelligence ? intelligence : rest;
        let result: Awaited<ReturnType<Client["callTool"]>>;
        try {
          result = await client.callTool({ name: tool.name, arguments: args });
        } catch (error) {
          // The only failure a call may end in: the JSON-RPC refusal of its arguments (-32602).
          expect(error, `${tool.name}(${JSON.stringify(args).slice(0, 200)}) failed with ${String(error)}`).toBeInstanceOf(ProtocolError);
          expect((error as ProtocolError).code).toBe(-32602);
          expect(await balance()).toBe(before);
          return;
        }
        const meta = (result._meta ?? {}) as { creditsRemaining?: number; error?: { status: number; code: string } };
        if (!result.isError) return;
        const err = meta.error;
        expect(err, `a failed result states its error: ${JSON.stringify(result).slice(0, 200)}`).toBeDefined();
        expect(statusAllowed(err!.status, err!.code), `${err!.status} ${err!.code} for ${JSON.stringify(args).slice(0, 200)}`).toBe(true);
        if (tool.route) expect(inModuleCase(tool.route, err!.code), `${err!.code} in ${tool.route.host}'s case`).toBe(true);
        else expect(err!.code).toBe(err!.code.toLowerCase());
        expect(await balance(), `${err!.code} is not charged`).toBe(before);
        if (meta.creditsRemaining !== undefined) expect(meta.creditsRemaining).toBe(before);
      }),
      { numRuns: PER_TOOL, seed: SEED, endOnFailure: true },
    );
  });
});
