// Issue 37: every operation of the reference OpenAPI documents (test/fixtures/reference/, copies of
// the reference service's public documents) against what we serve over the simulated market: each
// documented query and path parameter is one our route reads (our OpenAPI documents are generated
// from the routes' own query schemas, so a name listed there is a name the route validates), and
// each documented response field (nested objects, array items and map values walked) appears in
// our answer, except the fields docs/design-log.md#fields-we-deliberately-do-not-serve lists with a reason.
import { dereference } from "@readme/openapi-parser";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtinModules, moduleStateOf } from "../../../server/modules";
import { createVolModule } from "../../../server/modules/vol";
import { formatOptionSymbol } from "../../../lib/symbols";
import { sessionBounds } from "../../../lib/time";
import { body, flowHarness, PRIOR, TODAY, type FlowHarness } from "../modules/flow/_flow-harness";
import { CONDITIONAL, KNOWN_GAPS, NOT_SERVED, PARAMS_NOT_READ, SHARED_META_FIELDS } from "./_reference-exceptions";

type Schema = Record<string, any>;
type Doc = { paths: Record<string, Record<string, any>> };

const DOCS = ["atlas", "flowseeker", "heatseeker-tempest"] as const;
type DocName = (typeof DOCS)[number];

/** Where each reference document's operations are served (the reference's servers, our prefixes). */
const PREFIX: Record<DocName, string> = { atlas: "/atlas", flowseeker: "", "heatseeker-tempest": "" };

function referencePath(name: string): string {
  return fileURLToPath(new URL(`../../fixtures/reference/${name}.yaml`, import.meta.url));
}

/** Flow reads one light ticker's tape (market-wide scans stay small); volatility covers two symbols over a short history. */
const FLOW_TICKER = "LMT";
const vol = createVolModule({ historySessions: 3, symbols: ["SPXW", FLOW_TICKER] });
const OPEN = sessionBounds(TODAY).openMs;
const iso = (ms: number) => new Date(ms).toISOString();

/** Fills a documented path template with values that exist on the simulated market. */
function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{([a-z_]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? `missing-${name}`));
}

/** Merges allOf parts; picks the oneOf/anyOf branch that matches the value best (nulls dropped). */
function branches(schema: Schema, value: unknown): Schema {
  let s = schema;
  if (s.allOf) {
    const merged: Schema = { type: "object", properties: { ...(s.properties ?? {}) } };
    for (const part of s.allOf) {
      const p = branches(part, value);
      Object.assign(merged.properties, p.properties ?? {});
      if (p.items) merged.items = p.items;
      if (p.additionalProperties) merged.additionalProperties = p.additionalProperties;
    }
    s = merged;
  }
  const alternatives: Schema[] | undefined = s.oneOf ?? s.anyOf;
  if (alternatives) {
    const objects = alternatives.filter((a) => a.type !== "null" && !(Array.isArray(a.enum) && a.enum.length === 1 && a.enum[0] === null));
    if (objects.length === 1) return branches(objects[0], value);
    const obj = value && typeof value === "object" ? (value as Record<string, unknown>) : {};
    const score = (a: Schema) => (a.required ?? Object.keys(a.properties ?? {})).filter((k: string) => Object.hasOwn(obj, k)).length;
    const best = objects.slice().sort((a, b) => score(b) - score(a))[0];
    return best ? branches(best, value) : s;
  }
  return s;
}

/**
 * Records every declared field path under `schema` in `declared`, and in `present` those the value
 * (any array element, any map value) holds.
 */
function walk(schema: Schema, value: unknown, path: string, seen: Seen): void {
  const s = branches(schema, value);
  if (s.properties) {
    const obj = value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
    for (const [name, sub] of Object.entries<Schema>(s.properties)) {
      const p = `${path}.${name}`;
      seen.declared.add(p);
      if (obj) seen.reached.add(p);
      if (obj && Object.hasOwn(obj, name)) {
        seen.present.add(p);
        walk(sub, obj[name], p, seen);
      } else walk(sub, undefined, p, seen);
    }
  }
  if (s.items) {
    const items = Array.isArray(value) ? value : [undefined];
    for (const item of items.length > 0 ? items : [undefined]) walk(s.items, item, `${path}[]`, seen);
  }
  if (s.additionalProperties && typeof s.additionalProperties === "object") {
    const values = value && typeof value === "object" && !Array.isArray(value) ? Object.values(value) : [];
    for (const v of values.length > 0 ? values : [undefined]) walk(s.additionalProperties, v, `${path}{}`, seen);
  }
}

/**
 * Field paths a schema declares (`declared`), those whose parent object occurred in an answer
 * (`reached`) and those the answer held (`present`).
 */
