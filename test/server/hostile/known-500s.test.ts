// Issue 36: the bad inputs hostile runs found answered `500 internal_error` (or, for the dark-pool
// dates, never answered). Each is now the spec's `400 invalid_parameter` naming the parameter and
// what is allowed, not charged, or a plain answer where the input is allowed.
import { afterEach, describe, expect, it } from "vitest";
import { closeConsoleHarnesses, makeConsoleHarness } from "../console/_console-harness";
import { calendarDates } from "../../../server/modules/flow/shared/date-params";
import { makeHarness } from "../_harness";

async function expectRefused(path: string, param: string, code: string, allowed: RegExp) {
  const h = makeHarness({ credits: 1000 });
  const res = await h.get(path);
  const body = (await res.json()) as { error: { code: string; message: string } };
  expect(res.status, path).toBe(400);
  expect(body.error.code).toBe(code);
  expect(body.error.message).toContain(`\`${param}\``);
  expect(body.error.message).toMatch(allowed);
  expect(res.headers.get("x-credits-remaining")).toBe("1000");
  expect(await h.accounts.balance(h.accountId)).toBe(1000);
  for (const row of h.accounts.verifyLedger()) expect(row.balance).toBe(row.ledgerSum);
}

describe("inputs that once gave 500", () => {
  it("/v1/underlying/{ticker}/trades: start or end of 0 or 1.5 (Unix seconds of 1970) is 400 naming it", async () => {
    for (const param of ["start", "end"]) {
      for (const v of ["0", "1.5"]) await expectRefused(`/v1/underlying/SPY/trades?${param}=${v}`, param, "INVALID_PARAMETER", /from 2023-03-28 to now/);
    }
  });

  it("/v1/contract/{symbol}/trades: start or end of 0 or 1.5 is 400 naming it", async () => {
    for (const param of ["start", "end"]) {
      for (const v of ["0", "1.5"]) await expectRefused(`/v1/contract/SPY__250620C00590000/trades?${param}=${v}`, param, "INVALID_PARAMETER", /from 2023-03-28 to now/);
    }
  });

  it("/v1/vol/history: a `to` (or `from`) outside the calendar's years is 400 naming it", async () => {
    for (const v of ["2099-01-01", "1900-01-01"]) {
      await expectRefused(`/v1/vol/history?symbols=SPY&to=${v}`, "to", "invalid_parameter", /from 2020-01-01 to 2030-12-31/);
      await expectRefused(`/v1/vol/history?symbols=SPY&from=${v}&to=2024-03-01`, "from", "invalid_parameter", /from 2020-01-01 to 2030-12-31/);
    }
    // The default window of an early `to` starts at the calendar's first day rather than before it.
    const h = makeHarness({ credits: 1000 });
    const res = await h.get("/v1/vol/history?symbols=SPY&to=2020-01-10");
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { from: string } }).data.from).toBe("2020-01-01");
  });

  // Found by the generated hostile inputs (routes.property.test.ts).
  it("/v1/score/{trade_id}: a time id outside the calendar (nanosecond 60, 1) is 400 naming trade_id", async () => {
    for (const id of ["60", "1", "flow_3c_0"]) await expectRefused(`/v1/score/${id}`, "trade_id", "INVALID_PARAMETER", /from 2023-03-28 to now/);
  });

  it("/v1/flow/{ticker}/tide, /strikes, /aggregate: a start_time of 0, 1.5 or year 33658 is 400 naming start_time", async () => {
    for (const route of ["tide", "strikes", "aggregate"]) {
      for (const v of ["0", "1.5", "999999999999"]) {
        const end = v === "999999999999" ? v : "1709739200"; // `start_time` after `end_time` is a 400 of its own
        await expectRefused(`/v1/flow/SPY/${route}?start_time=${v}&end_time=${end}`, "start_time", "INVALID_PARAMETER", /from 2023-03-28 to now/);
      }
    }
  });

  it("/v1/flow/{ticker}/momentum: an as_of before the first session (0, 2019) is 400 naming as_of", async () => {
    for (const v of ["0", "1.5", "1546300800", "2023-03-28T13:29:00Z"]) {
      await expectRefused(`/v1/flow/SPY/momentum?as_of=${v}`, "as_of", "INVALID_PARAMETER", /first session \(2023-03-28\)/);
    }
  });

  it("/v1/marks and /v1/timescale_marks: a window reaching outside the calendar is clipped to it (200), not a 500", async () => {
    const h = makeHarness({ credits: 1000 });
    const all = await h.get("/atlas/v1/marks?symbol=SPY&from=0&to=99999999999&resolution=D");
    expect(all.status).toBe(200);
    const inside = await h.get("/atlas/v1/marks?symbol=SPY&from=1577854800&to=1709737200&resolution=D");
    expect(await all.json()).toEqual(await inside.json());
    for (const q of ["from=0&to=1", "from=-999999999999999&to=999999999999999", "from=4102444800&to=4102531200"]) {
      for (const path of ["marks", "timescale_marks"]) {
        const res = await h.get(`/atlas/v1/${path}?symbol=SPY&${q}&resolution=D`);
        expect(res.status, `${path}?${q}`).toBe(200);
        expect(Array.isArray(await res.json())).toBe(true);
      }
    }
  });
});

describe("console forms that once gave 500", () => {
  afterEach(closeConsoleHarnesses);

  it("POST /console/api/keys/{keyId}/revoke and /apps/{appId}/revoke with broken percent-encoding are 400 invalid_request", async () => {
    const h = await makeConsoleHarness();
    const acct = await h.newAccount();
    const c = h.client();
    expect((await c.signIn(acct.accountId)).status).toBe(200);
    for (const path of ["/console/api/keys/%E2%82/revoke", "/console/api/apps/%ZZ/revoke", "/console/api/keys/%/revoke"]) {
      const res = await c.post(path);
      expect(res.status, path).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invalid_request");
    }
    // The key the id could not name is untouched.
    expect((await h.api("/v1/account", acct.key)).status).toBe(200);
  });
});

describe("dark-pool dates at the end of the calendar", () => {
  // Before the fix, the day after 9999-12-31 ("+010000-01-01") sorted before it and the date loop
  // never ended: one request filled the heap and killed the process (found by the long run).
  it("calendarDates counts days instead of comparing text", () => {
    expect(calendarDates("9999-12-30", "9999-12-31")).toEqual(["9999-12-30", "9999-12-31"]);
    expect(calendarDates("2024-02-28", "2024-03-01")).toEqual(["2024-02-28", "2024-02-29", "2024-03-01"]);
    expect(calendarDates("2024-03-02", "2024-03-01")).toEqual([]);
  });

  it("every dark-pool route answers a date of 9999-12-31, or 2200-01-01 with time_start (once a 500): 200, no rows", async () => {
    const h = makeHarness({ credits: 1000 });
    for (const path of [
      "/v1/dark-pool/daily?date=9999-12-31",
      "/v1/dark-pool/trades?date=9999-12-31",
      "/v1/dark-pool/trades?date_end=2200-01-01&time_start=09:30",
      "/v1/dark-pool/levels/SPY?date_start=9999-12-31&date_end=9999-12-31",
      "/v1/dark-pool/top-prints/SPY?as_of_date=9999-12-31",
    ]) {
      const res = await h.get(path);
      expect(res.status, path).toBe(200);
      expect(((await res.json()) as { data: unknown[] }).data).toEqual([]);
    }
  });
});
