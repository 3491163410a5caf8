// Issue 36: hostile values for every query and path parameter of every route, derived from the
// route table (`_hostile-inputs.ts`), run (a) through the transport-free executor and (b) over
// HTTP against one listening server. Never a status >= 500 other than a documented 503, always
// the error envelope in the module's code case, never a charge for a 4xx, never a dropped
// connection. Bounded here; the long run and replaying a seed: test/server/hostile/README.md.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "../../../server/accounts/types";
import { ApiError } from "../../../server/errors";
import { listen, type Listening } from "../../../server/http/listen";
import { allRoutes, executeRoute, type AnyRoute } from "../../../server/modules";
import { mountedRoutes } from "../../../server/modules/define-module";
import { makeHarness, type Harness } from "../_harness";
import { fillPath, hostileRuns, hostileSeed, inModuleCase, pathFor, queryFor, queryString, routePlan, statusAllowed } from "./_hostile-inputs";

const CREDITS = 1_000_000_000;
let h: Harness;
let key: string;
let accountId: string;
let principal: Principal;
let server: Listening;
let origin: string;
let routes: { route: AnyRoute; state: unknown }[] = [];
let seq = 0;
/** Answers seen, by transport and status (printed at the end: the long run's figure). */
const tally: Record<"executor" | "http", Record<string, number>> = { executor: {}, http: {} };
const count = (t: "executor" | "http", status: number, code?: string, route?: AnyRoute) => {
  const key = status >= 500 ? `${status} ${code} ${route?.path}` : String(status);
  tally[t][key] = (tally[t][key] ?? 0) + 1;
};

beforeAll(async () => {
  // No per-address ceiling: one test client sends every request from one address.
  h = makeHarness({ ipCeiling: false });
  // No daily cap and no per-minute limit in the way: every call reaches the route.
  const account = await h.accounts.createAccount({ plan: "top", credits: CREDITS, dailyCapCredits: null, monthlyCapCredits: null, requestsPerMinute: 1_000_000_000 });
  key = account.key;
  accountId = account.accountId;
  principal = await h.accounts.authenticate(`Bearer ${key}`);
  routes = mountedRoutes(h.app.services.modules);
  server = await listen(h.app, { port: 0, hostname: "127.0.0.1" });
  origin = `http://127.0.0.1:${server.port}`;
});

afterAll(async () => {
  const sum = (t: Record<string, number>) => Object.values(t).reduce((a, b) => a + b, 0);
  console.log(`hostile routes: executor ${sum(tally.executor)} calls ${JSON.stringify(tally.executor)}; HTTP ${sum(tally.http)} requests ${JSON.stringify(tally.http)}`);
  // What the fake market could not answer (its unimplemented methods throw): the 503 `data_unavailable`s.
  const failedReads = new Set(h.logs.filter((l) => l.msg === "market_read_failed").map((l) => `${l.method}: ${l.error}`));
  if (failedReads.size) console.log(`market reads that failed: ${[...failedReads].join("; ")}`);
  await server?.close(true);
  await h?.app.shutdown(1_000);
  expect(h.accounts.verifyLedger()).toEqual([]);
});

const balance = () => h.accounts.balance(accountId);
// Every route by host and path, known before the harness exists (the table is static).
const ROUTES = allRoutes.map((r) => ({ name: `${r.host} ${r.path}`, route: r }));
const stateOf = (route: AnyRoute) => routes.find((m) => m.route === route)!.state;
const isStream = (route: AnyRoute) => route.kind === "stream";

/** Cases per route: the total spread over every route (each route gets at least a few). */
const perRoute = (total: number) => Math.max(3, Math.ceil(total / ROUTES.length));
const EXECUTOR_RUNS = perRoute(hostileRuns(3_000));
const HTTP_RUNS = perRoute(hostileRuns(900));
const SEED = hostileSeed(36);

describe("hostile parameters through the route executor", () => {
  it.each(ROUTES)("$name", async ({ route }) => {
    const plan = routePlan(route);
    await fc.assert(
      fc.asyncProperty(queryFor(plan), pathFor(plan), async (entries, params) => {
        const search = new URLSearchParams();
        for (const [k, v] of entries) search.append(k, v);
        const before = await balance();
        const caller = route.auth === "none" ? null : principal;
        let status = 200;
        let error: ApiError | null = null;
        try {
          const run = await executeRoute(h.app.services, {
            route,
            state: stateOf(route),
            principal: caller,
            query: search,
            params,
            requestId: `req_hostile_${++seq}`,
            // Stream routes read the request (upgrade, headers), as they do over HTTP.
            request: isStream(route) ? new Request(`http://127.0.0.1${fillPath(route, params, false)}?${search}`) : null,
          });
          await run.result.response?.body?.cancel();
        } catch (thrown) {
          expect(thrown, "the executor throws only ApiError").toBeInstanceOf(ApiError);
          error = thrown as ApiError;
          status = error.status;
        }
        count("executor", status, error?.code, route);
        expect(statusAllowed(status, error?.code), `${status} ${error?.code}: ${error?.message}`).toBe(true);
        if (error) {
          // The executor speaks the spec's lower-case codes; transports render the module's case.
          expect(error.code).toBe(error.code.toLowerCase());
          expect(await balance(), `${error.code} is not charged`).toBe(before);
          if (caller && route.cost !== 0) expect(error.creditsRemaining).toBe(before);
        }
      }),
      { numRuns: EXECUTOR_RUNS, seed: SEED, endOnFailure: true },
    );
  });
});

