/**
 * The resume store on Redis (`--redis`), so a client that reconnects to another instance with
 * `Last-Event-ID` resumes its lineage there with no gap and no duplicate. Redis holds the truth
 * per lineage: its account, stream, last seq, the per-symbol board state, the claim of the one
 * connection allowed to write, and its events (a capped stream); boards and velocity are stored
 * once each (content-addressed), not once per lineage. This process keeps the lineages it writes into, so
 * ids are still assigned synchronously at write time; each append is checked and written by one
 * Lua script (claim and seq), in order on one connection. Layout, bounds and failure behaviour:
 * docs/operations.md#stream-resume-on-redis; the resume rules: docs/api.md#stream-resumption.
 */
import { createHash, randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { sharedLimitsUnavailable } from "../limits/redis-connection";
import { formatEventId, newLineageId, parseEventId } from "./event-id";
import type { Lineage, LoggedEvent, ReplayStore, ReplayStoreOptions, ResumeLookup } from "./replay-store";
import type { TakeoverNotices } from "./redis-takeover-notices";

// KEYS: meta hash, event stream. ARGV: claim, seq, approximate max length, ttl ms, state JSON,
// then the event's field/value pairs. 1 written; 0 another connection claimed the lineage (a
// resume elsewhere); -1 the seq does not follow Redis's (an earlier append was lost): not written.
const APPEND = `
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then return 0 end
local seq = tonumber(ARGV[2])
if tonumber(redis.call('HGET', KEYS[1], 'seq')) ~= seq - 1 then return -1 end
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[3], seq .. '-0', unpack(ARGV, 6))
redis.call('HSET', KEYS[1], 'seq', seq, 'state', ARGV[5])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return 1`;

// KEYS: meta hash, event stream. ARGV: account, query key, cursor seq, claim, ttl ms, max events,
// cutoff (stream-clock ms), takeover channel, lineage id. The checks of the in-process lookup, in
// its order; on success the lineage is claimed by the caller in the same step, so no append of a
// previous writer slips in between the replay read and the takeover, and the claim is published
// so the previous writer's instance stops it at once (redis-takeover-notices.ts).
// Returns {'resume', seq, state, entries} or {reason}.
const LOOKUP = `
local m = redis.call('HMGET', KEYS[1], 'acct', 'query', 'seq', 'state')
if not m[1] or m[1] ~= ARGV[1] then return {'unknown'} end
local seq = tonumber(m[3])
local after = tonumber(ARGV[3])
if after > seq then return {'unknown'} end
if m[2] ~= ARGV[2] then return {'different_stream'} end
local entries = {}
if after < seq then
  if after + 1 <= seq - tonumber(ARGV[6]) then return {'expired'} end
  entries = redis.call('XRANGE', KEYS[2], (after + 1) .. '-0', '+')
  local first = entries[1]
  if first == nil or first[1] ~= (after + 1) .. '-0' or tonumber(first[2][2]) < tonumber(ARGV[7]) then return {'expired'} end
end
redis.call('HSET', KEYS[1], 'owner', ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
if ARGV[8] ~= '' then redis.call('PUBLISH', ARGV[8], ARGV[9] .. ' ' .. ARGV[4]) end
return {'resume', m[3], m[4], entries}`;

/** Event data longer than this is stored once by digest (boards, velocity), shorter inline. */
const INLINE_MAX_CHARS = 512;

/** A memoised large text unused this long (stream-clock ms) is forgotten: boards change each minute. */
const MEMO_IDLE_MS = 120_000;
/** Hard bound of the memo (two texts per topic at the server-wide topic cap, and then some). */
const MAX_MEMO_TEXTS = 4096;

type StreamEntry = [id: string, fields: string[]];
type Resumable = ["resume", seq: string, state: string, entries: StreamEntry[]];
type LookupReply = [reason: "unknown" | "different_stream" | "expired"] | Resumable;

interface RedisWithReplay extends Redis {
  optionscopeReplayAppend(meta: string, log: string, ...args: (string | number)[]): Promise<number>;
  optionscopeReplayLookup(meta: string, log: string, ...args: (string | number)[]): Promise<LookupReply>;
}

/** The per-symbol board state of a lineage, as stored with each append. */
interface LineageState {
  b: Record<string, number>;
  v: Record<string, number>;
  u: string[];
}

export interface RedisReplayStoreOptions extends ReplayStoreOptions {
  /** Key prefix, so several deployments can share one Redis. Default `optionscope:`. */
  prefix?: string;
  /** Called with the connection writing into a lineage that a resume claimed elsewhere (the hub aborts it). */
  onTakenOver: (owner: object) => void;
  /**
   * Claims published by every instance's resumes (`openTakeoverNotices`): a writer here stops as
   * soon as its lineage is claimed elsewhere. Without it, at its next write.
   */
  takeoverNotices?: TakeoverNotices;
}

/** The JSON of a lineage's board state. */
function stateOf(l: Lineage): string {
  const state: LineageState = { b: Object.fromEntries(l.lastBoardMs), v: Object.fromEntries(l.lastVelocityMs), u: [...l.unavailable] };
  return JSON.stringify(state);
}

/** Apply a stored board state to a lineage. */
function applyState(l: Lineage, json: string): void {
  const s = JSON.parse(json) as LineageState;
  l.lastBoardMs = new Map(Object.entries(s.b));
  l.lastVelocityMs = new Map(Object.entries(s.v));
  l.unavailable = new Set(s.u);
}

/** Field/value pairs of a stream entry as a map. */
function fieldsOf(list: string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i + 1 < list.length; i += 2) out.set(list[i]!, list[i + 1]!);
  return out;
}

