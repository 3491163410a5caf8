// The landing page at `/` on {base_url}: one click to every page (heatmap, chart, developer
// console, API reference) and the server's status (version, data, market clock, session shown).
// Static HTML, no script; free and keyless like the other pages.
import { etDateOf, marketStateAt, sessionDateAt } from "../../lib/time";
import { bannerSymbol, shownSession } from "../cli/first-run";
import type { AppServices } from "../services";
import { packageVersion } from "../version";
import type { WebPage } from "./chart-page";
import { NAV_CSS, pageNav } from "./page-nav";

/** How long the landing page waits for a cold board to tell the session shown, ms. */
const LANDING_WAIT_MS = 1500;

const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] as string);

/** What the status block shows, read from the app's services when the page is asked for. */
interface LandingStatus {
  version: string;
  simulated: boolean;
  nowMs: number;
  /** A symbol the data has (the page links open on it). */
  symbol: string;
  /** The session the pages show now (the last one at or before the clock). */
  session: string | null;
  live: boolean;
  metrics: boolean;
}

const MARKET_STATE_LABEL: Record<string, string> = { open: "open", pre_open: "pre-market", post_close: "after hours", closed: "closed" };

function etClock(ms: number): string {
  const hhmm = new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(ms);
  return `${etDateOf(ms)} ${hhmm} ET`;
}

/**
 * The page's HTML. `base` is the base host's path prefix ("" on the one-port layout).
 * @example landingHtml("", { version: "0.1.0", simulated: true, nowMs: Date.now(), symbol: "SPY", session: null, live: false, metrics: false })
 */
