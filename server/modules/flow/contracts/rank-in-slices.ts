// The top-contract ranking of a whole market's rows (a session's ~200,000 contracts across the
// universe's summaries) a part at a time, with the loop's other work between parts
// (docs/architecture.md#worker-pools).
import { rankTopContracts, type TopContractFiltersInput, type TopContractRow } from "../../../../lib/flow";
import { timeSlicer } from "../../../yield-to-loop";

/** Rows ranked per loop slice at most: 20,000 (SPXW's board) took 30-50 ms of the loop on a quiet storm. */
const RANK_CHUNK_ROWS = 5_000;

/**
 * `rankTopContracts` of the concatenation of `parts` (one ticker's contracts each, never joined
 * into one array), each piece's top `limit` first, then the top of those: the same rows, since the
 * order is total (ties by contract symbol, unique in a session).
 * @example await rankInSlices(summaries.map((s) => s.contracts), { limit: 50, orderBy: "premium" })
 */
export async function rankInSlices(
  parts: readonly (readonly TopContractRow[])[],
  filters: TopContractFiltersInput,
  chunkRows = RANK_CHUNK_ROWS,
): Promise<TopContractRow[]> {
  const slice = timeSlicer();
  const winners: TopContractRow[] = [];
  for (const part of parts) {
    for (let i = 0; i < part.length; i += chunkRows) {
      const piece = i === 0 && part.length <= chunkRows ? part : part.slice(i, i + chunkRows);
      for (const r of rankTopContracts(piece, filters)) winners.push(r);
      await slice();
    }
  }
  return rankTopContracts(winners, filters);
}
