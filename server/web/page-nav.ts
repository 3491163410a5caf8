// The links every page carries in its header (landing, heatmap, chart, console, API reference),
// so that each page is one click from the others. Plain HTML and CSS, no script.

/** Which page is showing (its link is marked `aria-current`). */
export type NavPage = "home" | "heatmap" | "chart" | "console" | "docs";

/** The nav's style, for the page's <style> block. */
export const NAV_CSS =
  "nav.site { display: flex; gap: 12px; align-items: center; padding: 6px 12px; border-bottom: 1px solid #2a2e39; font-size: 13px; }\n" +
  "  nav.site a { color: #9598a1; text-decoration: none; }\n" +
  "  nav.site a:hover, nav.site a:focus-visible { color: #d1d4dc; text-decoration: underline; }\n" +
  '  nav.site a[aria-current="page"] { color: #d1d4dc; font-weight: 600; }\n' +
  "  nav.site .brand { color: #d1d4dc; font-weight: 700; margin-right: 4px; }";

/**
 * The links, `root` being the base host's path prefix ("" on the one-port layout; the chart page
 * passes its own prefix without `/atlas`).
 * @example pageNav("", "heatmap").includes('href="/atlas/chart"') // true
 */
export function pageNav(root: string, current: NavPage): string {
  const link = (page: NavPage, href: string, text: string, cls = "") =>
    `<a${cls ? ` class="${cls}"` : ""} id="nav-${page}" href="${root}${href}"${page === current ? ' aria-current="page"' : ""}>${text}</a>`;
  const links = [
    link("home", "/", "optionscope", "brand"),
    link("heatmap", "/heatmap", "Heatmap"),
    link("chart", "/atlas/chart", "Chart"),
    link("console", "/console", "Console"),
    link("docs", "/docs", "API reference"),
  ].join("");
  return `<nav class="site" aria-label="Pages">${links}</nav>`;
}
