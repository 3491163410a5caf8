// Non-API pages a module serves on its host (the price module's chart page).
export { chartPages } from "./chart-page";
export type { WebPage } from "./chart-page";
export { chartHtml } from "./chart-html";
export { CHART_CLIENT_JS, CHART_COUNTBACK } from "./chart-client";
export { lightweightChartsSource } from "./lightweight-charts-asset";
