// Browser entry of the served page (/heatmap/app.js): the API source with the key from `#key=`
// or localStorage (as the chart page), sent as `Authorization: Bearer`.
import type { HeatmapPageConfig } from "../heatmap-html";
import { startHeatmapPage } from "./page";
import { apiSource } from "./source";

const KEY = "optionscope.apiKey";
const config = JSON.parse(document.getElementById("heatmap-config")!.textContent!) as HeatmapPageConfig;

// A key in the fragment (never sent to the server) is stored, then removed from the address bar.
const fragment = new URLSearchParams(location.hash.replace(/^#/, ""));
const fromFragment = fragment.get("key");
if (fromFragment) {
  localStorage.setItem(KEY, fromFragment);
  history.replaceState(null, "", location.pathname + location.search);
}
const keyInput = document.getElementById("key") as HTMLInputElement;
keyInput.value = localStorage.getItem(KEY) ?? "";
document.getElementById("key-form")!.addEventListener("submit", (e) => {
  e.preventDefault();
  localStorage.setItem(KEY, keyInput.value.trim());
  location.reload();
});

const source = apiSource(
  config.base,
  config.nowMs,
  () => localStorage.getItem(KEY) ?? "",
  (credits) => {
    document.getElementById("credits")!.textContent = `${credits} credits left`;
  },
);
void startHeatmapPage(source, config);
