// The top-contract ranking of a whole market's rows (a session's ~200,000 contracts) a chunk at a
// time, with the loop's other work between chunks (docs/architecture.md#worker-pools).
import { rankTopContracts, type TopContractFiltersInput, type TopContractRow } from "../../../../lib/flow";
import { timeSlicer } from "../../../yield-to-loop";

/** Rows ranked per loop slice. */
const RANK_CHUNK_ROWS = 20_000;

/**
 * `rankTopContracts(rows, filters)`, each chunk's top `limit` first, then the top of those: the
 * same rows, since the order is total (ties by contract symbol, unique in a session).
 * @example await rankInSlices(marketRows, { limit: 50, orderBy: "premium" })
 */
export async function rankInSlices(rows: readonly TopContractRow[], filters: TopContractFiltersInput, chunkRows = RANK_CHUNK_ROWS): Promise<TopContractRow[]> {
  if (rows.length <= chunkRows) return rankTopContracts(rows, filters);
  const slice = timeSlicer();
  const winners: TopContractRow[] = [];
  for (let i = 0; i < rows.length; i += chunkRows) {
    for (const r of rankTopContracts(rows.slice(i, i + chunkRows), filters)) winners.push(r);
    await slice();
  }
  return rankTopContracts(winners, filters);
}
