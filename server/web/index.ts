// Non-API pages a module serves on its host (the price module's chart page).
export { chartPages } from "./chart-page";
export type { WebPage } from "./chart-page";
export { CHART_COUNTBACK } from "./chart/countback";
