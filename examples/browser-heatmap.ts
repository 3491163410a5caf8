// A browser page computing a gamma heatmap itself: it reads the raw option board (`/v1/board`:
// strikes, expirations, open interest and implied vol per contract) and computes each
// strike x expiration cell with Black-Scholes-Merton, as docs/methodology.md#exposure states,
// then colours a table. browser-heatmap.html loads the bundle:
//   npx esbuild examples/browser-heatmap.ts --bundle --format=esm --outfile=examples/browser-heatmap.js
// and is served from anywhere that can reach the API (CORS allows every origin).

/** The columnar board `/v1/board` answers (`data`). */
export interface Board {
  symbol: string;
  asOfMs: number;
  spot: number;
  rate: number;
  dividendYield: number;
  expirations: string[];
  expirySettleMs: number[];
  strikes: number[];
  contracts: { strikeIndex: number[]; expIndex: number[]; right: number[]; oi: number[]; iv: (number | null)[] };
}

export interface Heatmap {
  strikes: number[];
  expirations: string[];
  /** cells[i][j]: gamma exposure of strike i, expiration j, dollars per 1% move (calls +, puts -). */
  cells: number[][];
  /** Row sums. */
  net: number[];
}

const YEAR_MS = 365 * 24 * 60 * 60_000;

/** Gamma exposure per cell (docs/methodology.md#exposure-kernel). */
export function computeHeatmap(board: Board): Heatmap {
  const { spot: S, rate: r, dividendYield: q } = board;
  const cells = board.strikes.map(() => board.expirations.map(() => 0));
  const c = board.contracts;
  for (let k = 0; k < c.oi.length; k++) {
    const iv = c.iv[k];
    const j = c.expIndex[k];
    const remainingMs = board.expirySettleMs[j] - board.asOfMs;
    if (iv === null || !(iv > 0) || c.oi[k] <= 0 || remainingMs <= 0) continue;
    const T = Math.max(remainingMs, 60_000) / YEAR_MS;
    const K = board.strikes[c.strikeIndex[k]];
    const sd = iv * Math.sqrt(T);
    const d1 = (Math.log(S / K) + (r - q + (iv * iv) / 2) * T) / sd;
    const gamma = Math.exp(-q * T - (d1 * d1) / 2) / Math.sqrt(2 * Math.PI) / (S * sd);
    const sign = c.right[k] === 1 ? 1 : -1;
    cells[c.strikeIndex[k]][j] += sign * gamma * c.oi[k] * 100 * S * S * 0.01;
  }
  return { strikes: board.strikes, expirations: board.expirations, cells, net: cells.map((row) => row.reduce((a, b) => a + b, 0)) };
}

/** The `n` strikes nearest spot, as rows of the table. */
export function nearestRows(map: Heatmap, spot: number, n: number): number[] {
  return map.strikes
    .map((k, i) => [Math.abs(k - spot), i] as const)
    .sort((a, b) => a[0] - b[0])
    .slice(0, n)
    .map(([, i]) => i)
    .sort((a, b) => map.strikes[b] - map.strikes[a]);
}

/** Fetch the board and compute it (the page and the test both call this). */
export async function main(options: { baseUrl: string; apiKey: string; symbol: string; fetch?: typeof fetch }): Promise<{ board: Board; heatmap: Heatmap }> {
  const doFetch = options.fetch ?? fetch;
  const res = await doFetch(`${options.baseUrl}/v1/board?symbol=${encodeURIComponent(options.symbol)}`, { headers: { Authorization: `Bearer ${options.apiKey}` } });
  if (!res.ok) throw new Error(`board: HTTP ${res.status}`);
  const board = ((await res.json()) as { data: Board }).data;
  return { board, heatmap: computeHeatmap(board) };
}

/** Draw the table into the page (browser only). */
function render(table: HTMLTableElement, board: Board, map: Heatmap): void {
  const rows = nearestRows(map, board.spot, 30);
  const cols = map.expirations.map((_, j) => j).slice(0, 8);
  const max = Math.max(1, ...rows.flatMap((i) => cols.map((j) => Math.abs(map.cells[i][j]))));
  const usd = (v: number) => `${v < 0 ? "-" : ""}$${(Math.abs(v) / 1e6).toFixed(1)}M`;
  const head = `<tr><th>strike</th>${cols.map((j) => `<th>${map.expirations[j]}</th>`).join("")}<th>net</th></tr>`;
  const body = rows
    .map((i) => {
      const tds = cols.map((j) => {
        const v = map.cells[i][j];
        const a = Math.min(1, Math.abs(v) / max);
        const bg = v >= 0 ? `rgba(38,166,154,${a})` : `rgba(239,83,80,${a})`;
        return `<td style="background:${bg}" title="${map.strikes[i]} ${map.expirations[j]}: ${usd(v)}">${usd(v)}</td>`;
      });
      return `<tr><th>${map.strikes[i]}</th>${tds.join("")}<td>${usd(map.net[i])}</td></tr>`;
    })
    .join("");
  table.innerHTML = head + body;
}

if (typeof document !== "undefined") {
  const form = document.querySelector("form")!;
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const fd = new FormData(form);
    const { board, heatmap } = await main({ baseUrl: String(fd.get("url")), apiKey: String(fd.get("key")), symbol: String(fd.get("symbol")) });
    document.querySelector("#status")!.textContent = `${board.symbol} at ${new Date(board.asOfMs).toISOString()}, spot ${board.spot}`;
    render(document.querySelector("table")!, board, heatmap);
  });
}