interface Seen {
  declared: Set<string>;
  reached: Set<string>;
  present: Set<string>;
}
const newSeen = (): Seen => ({ declared: new Set(), reached: new Set(), present: new Set() });

/** A shared envelope field the reference sets on some routes only (see SHARED_META_FIELDS). */
function matchesWildcard(o: Operation, field: string): boolean {
  const rule = SHARED_META_FIELDS[`${o.doc} ${field}`];
  return rule !== undefined && !rule.routes.includes(o.path);
}

interface Operation {
  doc: DocName;
  path: string;
  op: Schema;
}

let h: FlowHarness;
let docs: Record<DocName, Doc>;
let ours: Record<DocName, Doc>;
/** Path values that exist on the simulated market (a SPY contract and trade that printed today). */
let pathValues: Record<string, string>;

async function operations(): Promise<Operation[]> {
  const out: Operation[] = [];
  for (const doc of DOCS) {
    for (const [path, item] of Object.entries(docs[doc].paths)) {
      for (const [method, op] of Object.entries<Schema>(item)) if (method === "get") out.push({ doc, path, op });
    }
  }
  return out;
}

/** Our OpenAPI operation serving a reference path (on the flow alias for the flow document's own `/v1/openapi.json`). */
function ourOperation(o: Operation): Schema | undefined {
  if (o.doc === "flowseeker" && o.path === "/v1/openapi.json") return ours.flowseeker.paths["/v1/flow/openapi.json"]?.get;
  return ours[o.doc].paths[o.path]?.get;
}

/** A value the simulated market answers for a required parameter (dates and instants by their documented format). */
function requiredValue(o: Operation, p: Schema): string {
  const name: string = p.name;
  const format: string | undefined = p.schema?.format;
  if (o.doc === "atlas" && (name === "from" || name === "to")) return String(Math.floor((name === "from" ? OPEN - 3 * 86_400_000 : OPEN + 30 * 60_000) / 1000));
  if (format === "date-time" || name === "start_time" || name === "end_time" || name === "at") {
    return iso(name === "end_time" ? OPEN + 30 * 60_000 : name === "to" || name === "at" ? OPEN + 10 * 60_000 : OPEN);
  }
  if (name === "expiration") return pathValues.expiration;
  if (format === "date") return name === "from" || name === "start_date" ? PRIOR : TODAY;
  const values: Record<string, string> = {
    symbol: FLOW_TICKER,
    symbols: o.path.startsWith("/v1/contract/") ? pathValues.symbol : FLOW_TICKER,
    tickers: FLOW_TICKER,
    query: FLOW_TICKER.slice(0, 2),
    q: FLOW_TICKER.slice(0, 2),
    resolution: "5",
    interval: "1D",
    bucket: "5min",
  };
  return values[name] ?? String(p.schema?.example ?? "");
}

/** Parameters that keep an operation's work small (fewer sessions); its fields are the same. */
const SMALL_SCOPE: Record<string, string> = {
  "/v1/stats/daily": `from=${TODAY}&to=${TODAY}`,
  "/v1/dark-pool/trades": `date=${PRIOR}&tickers=${"LMT"}`,
  "/v1/dark-pool/daily": `date=${PRIOR}&tickers=${"LMT"}`,
  "/v1/flow/{ticker}/baseline": "lookback_days=2",
  "/v1/flow/{ticker}/momentum": "lookback_days=2",
  // Two sessions after the first with data: two past sessions to compare with instead of twenty.
  "/v1/flow/{ticker}/historical-compare": "date=2023-03-30",
};

/** `query` with the parameters of `extra` set (replacing those of the same name). */
function withParams(query: string, extra: string): string {
  const q = new URLSearchParams(query);
  for (const [k, v] of new URLSearchParams(extra)) q.set(k, v);
  return q.toString();
}

/** Extra probes per operation: the parameters that switch on a documented optional part of the answer. */
const EXTRA_QUERIES: Record<string, string[]> = {
  "/v1/heatmap": ["layout=matrix"],
  "/v1/historical": ["layout=matrix"],
  "/v1/flow/{ticker}": ["include_clusters=true&limit=500"],
  "/v1/aggregate/{ticker}": ["include_breakdown=true&include_moneyness=true&timeframes=1h,1d&time_decay=true"],
  "/v1/contract/{symbol}/trades": ["only_multi_leg=true", "limit=1"],
  "/v1/vol/iv": [`symbols=${FLOW_TICKER},SPY`],
};

