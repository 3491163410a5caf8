// Hostile inputs derived from the route table (issue 36). For every query and path parameter of a
// route, its zod schema (through its JSON Schema: type, enum, bounds, format, examples) says what
// is valid; the generator answers with the edges of that (schema-valid values a handler may still
// choke on: dates far outside the served window, 0 and 1.5 as Unix seconds, huge integers) and with
// what is not valid (wrong types, out-of-range numbers and dates, oversized strings, bad
// percent-encodings, prototype names, empty values), plus repeated and unknown keys.
import fc from "fast-check";
import { z } from "zod";
import type { AnyRoute } from "../../../server/modules";

/** Number of generated cases: `HOSTILE_RUNS` (the long run) or the file's bounded default. */
export function hostileRuns(fallback: number): number {
  const n = Number(process.env.HOSTILE_RUNS);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/** `HOSTILE_SEED` replays a printed seed (`random`: a new seed each run); default a fixed one. */
export function hostileSeed(fallback: number): number | undefined {
  const raw = process.env.HOSTILE_SEED;
  if (raw === "random") return undefined;
  const n = Number(raw);
  return raw !== undefined && raw !== "" && Number.isInteger(n) ? n : fallback;
}

/** Names that are keys of every object through its prototype. */
export const PROTOTYPE_NAMES = ["constructor", "__proto__", "prototype", "toString", "hasOwnProperty", "valueOf", "__defineGetter__", "isPrototypeOf"];

/** Values every parameter gets: wrong types, encodings, injections, prototype names, sizes. */
export const HOSTILE_VALUES: readonly string[] = [
  "",
  " ",
  "%",
  "%ZZ",
  "%00",
  "%2e%2e%2f",
  "%C0%AE",
  "%E2%82",
  "..",
  "../../etc/passwd",
  "/",
  "?",
  "#",
  "&",
  "=",
  "+",
  "<script>alert(1)</script>",
  "'; DROP TABLE accounts;--",
  '"',
  "\\",
  "\u0000",
  "\u0007",
  "\uFFFF",
  "\uD800",
  "💥",
  "ｓｐｙ",
  ...PROTOTYPE_NAMES,
  "null",
  "undefined",
  "NaN",
  "Infinity",
  "-Infinity",
  "true",
  "false",
  "[]",
  "{}",
  "[1,2]",
  '{"a":1}',
  '{"__proto__":{"x":1}}',
  "all",
  "ALL",
  ",",
  ",,,",
  " , ",
  "SPY,".repeat(40),
  "a".repeat(64),
  "9".repeat(40),
  "x".repeat(4096),
  "x".repeat(4097),
  "x".repeat(20_000),
];

/** Numbers as text: signs, fractions, exponents, bases, overflows, around common bounds. */
const NUMBER_VALUES = [
  "0",
  "-0",
  "1",
  "-1",
  "1.5",
  "-1.5",
  "0.0001",
  "2",
  "5",
  "10",
  "31",
  "100",
  "101",
  "500",
  "501",
  "1000",
  "10000",
  "100000",
  "2147483647",
  "2147483648",
  "9007199254740993",
  "999999999999",
  "-999999999999",
  "999999999999999",
  "1e3",
  "1e309",
  "-1e309",
  "1E-7",
  "0x10",
  "0b1",
  "017",
  " 5",
  "5 ",
  "+5",
  "5.",
  ".5",
  "1,000",
  "1_000",
];

/** Calendar dates: inside, at and outside every window a route serves, and impossible ones. */
const DATE_VALUES = [
  "2024-03-06",
  "2024-03-05",
  "2024-03-04",
  "2024-03-01",
  "2024-02-29",
  "2024-03-09",
  "2024-03-07",
  "2024-01-01",
  "2023-12-25",
  "2023-03-28",
  "2023-03-27",
  "2022-06-01",
  "2020-01-01",
  "2019-12-31",
  "2030-12-31",
  "2031-01-01",
  "1970-01-01",
  "1969-12-31",
  "1900-01-01",
  "2099-01-01",
  "2199-12-31",
  "2200-01-01",
  "9999-12-31",
  "0000-01-01",
  "2023-02-29",
  "2024-02-30",
  "2024-13-01",
  "2024-3-6",
  "20240306",
  "2024/03/06",
  "2024-03-06,2024-03-07",
  "2024-03-06T00:00:00Z",
];

/** Instants: RFC 3339, Unix seconds, epoch ms and ns, near and far. */
const INSTANT_VALUES = [
  "2024-03-06T14:30:00Z",
  "2024-03-06T15:00:00Z",
  "2024-03-06T09:30:00-05:00",
  "2024-03-05T20:59:00Z",
  "2024-03-06T14:30:00.123456789Z",
  "2099-01-01T00:00:00Z",
  "1900-01-01T00:00:00Z",
  "1970-01-01T00:00:00Z",
  "9999-12-31T23:59:59Z",
  "2024-03-06T25:61:00Z",
  "2024-03-06T14:30:00",
  "2024-03-06 14:30:00Z",
  "1709737200",
  "1709737200.5",
  "1709737200000",
  "1709737200000000000",
  "0",
  "1.5",
  "99999999999",
  "999999999999",
  "99999999999999999999",
  "18446744073709551616",
  "-1709737200",
];

/** Clock times, resolutions, intervals. */
const TIME_VALUES = ["09:30", "00:00", "23:59", "24:00", "9:30", "09:60", "16:00", "1", "5", "15", "30", "60", "D", "1D", "W", "M", "5m", "1h", "1d", "0m"];

/** Tickers, lists and contract symbols: known, unknown, malformed. */
const SYMBOL_VALUES = [
  "SPY",
  "QQQ",
  "SPXW",
  "AAPL",
  "spy",
  " SPY ",
  "SPY,QQQ",
  "SPXW,SPY,QQQ",
  "ZZZZ",
  "SPY,ZZZZ",
  "BRK.B",
  "A".repeat(12),
  "A".repeat(13),
  "SPY__250620C00590000",
  "SPY__240308C00510000",
  "SPXW__240315C05100000",
  "SPY240308C00510000",
  "SPY__991231C99999999",
  "SPY__240230C00510000",
  "XLK",
  "XLF",
  "Technology",
  "AAPL-20240308-C-180",
  "1",
  "-",
  "_",
  ".",
];

const POOL = [...new Set([...HOSTILE_VALUES, ...NUMBER_VALUES, ...DATE_VALUES, ...INSTANT_VALUES, ...TIME_VALUES, ...SYMBOL_VALUES])];

interface JsonSchemaLike {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  examples?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  anyOf?: JsonSchemaLike[];
  oneOf?: JsonSchemaLike[];
}

/** Values the parameter's JSON Schema names: its enum, examples, default, bounds and one past them. */
function schemaValues(field: z.ZodType): string[] {
  let js: JsonSchemaLike;
  try {
    js = z.toJSONSchema(field, { io: "input", unrepresentable: "any" }) as JsonSchemaLike;
  } catch {
    return [];
  }
  const out: string[] = [];
  const visit = (s: JsonSchemaLike) => {
    for (const v of [...(s.enum ?? []), ...(s.examples ?? []), ...(s.const !== undefined ? [s.const] : []), ...(s.default !== undefined ? [s.default] : [])]) {
      if (v === null || typeof v === "object") continue;
      const t = String(v);
      out.push(t, t.toUpperCase(), t.toLowerCase(), `${t},${t}`, `${t} `);
    }
    for (const b of [s.minimum, s.maximum, s.exclusiveMinimum, s.exclusiveMaximum]) {
      if (typeof b === "number") out.push(String(b), String(b - 1), String(b + 1), String(b - 0.5), String(b * 10));
    }
    if (typeof s.maxLength === "number" && s.maxLength < 5000) out.push("A".repeat(s.maxLength), "A".repeat(s.maxLength + 1));
    for (const sub of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) visit(sub);
  };
  visit(js);
  return out;
}

/** One parameter: the values its schema accepts (edges to reach the handler) and refuses. */
export interface ParamPlan {
  name: string;
  valid: string[];
  invalid: string[];
}

function planOf(name: string, field: z.ZodType): ParamPlan {
  const valid: string[] = [];
  const invalid: string[] = [];
  for (const v of new Set([...schemaValues(field), ...POOL])) {
    // As `validateParams` sees it: an empty value counts as absent.
    const input = v.trim() === "" ? undefined : v;
    let ok: boolean;
    try {
      ok = field.safeParse(input).success;
    } catch {
      ok = false; // A schema that throws is a finding of its own: the request will show it.
    }
    (ok ? valid : invalid).push(v);
  }
  return { name, valid, invalid };
}

/** The parameters of one route, from its schemas. */
export interface RoutePlan {
  route: AnyRoute;
  query: ParamPlan[];
  path: ParamPlan[];
}

const plans = new WeakMap<AnyRoute, RoutePlan>();

export function routePlan(route: AnyRoute): RoutePlan {
  let p = plans.get(route);
  if (!p) {
    const shapeOf = (s: z.ZodObject | undefined) => Object.entries((s?.shape ?? {}) as Record<string, z.ZodType>);
    p = {
      route,
      query: shapeOf(route.query).map(([n, f]) => planOf(n, f)),
      path: shapeOf(route.params).map(([n, f]) => planOf(n, f)),
    };
    plans.set(route, p);
  }
  return p;
}

// The free-form string arbitraries, built once: building an `fc.string` tokenises fast-check's
// list of dangerous strings against its unit (about 5 ms each), which was most of what the hostile
// files spent when every parameter of every route built its own. Arbitraries are stateless, so a
// shared one generates exactly what a fresh one would.
const ANY_STRING_24 = fc.string({ maxLength: 24 });
const BINARY_STRING_12 = fc.string({ unit: "binary", maxLength: 12 });
const ANY_NUMBER_TEXT = fc.oneof(fc.integer(), fc.double({ noDefaultInfinity: false })).map(String);
const ANY_STRING_8 = fc.string({ maxLength: 8 });
const ANY_STRING_12 = fc.string({ maxLength: 12 });

/** A value for one parameter: mostly from its plan, sometimes anything fast-check makes up. */
export function valueFor(p: ParamPlan, validWeight: number): fc.Arbitrary<string> {
  const arbs: fc.WeightedArbitrary<string>[] = [
    { weight: 4, arbitrary: fc.constantFrom(...(p.invalid.length ? p.invalid : HOSTILE_VALUES)) },
    { weight: 1, arbitrary: ANY_STRING_24 },
    { weight: 1, arbitrary: BINARY_STRING_12 },
    { weight: 1, arbitrary: ANY_NUMBER_TEXT },
  ];
  if (p.valid.length && validWeight > 0) arbs.push({ weight: validWeight, arbitrary: fc.constantFrom(...p.valid) });
  return fc.oneof(...arbs);
}

/** True when the schema refuses an absent value (the route cannot run without it). */
function required(route: AnyRoute, name: string): boolean {
  const field = (route.query.shape as Record<string, z.ZodType>)[name];
  try {
    return !field?.safeParse(undefined).success;
  } catch {
    return false;
  }
}

/**
 * The query of one call as ordered `[name, value]` pairs: each known parameter absent or given an
 * edge-valid or hostile value (required ones mostly present, so calls get past "missing" to the
 * handler), then unknown and prototype names and a repeat of a known one. `validWeight` 0 keeps
 * expensive routes' queries invalid (they fail fast at validation).
 */
export function queryFor(plan: RoutePlan, validWeight = 4): fc.Arbitrary<[string, string][]> {
  // About three optional parameters per call, whatever the route's count.
  const optionalShare = Math.min(0.5, 3 / Math.max(1, plan.query.length));
  const known = plan.query.map((p) => {
    const present = required(plan.route, p.name) ? 0.9 : optionalShare;
    const w = Math.round(present * 100);
    return fc.oneof({ weight: 100 - w, arbitrary: fc.constant(null) }, { weight: w, arbitrary: valueFor(p, validWeight).map((v): [string, string] => [p.name, v]) });
  });
  const unknownName = fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES, "x", "", "symbols[]", "a.b", "%00"), ANY_STRING_8);
  const unknown = fc.tuple(unknownName, fc.oneof(fc.constantFrom(...HOSTILE_VALUES), ANY_STRING_12));
  return fc
    .tuple(
      fc.tuple(...known),
      fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, { weight: 2, arbitrary: fc.array(unknown, { minLength: 1, maxLength: 2 }) }),
      fc.nat(9),
      fc.nat(4),
    )
    .map(([picked, extra, pos, repeat]) => {
      const entries = picked.filter((e): e is [string, string] => e !== null);
      if (repeat === 0 && entries.length) entries.push(entries[pos % entries.length]!);
      entries.splice(pos % (entries.length + 1), 0, ...extra);
      return entries;
    });
}

