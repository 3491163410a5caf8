// Browser entry of the static build (scripts/build-heatmap-static.ts): the simulated market and the
// kernels run in the page; no server, no key, no network.
import { createSimulatedMarket, systemClock } from "optionscope/market";
import { loadKernels } from "optionscope/kernels";
import type { HeatmapPageConfig } from "../heatmap-html";
import { startHeatmapPage } from "./page";
import { simulatedSource } from "./source";

const config = JSON.parse(document.getElementById("heatmap-config")!.textContent!) as HeatmapPageConfig;
// The build pins "now" only when asked (tests); otherwise the simulated market runs to the real now.
const clock = config.nowMs > 0 ? { now: () => config.nowMs } : systemClock;
const market = createSimulatedMarket({ seed: 42, clock });
void loadKernels().then((engine) => startHeatmapPage(simulatedSource(market, engine), { ...config, nowMs: clock.now() }));
