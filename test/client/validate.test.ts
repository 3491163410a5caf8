// `validateResponses` now that the client's route table carries no schema: `true` loads the
// generated schema table on first use, a passed table is used as it is, and a mismatch rejects
// the call with the route's own ZodError while a matching body resolves unchanged.
import { describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { createClient, type ResponseSchemas } from "../../lib/client";
import { operationSchemas } from "../../lib/client/schemas";

/** A fetch that answers every request with `body` (JSON) and the URLs it was asked for. */
function fixedFetch(body: unknown) {
  const urls: string[] = [];
  const doFetch = async (input: string) => {
    urls.push(input);
    return new Response(JSON.stringify(body), { status: 200, headers: { "Content-Type": "application/json" } });
  };
  return { fetch: doFetch, urls };
}

const base = { baseUrl: "http://api.test", apiKey: "k", rateLimitPacing: false as const, maxAttempts: 1 };

describe("validateResponses", () => {
  it("true: loads the schema table and rejects a body its route's data schema refuses", async () => {
    // getServerTime's data is an integer (Unix seconds): 1.5 is refused, 1700000000 passes.
    const bad = createClient({ ...base, fetch: fixedFetch(1.5).fetch, validateResponses: true });
    await expect(bad.getServerTime()).rejects.toBeInstanceOf(ZodError);
    const good = createClient({ ...base, fetch: fixedFetch(1_700_000_000).fetch, validateResponses: true });
    expect((await good.getServerTime()).data).toBe(1_700_000_000);
  });

  it("a passed table (the bundled page's form): the same checks from operationSchemas", async () => {
    const bad = createClient({ ...base, fetch: fixedFetch({ data: { unexpected: true }, meta: {} }).fetch, validateResponses: operationSchemas });
    await expect(bad.getAccount()).rejects.toBeInstanceOf(ZodError);
    const good = createClient({ ...base, fetch: fixedFetch(1_700_000_000).fetch, validateResponses: operationSchemas });
    expect((await good.getServerTime()).data).toBe(1_700_000_000);
  });

  it("a table naming fewer methods checks only those; no validation passes any body through", async () => {
    const onlyTime: ResponseSchemas = { getServerTime: operationSchemas.getServerTime };
    const partial = createClient({ ...base, fetch: fixedFetch({ data: "not an account", meta: {} }).fetch, validateResponses: onlyTime });
    expect((await partial.getAccount()).data).toBe("not an account");
    const off = createClient({ ...base, fetch: fixedFetch(1.5).fetch });
    expect((await off.getServerTime()).data).toBe(1.5);
  });

  it("path parameters fill the path and stay out of the query (found in the path, not a schema)", async () => {
    const f = fixedFetch({ data: [], meta: {} });
    const api = createClient({ ...base, fetch: f.fetch });
    await api.getSweepMonitor({ ticker: "SPY", limit: 5 });
    expect(f.urls).toEqual(["http://api.test/v1/sweeps/SPY?limit=5"]);
  });
});