/** Path parameters: every one the route has, edge-valid or hostile. */
export function pathFor(plan: RoutePlan, validWeight = 4): fc.Arbitrary<Record<string, string>> {
  const rec: Record<string, fc.Arbitrary<string>> = {};
  for (const p of plan.path) rec[p.name] = valueFor(p, validWeight).filter((v) => v !== "");
  return fc.record(rec);
}

/** The route's path with its parameters filled in, percent-encoded or (`raw`) as they are. */
export function fillPath(route: AnyRoute, params: Record<string, string>, raw: boolean): string {
  return route.path.replace(/:(\w+)/g, (_, name: string) => (raw ? params[name]! : encodeURIComponent(params[name]!)));
}

/** The query string of `entries`, percent-encoded or (`raw`) as they are. */
export function queryString(entries: readonly [string, string][], raw: boolean): string {
  return entries.map(([k, v]) => (raw ? `${k}=${v}` : `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)).join("&");
}

/** The spec's 503 codes (a service state, not a fault): maintenance, warm-up, an unreachable store or market. */
const DOCUMENTED_503 = new Set(["api_paused", "warming_up", "store_unavailable", "data_unavailable", "credit_check_failed", "stream_capacity", "stream_unavailable"]);

/** Codes that stay lower-case on the flow module (spec, Errors rule 3). */
const FLOW_LOWER_CASE = new Set(["insufficient_credits", "account_suspended", "credit_check_failed"]);

/**
 * Codes of requests refused before any route saw them (Node's parser, the socket limits, the
 * per-address ceiling): the gateway layer's, lower-case on every host (docs/api.md#errors).
 */
const GATEWAY_CODES = new Set(["invalid_request", "uri_too_long", "header_too_large", "request_timeout", "request_too_large", "ip_rate_limited"]);

/** Whether `code` is spelled as the route's module spells it (docs/api.md#errors). */
export function inModuleCase(route: AnyRoute, code: string): boolean {
  if (GATEWAY_CODES.has(code)) return true;
  if (route.host === "flow" && !FLOW_LOWER_CASE.has(code.toLowerCase())) return code === code.toUpperCase() && code !== code.toLowerCase();
  return code === code.toLowerCase();
}

/** A status that is allowed: anything below 500, or a documented 503. */
export function statusAllowed(status: number, code: string | undefined): boolean {
  return status < 500 || (status === 503 && code !== undefined && DOCUMENTED_503.has(code.toLowerCase()));
}
