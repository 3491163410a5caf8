// Shared by the chart page's script (./app) and the tests that replay its requests.

/** Bars asked per load: within every tier's cap (500 daily, 500 weekly = 2,500 days, 500 x 8h = 500 days). */
export const CHART_COUNTBACK = 500;
