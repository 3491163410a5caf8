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

/** Response header naming the data's source, sent on every routed response (docs/api.md#attribution). */
export const ATTRIBUTION_HEADER = "X-Skylit-Attribution";

/**
 * The header's value: the attribution text and its link, as the reference's header spells it.
 * @example attributionHeaderValue(true) // "Data: optionscope simulated market (not real market data) (https://github.com/optionscope/optionscope)"
 */
export function attributionHeaderValue(simulated: boolean): string {
  const a = attribution(simulated);
  return `${a.text} (${a.url})`;
}
