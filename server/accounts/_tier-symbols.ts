/** The index/ETF tier's symbol list, re-exported so the plans module has one import point. */
export { INDEX_ETF_TIER_SYMBOLS } from "../../lib/market/universe";