beforeAll(async () => {
  const modules = builtinModules.map((m) => (m.name === "volatility" ? vol : m));
  h = flowHarness({ credits: 1_000_000, universe: [FLOW_TICKER], modules });
  await moduleStateOf(h.app.services, vol).warmUp();
  docs = Object.fromEntries(await Promise.all(DOCS.map(async (d) => [d, (await dereference(referencePath(d))) as unknown as Doc]))) as Record<DocName, Doc>;
  const served = async (path: string) => (await body(await h.get(path, { key: null }))) as Doc;
  ours = { atlas: await served("/atlas/v1/openapi.json"), flowseeker: await served("/v1/flow/openapi.json"), "heatseeker-tempest": await served("/v1/openapi.json") };
  // The busiest contract that printed a multi-leg trade today: its rows show the strategy fields,
  // and it has more than one page of one row.
  const feed = await body(await h.get(`/v1/flow/${FLOW_TICKER}?limit=500`));
  const contractOf = (t: Schema) => `${t.optionType}|${t.strike}|${t.expiration}`;
  const counts = new Map<string, number>();
  for (const t of feed.data.trades) counts.set(contractOf(t), (counts.get(contractOf(t)) ?? 0) + 1);
  const multiLeg = feed.data.trades.filter((t: Schema) => t.isMultiLeg);
  const trade = multiLeg.sort((a: Schema, b: Schema) => counts.get(contractOf(b))! - counts.get(contractOf(a))!)[0];
  const right = trade.optionType === "CALL" ? "C" : "P";
  pathValues = {
    ticker: FLOW_TICKER,
    symbol: formatOptionSymbol({ root: FLOW_TICKER, expiry: trade.expiration, right, strike: trade.strike }, "url"),
    trade_id: trade.tradeId,
    sector: "Industrials",
    strike: String(trade.strike),
    expiration: (await body(await h.get(`/v1/underlying/${FLOW_TICKER}/expirations`))).data.find((e: Schema) => e.expiration > TODAY).expiration,
  };
}, 120_000);

afterAll(() => h.app.shutdown(100));

