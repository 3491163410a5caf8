// Non-API pages served by the host apps (the chart page of the price module).
import { chartPages, type WebPage } from "./chart-page";

export type { WebPage } from "./chart-page";
export { chartHtml } from "./chart-html";
export { CHART_CLIENT_JS, CHART_COUNTBACK } from "./chart-client";
export { lightweightChartsSource } from "./lightweight-charts-asset";

/** Every page, registered on its host by `buildHostApp`. */
export const webPages: WebPage[] = [...chartPages];