function landingHtml(base: string, s: LandingStatus, origin = ""): string {
  const sym = encodeURIComponent(s.symbol);
  const card = (id: string, href: string, title: string, text: string) =>
    `<a class="card" id="${id}" href="${esc(href)}"><strong>${esc(title)}</strong><span>${esc(text)}</span></a>`;
  const liveText = s.live
    ? `live: the ${s.session} session is open`
    : s.session
      ? `no live session: pages show the ${s.session} session as of its close (start with <code>--now</code> to replay one live)`
      : "no session in the data before now";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>optionscope</title>
<link rel="icon" href="data:,">
<style>
  :root { color-scheme: dark; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: #0f1419; color: #d1d4dc; }
  ${NAV_CSS}
  main { max-width: 980px; margin: 0 auto; padding: 24px 16px; }
  h1 { font-size: 22px; margin: 0 0 4px; }
  p.lead { color: #9598a1; margin: 0 0 20px; }
  .cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: 12px; }
  .card { display: flex; flex-direction: column; gap: 4px; padding: 14px; border: 1px solid #2a2e39; border-radius: 8px; background: #131722; color: inherit; text-decoration: none; }
  .card:hover, .card:focus-visible { border-color: #4c8dff; }
  .card strong { color: #4c8dff; font-size: 15px; }
  .card span { color: #9598a1; }
  h2 { font-size: 15px; margin: 28px 0 8px; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; }
  dt { color: #9598a1; }
  dd { margin: 0; }
  code { background: #1e222d; padding: 1px 5px; border-radius: 4px; }
  main a { color: #4c8dff; }
  .badge { background: #b26b00; color: #fff; border-radius: 4px; padding: 1px 8px; font-weight: 600; font-size: 12px; }
</style>
</head>
<body>
${pageNav(base, "home")}
<main>
  <h1>optionscope <small>${esc(s.version)}</small> ${s.simulated ? '<span class="badge">Simulated market data</span>' : ""}</h1>
  <p class="lead">Dealer gamma and vanna positioning, key levels, flow and volatility: pages for people, a REST API and MCP tools for programs.</p>
  <div class="cards">
    ${card("go-heatmap", `${base}/heatmap?symbol=${sym}`, "Heatmap", `${s.symbol} strike x expiration exposure, key levels and the session, computed in your browser`)}
    ${card("go-chart", `${base}/atlas/chart?symbol=${s.symbol === "SPXW" ? "SPX" : sym}&resolution=5`, "Chart", "Candles with the key levels as price lines and the day's marks")}
    ${card("go-console", `${base}/console`, "Developer console", "Keys, usage, credits and connected apps of your account")}
    ${card("go-docs", `${base}/docs`, "API reference", "Every endpoint with parameters and examples, from the server's OpenAPI documents")}
  </div>
  <h2>Use it from code</h2>
  <dl>
    <dt>REST</dt><dd><code>curl -H "Authorization: Bearer $KEY" "${esc(`${origin}${base}/v1/heatmap?symbols=${sym}`)}"</code></dd>
    <dt>OpenAPI</dt><dd><a href="${base}/v1/openapi.json">${base}/v1/openapi.json</a>, <a href="${base}/flow-alias/v1/openapi.json">flow</a>, <a href="${base}/atlas/v1/openapi.json">price</a></dd>
    <dt>MCP tools</dt><dd><code>${esc(`${origin}${base}/mcp`)}</code> (streamable HTTP, OAuth or a key)</dd>
    <dt>A key</dt><dd>printed once on the first start; more with <code>optionscope key create --account &lt;id&gt;</code></dd>
  </dl>
  <h2 id="server-status">Server status</h2>
  <dl id="status">
    <dt>Version</dt><dd id="status-version">${esc(s.version)}</dd>
    <dt>Data</dt><dd id="status-data">${s.simulated ? "simulated market" : "market data files"}</dd>
    <dt>Market clock</dt><dd id="status-clock">${esc(etClock(s.nowMs))}, market ${esc(MARKET_STATE_LABEL[marketStateAt(s.nowMs)] ?? "closed")}</dd>
    <dt>Session</dt><dd id="status-session" data-live="${s.live}">${liveText}</dd>
    ${s.metrics ? `<dt>Metrics</dt><dd><a href="${base}/metrics">${base}/metrics</a> (Prometheus)</dd>` : ""}
  </dl>
</main>
</body>
</html>
`;
}

/** The landing page's status, read from the app's market when the page is asked for. */
async function landingStatus(services: AppServices): Promise<LandingStatus> {
  const market = services.market;
  const nowMs = market.clock.now();
  const roots = await market.universe().then(
    (u) => u.flatMap((s) => s.optionRoots),
    () => [] as string[],
  );
  // The pages open on SPY when the data has it (the heatmap's default), else on the banner's symbol.
  const symbol = roots.includes("SPY") ? "SPY" : (bannerSymbol(roots) ?? "SPY");
  // The session needs the symbol's board: a cold one is built at most LANDING_WAIT_MS before the
  // page answers with the calendar's reading instead (the session date and state by the clock).
  const timeout = new Promise<null>((r) => setTimeout(r, LANDING_WAIT_MS, null).unref?.());
  const read = await Promise.race([shownSession(market, symbol, nowMs), timeout]);
  const session = read ? read.session : sessionDateAt(nowMs);
  const live = read ? read.live : marketStateAt(nowMs) === "open";
  return { version: packageVersion(), simulated: market.simulated, nowMs, symbol, session, live, metrics: services.serveMetrics };
}

/** `/` on the base host. */
export const landingPages: WebPage[] = [
  {
    host: "base",
    path: "/",
    handle: async (request, services) => {
      const base = new URL(request.url).pathname.replace(/\/$/, "").replace(/[^A-Za-z0-9/_-]/g, "");
      const origin = new URL(request.url).origin.replace(/[^A-Za-z0-9:/._[\]-]/g, "");
      return new Response(landingHtml(base, await landingStatus(services), origin), {
        headers: {
          "Content-Type": "text/html; charset=utf-8",
          "Cache-Control": "no-cache",
          "X-Content-Type-Options": "nosniff",
          "Content-Security-Policy": PAGE_CSP,
          "Referrer-Policy": "no-referrer",
        },
      });
    },
  },
];