describe("reference operations against what we serve", () => {
  it("serves every reference path and reads every documented parameter", async () => {
    const gaps: string[] = [];
    let checked = 0;
    for (const o of await operations()) {
      const our = ourOperation(o);
      if (!our) {
        gaps.push(`${o.doc} ${o.path}: not in our OpenAPI document`);
        continue;
      }
      const names = new Set<string>((our.parameters ?? []).map((p: Schema) => `${p.in}:${p.name}`));
      for (const p of (o.op.parameters ?? []) as Schema[]) {
        if (p.in !== "query" && p.in !== "path") continue;
        checked++;
        const id = `${o.doc} ${o.path} ${p.in}:${p.name}`;
        if (names.has(`${p.in}:${p.name}`) || PARAMS_NOT_READ.has(id)) continue;
        gaps.push(id);
      }
    }
    expect(gaps.filter((g) => !KNOWN_GAPS.includes(g))).toEqual([]);
    expect(KNOWN_GAPS.filter((g) => g.includes(" query:")).filter((g) => !gaps.includes(g))).toEqual([]); // closed: remove from KNOWN_GAPS
    expect(checked).toBeGreaterThan(400);
  });

  it("answers every documented response field", async () => {
    const gaps: string[] = [];
    let checked = 0;
    let unreached = 0;
    for (const o of await operations()) {
      const okSchema = o.op.responses?.["200"]?.content?.["application/json"]?.schema as Schema | undefined;
      if (!okSchema) continue; // event streams and text answers: their events are checked below
      const url = fillPath(`${PREFIX[o.doc]}${o.path}`, pathValues);
      const required = ((o.op.parameters ?? []) as Schema[]).filter((p) => p.in === "query" && p.required);
      const required_ = required.map((p) => `${p.name}=${encodeURIComponent(requiredValue(o, p))}`).join("&");
      const base = SMALL_SCOPE[o.path] ? withParams(required_, SMALL_SCOPE[o.path]) : required_;
      const queries = [base, ...(EXTRA_QUERIES[o.path] ?? []).map((extra) => withParams(base, extra))];
      const seen = newSeen();
      for (const q of queries) {
        const probe = o.doc === "flowseeker" && o.path === "/v1/openapi.json" ? "/flow-alias/v1/openapi.json" : url;
        const res = await h.get(q ? `${probe}?${q}` : probe);
        if (res.status !== 200) {
          gaps.push(`${o.doc} ${o.path}?${q}: status ${res.status} ${(await res.text()).slice(0, 200)}`);
          continue;
        }
        walk(okSchema, await res.json(), "", seen);
      }
      // A field under an object that never occurred at this small scope (an empty list) is checked
      // against the answer schema we publish for the route, which its handler is typed against.
      const ourSchema = ourOperation(o)?.responses?.["200"]?.content?.["application/json"]?.schema as Schema | undefined;
      const published = newSeen();
      if (ourSchema) walk(ourSchema, undefined, "", published);
      for (const field of seen.declared) {
        checked++;
        const id = `${o.doc} ${o.path} ${field}`;
        if (seen.present.has(field) || NOT_SERVED.has(id) || CONDITIONAL.has(id) || matchesWildcard(o, field)) continue;
        if (!seen.reached.has(field) && published.declared.has(field)) {
          unreached++;
          continue;
        }
        gaps.push(seen.reached.has(field) ? id : `${id} (never reached, not in our schema)`);
      }
    }
    const open = gaps.map((g) => g.replace(/ \(never reached, not in our schema\)$/, ""));
    expect(open.filter((g) => !KNOWN_GAPS.includes(g))).toEqual([]);
    expect(KNOWN_GAPS.filter((g) => !g.includes(" query:")).filter((g) => !open.includes(g))).toEqual([]); // closed: remove from KNOWN_GAPS
    expect(checked).toBeGreaterThan(1000);
    // Most fields are seen in real answers; the schema stands in only for lists empty at this scope.
    expect(unreached).toBeLessThan(checked / 10);
  }, 600_000);

  it("the values behind the fields closed for issue 37 are the real ones", async () => {
    // Levels' previousClose is the heatmap's (the previous session's close of the underlying).
    const heat = await body(await h.get(`/v1/heatmap?symbols=${FLOW_TICKER}`));
    const levels = await h.get(`/v1/gex/levels?symbols=${FLOW_TICKER}`);
    const lv = await body(levels);
    expect(lv.data.symbols[0].previousClose).toBe(heat.data.symbols[0].previousClose);
    expect(lv.data.symbols[0].previousClose).toBe(await h.sim.spot(FLOW_TICKER, sessionBounds(PRIOR).closeMs));
    // The attribution: in meta and, as text and link, in the header of successes and errors alike.
    expect(lv.meta.attribution).toMatchObject({ shareable: false, text: expect.stringContaining("simulated") });
    const header = `${lv.meta.attribution.text} (${lv.meta.attribution.url})`;
    expect(levels.headers.get("X-Skylit-Attribution")).toBe(header);
    expect((await h.get("/v1/heatmap")).headers.get("X-Skylit-Attribution")).toBe(header);
    expect((await h.get("/no-such-path")).headers.get("X-Skylit-Attribution")).toBe(header);
    // The flow alias serves the flow document at the reference's path, with its own server URL.
    const alias = await body(await h.get("/flow-alias/v1/openapi.json", { key: null }));
    expect(Object.keys(alias.paths)).toEqual(Object.keys(ours.flowseeker.paths));
    expect(alias.servers[0].url).toMatch(/\/flow-alias$/);
    // Feed clusters: every sweep fill of a page names its sweep, with the sweep's own print count.
    const feed = await body(await h.get(`/v1/flow/${FLOW_TICKER}?limit=500&timeframe=1d`));
    const sweeps = feed.data.trades.filter((t: Schema) => t.isSweep);
    for (const t of sweeps) expect(t.cluster.clusterId).toMatch(/^sw_/);
    const without = await body(await h.get(`/v1/flow/${FLOW_TICKER}?limit=500&timeframe=1d&include_clusters=false`));
    expect(without.data.trades.some((t: Schema) => "cluster" in t)).toBe(false);
  });

  it("the docs list every field excepted here", () => {
    // The list is in the design log; docs/api.md links to it under the same anchor.
    const doc = (name: string) => readFileSync(fileURLToPath(new URL(`../../../docs/${name}`, import.meta.url)), "utf8");
    expect(doc("api.md")).toContain("design-log.md#fields-we-deliberately-do-not-serve");
    const api = doc("design-log.md");
    const start = api.indexOf("### Fields we deliberately do not serve");
    const section = api.slice(start, api.indexOf("\n### ", start + 1));
    expect(start).toBeGreaterThan(0);
    for (const id of [...NOT_SERVED, ...Object.keys(SHARED_META_FIELDS)]) {
      const [, path, field] = id.split(" ");
      const name = (field ?? path).split(".").pop()!.replace("[]", "");
      expect(section, id).toMatch(new RegExp(`\`[^\`]*\\b${name}\``)); // the name as written there: `meta.delayed`, `strikes[].velocityPct`
      if (field) expect(section, id).toContain(`\`${path}\``);
    }
  });
});