interface Exchange {
  status: number;
  code?: string;
  body: unknown;
  creditsHeader: string | null;
}

const PATTERNS = ROUTES.map(({ route }) => ({ route, re: new RegExp(`^${route.path.replace(/:\w+/g, "[^/]+")}$`), params: (route.path.match(/:/g) ?? []).length }));

/**
 * The route a path reaches on the host behind `prefix` (static paths before parameters, as the
 * router picks), or a stand-in for the host itself when none does (unrouted: upper-case on the
 * flow alias, lower-case elsewhere).
 */
function routeAt(prefix: string, pathname: string): AnyRoute {
  const hosts = prefix === "/atlas" ? ["atlas"] : prefix === "/flow-alias" ? ["flow"] : ["base", "flow"];
  const hits = PATTERNS.filter((p) => hosts.includes(p.route.host) && p.re.test(pathname)).sort((a, b) => a.params - b.params);
  return hits[0]?.route ?? ({ host: prefix === "/flow-alias" ? "flow" : "base" } as AnyRoute);
}

/** One GET over the socket; null when the connection dropped (reset, closed without an answer). */
async function httpGet(url: string, route: AnyRoute): Promise<Exchange | null> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
  } catch {
    return null;
  }
  const type = res.headers.get("content-type") ?? "";
  if (res.status < 400 && (isStream(route) || type.startsWith("text/event-stream"))) {
    await res.body?.cancel();
    return { status: res.status, body: null, creditsHeader: res.headers.get("x-credits-remaining") };
  }
  let text: string;
  try {
    text = await res.text();
  } catch {
    return null;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  const b = body as { error?: { code?: unknown } | string; code?: unknown; success?: unknown } | null;
  // The price host's `/v1/symbols` answers UDF's `{success: false, error: <text>, code}` (spec, Errors rule 5).
  const code = typeof b?.error === "object" ? b.error?.code : b?.success === false ? b.code : undefined;
  return { status: res.status, code: typeof code === "string" ? code : undefined, body, creditsHeader: res.headers.get("x-credits-remaining") };
}

describe("hostile parameters over HTTP (one listening server)", () => {
  it.each(ROUTES)("$name", async ({ route }) => {
    const plan = routePlan(route);
    const prefixes = route.host === "atlas" ? ["/atlas"] : route.host === "flow" ? ["", "/flow-alias"] : [""];
    await fc.assert(
      fc.asyncProperty(queryFor(plan), pathFor(plan), fc.boolean(), fc.constantFrom(...prefixes), async (entries, params, raw, prefix) => {
        // Raw path values that would change the URL's shape (a `/`, `?` or `#`) are sent encoded.
        const rawPath = raw && Object.values(params).every((v) => !/[/?#]/.test(v));
        let url: string;
        try {
          url = new URL(`${origin}${prefix}${fillPath(route, params, rawPath)}?${queryString(entries, raw)}`).href;
        } catch {
          return; // Not a URL at all: no HTTP client can send it.
        }
        const before = await balance();
        const r = await httpGet(url, route);
        count("http", r?.status ?? 0, r?.code, route);
        expect(r, `connection dropped: ${url}`).not.toBeNull();
        const { status, code, body, creditsHeader } = r!;
        expect(statusAllowed(status, code), `${status} ${JSON.stringify(body).slice(0, 300)} for ${url}`).toBe(true);
        if (status >= 400) {
          expect(code, `error envelope for ${url}: ${JSON.stringify(body).slice(0, 200)}`).toEqual(expect.any(String));
          // A value such as `..`, `.` or a control character can move the URL to another route or to
          // none (the URL parser folds or drops it): the case is that of the route that answered.
          const style = routeAt(prefix, new URL(url).pathname.slice(prefix.length));
          expect(inModuleCase(style, code!), `${code} in ${style.host}'s case for ${url}`).toBe(true);
          expect(await balance(), `${status} ${code} is not charged`).toBe(before);
          if (creditsHeader !== null) expect(Number(creditsHeader)).toBe(before);
        } else if (body !== null && route.envelope !== false && route.kind !== "stream") {
          expect(body).toHaveProperty("data");
          expect(body).toHaveProperty("meta");
        }
      }),
      { numRuns: HTTP_RUNS, seed: SEED, endOnFailure: true },
    );
  });
});
