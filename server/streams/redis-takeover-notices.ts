/**
 * Takeover notices between instances sharing a Redis resume store: when a resume claims a lineage
 * (the lookup script publishes `<lineage> <claim>` in the same atomic step), every instance hears
 * it on one subscriber connection, and the one still writing into that lineage stops its
 * connection at once instead of at its next write, which could be a billing interval away (a
 * minute charged to a client that already left). The claim check on every append stays as the
 * backstop when a notice is lost (Redis pub/sub is at most once).
 * See docs/operations.md#stream-resume-on-redis.
 */
import type { Redis } from "ioredis";
import { openRedis } from "../limits/redis-connection";

/** Receives `(lineageId, claim)` for every claim made by a resume anywhere. */
type TakeoverHandler = (lineageId: string, claim: string) => void;

export interface TakeoverNotices {
  /** The channel the lookup script publishes on. */
  readonly channel: string;
  /** Listen; returns the unsubscribe. */
  subscribe(handler: TakeoverHandler): () => void;
  close(): void;
}

/** The channel name under a key prefix. */
export const takeoverChannel = (prefix = "optionscope:") => `${prefix}takeover`;

/**
 * Subscribe to the takeover channel on a connection of its own (a subscribed ioredis client can
 * run no other command). ioredis re-subscribes after a reconnect; notices sent meanwhile are lost,
 * which the append-time claim check covers.
 * @example const notices = await openTakeoverNotices("redis://127.0.0.1:6379"); notices.subscribe((id, claim) => {});
 */
export async function openTakeoverNotices(url: string, prefix?: string): Promise<TakeoverNotices> {
  const channel = takeoverChannel(prefix);
  const sub: Redis = await openRedis(url);
  const handlers = new Set<TakeoverHandler>();
  sub.on("message", (ch: string, message: string) => {
    if (ch !== channel) return;
    const space = message.indexOf(" ");
    if (space <= 0) return;
    const lineageId = message.slice(0, space);
    const claim = message.slice(space + 1);
    for (const h of handlers) h(lineageId, claim);
  });
  try {
    await sub.subscribe(channel);
  } catch (error) {
    sub.disconnect();
    throw error;
  }
  return {
    channel,
    subscribe(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    close() {
      handlers.clear();
      sub.disconnect();
    },
  };
}
