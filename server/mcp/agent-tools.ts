/**
 * The compact agent toolset (`{mcp_url}?toolset=agent`): the five intelligence tools plus the few
 * data tools an agent needs, each described in one or two sentences, every answer within the
 * result budget (server/mcp/agent-result.ts). Each tool runs REST routes through the executor for
 * the caller, charged as those calls, free when it fails. See docs/api.md#agent-toolset.
 */
import { ApiError } from "../errors";
import { AGENT_DEFAULT_LIMIT, AGENT_MAX_LIMIT, type AgentShape } from "./agent-result";
import { INTELLIGENCE_TOOLS, type BriefOutcome, type IntelligenceTool } from "./intelligence-tools";

type Args = Record<string, string>;
type Schema = Record<string, unknown>;

/** One agent tool: an intelligence tool, and how its answer is budgeted. */
export interface AgentTool extends IntelligenceTool {
  /** Rows and fields when the caller names none (a data tool's useful default). */
  defaults?: { limit?: number; fields?: readonly string[] };
}

const LIMIT: Schema = { type: "integer", minimum: 1, maximum: AGENT_MAX_LIMIT, description: `Rows per list (default ${AGENT_DEFAULT_LIMIT}); more lifts the 8 KB cap.` };
const FIELDS: Schema = { type: "string", description: "Comma-separated row fields to keep." };
const SYMBOL: Schema = { type: "string", description: "Ticker or option root (SPXW for the S&P 500 dailies)." };
const TICKER: Schema = { type: "string", description: "Underlying ticker or option root (SPY, AAPL, SPXW)." };
const OI: Schema = {
  type: "string",
  enum: ["exchange", "flow"],
  description: "Open interest: exchange (default, the previous night's) or flow (today's, estimated from the tape).",
};

/** `limit` as an integer in range, or undefined; 400 naming the argument otherwise. */
function limitOf(args: Args): number | undefined {
  if (args.limit === undefined) return undefined;
  const n = Number(args.limit);
  if (!Number.isInteger(n) || n < 1 || n > AGENT_MAX_LIMIT) {
    throw new ApiError(400, "invalid_parameter", `Invalid \`limit\`: expected an integer from 1 to ${AGENT_MAX_LIMIT}.`);
  }
  return n;
}

/** The shape an agent call asked for: its own `limit`/`fields`, else the tool's defaults. */
export function agentShapeOf(tool: AgentTool, args: Args): AgentShape {
  const limit = limitOf(args);
  const fields = args.fields
    ?.split(",")
    .map((f) => f.trim())
    .filter(Boolean);
  return {
    limit: limit ?? tool.defaults?.limit ?? AGENT_DEFAULT_LIMIT,
    asked: limit !== undefined,
    ...(fields && fields.length > 0 ? { fields } : tool.defaults?.fields ? { fields: tool.defaults.fields } : {}),
  };
}

/** Query values that were given (absent ones left out, so the route's defaults apply). */
function given(args: Args, names: readonly string[]): Args {
  const out: Args = {};
  for (const n of names) if (args[n] !== undefined) out[n] = args[n];
  return out;
}

/** Rows a route call should fetch: the asked `limit`, else the tool's default. */
const rowsWanted = (args: Args, fallback: number) => String(limitOf(args) ?? fallback);

/** Unix seconds of an RFC 3339 instant or a Unix-seconds string; 400 naming the argument otherwise. */
function unixSeconds(name: string, value: string): number {
  const n = /^-?\d+$/.test(value) ? Number(value) : Date.parse(value) / 1000;
  if (!Number.isFinite(n)) throw new ApiError(400, "invalid_parameter", `Invalid \`${name}\`: expected an RFC 3339 instant or Unix seconds.`);
  return Math.floor(n);
}

const intelligence = (name: string, description: string): AgentTool => {
  const tool = INTELLIGENCE_TOOLS.find((t) => t.name === name);
  if (!tool) throw new Error(`No intelligence tool ${name}`);
  return { ...tool, description };
};

const out = (summary: string, data: unknown, asOf: string): BriefOutcome => ({ summary, data, asOf, partial: false });

