// The client's types follow the server's schemas (checked by `tsc --noEmit`, which covers test/):
// required parameters are required, defaults optional, lists accepted, responses typed.
import { describe, expectTypeOf, it } from "vitest";
import type { OptionscopeClient, RequestOf, ResponseOf, Operations } from "../../lib/client";

describe("client types", () => {
  it("requests: required where the server requires, optional where it defaults, lists for comma-separated values", () => {
    type Heatmap = RequestOf<Operations["getHeatmap"]>;
    expectTypeOf<{ symbols: string }>().toExtend<Heatmap>();
    expectTypeOf<{ symbols: string[]; metric: "vanna"; maxStrikes: "all"; includeEmpty: true }>().toExtend<Heatmap>();
    expectTypeOf<{ metric: "gamma" }>().not.toExtend<Heatmap>();
    // delta, charm and vomma joined gamma and vanna (issue 37); a value outside the five is still refused.
    expectTypeOf<{ symbols: "SPY"; metric: "theta" }>().not.toExtend<Heatmap>();
    type History = RequestOf<Operations["getHistory"]>;
    expectTypeOf<{ symbol: "SPY"; resolution: "5"; from: number; to: number }>().toExtend<History>();
    expectTypeOf<{ symbol: "SPY"; resolution: "5" }>().not.toExtend<History>();
    // An instant goes on the wire as RFC 3339 text.
    expectTypeOf<{ symbols: "SPY"; at: string }>().toExtend<RequestOf<Operations["getHistoricalHeatmap"]>>();
  });

  it("responses: data and meta typed from the route's schemas; no-argument routes callable bare", () => {
    expectTypeOf<ResponseOf<Operations["getHeatmap"]>["data"]["symbols"][number]["spot"]>().toEqualTypeOf<number>();
    expectTypeOf<ResponseOf<Operations["getHeatmap"]>["meta"]["metric"]>().toEqualTypeOf<"gamma" | "vanna" | "delta" | "charm" | "vomma">();
    expectTypeOf<ResponseOf<Operations["getServerTime"]>["data"]>().toEqualTypeOf<number>();
    expectTypeOf<ResponseOf<Operations["getAccount"]>["creditsRemaining"]>().toEqualTypeOf<number | null>();
    expectTypeOf<OptionscopeClient["getAccount"]>().toBeCallableWith();
    expectTypeOf<OptionscopeClient["getMarks"]>().toBeCallableWith({ symbol: "SPY", resolution: "D", from: 1, to: 2 });
  });
});
