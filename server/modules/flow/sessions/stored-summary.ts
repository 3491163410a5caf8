// A finished session's flow summary as a compute worker hands it to the loop: the value and the
// daily store's encoded bodies of it and of its contract volumes, so the loop only writes bytes.
// See docs/architecture.md#worker-pools.
import { encodeDaily } from "../../../daily-store/codec";
import { contractVolumesOf } from "./contract-volumes";
import type { SessionSummary } from "./session-summary";

/** A summary and the bodies the store keeps for it (`FLOW_SUMMARY` and `CONTRACT_VOLUME` rows). */
export interface StoredSummary {
  summary: SessionSummary;
  summaryBody: Uint8Array;
  volumesBody: Uint8Array;
}

/** `summary` with its stored bodies, encoded in this thread (a worker's). */
export function storedSummaryOf(summary: SessionSummary): StoredSummary {
  return { summary, summaryBody: encodeDaily(summary), volumesBody: encodeDaily(contractVolumesOf(summary)) };
}
