// The heatmap page's HTML: toolbar (symbol, metric, window, sign convention, replay date and
// minute, live, API key), the board heatmap with its per-strike profile, the what-if spot
// slider and spot profile, and the session heatmap with its scrubber. The script draws on canvases.
import { NAV_CSS, pageNav } from "../page-nav";
import { HEATMAP_BOOT_JS } from "./boot-script";

/** What the script reads from `#heatmap-config`. */
export interface HeatmapPageConfig {
  /** Path prefix of the API (the page's host), "" when matched by host name. */
  base: string;
  /** "api": the served page; "simulated": the static build (no server). */
  mode: "api" | "simulated";
  /** The market clock's now when the page was made, ms. */
  nowMs: number;
  simulated: boolean;
}

/**
 * Where the script comes from: a served file, or inlined (the static build opens from file://).
 * The served page ("api" mode) also carries the inline boot script that starts the board download
 * (boot-script.ts; its CSP hash is HEATMAP_BOOT_CSP_HASH).
 */
export type HeatmapScript = { src: string } | { inline: string };

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] as string);

/**
 * The page.
 * @example heatmapHtml({ base: "", mode: "api", nowMs: Date.now(), simulated: true }, { src: "/heatmap/app.js" })
 */
export function heatmapHtml(config: HeatmapPageConfig, script: HeatmapScript): string {
  // JSON inside a <script> block: "<" escaped so no "</script>" can close it.
  const json = JSON.stringify(config).replace(/</g, "\\u003c");
  const tag = "src" in script ? `<script src="${esc(script.src)}"></script>` : `<script>${script.inline.replace(/<\/script/gi, "<\\/script")}</script>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>optionscope heatmap</title>
<link rel="icon" href="data:,">
<style>
  :root { color-scheme: dark; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 13px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: #0f1419; color: #d1d4dc; }
  ${NAV_CSS}
  nav.site form { display: flex; gap: 6px; align-items: center; }
  nav.site form[hidden] { display: none; }
  #credits { margin-left: auto; color: #9598a1; }
  header { display: flex; flex-wrap: wrap; gap: 6px 10px; align-items: center; padding: 6px 12px; border-bottom: 1px solid #2a2e39; }
  label { display: inline-flex; gap: 4px; align-items: center; color: #9598a1; }
  input, select, button { font: inherit; color: #d1d4dc; background: #1e222d; border: 1px solid #363a45; border-radius: 4px; padding: 2px 6px; }
  input:disabled + span, label:has(input:disabled) { opacity: 0.6; }
  :focus-visible { outline: 2px solid #4c8dff; outline-offset: 1px; }
  button { cursor: pointer; }
  .badge { background: #b26b00; color: #fff; border-radius: 4px; padding: 1px 8px; font-weight: 600; }
  .badge[hidden] { display: none; }
  #statusbar { display: flex; flex-wrap: wrap; gap: 4px 16px; padding: 3px 12px; color: #9598a1; font-size: 12px; border-bottom: 1px solid #2a2e39; min-height: 22px; }
  #status.error { color: #ef5350; font-weight: 600; }
  #engine { color: #26a69a; }
  main { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 10px; padding: 8px 12px; }
  section { background: #131722; border: 1px solid #2a2e39; border-radius: 6px; padding: 6px 8px; }
  section h2 { font-size: 13px; margin: 0 0 4px; font-weight: 600; }
  canvas { display: block; width: 100%; }
  .row { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; margin-top: 4px; }
  #levels { font-variant-numeric: tabular-nums; margin: 4px 0 0; padding-left: 18px; }
  #levels li { line-height: 1.35; }
  #levels abbr, #node-legend abbr { text-decoration: underline dotted; cursor: help; }
  #node-legend { list-style: none; margin: 6px 0 0; padding: 0; font-size: 12px; color: #9598a1; display: grid; grid-template-columns: 1fr 1fr; gap: 1px 10px; }
  #node-legend b { display: inline-block; width: 1.2em; text-align: center; }
  .wide { grid-column: 1 / -1; }
  input[type=range] { flex: 1; min-width: 160px; }
  #tip { position: fixed; z-index: 10; pointer-events: none; background: #1e222d; border: 1px solid #4c8dff; border-radius: 4px; padding: 4px 8px; font-size: 12px; line-height: 1.4; white-space: nowrap; font-variant-numeric: tabular-nums; }
  #tip[hidden] { display: none; }
  #tip strong { display: block; color: #fff; }
</style>
</head>
<body>
<script type="application/json" id="heatmap-config">${json}</script>
${config.mode === "api" ? `<script>${HEATMAP_BOOT_JS}</script>\n` : ""}${
  config.mode === "api"
    ? pageNav(config.base, "heatmap").replace(
        "</nav>",
        `<span id="credits"></span><form id="key-form" autocomplete="off"><input id="key" type="password" placeholder="API key" aria-label="API key"><button type="submit">Use key</button></form></nav>`,
      )
    : `<nav class="site" aria-label="Pages"><span class="brand">optionscope heatmap</span><span id="credits"></span><form id="key-form" hidden><input id="key" type="password" aria-label="API key"></form></nav>`
}
<header>
  <label>Symbol <select id="symbol"></select></label>
  <label>Metric <select id="metric"><option value="gamma">Gamma</option><option value="vanna">Vanna</option></select></label>
  <label>Expirations <select id="expirations"><option>1</option><option>2</option><option>3</option><option selected>5</option><option>10</option><option value="all">all</option></select></label>
  <label>Strikes <select id="strikes"><option>20</option><option selected>40</option><option>60</option><option>92</option><option value="all">all</option></select></label>
  <label>Sign <select id="sign"></select></label>
  <label>Session <input id="date" type="date" min="2023-03-28"></label>
  <label>Time (ET) <input id="time" type="time" step="60" min="09:30" max="16:00"></label>
  <label title="Follow the session minute by minute (only while a session is live)"><input id="live" type="checkbox"> Live</label>
</header>
<div id="statusbar"><span id="simulated-label" class="badge"${config.simulated ? "" : " hidden"}>Simulated market data</span><span id="status" role="status" aria-live="polite"></span><span id="live-note"></span><span id="engine" aria-live="polite"></span></div>
<main>
  <section>
    <h2 id="board-title">Board: strike x expiration</h2>
    <canvas id="board" height="520" role="img" aria-label="Strike by expiration heatmap" data-state="idle" aria-describedby="node-legend"></canvas>
    <canvas id="legend" height="36" role="img" aria-label="Colour scale in dollars"></canvas>
    <div class="row">
      <label for="whatif">What-if spot</label>
      <input id="whatif" type="range" min="-50" max="50" step="1" value="0" aria-describedby="whatif-value">
      <output id="whatif-value" for="whatif"></output>
      <button id="whatif-reset" type="button">Reset</button>
    </div>
  </section>
  <section>
    <h2 id="levels-title">Key levels</h2>
    <canvas id="spot-profile" height="190" role="img" aria-label="Total exposure against a hypothetical spot"></canvas>
    <ol id="levels"></ol>
    <ul id="node-legend" aria-label="Node legend">
      <li data-node="king"><b style="color:#ffd54f">♛</b><abbr title="The strike with the largest absolute net exposure (one per board); its row is outlined in gold.">King</abbr>: largest |net|</li>
      <li data-node="gatekeeper"><b style="color:#90caf9">◆</b><abbr title="A strike between spot and the king with at least 40% of the king's |net|; outlined in blue.">Gatekeeper</abbr>: &ge;40% between spot and king</li>
      <li data-node="pika"><b style="color:#26a69a">▲</b><abbr title="A positive strike with at least 25% of the king's |net|.">Pika</abbr>: positive, &ge;25% of king</li>
      <li data-node="barney"><b style="color:#ef5350">▼</b><abbr title="A negative strike with at least 25% of the king's |net|.">Barney</abbr>: negative, &ge;25% of king</li>
      <li data-node="significant"><b style="color:#d1d4dc">•</b><abbr title="Any other strike with at least 10% of the king's |net|.">Significant</abbr>: &ge;10% of king</li>
      <li data-line="flip"><b style="color:#ffca28">- -</b><abbr title="Flip: where the running sum of per-strike net, from the lowest strike up, changes sign (the board's own strikes).">Flip</abbr>: running net changes sign</li>
      <li data-line="zero-gamma"><b style="color:#e040fb">···</b><abbr title="Zero gamma: the spot at which total gamma of all strikes would be zero, from the spot profile above (gamma only).">Zero gamma</abbr>: total gamma = 0 if spot moved there</li>
      <li data-line="gap"><b>≈</b><abbr title="Strikes without open interest in the window are left out; a dashed break marks where the strike step jumps.">Gap</abbr>: strikes left out</li>
    </ul>
  </section>
  <section class="wide">
    <h2 id="session-title">Session: strike x time, spot path</h2>
    <canvas id="session" height="260" role="img" aria-label="Strike by time heatmap of the session" data-frames="0"></canvas>
    <div class="row">
      <label for="scrub">Minute</label>
      <input id="scrub" type="range" min="0" max="0" step="1" value="0" aria-describedby="scrub-value">
      <output id="scrub-value" for="scrub"></output>
      <label>History <select id="history"><option value="15">15 min</option><option value="60">1 hour</option><option value="390">session</option></select></label>
      <button id="history-load" type="button">Load history</button>
      <span id="history-cost"></span>
    </div>
  </section>
</main>
<div id="tip" role="tooltip" hidden></div>
${tag}
</body>
</html>
`;
}
