/**
 * How to credit the data (the spec's `attribution` object), labelled simulated when the market
 * is the simulator. Shared by every module's `meta` and the streams' `connected` event.
 */
export function attribution(simulated: boolean) {
  return {
    text: simulated ? "Data: optionscope simulated market (not real market data)" : "Data: optionscope",
    url: "https://github.com/optionscope/optionscope",
    required: false,
    license: "personal",
    shareable: !simulated,
    shareClass: "derived",
    terms: "https://github.com/optionscope/optionscope/blob/main/docs/api.md#attribution",
  };
}
