// Browser entry of the console page (served as /console/app.js; the page's CSP allows no inline
// script). No dependencies: it calls /console/api/* with the session cookie and the CSRF token,
// and writes every value as text (never as HTML).
import type { ConnectedApp } from "../../oauth/oauth-store";
import type { AccountRecord } from "../../accounts/types";
import type { ConsoleKey } from "../../accounts/console-types";
import type { UsageReport } from "../../accounts/usage-report";
import type { RevokedKey } from "../console-service";
import { type ConsoleCallError, consoleApi } from "./api";
import { clear, el, fmt, row, when } from "./dom";

/** What signing in (or setting up, or signing up) answers. */
interface Session {
  accountId: string;
  csrfToken: string;
}
/** The overview call: the account view, whose spend caps the console's accounts always carry. */
type Overview = AccountRecord & Required<Pick<AccountRecord, "caps">> & { activeKeys: number };

const TABS = ["overview", "usage", "keys", "apps", "invite", "cap"] as const;
type Tab = (typeof TABS)[number];

const base = document.body.getAttribute("data-base") || "/console";
const api = consoleApi(base);
const call = api.call;
const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const input = (id: string) => $<HTMLInputElement>(id);

function showError(id: string, error: { code?: string; message: string } | null): void {
  $(id).textContent = error ? (error.code ? `${error.code}: ` : "") + error.message : "";
}

function signedOut(): void {
  api.setCsrf("");
  $("signed-in").hidden = true;
  $("signed-out").hidden = false;
  $("sign-out").hidden = true;
  $("who").textContent = "";
  document.body.setAttribute("data-session", "signed-out");
}

