// The chart page's HTML: a toolbar (symbol, resolution, extended hours, API key) over one chart.
import { RESOLUTIONS } from "../../lib/price";
import { NAV_CSS, pageNav } from "./page-nav";

const RESOLUTION_LABELS: Record<string, string> = {
  "1": "1m",
  "2": "2m",
  "3": "3m",
  "5": "5m",
  "15": "15m",
  "30": "30m",
  "60": "1h",
  "240": "4h",
  "480": "8h",
  D: "1D",
  W: "1W",
};

/**
 * The page. `base` is the path prefix of the atlas host (`/atlas`, or "" when matched by host
 * name); every URL in the page is built from it. `simulated` shows the "Simulated market data" label.
 * @example chartHtml({ base: "/atlas", simulated: true }).includes("Simulated market data") // true
 */
export function chartHtml(options: { base: string; simulated: boolean }): string {
  const base = options.base.replace(/[^A-Za-z0-9/_-]/g, "");
  const options_ = RESOLUTIONS.map((r) => `<option value="${r}">${RESOLUTION_LABELS[r]}</option>`).join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>optionscope chart</title>
<link rel="icon" href="data:,">
<style>
  :root { color-scheme: dark; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 13px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: #0f1419; color: #d1d4dc; display: flex; flex-direction: column; height: 100vh; }
  ${NAV_CSS}
  header { display: flex; flex-wrap: wrap; gap: 10px; align-items: center; padding: 8px 12px; border-bottom: 1px solid #2a2e39; }
  header h1 { font-size: 14px; margin: 0 8px 0 0; font-weight: 600; }
  input, select, button { font: inherit; color: inherit; background: #1e222d; border: 1px solid #363a45; border-radius: 4px; padding: 4px 8px; }
  button { cursor: pointer; }
  #symbol { width: 110px; text-transform: uppercase; }
  #key { width: 150px; }
  .badge { background: #b26b00; color: #fff; border-radius: 4px; padding: 2px 8px; font-weight: 600; }
  .badge[hidden] { display: none; }
  #status { color: #9598a1; }
  #status.error { color: #ef5350; }
  #legend { position: absolute; left: 12px; top: 8px; z-index: 3; pointer-events: none; font-size: 13px; }
  #legend .name { font-weight: 600; margin-right: 6px; }
  main { position: relative; flex: 1; min-height: 300px; }
  #levels-legend { color: #9598a1; font-size: 12px; }
  #levels-legend b { font-weight: 600; }
  #chart { position: absolute; inset: 0; }
  .spacer { flex: 1; }
</style>
</head>
<body>
${pageNav(base.replace(/\/atlas$/, ""), "chart")}
<header>
  <h1>Chart</h1>
  <form id="symbol-form" autocomplete="off">
    <input id="symbol" name="symbol" list="symbols" placeholder="Symbol" aria-label="Symbol" spellcheck="false">
    <datalist id="symbols"></datalist>
  </form>
  <select id="resolution" aria-label="Resolution">${options_}</select>
  <label><input type="checkbox" id="extended"> Extended hours</label>
  <span id="simulated-label" class="badge"${options.simulated ? "" : " hidden"}>Simulated market data</span>
  <span id="status" role="status"></span>
  <span id="levels-legend" title="Price lines: the key levels of the symbol's positioning board (/v1/gex/levels), refreshed each minute while the market is open"><b style="color:#ffd54f">king</b> <b style="color:#ffca28">flip</b> <b style="color:#e040fb">zero gamma</b> <b style="color:#26a69a">positive wall</b> <b style="color:#ef5350">negative wall</b></span>
  <span class="spacer"></span>
  <span id="credits"></span>
  <form id="key-form" autocomplete="off">
    <input id="key" type="password" placeholder="API key" aria-label="API key">
    <button type="submit">Use key</button>
  </form>
</header>
<main>
  <div id="legend"><span class="name" id="legend-name"></span><span id="legend-values"></span></div>
  <div id="chart" data-state="idle" data-bars-drawn="0"></div>
</main>
<script src="${base}/chart/lightweight-charts.js"></script>
<script src="${base}/chart/app.js"></script>
</body>
</html>
`;
}
