// Issue 34: the pages as a person sees them, in headless Chromium against real listening servers
// (one pinned inside Wednesday's session, one on the Saturday after). The landing page reaches every
// page in one click; the heatmap answers the pointer with each cell's value (checked against the
// cells the page computed, which the heatmap page test holds equal to the API's), explains its node
// glyphs and lines, prints no label over another, keeps the board and the key levels above the
// fold at 1366x768, follows the metric in every panel, and offers Live only inside a session; the
// chart draws the key levels as price lines (equal to /v1/gex/levels) and keeps its marks off the
// axes. Screenshots: docs/screenshots/ with UPDATE_SCREENSHOTS=1 (screenshotsDir).
import { resolve } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { formatUsd } from "../../lib/positioning/briefs";
import { openAccountService } from "../../server/accounts";
import { screenshotsDir, simulatedApp, usePageServer } from "./_page-server";

const SCREENSHOTS = screenshotsDir();
const WEDNESDAY_MS = Date.parse("2024-03-06T19:00:00Z"); // 14:00 EST, inside the session
const SATURDAY_MS = Date.parse("2024-03-09T17:00:00Z"); // 12:00 EST, no session
const FOLD = { width: 1366, height: 768 };

type Box = { x: number; y: number; w: number; h: number; text: string };

/** Pairs of label boxes that overlap (touching edges do not). */
function overlapping(boxes: Box[]): string[] {
  const out: string[] = [];
  for (let a = 0; a < boxes.length; a++)
    for (let b = a + 1; b < boxes.length; b++) {
      const p = boxes[a];
      const q = boxes[b];
      if (p.x < q.x + q.w && q.x < p.x + p.w && p.y < q.y + q.h && q.y < p.y + p.h) out.push(`${p.text} / ${q.text}`);
    }
  return out;
}

/** The tooltip after moving the pointer to (x, y) of the page: its lines, or null when hidden. */
async function tipAt(page: Page, x: number, y: number): Promise<string[] | null> {
  await page.mouse.move(x, y);
  if (!(await page.isVisible("#tip"))) return null;
  return page.$$eval("#tip > *", (els) => els.map((e) => e.textContent ?? ""));
}