function signedIn(s: Session): void {
  api.setCsrf(s.csrfToken);
  $("signed-out").hidden = true;
  $("signed-in").hidden = false;
  $("sign-out").hidden = false;
  $("who").textContent = s.accountId;
  document.body.setAttribute("data-session", "signed-in");
  const wanted = (location.hash.match(/^#tab=(\w+)$/) || [])[1];
  show((TABS as readonly string[]).includes(wanted) ? (wanted as Tab) : "overview");
}

function show(name: Tab): void {
  for (const t of TABS) {
    $(`tab-${t}`).hidden = t !== name;
    $(`tab-btn-${t}`).setAttribute("aria-selected", String(t === name));
  }
  showError("tab-error", null);
  history.replaceState(null, "", `#tab=${name}`);
  void load(name);
}

function load(name: Tab): Promise<void> {
  const section = $(`tab-${name}`);
  section.setAttribute("data-state", "loading");
  const done = () => section.setAttribute("data-state", "ready");
  const failed = (e: ConsoleCallError) => {
    if (e.status === 401) return signedOut();
    section.setAttribute("data-state", "error");
    showError("tab-error", e);
  };
  const loaders: Record<Tab, () => Promise<void>> = {
    overview: loadOverview,
    usage: loadUsage,
    keys: loadKeys,
    apps: loadApps,
    invite: () => Promise.resolve(),
    cap: loadCap,
  };
  return loaders[name]().then(done, failed);
}

async function loadOverview(): Promise<void> {
  const a = await call<Overview>("GET", "/overview");
  const dl = $("overview-list");
  clear(dl);
  const capText = a.caps.monthlyCredits === null ? "none" : `${fmt(a.caps.monthlyCredits)} credits`;
  const pairs: [string, unknown][] = [
    ["Account", a.customerId],
    ["Status", a.status],
    ["Plan", a.plan],
    ["Balance", `${fmt(a.creditsBalance)} credits ($${a.balanceUsd.toFixed(2)})`],
    ["Requests per minute per key", fmt(a.limits.requestsPerMinute)],
    ["Active keys", `${a.activeKeys} of ${a.limits.activeKeys}`],
    ["Daily cap", a.caps.dailyCredits === null ? "none" : `${fmt(a.caps.dailyCredits)} credits (used today ${fmt(a.caps.usedTodayCredits)})`],
    ["Monthly cap", capText],
  ];
  for (const [term, value] of pairs) {
    dl.appendChild(el("dt", term));
    dl.appendChild(el("dd", value));
  }
  const used = a.caps.usedThisMonthCredits;
  const cap = a.caps.monthlyCredits;
  $("overview-month").textContent = `${fmt(used)} credits spent this month${cap === null ? " (no monthly cap)" : ` of a ${fmt(cap)}-credit cap`}`;
  const meter = $("overview-meter");
  (meter.firstElementChild as HTMLElement).style.width = `${cap ? Math.min(100, (100 * used) / cap) : 0}%`;
  meter.classList.toggle("over", cap !== null && used >= cap);
  meter.hidden = cap === null;
}

async function loadUsage(): Promise<void> {
  const u = await call<UsageReport>("GET", "/usage?days=30");
  const box = $("usage-chart");
  clear(box);
  const NS = "http://www.w3.org/2000/svg";
  const W = 900;
  const H = 220;
  const pad = 28;
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("width", "100%");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "Credits by day");
  const max = Math.max(1, Math.max(...u.byDay.map((d) => d.credits)));
  const bw = (W - pad) / u.byDay.length;
  u.byDay.forEach((d, i) => {
    const h = ((H - 2 * pad) * Math.max(0, d.credits)) / max;
    const r = document.createElementNS(NS, "rect");
    r.setAttribute("x", String(pad + i * bw + 1));
    r.setAttribute("y", String(H - pad - h));
    r.setAttribute("width", String(Math.max(1, bw - 2)));
    r.setAttribute("height", String(h));
    r.setAttribute("fill", "#2962ff");
    r.setAttribute("data-day", d.day);
    r.setAttribute("data-credits", String(d.credits));
    const t = document.createElementNS(NS, "title");
    t.textContent = `${d.day}: ${d.credits} credits`;
    r.appendChild(t);
    svg.appendChild(r);
    if (i % 5 === 0 || i === u.byDay.length - 1) {
      const lbl = document.createElementNS(NS, "text");
      lbl.setAttribute("x", String(pad + i * bw));
      lbl.setAttribute("y", String(H - 8));
      lbl.textContent = d.day.slice(5);
      svg.appendChild(lbl);
    }
  });
  const top = document.createElementNS(NS, "text");
  top.setAttribute("x", "0");
  top.setAttribute("y", "12");
  top.textContent = fmt(max);
  svg.appendChild(top);
  box.appendChild(svg);
  $("usage-total").textContent = `${fmt(u.totalCredits)} credits since ${u.fromDay}`;
  const body = $("usage-endpoints");
  clear(body);
  if (u.byEndpoint.length === 0) body.appendChild(row(["No spend in this window.", ""]));
  for (const e of u.byEndpoint) body.appendChild(row([e.endpoint, fmt(e.credits)]));
}

/** A red "Revoke" button marked with `attribute` = `id` for the tests. */
function revokeButton(attribute: string, id: string, onClick: () => void): HTMLButtonElement {
  const b = el("button", "Revoke", "danger");
  b.type = "button";
  b.setAttribute(attribute, id);
  b.addEventListener("click", onClick);
  return b;
}

async function loadKeys(): Promise<void> {
  const r = await call<{ keys: ConsoleKey[]; activeKeyLimit: number }>("GET", "/keys");
  const active = r.keys.filter((k) => k.state === "active").length;
  $("keys-limit").textContent = `${active} of ${r.activeKeyLimit} active keys (your plan's limit).`;
  const body = $("keys-body");
  clear(body);
  for (const k of r.keys) {
    const action = el("span");
    if (k.state === "active") {
      action.appendChild(
        revokeButton("data-revoke-key", k.keyId, () => {
          if (!confirm(`Revoke ${k.prefix}...? Calls with it will get 403 at once.`)) return;
          // A revoked key whose OAuth grants are still being revoked says so (the note).
          call<RevokedKey>("POST", `/keys/${encodeURIComponent(k.keyId)}/revoke`).then(
            (revoked) => {
              $("new-key").hidden = true;
              showError("tab-error", "note" in revoked && revoked.note ? { message: revoked.note } : null);
              return load("keys");
            },
            (e: ConsoleCallError) => showError("tab-error", e),
          );
        }),
      );
    }
    const tr = row([`${k.prefix}...`, k.keyId, el("span", k.state, `state-${k.state}`), when(k.createdAt), when(k.lastUsedAt), action]);
    tr.setAttribute("data-key-id", k.keyId);
    tr.setAttribute("data-key-state", k.state);
    body.appendChild(tr);
  }
}

async function loadApps(): Promise<void> {
  const r = await call<{ apps: ConnectedApp[] }>("GET", "/apps");
  const body = $("apps-body");
  clear(body);
  $("apps-empty").hidden = r.apps.length > 0;
  for (const a of r.apps) {
    const state = a.revokedAt ? "revoked" : a.activeRefreshTokens > 0 ? "active" : "signed out";
    const action = el("span");
    if (!a.revokedAt) {
      action.appendChild(
        revokeButton("data-revoke-app", a.appId, () => {
          call("POST", `/apps/${encodeURIComponent(a.appId)}/revoke`).then(
            () => load("apps"),
            (e: ConsoleCallError) => showError("tab-error", e),
          );
        }),
      );
    }
    const tr = row([a.clientName || "(unnamed)", a.appId, state, when(a.createdAt), when(a.lastUsedAt), action]);
    tr.setAttribute("data-app-id", a.appId);
    tr.setAttribute("data-app-state", state);
    body.appendChild(tr);
  }
}

async function loadCap(): Promise<void> {
  const a = await call<Overview>("GET", "/overview");
  const cap = a.caps.monthlyCredits;
  $("cap-current").textContent =
    cap === null
      ? "No monthly cap: spend is limited by your balance (and daily cap) only."
      : `Current cap: ${fmt(cap)} credits; ${fmt(a.caps.usedThisMonthCredits)} spent this month.`;
  $("cap-current").setAttribute("data-cap", cap === null ? "none" : String(cap));
}

function submit(id: string, handler: () => void): void {
  $(id).addEventListener("submit", (ev) => {
    ev.preventDefault();
    handler();
  });
}

function opened(s: Session): void {
  location.hash = "";
  signedIn(s);
}

submit("sign-in-form", () => {
  call<Session>("POST", "/sign-in", { accountId: input("sign-in-account").value, password: input("sign-in-password").value }).then(
    (s) => {
      input("sign-in-password").value = "";
      showError("sign-in-error", null);
      opened(s);
    },
    (e: ConsoleCallError) => showError("sign-in-error", e),
  );
});
submit("setup-form", () => {
  const token = (location.hash.match(/^#setup=([\w-]+)$/) || [])[1];
  call<Session>("POST", "/setup", { token, password: input("setup-password").value }).then(
    (s) => {
      $("setup-card").hidden = true;
      showError("sign-in-error", null);
      opened(s);
    },
    (e: ConsoleCallError) => showError("sign-in-error", e),
  );
});
submit("sign-up-form", () => {
  call<Session & { key: string }>("POST", "/sign-up", { inviteCode: input("sign-up-code").value, password: input("sign-up-password").value }).then(
    (s) => {
      showError("sign-in-error", null);
      signedIn(s);
      show("keys");
      $("new-key-value").textContent = s.key;
      $("new-key").hidden = false;
    },
    (e: ConsoleCallError) => showError("sign-in-error", e),
  );
});
submit("create-key-form", () => {
  call<{ key: string }>("POST", "/keys").then(
    (k) => {
      $("new-key-value").textContent = k.key;
      $("new-key").hidden = false;
      return load("keys");
    },
    (e: ConsoleCallError) => showError("tab-error", e),
  );
});
submit("invite-form", () => {
  call<{ plan: string; creditsAdded: number }>("POST", "/invite", { inviteCode: input("invite-code").value }).then(
    (r) => {
      $("invite-result").textContent = `Redeemed: plan ${r.plan}${r.creditsAdded > 0 ? `, ${fmt(r.creditsAdded)} credits added.` : "."}`;
      input("invite-code").value = "";
    },
    (e: ConsoleCallError) => showError("tab-error", e),
  );
});
submit("cap-form", () => {
  call("POST", "/monthly-cap", { monthlyCapCredits: Number(input("cap-value").value) }).then(
    () => load("cap"),
    (e: ConsoleCallError) => showError("tab-error", e),
  );
});
$("cap-remove").addEventListener("click", () => {
  call("POST", "/monthly-cap", { monthlyCapCredits: null }).then(
    () => load("cap"),
    (e: ConsoleCallError) => showError("tab-error", e),
  );
});
$("sign-out").addEventListener("click", () => {
  call("POST", "/sign-out").then(signedOut, signedOut);
});
for (const t of TABS) $(`tab-btn-${t}`).addEventListener("click", () => show(t));

if (/^#setup=/.test(location.hash)) {
  signedOut();
  $("setup-card").hidden = false;
} else call<Session>("GET", "/session").then(signedIn, signedOut);
