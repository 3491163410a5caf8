/**
 * The simulator's state for one `(seed)`: symbol specs, and memo caches of pure results
 * (daily factors per path owner, intraday paths and session boards in LRUs). Nothing here
 * depends on the order of requests: every cached value is a pure function of its key.
 * @see docs/methodology.md#determinism
 */
import { simulatedEarnings } from "../prints/simulated-earnings";
import { symbolSpecs, type SymbolSpec } from "../universe";
import { simCalendar } from "./_calendar";
import { Lru } from "./_lru";
import { computeDailyPath, type DailyPath } from "./daily-path";
import { listedExpirations, listingClass, type Expiration } from "./expirations";
import { computeIntradayPath, type IntradayPath } from "./intraday-path";
import { computeVolState, type VolState } from "./vol-state";

/** The simulator's per-seed state. */
export class SimEngine {
  readonly specs: ReadonlyMap<string, SymbolSpec>;
  readonly specList: readonly SymbolSpec[];
  private readonly daily = new Map<string, DailyPath>();
  private readonly intraday = new Lru<string, IntradayPath>(512);
  private readonly volStates = new Map<string, VolState>();
  private readonly earningsMemo = new Map<string, ReadonlyMap<string, "bmo" | "amc">>();
  // A few listing classes per session: room for every class of a year of sessions.
  private readonly listings = new Lru<string, readonly Expiration[]>(2048);

  constructor(readonly seed: number) {
    this.specList = symbolSpecs();
    this.specs = new Map(this.specList.map((s) => [s.ticker, s]));
  }

  /** The spec of a ticker, or undefined. */
  spec(ticker: string): SymbolSpec | undefined {
    return this.specs.get(ticker);
  }

  /** The spec whose path a symbol follows (its family head, or itself). */
  owner(spec: SymbolSpec): SymbolSpec {
    return spec.family ? this.specs.get(spec.family)! : spec;
  }

  /** Price multiplier of a symbol over its path owner (1 for owners). */
  ratio(spec: SymbolSpec): number {
    return spec.family ? spec.refPrice / this.specs.get(spec.family)!.refPrice : 1;
  }

  /** Earnings sessions of a stock: session date -> timing. */
  earningsDays(ticker: string): ReadonlyMap<string, "bmo" | "amc"> {
    let m = this.earningsMemo.get(ticker);
    if (!m) {
      const spec = this.specs.get(ticker);
      const cal = simCalendar();
      m = new Map(spec?.type === "stock" ? simulatedEarnings(this.seed, ticker, cal.days[0], cal.days[cal.days.length - 1]).map((e) => [e.date, e.timing]) : []);
      this.earningsMemo.set(ticker, m);
    }
    return m;
  }

  /**
   * `listedExpirations(root, sessionDate)`, shared by the roots of one listing class (frozen: the
   * boards of those roots hold the same objects).
   */
  expirations(root: string, sessionDate: string): readonly Expiration[] {
    return this.listings.get(`${listingClass(root)}|${sessionDate}`, () => Object.freeze(listedExpirations(root, sessionDate).map((e) => Object.freeze(e))));
  }

  /** Daily factors of a path owner (memoized for the engine's lifetime). */
  dailyPath(ownerTicker: string): DailyPath {
    let p = this.daily.get(ownerTicker);
    if (!p) {
      const spec = this.specs.get(ownerTicker)!;
      const factor = spec.factor ? this.dailyPath(this.owner(this.specs.get(spec.factor)!).ticker) : null;
      p = computeDailyPath(this.seed, spec, factor, this.earningsDays(ownerTicker));
      this.daily.set(ownerTicker, p);
    }
    return p;
  }

  /** Implied-vol state of a path owner (memoized for the engine's lifetime). @see docs/methodology.md#implied-volatility-state */
  volState(ownerTicker: string): VolState {
    let v = this.volStates.get(ownerTicker);
    if (!v) {
      v = computeVolState(this.seed, this.specs.get(ownerTicker)!, this.dailyPath(ownerTicker));
      this.volStates.set(ownerTicker, v);
    }
    return v;
  }

  /** Intraday path of a path owner for session index `d`. */
  intradayPath(ownerTicker: string, d: number): IntradayPath {
    return this.intraday.get(`${ownerTicker}|${d}`, () => {
      const daily = this.dailyPath(ownerTicker);
      const factorNoise = daily.factor ? this.intradayPath(daily.factor.ticker, d).regNoise : null;
      return computeIntradayPath(this.seed, daily, d, factorNoise);
    });
  }
}
