/**
 * Quotes a session board at one minute: spot, the surface level moved by spot, SSVI implied
 * vols, Black-Scholes-Merton mids (inlined, with the library's `normCdf`), spreads around the
 * mid, last trade and volume so far.
 * @see docs/methodology/market.md#quotes-and-spreads
 */
import { normCdf } from "../../math";
import type { ChainSnapshot } from "../market-data";
import { strikeUnionFrom, type SessionBoard } from "./session-board";
import { SPREAD, SURFACE } from "./params";

const MINUTE_MS = 60_000;
const YEAR_MS = 365 * 86_400_000;

/**
 * The board at `asOfMs` (a minute boundary in [open, close]) with underlying `spot` and the
 * session's regular open `openSpot`. Expirations settled at or before `asOfMs` are left out.
 */
export function quoteBoard(board: SessionBoard, asOfMs: number, spot: number, openSpot: number): ChainSnapshot {
  const exps = board.expirations;
  let first = 0;
  while (first < exps.length && exps[first].settleMs <= asOfMs) first++;
  const start = board.expStart[first];
  const n = board.n - start;
  const { strikes, strikeIndex } = strikeUnionFrom(board, first);

  const bid = new Float64Array(n);
  const ask = new Float64Array(n);
  const last = new Float64Array(n);
  const iv = new Float64Array(n);
  const volume = new Float64Array(n);
  const expIndex = new Int32Array(n);

  const r = board.rate;
  const q = board.dividendYield;
  const lev = Math.min(
    Math.max(Math.exp(-2 * board.leverage * Math.log(spot / openSpot)), SURFACE.leverageMin),
    SURFACE.leverageMax,
  );
  const vShort = board.vShortDay * lev;
  const vLong = board.vLong;
  const rho = board.rho;
  const eta = board.eta;
  const oneMinusRho2 = 1 - rho * rho;
  const tau = SURFACE.tauYears;
  const gamma = SURFACE.gamma;
  const base =
    board.spec.type === "index" ? (spot >= 1000 ? SPREAD.baseIndex : SPREAD.baseEtf) : board.spec.type === "etf" ? SPREAD.baseEtf : SPREAD.baseStock;
  const rel = SPREAD.relative;
  const maxHalf = SPREAD.maxHalfShareOfPrice;
  const lnSpot = Math.log(spot);
  const m = Math.round((asOfMs - board.regOpenMs) / MINUTE_MS);
  const lnU = board.lnCumVolume[Math.min(Math.max(m, 0), board.nReg)];

  for (let e = first; e < exps.length; e++) {
    const tYears = Math.max(exps[e].settleMs - asOfMs, MINUTE_MS) / YEAR_MS;
    const theta = vLong * tYears + (vShort - vLong) * tau * (1 - Math.exp(-tYears / tau)) + board.eventVariance[e];
    const phi = eta / (Math.pow(theta, gamma) * Math.pow(1 + theta, 1 - gamma));
    const lnF = lnSpot + (r - q) * tYears;
    const fwd = Math.exp(lnF);
    const df = Math.exp(-r * tYears);
    const halfTheta = 0.5 * theta;
    const invT = 1 / tYears;
    const end = board.expStart[e + 1];
    // Rows come in (put, call) pairs per strike: price both from one d1/d2.
    for (let i = board.expStart[e]; i < end; i += 2) {
      const K = board.strike[i];
      const k = board.lnStrike[i] - lnF;
      const pk = phi * k;
      const w = halfTheta * (1 + rho * pk + Math.sqrt((pk + rho) * (pk + rho) + oneMinusRho2));
      const sw = Math.sqrt(w);
      const d1 = -k / sw + 0.5 * sw;
      const d2 = d1 - sw;
      // One normCdf per d: the small tail exactly, its complement by subtraction (no lost digits).
      let n1: number, n1c: number, n2: number, n2c: number;
      if (d1 >= 0) {
        n1c = normCdf(-d1);
        n1 = 1 - n1c;
      } else {
        n1 = normCdf(d1);
        n1c = 1 - n1;
      }
      if (d2 >= 0) {
        n2c = normCdf(-d2);
        n2 = 1 - n2c;
      } else {
        n2 = normCdf(d2);
        n2c = 1 - n2;
      }
      const call = df * (fwd * n1 - K * n2);
      const put = df * (K * n2c - fwd * n1c);
      const vol = Math.sqrt(w * invT);
      for (let side = 0; side < 2; side++) {
        const row = i + side;
        const o = row - start;
        const price = side === 0 ? put : call;
        const half = Math.min(0.5 * (base + rel * price), maxHalf * price);
        bid[o] = price - half;
        ask[o] = price + half;
        last[o] = price + board.lastPos[row] * 2 * half;
        iv[o] = vol;
        expIndex[o] = e - first;
        const dv = board.dailyVolume[row];
        volume[o] = dv > 0 ? Math.floor(dv * Math.exp(board.warp[row] * lnU) + 1e-9) : 0;
      }
    }
  }

  return {
    symbol: board.symbol,
    underlying: board.underlying,
    asOfMs,
    sessionDate: board.sessionDate,
    spot,
    rate: r,
    dividendYield: q,
    simulated: true,
    expirations: exps.slice(first).map((x) => x.expiry),
    expirySettleMs: exps.slice(first).map((x) => x.settleMs),
    expiryRoot: exps.slice(first).map(() => board.root),
    strikes: strikes.slice(),
    strikeIndex: strikeIndex.slice(),
    expIndex,
    right: board.right.slice(start),
    oi: board.oi.slice(start),
    bid,
    ask,
    last,
    iv,
    volume,
  };
}
