// The served page's first script, inline at the top of <body>: it starts the board download
// while the (much larger) app bundle is still downloading and compiling, so the two overlap
// instead of running one after the other (docs/api.md#heatmap-page-first-paint). The bundle takes
// the response from `window.__heatmapPrefetch` when it asks for the same URL with the same key.
import { createHash } from "node:crypto";

/**
 * Plain ES2017, no imports: it must run before the bundle exists. It mirrors the bundle's own
 * reading of the key (`#key=` fragment, then localStorage) and of `?symbol=` / `?at=` (the minute
 * the page asks for: `at` floored to the minute, as the date and minute pickers hold it), so that
 * the URL it fetches is the one the bundle builds; a URL the bundle does not ask for is never
 * used (and then costs one board's credits, so the two must agree: test/server/web pins it).
 */
export const HEATMAP_BOOT_JS = `(function () {
  try {
    var config = JSON.parse(document.getElementById("heatmap-config").textContent);
    if (config.mode !== "api") return;
    var KEY = "optionscope.apiKey";
    var fromFragment = new URLSearchParams(location.hash.replace(/^#/, "")).get("key");
    if (fromFragment) {
      localStorage.setItem(KEY, fromFragment);
      history.replaceState(null, "", location.pathname + location.search);
    }
    var key = localStorage.getItem(KEY) || "";
    var params = new URLSearchParams(location.search);
    var query = { symbol: (params.get("symbol") || "SPY").toUpperCase() };
    var at = params.get("at");
    // An unreadable ?at= makes the page replay the minute it was served at (config.nowMs).
    if (at) query.at = new Date(Math.floor((isFinite(Date.parse(at)) ? Date.parse(at) : config.nowMs) / 60000) * 60000).toISOString();
    var url = config.base + "/v1/board?" + new URLSearchParams(query);
    var response = fetch(url, { headers: key ? { Authorization: "Bearer " + key } : {} });
    response.catch(function () {});
    window.__heatmapPrefetch = { url: url, key: key, response: response };
  } catch (e) {}
})();`;

/** The CSP source allowing exactly this inline script (`'sha256-...'`). */
export const HEATMAP_BOOT_CSP_HASH = `'sha256-${createHash("sha256").update(HEATMAP_BOOT_JS).digest("base64")}'`;