/** The data tools an agent needs beside the intelligence tools. */
const DATA_TOOLS: AgentTool[] = [
  {
    name: "account_usage",
    title: "Account and credits",
    description: "Your credit balance, plan, rate limits and caps. Free.",
    properties: {},
    required: [],
    async run(_args, calls) {
      const { data } = await calls.get("/v1/account", {});
      return out(`Balance ${data.creditsBalance} credits on plan ${data.plan}; ${data.limits.requestsPerMinute} requests per minute.`, data, new Date().toISOString());
    },
  },
  {
    name: "list_symbols",
    title: "Symbols with boards",
    description: "The tickers and option roots with dealer-positioning boards, with their names and types. Free.",
    properties: { limit: LIMIT, fields: FIELDS },
    required: [],
    defaults: { limit: 100, fields: ["symbol", "type", "name"] },
    async run(_args, calls) {
      const { data } = await calls.get("/v1/symbols", {});
      return out(`${data.symbols.length} symbols.`, data, new Date().toISOString());
    },
  },
  {
    name: "get_heatmap",
    title: "Dealer exposure by strike",
    description: "One symbol's live dealer gamma or vanna exposure per strike nearest spot (USD per 1% move), with node types. Credits: 1.",
    properties: { symbol: SYMBOL, metric: { type: "string", enum: ["gamma", "vanna"], description: "Default gamma." }, oi: OI, limit: LIMIT, fields: FIELDS },
    required: ["symbol"],
    async run(args, calls) {
      const { data, meta } = await calls.get("/v1/heatmap", {
        symbols: args.symbol,
        maxStrikes: rowsWanted(args, AGENT_DEFAULT_LIMIT),
        ...given(args, ["metric", "oi"]),
      });
      const board = data.symbols[0];
      return out(`${board.symbol} ${meta.metric} exposure at ${board.asOf}, spot ${board.spot}: ${board.strikes.length} strikes nearest spot.`, board, board.asOf);
    },
  },
  {
    name: "get_flow",
    title: "Recent options trades",
    description: "One ticker's scored option trades, newest first, over a trailing window. Credits: 1.",
    properties: {
      ticker: TICKER,
      timeframe: { type: "string", enum: ["5m", "15m", "1h", "4h", "1d"], description: "Trailing window (default 1h)." },
      min_premium: { type: "number", minimum: 0, description: "Minimum premium per trade, USD." },
      option_type: { type: "string", enum: ["call", "put", "all"] },
      limit: LIMIT,
      fields: FIELDS,
    },
    required: ["ticker"],
    defaults: { fields: ["timestamp", "optionType", "strike", "expiration", "dte", "contracts", "premium", "price", "side", "isSweep", "moneyness", "scores"] },
    async run(args, calls) {
      const query = { limit: rowsWanted(args, AGENT_DEFAULT_LIMIT), ...given(args, ["timeframe", "min_premium", "option_type"]) };
      const { data, meta } = await calls.get("/v1/flow/:ticker", query, { ticker: args.ticker });
      const { queryTimeMs: _t, ...rest } = data;
      return out(
        `${data.ticker} ${data.date}: ${data.tradeCount} trades, ${data.sweepCount} sweeps, $${Math.round(data.totalPremium)} premium from ${data.startTime} to ${data.endTime}; newest ${data.trades.length} shown.`,
        rest,
        meta.timestamp ?? data.endTime,
      );
    },
  },
  {
    name: "get_sweeps",
    title: "Sweeps",
    description: "One ticker's multi-exchange sweep orders this session, newest first. Credits: 3.",
    properties: {
      ticker: TICKER,
      min_premium: { type: "number", minimum: 0, description: "Minimum premium per sweep, USD." },
      option_type: { type: "string", enum: ["call", "put", "all"] },
      limit: LIMIT,
      fields: FIELDS,
    },
    required: ["ticker"],
    async run(args, calls) {
      const query = { limit: rowsWanted(args, AGENT_DEFAULT_LIMIT), ...given(args, ["min_premium", "option_type"]) };
      const { data, meta } = await calls.get("/v1/sweeps/:ticker", query, { ticker: args.ticker });
      return out(`${data.ticker} ${data.date}: ${data.sweeps.length} sweeps shown, newest first.`, data, meta.timestamp ?? `${data.date}T00:00:00Z`);
    },
  },
  {
    name: "get_iv_term",
    title: "Implied volatility term structure",
    description: "At-the-money implied volatility per expiration for one symbol (vol points), with the curve's state. Credits: 1.",
    properties: { symbol: SYMBOL, limit: LIMIT, fields: FIELDS },
    required: ["symbol"],
    async run(args, calls) {
      const { data } = await calls.get("/v1/vol/term", { symbols: args.symbol });
      const s = data.symbols[0];
      return out(`${s.symbol} term structure at ${s.asOf}: ${s.term?.rows?.length ?? 0} expirations.`, s, s.asOf);
    },
  },
  {
    name: "get_expirations",
    title: "Expirations traded",
    description: "One ticker's expirations with this session's call and put volume and premium. Credits: 1.",
    properties: { ticker: TICKER, limit: LIMIT, fields: FIELDS },
    required: ["ticker"],
    async run(args, calls) {
      const { data, meta } = await calls.get("/v1/underlying/:ticker/expirations", {}, { ticker: args.ticker });
      return out(`${args.ticker.toUpperCase()}: ${data.length} expirations, nearest first.`, data, meta.timestamp ?? new Date().toISOString());
    },
  },
  {
    name: "get_option_chain",
    title: "Option chain",
    description: "One expiration's strikes nearest the underlying price, with call and put volume, premium, open interest and IV. Credits: 3.",
    properties: { ticker: TICKER, expiration: { type: "string", description: "YYYY-MM-DD (see get_expirations)." }, limit: LIMIT, fields: FIELDS },
    required: ["ticker", "expiration"],
    async run(args, calls) {
      const { data, meta } = await calls.get("/v1/underlying/:ticker/chain", { expiration: args.expiration }, { ticker: args.ticker });
      // Strikes nearest the underlying first, so the budget keeps the ones that matter; shown ascending.
      const n = limitOf(args) ?? AGENT_DEFAULT_LIMIT;
      const near = [...data.strikes]
        .sort((a: { strike: number }, b: { strike: number }) => Math.abs(a.strike - data.underlyingPrice) - Math.abs(b.strike - data.underlyingPrice))
        .slice(0, n)
        .sort((a: { strike: number }, b: { strike: number }) => a.strike - b.strike);
      return out(
        `${data.ticker} ${data.expiration} chain at ${data.underlyingPrice}: the ${near.length} strikes nearest it of ${data.strikes.length}.`,
        { ...data, strikes: near },
        meta.timestamp ?? new Date().toISOString(),
      );
    },
  },
  {
    name: "get_price_bars",
    title: "Price bars",
    description: "OHLCV bars of one ticker ending at `to` (default now), newest first. Credits: 1.",
    properties: {
      symbol: { type: "string", description: "Ticker, e.g. SPY." },
      resolution: { type: "string", enum: ["1", "5", "15", "30", "60", "240", "D", "W"], description: "Minutes, D or W (default 60)." },
      to: { type: "string", description: "End, exclusive: RFC 3339 or Unix seconds (default now)." },
      limit: LIMIT,
      fields: FIELDS,
    },
    required: ["symbol"],
    async run(args, calls) {
      const time = await calls.get("/v1/time", {}, undefined, "atlas");
      const to = args.to === undefined ? Number(time.data) + 1 : unixSeconds("to", args.to);
      const countback = rowsWanted(args, AGENT_DEFAULT_LIMIT);
      // `from` is required by the UDF route; countback overrides it.
      const query = { symbol: args.symbol, resolution: args.resolution ?? "60", from: "0", to: String(to), countback };
      const { data } = await calls.get("/v1/history", query, undefined, "atlas");
      const t: number[] = data.t ?? [];
      const bars = t.map((ts, i) => ({ time: new Date(ts * 1000).toISOString(), o: data.o[i], h: data.h[i], l: data.l[i], c: data.c[i], v: data.v[i] })).reverse();
      return out(
        `${args.symbol.toUpperCase()} ${query.resolution} bars: ${bars.length}, newest first.`,
        { symbol: args.symbol.toUpperCase(), bars },
        bars[0]?.time ?? new Date(to * 1000).toISOString(),
      );
    },
  },
];

/** The agent toolset, in tools/list order: the one-call answers first. */
export const AGENT_TOOLS: readonly AgentTool[] = [
  intelligence("market_brief", "The market in one call: S&P implied vol, market-wide options flow and the key levels of SPXW and QQQ. Credits: 5."),
  intelligence("explain_levels", "One symbol's key dealer-positioning levels (King node, flip, walls, net exposure) with a short summary. Credits: 1."),
  intelligence("whats_changed", "How one symbol's board moved since an earlier instant: spot, King node and the strikes that changed most. Credits: 6."),
  intelligence("flow_context", "One ticker's options flow today: bull/bear split, sweeps and the largest dark-pool prints of 45 days. Credits: 9."),
  intelligence("vol_context", "One symbol's implied vol: 30-day IV, IV rank and percentile, curve shape and the 1-sigma moves to each horizon. Credits: 2."),
  ...DATA_TOOLS,
];

/** The tools/list entry of an agent tool: no output schema (the answers are budgeted, not fixed). */
export function listedAgentTool(tool: AgentTool): Record<string, unknown> {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: { type: "object", properties: tool.properties, ...(tool.required.length > 0 ? { required: tool.required } : {}), additionalProperties: false },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  };
}
