// The typed client's paging: every trade of a ticker's last hour, page after page, following
// `meta.nextCursor` (the client does it: `getFlowPages`). In your project: `import { createClient } from "optionscope"`.
//   OPTIONSCOPE_URL=http://localhost:8080 OPTIONSCOPE_KEY=... npx tsx examples/typed-client-paging.ts SPY
import { createClient } from "optionscope";

export interface PagingOptions {
  baseUrl: string;
  apiKey: string;
  ticker: string;
  /** Trades per page. */
  limit?: number;
  /** Stop after this many pages. */
  maxPages?: number;
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
}

/** Read the pages; returns the trades and how many pages and credits they took. */
export async function main(options: PagingOptions): Promise<{ pages: number; trades: { tradeId: string; premium: number }[]; creditsRemaining: number | null }> {
  const api = createClient({ baseUrl: options.baseUrl, apiKey: options.apiKey, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const trades: { tradeId: string; premium: number }[] = [];
  let pages = 0;
  let creditsRemaining: number | null = null;
  for await (const page of api.getFlowPages({ ticker: options.ticker, limit: options.limit ?? 100 })) {
    pages++;
    for (const t of page.data.trades) trades.push({ tradeId: t.tradeId, premium: t.premium });
    creditsRemaining = page.creditsRemaining;
    if (pages >= (options.maxPages ?? 10)) break;
  }
  return { pages, trades, creditsRemaining };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await main({ baseUrl: process.env.OPTIONSCOPE_URL ?? "http://localhost:8080", apiKey: process.env.OPTIONSCOPE_KEY ?? "", ticker: process.argv[2] ?? "SPY" });
  const premium = r.trades.reduce((s, t) => s + t.premium, 0);
  console.log(`${r.trades.length} trades in ${r.pages} pages, $${Math.round(premium)} premium; ${r.creditsRemaining} credits left`);
}