/**
 * A resume store shared by every instance on the same Redis.
 * @example const store = createRedisReplayStore(redis, { maxEvents: 1000, windowMs: 600_000, maxLineages: 20_000, onTakenOver: (c) => (c as StreamConnection).abort() })
 */
export function createRedisReplayStore(redis: Redis, options: RedisReplayStoreOptions): ReplayStore {
  const prefix = options.prefix ?? "optionscope:";
  // Through `unknown`: comparing ioredis's `Redis` with its extension structurally cost tsc 10 s.
  const client = redis as unknown as RedisWithReplay;
  if (typeof client.optionscopeReplayAppend !== "function") {
    client.defineCommand("optionscopeReplayAppend", { numberOfKeys: 2, lua: APPEND });
    client.defineCommand("optionscopeReplayLookup", { numberOfKeys: 2, lua: LOOKUP });
  }
  // Keys live a window past their last write (plus a minute: instances' stream clocks differ a little);
  // boards twice that, since an event may point at a board stored a little before it.
  const ttlMs = options.windowMs + 60_000;
  const boardTtlMs = 2 * ttlMs;
  const instance = randomUUID().slice(0, 8);
  let claims = 0;
  /** Lineages this process created or resumed. */
  const lineages = new Map<string, Lineage>();
  /** The claim each local lineage writes under (changes when it is resumed). */
  const claimOf = new WeakMap<Lineage, string>();
  /** Lineages whose Redis copy stopped following (an append failed): no more writes for them. */
  const unpersisted = new WeakSet<Lineage>();
  /**
   * Large texts already stored from this process: text -> digest and when it was last used
   * (stream-clock ms). Boards of the current minutes only: `sweep` forgets the others, so the
   * memo holds about two texts per live topic, not old boards.
   */
  const storedBoards = new Map<string, { digest: string; usedMs: number }>();

  const channel = options.takeoverNotices?.channel ?? "";
  // A claim made elsewhere: the writer of that lineage here, if any, stops now. This process's
  // own resumes stop their previous writer in `lookup` (the notice may arrive before or after).
  options.takeoverNotices?.subscribe((lineageId, claim) => {
    if (claim.startsWith(`${instance}:`)) return;
    const l = lineages.get(lineageId);
    if (!l) return;
    unpersisted.add(l);
    if (l.owner) options.onTakenOver(l.owner);
  });

  const metaKey = (id: string) => `${prefix}lineage:${id}`;
  const logKey = (id: string) => `${metaKey(id)}:log`;
  const boardKey = (digest: string) => `${prefix}board:${digest}`;
  const newClaim = () => `${instance}:${++claims}`;

  /** The digest of a large event text (a board), storing it on first use from this process. */
  function storeBoard(json: string, nowMs: number): string {
    const known = storedBoards.get(json);
    if (known !== undefined) {
      known.usedMs = nowMs;
      return known.digest;
    }
    const digest = createHash("sha1").update(json).digest("base64url");
    if (storedBoards.size >= MAX_MEMO_TEXTS) storedBoards.clear();
    storedBoards.set(json, { digest, usedMs: nowMs });
    client.set(boardKey(digest), json, "PX", boardTtlMs).catch(() => storedBoards.delete(json));
    return digest;
  }

  function evictOne(): boolean {
    for (const [id, l] of lineages) {
      if (l.owner === null) {
        lineages.delete(id);
        return true;
      }
    }
    return false;
  }

  function remember(l: Lineage): void {
    lineages.delete(l.id);
    while (lineages.size >= options.maxLineages && evictOne()) {
      // the oldest detached lineages go first (Map keeps insertion order)
    }
    lineages.set(l.id, l);
  }

  /** The replayed events of a lookup, large texts read back by digest; null when one is gone. */
  async function replayOf(entries: StreamEntry[]): Promise<LoggedEvent[] | null> {
    const events: LoggedEvent[] = [];
    const boards: string[] = [];
    for (const [id, list] of entries) {
      const f = fieldsOf(list);
      const lagged = f.get("l");
      const ev: LoggedEvent = { seq: Number(id.slice(0, id.indexOf("-"))), event: f.get("e")!, data: f.get("d") ?? "", atMs: Number(f.get("t")) };
      if (lagged !== undefined) ev.lagged = lagged === "1";
      if (f.has("b")) boards.push(f.get("b")!);
      events.push(ev);
    }
    if (boards.length === 0) return events;
    const unique = [...new Set(boards)];
    const texts = await client.mget(...unique.map(boardKey));
    if (texts.some((t) => t === null)) return null;
    const byDigest = new Map(unique.map((d, i) => [d, texts[i]!]));
    let k = 0;
    for (let i = 0; i < entries.length; i++) {
      if (fieldsOf(entries[i]![1]).has("b")) events[i]!.data = byDigest.get(boards[k++]!)!;
    }
    return events;
  }

  return {
    create(accountId, queryKey, nowMs) {
      const l: Lineage = {
        id: newLineageId(),
        accountId,
        queryKey,
        seq: 0,
        events: [],
        lastBoardMs: new Map(),
        lastVelocityMs: new Map(),
        unavailable: new Set(),
        owner: null,
        detachedAtMs: nowMs,
      };
      const claim = newClaim();
      claimOf.set(l, claim);
      remember(l);
      const key = metaKey(l.id);
      // Sent before any append of this lineage on the same connection, so Redis sees them in order.
      client
        .multi()
        .hset(key, "acct", accountId, "query", queryKey, "seq", 0, "owner", claim, "state", stateOf(l))
        .pexpire(key, ttlMs)
        .exec()
        .catch(() => unpersisted.add(l));
      return l;
    },

    async lookup(raw, accountId, queryKey, nowMs): Promise<ResumeLookup> {
      const parsed = parseEventId(raw);
      if (!parsed) return { kind: "gap", reason: "malformed" };
      const claim = newClaim();
      const keys = [metaKey(parsed.lineage), logKey(parsed.lineage)] as const;
      let reply: LookupReply;
      let replay: LoggedEvent[] | null;
      try {
        reply = await client.optionscopeReplayLookup(
          ...keys,
          accountId,
          queryKey,
          parsed.seq,
          claim,
          ttlMs,
          options.maxEvents,
          Math.floor(nowMs - options.windowMs),
          channel,
          parsed.lineage,
        );
        replay = reply[0] === "resume" ? await replayOf((reply as Resumable)[3]) : [];
      } catch {
        // No resume can be decided without Redis; the open is refused (and refunded), like the limits.
        throw sharedLimitsUnavailable();
      }
      if (reply[0] !== "resume") return { kind: "gap", reason: reply[0] };
      if (replay === null) return { kind: "gap", reason: "expired" };
      const [, seq, state] = reply;
      let l = lineages.get(parsed.lineage);
      if (l) {
        // One writer per lineage: this process's previous writer stops before anything else is written.
        const previous = l.owner;
        if (previous) options.onTakenOver(previous);
      } else {
        l = {
          id: parsed.lineage,
          accountId,
          queryKey,
          seq: 0,
          events: [],
          lastBoardMs: new Map(),
          lastVelocityMs: new Map(),
          unavailable: new Set(),
          owner: null,
          detachedAtMs: nowMs,
        };
      }
      l.seq = Number(seq);
      applyState(l, state);
      claimOf.set(l, claim);
      unpersisted.delete(l);
      remember(l);
      return { kind: "resume", lineage: l, afterSeq: parsed.seq, replay };
    },

    append(l, event, data, nowMs, lagged) {
      l.seq += 1;
      const id = formatEventId(l.id, l.seq);
      if (unpersisted.has(l)) return id;
      const fields: (string | number)[] = ["t", Math.floor(nowMs), "e", event];
      // Boards and velocity (the same text for every subscriber of a topic) go by digest.
      if (data.length > INLINE_MAX_CHARS) fields.push("b", storeBoard(data, nowMs));
      else fields.push("d", data);
      if (lagged !== undefined) fields.push("l", lagged ? "1" : "0");
      const writer = l.owner;
      client.optionscopeReplayAppend(metaKey(l.id), logKey(l.id), claimOf.get(l) ?? "", l.seq, options.maxEvents, ttlMs, stateOf(l), ...fields).then(
        (r) => {
          if (r === 1) return;
          unpersisted.add(l);
          // Resumed on another instance: the connection here must stop writing (its client left).
          if (r === 0 && writer !== null && writer === l.owner) options.onTakenOver(writer);
        },
        () => unpersisted.add(l),
      );
      return id;
    },

    sweep(nowMs) {
      for (const [id, l] of lineages) {
        if (l.owner === null && nowMs - l.detachedAtMs > options.windowMs) lineages.delete(id);
      }
      for (const [text, memo] of storedBoards) if (nowMs - memo.usedMs > MEMO_IDLE_MS) storedBoards.delete(text);
    },

    peek: (id) => lineages.get(id),

    get size() {
      return lineages.size;
    },

    retainedEvents: () => 0,
  };
}