describe("pages in headless Chromium (issue 34)", () => {
  const accounts = openAccountService({ dbPath: ":memory:" });
  const key = accounts.createAccount({ plan: "top", credits: 100_000 }).key;
  const ctx = usePageServer(() => [simulatedApp({ now: WEDNESDAY_MS, accounts }), simulatedApp({ now: SATURDAY_MS, accounts })]);

  it("the landing page links every page, the API reference and the server's status", async () => {
    const page = await ctx.browser.newPage({ viewport: FOLD });
    await page.goto(`${ctx.server.url}/`);
    const hrefs = await page.$$eval(".cards a", (as) => as.map((a) => [a.id, a.getAttribute("href")]));
    expect(hrefs).toEqual([
      ["go-heatmap", "/heatmap?symbol=SPY"],
      ["go-chart", "/atlas/chart?symbol=SPY&resolution=5"],
      ["go-console", "/console"],
      ["go-docs", "/docs"],
    ]);
    // The pages themselves answer (the console and /docs are mounted by the full server).
    for (const path of ["/heatmap?symbol=SPY", "/atlas/chart?symbol=SPY&resolution=5", "/v1/openapi.json"]) {
      expect((await fetch(`${ctx.server.url}${path}`)).status, path).toBe(200);
    }
    expect(await page.textContent("#status-session")).toBe("live: the 2024-03-06 session is open");
    expect(await page.textContent("#status-clock")).toBe("2024-03-06 14:00 ET, market open");
    expect(await page.getAttribute("#status-session", "data-live")).toBe("true");
    await page.screenshot({ path: resolve(SCREENSHOTS, "landing.png"), fullPage: true });
    // Every page's nav leads back here and to the others in one click.
    await page.click("#go-heatmap");
    await page.waitForURL((u) => u.pathname === "/heatmap");
    expect(await page.$$eval("nav.site a", (as) => as.map((a) => a.getAttribute("href")))).toEqual(["/", "/heatmap", "/atlas/chart", "/console", "/docs"]);
    await page.close();
  });

  it("heatmap at 1366x768: values on hover, a legend, no overlapping labels, board and levels above the fold", async () => {
    const page = await ctx.browser.newPage({ viewport: FOLD });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(`${ctx.server.url}/heatmap?symbol=SPY#key=${key}`);
    await page.waitForSelector('#board[data-state="ready"]', { timeout: 60_000 });
    await page.waitForFunction(() => Number(document.getElementById("session")!.dataset.frames) > 0, undefined, { timeout: 60_000 });

    // Above the fold: the header on one row, the whole board and the whole levels list.
    for (const id of ["#board", "#levels", "#node-legend"]) {
      const box = (await page.locator(id).boundingBox())!;
      expect(box.y + box.height, id).toBeLessThanOrEqual(FOLD.height);
    }
    expect((await page.locator("header").boundingBox())!.height).toBeLessThan(48);

    // The pickers show the board's session and minute in ET; Live is on inside the session.
    expect(await page.inputValue("#date")).toBe("2024-03-06");
    expect(await page.inputValue("#time")).toBe("14:00");
    expect(await page.isChecked("#live")).toBe(true);
    expect(await page.isDisabled("#live")).toBe(false);

    // Hover down the board's first expiration column: every tooltip names a strike and an
    // expiration and prints that cell's value, the value the page computed (= the API's).
    const cells = await page.evaluate(() => (window as any).__heatmap.cells() as { strikes: number[]; expirations: string[]; matrix: number[][] });
    const board = (await page.locator("#board").boundingBox())!;
    const read: number[] = [];
    for (let y = board.y + 40; y < board.y + board.height - 6; y += 23) {
      const tip = await tipAt(page, board.x + 90, y);
      expect(tip, `y=${y}`).not.toBeNull();
      const m = /^Strike ([\d.]+), expiration (\d{4}-\d\d-\d\d)$/.exec(tip![0]);
      expect(m, tip![0]).not.toBeNull();
      const i = cells.strikes.indexOf(Number(m![1]));
      const j = cells.expirations.indexOf(m![2]);
      expect(j).toBe(0);
      const v = cells.matrix[i][j];
      const dollars = Math.round(Math.abs(v));
      const exact = `${v < 0 && dollars > 0 ? "-" : ""}$${dollars.toLocaleString("en-US")}`;
      expect(tip![1]).toBe(`${Math.abs(v) < 0.5 ? "$0" : formatUsd(v)} per 1% move (${exact})`);
      read.push(Number(m![1]));
    }
    expect(read.length).toBeGreaterThan(15);
    expect(read).toEqual([...read].sort((a, b) => b - a)); // highest strike on top
    await page.screenshot({ path: resolve(SCREENSHOTS, "heatmap-hover.png") });

    // The net bars, the spot profile and the session answer too.
    const bars = await tipAt(page, board.x + board.width - 60, board.y + board.height / 2);
    expect(bars?.[0]).toMatch(/^Strike [\d.]+: net of 5 expirations$/);
    const profile = (await page.locator("#spot-profile").boundingBox())!;
    expect((await tipAt(page, profile.x + profile.width / 2, profile.y + profile.height / 2))?.[1]).toMatch(/^total gamma -?\$[\d.]+[KMB]? per 1% move$/);
    const session = (await page.locator("#session").boundingBox())!;
    await page.mouse.wheel(0, 400);
    const sessionNow = (await page.locator("#session").boundingBox())!;
    const stip = await tipAt(page, sessionNow.x + sessionNow.width / 2, sessionNow.y + 60);
    expect(stip?.[0]).toMatch(/^2024-03-06 1[34]:\d\d ET$/);
    expect(session.width).toBeGreaterThan(0);
    await page.mouse.wheel(0, -400);

    // The legend names every node type with its definition, and the flip and zero-gamma lines.
    const legend = await page.$$eval("#node-legend li", (lis) => lis.map((li) => [li.getAttribute("data-node") ?? li.getAttribute("data-line"), li.textContent]));
    expect(legend.map(([k]) => k)).toEqual(["king", "gatekeeper", "pika", "barney", "significant", "flip", "zero-gamma", "gap"]);
    for (const [, text] of legend) expect(text!.length).toBeGreaterThan(12);

    // No label box overlaps another, on any canvas, and each lies on its canvas.
    const labels = await page.evaluate(() => (window as any).__heatmap.labels() as Record<string, Box[]>);
    for (const [canvas, boxes] of Object.entries(labels)) {
      expect(boxes.length, canvas).toBeGreaterThan(2);
      expect(overlapping(boxes), canvas).toEqual([]);
    }
    expect(labels.board.map((b) => b.text)).toEqual(expect.arrayContaining(["Expiration (month-day)", "Strike", expect.stringMatching(/^spot /)]));

    // Every panel follows the metric: vanna reloads the session history in vanna.
    await page.selectOption("#metric", "vanna");
    await page.waitForSelector('#session[data-metric="vanna"]', { timeout: 60_000 });
    expect(await page.textContent("#session-title")).toContain("vanna");
    expect(await page.textContent("#levels-title")).toContain("vanna");
    const vannaLabels = await page.evaluate(() => (window as any).__heatmap.labels() as Record<string, Box[]>);
    for (const [canvas, boxes] of Object.entries(vannaLabels)) expect(overlapping(boxes), canvas).toEqual([]);
    await page.selectOption("#metric", "gamma");
    await page.waitForSelector('#session[data-metric="gamma"]', { timeout: 60_000 });
    await page.mouse.move(0, 0);
    await page.screenshot({ path: resolve(SCREENSHOTS, "heatmap-1366.png") });
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);

  it("heatmap on a Saturday: the Friday session's close, in ET, and no Live (no stream, no credits)", async () => {
    const page = await ctx.browser.newPage({ viewport: FOLD });
    const streams: string[] = [];
    page.on("request", (r) => r.url().includes("/v1/stream") && streams.push(r.url()));
    await page.goto(`${ctx.servers[1].url}/heatmap?symbol=SPY#key=${key}`);
    await page.waitForSelector('#board[data-state="ready"]', { timeout: 60_000 });
    expect(await page.inputValue("#date")).toBe("2024-03-08");
    expect(await page.inputValue("#time")).toBe("16:00");
    expect(await page.isChecked("#live")).toBe(false);
    expect(await page.isDisabled("#live")).toBe(true);
    expect(await page.textContent("#live-note")).toBe("No live session now (2024-03-09 12:00 ET): showing 2024-03-08 16:00 ET");
    expect(streams).toEqual([]);
    await page.close();
  }, 120_000);

  it("chart: the key levels as price lines equal to /v1/gex/levels; marks below the chart, off its axes", async () => {
    const page = await ctx.browser.newPage({ viewport: FOLD });
    const started: Record<string, number> = {};
    const finished: Record<string, number> = {};
    const name = (u: string) => new URL(u).pathname.replace(/^.*\/v1\//, "");
    const first = (into: Record<string, number>, url: string) => {
      if (url.includes("/v1/") && !(name(url) in into)) into[name(url)] = Date.now();
    };
    page.on("request", (r) => first(started, r.url()));
    page.on("requestfinished", (r) => first(finished, r.url()));
    await page.goto(`${ctx.server.url}/atlas/chart?symbol=SPY&resolution=5#key=${key}`);
    await page.waitForSelector("#chart[data-marks-drawn][data-levels]", { timeout: 120_000 });
    expect(await page.getAttribute("#chart", "data-marks-error")).toBeNull();

    const api = (await (await fetch(`${ctx.server.url}/v1/gex/levels?symbols=SPY`, { headers: { Authorization: `Bearer ${key}` } })).json()).data.symbols[0];
    const lines = JSON.parse((await page.getAttribute("#chart", "data-levels"))!) as { kind: string; price: number }[];
    expect(lines).toEqual([
      { kind: "king", price: api.kingNode.strike },
      { kind: "flip", price: api.summary.flip.level },
      { kind: "zeroGamma", price: api.summary.zeroGamma.level },
      { kind: "positiveWall", price: api.summary.positiveWall.strike },
      { kind: "negativeWall", price: api.summary.negativeWall.strike },
    ]);
    expect(await page.getAttribute("#chart", "data-levels-as-of")).toBe(api.asOf);
    // One load: the marks were asked for before the bars had arrived.
    expect(started.marks).toBeLessThanOrEqual(finished.history);
    expect(started.timescale_marks).toBeLessThanOrEqual(finished.history);

    // The marks list lies below the chart (its axes included), not over it.
    const chart = (await page.locator("#chart").boundingBox())!;
    const marks = (await page.locator("#marks").boundingBox())!;
    expect(marks.y).toBeGreaterThanOrEqual(chart.y + chart.height - 0.5);
    expect(marks.y + marks.height).toBeLessThanOrEqual(FOLD.height + 0.5);
    await page.screenshot({ path: resolve(SCREENSHOTS, "chart-levels.png") });
    await page.close();
  }, 180_000);
});
