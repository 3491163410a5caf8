// A TradingView Charting Library datafeed (its JS API: onReady, resolveSymbol, getBars) over the
// price host's UDF endpoints, sending the key in the `Authorization` header, which TradingView's
// own UDFCompatibleDatafeed cannot. Pass `createDatafeed(...)` as the widget's `datafeed`.
//   OPTIONSCOPE_URL=http://localhost:8080/atlas OPTIONSCOPE_KEY=... npx tsx examples/tradingview-datafeed.ts SPY
export interface Bar {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export interface DatafeedOptions {
  /** `{atlas_url}`, e.g. `http://localhost:8080/atlas`. */
  atlasUrl: string;
  apiKey: string;
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
}

type SymbolInfo = Record<string, unknown> & { ticker: string; name: string };
type PeriodParams = { from: number; to: number; countBack?: number; firstDataRequest?: boolean };

/** The datafeed object TradingView's widget takes. */
export function createDatafeed(options: DatafeedOptions) {
  const doFetch = options.fetch ?? ((url: string, init: RequestInit) => fetch(url, init));
  const get = async (path: string) => {
    const res = await doFetch(`${options.atlasUrl}${path}`, { headers: { Authorization: `Bearer ${options.apiKey}` } });
    return res.json();
  };
  return {
    onReady(callback: (config: Record<string, unknown>) => void): void {
      get("/v1/config").then((config) => setTimeout(() => callback(config), 0));
    },
    resolveSymbol(name: string, onResolve: (info: SymbolInfo) => void, onError: (reason: string) => void): void {
      get(`/v1/symbols?symbol=${encodeURIComponent(name)}`).then((info) => (info.s === "error" ? onError(info.errmsg) : onResolve(info)), (e) => onError(String(e)));
    },
    getBars(
      info: SymbolInfo,
      resolution: string,
      period: PeriodParams,
      onResult: (bars: Bar[], meta: { noData: boolean }) => void,
      onError: (reason: string) => void,
    ): void {
      const countback = period.countBack ? `&countback=${period.countBack}` : "";
      get(`/v1/history?symbol=${encodeURIComponent(info.ticker)}&resolution=${resolution}&from=${period.from}&to=${period.to}${countback}`).then((h) => {
        if (h.s === "error") return onError(h.errmsg);
        if (h.s === "no_data") return onResult([], { noData: true });
        const bars = (h.t as number[]).map((t, i) => ({ time: t * 1000, open: h.o[i], high: h.h[i], low: h.l[i], close: h.c[i], volume: h.v[i] }));
        onResult(bars, { noData: bars.length === 0 });
      }, (e) => onError(String(e)));
    },
    subscribeBars(): void {
      // Live bars: GET {atlas_url}/v1/stream/bars (SSE with the same header); left out of this example.
    },
    unsubscribeBars(): void {},
  };
}

/** What the widget does on load, without the widget: config, the symbol, the last `countBack` bars before `to`. */
export async function main(options: DatafeedOptions & { symbol: string; resolution: string; to: number; countBack: number }): Promise<{ config: Record<string, unknown>; info: SymbolInfo; bars: Bar[] }> {
  const feed = createDatafeed(options);
  const config = await new Promise<Record<string, unknown>>((resolve) => feed.onReady(resolve));
  const info = await new Promise<SymbolInfo>((resolve, reject) => feed.resolveSymbol(options.symbol, resolve, reject));
  const bars = await new Promise<Bar[]>((resolve, reject) =>
    feed.getBars(info, options.resolution, { from: options.to - 30 * 86400, to: options.to, countBack: options.countBack, firstDataRequest: true }, resolve, reject),
  );
  return { config, info, bars };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await main({
    atlasUrl: process.env.OPTIONSCOPE_URL ?? "http://localhost:8080/atlas",
    apiKey: process.env.OPTIONSCOPE_KEY ?? "",
    symbol: process.argv[2] ?? "SPY",
    resolution: "60",
    to: Math.floor(Date.now() / 1000),
    countBack: 10,
  });
  console.log(`${r.info.name}: ${r.bars.length} bars, last close ${r.bars.at(-1)?.close}`);
}
