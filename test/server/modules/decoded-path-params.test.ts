// Path parameters are percent-decoded once, by the executor, before validation: handlers read the
// decoded text, and a value that is not valid percent-encoding reaches validation as written (over
// HTTP a malformed path is answered 400 before any route runs; test/server/http/).
import { describe, expect, it } from "vitest";
import { decodedPathParams } from "../../../server/modules/execute-route";

describe("decodedPathParams", () => {
  it("decodes every value once", () => {
    expect(decodedPathParams({ symbol: "XOM%20%20%20240308C00152500", sector: "Health%20Care", ticker: "SPY", trade_id: "%2541" })).toEqual({
      symbol: "XOM   240308C00152500",
      sector: "Health Care",
      ticker: "SPY",
      trade_id: "%41",
    });
  });

  it("keeps a value that is not valid percent-encoding as written", () => {
    expect(decodedPathParams({ ticker: "SP%ZZ", symbol: "%", sector: "%E0%A4%A" })).toEqual({ ticker: "SP%ZZ", symbol: "%", sector: "%E0%A4%A" });
  });
});
