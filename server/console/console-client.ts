// The console page's script (served at /console/app.js; the page's CSP allows no inline script).
// Plain browser JavaScript with no dependencies: it calls /console/api/* with the session cookie
// and the CSRF token, and writes every value as text (never as HTML).
export const CONSOLE_CLIENT_JS = String.raw`"use strict";
(function () {
  var base = document.body.getAttribute("data-base") || "/console";
  var csrf = "";
  var $ = function (id) { return document.getElementById(id); };
  var TABS = ["overview", "usage", "keys", "apps", "invite", "cap"];

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function fmt(n) { return Number(n).toLocaleString("en-US"); }
  function when(iso) { return iso ? iso.replace("T", " ").slice(0, 16) + " UTC" : "never"; }

  function call(method, path, body) {
    var headers = { "Accept": "application/json" };
    if (method !== "GET") { headers["Content-Type"] = "application/json"; headers["X-CSRF-Token"] = csrf; }
    return fetch(base + "/api" + path, { method: method, headers: headers, credentials: "same-origin", body: method === "GET" ? undefined : JSON.stringify(body || {}) })
      .then(function (res) {
        return res.json().then(function (data) {
          if (!res.ok) { var err = new Error((data.error && data.error.message) || res.statusText); err.code = data.error && data.error.code; err.status = res.status; throw err; }
          return data;
        });
      });
  }

  function showError(id, error) { $(id).textContent = error ? (error.code ? error.code + ": " : "") + error.message : ""; }

  function signedOut() {
    csrf = "";
    $("signed-in").hidden = true; $("signed-out").hidden = false; $("sign-out").hidden = true; $("who").textContent = "";
    document.body.setAttribute("data-session", "signed-out");
  }
  function signedIn(s) {
    csrf = s.csrfToken;
    $("signed-out").hidden = true; $("signed-in").hidden = false; $("sign-out").hidden = false;
    $("who").textContent = s.accountId;
    document.body.setAttribute("data-session", "signed-in");
    var wanted = (location.hash.match(/^#tab=(\w+)$/) || [])[1];
    show(TABS.indexOf(wanted) >= 0 ? wanted : "overview");
  }

  function show(name) {
    TABS.forEach(function (t) {
      $("tab-" + t).hidden = t !== name;
      $("tab-btn-" + t).setAttribute("aria-selected", String(t === name));
    });
    showError("tab-error", null);
    history.replaceState(null, "", "#tab=" + name);
    load(name);
  }

  function load(name) {
    var section = $("tab-" + name);
    section.setAttribute("data-state", "loading");
    var done = function () { section.setAttribute("data-state", "ready"); };
    var failed = function (e) { if (e.status === 401) return signedOut(); section.setAttribute("data-state", "error"); showError("tab-error", e); };
    var loaders = { overview: loadOverview, usage: loadUsage, keys: loadKeys, apps: loadApps, invite: function () { return Promise.resolve(); }, cap: loadCap };
    return loaders[name]().then(done, failed);
  }

  function row(cells) { var tr = el("tr"); cells.forEach(function (c) { var td = el("td"); if (c instanceof Node) td.appendChild(c); else td.textContent = c; tr.appendChild(td); }); return tr; }

  function loadOverview() {
    return call("GET", "/overview").then(function (a) {
      var dl = $("overview-list"); clear(dl);
      var capText = a.caps.monthlyCredits === null ? "none" : fmt(a.caps.monthlyCredits) + " credits";
      [["Account", a.customerId], ["Status", a.status], ["Plan", a.plan], ["Balance", fmt(a.creditsBalance) + " credits ($" + a.balanceUsd.toFixed(2) + ")"],
       ["Requests per minute per key", fmt(a.limits.requestsPerMinute)], ["Active keys", a.activeKeys + " of " + a.limits.activeKeys],
       ["Daily cap", a.caps.dailyCredits === null ? "none" : fmt(a.caps.dailyCredits) + " credits (used today " + fmt(a.caps.usedTodayCredits) + ")"],
       ["Monthly cap", capText]].forEach(function (p) { dl.appendChild(el("dt", p[0])); dl.appendChild(el("dd", p[1])); });
      var used = a.caps.usedThisMonthCredits, cap = a.caps.monthlyCredits;
      $("overview-month").textContent = fmt(used) + " credits spent this month" + (cap === null ? " (no monthly cap)" : " of a " + fmt(cap) + "-credit cap");
      var meter = $("overview-meter");
      meter.firstElementChild.style.width = (cap ? Math.min(100, (100 * used) / cap) : 0) + "%";
      meter.classList.toggle("over", cap !== null && used >= cap);
      meter.hidden = cap === null;
    });
  }

  function loadUsage() {
    return call("GET", "/usage?days=30").then(function (u) {
      var box = $("usage-chart"); clear(box);
      var NS = "http://www.w3.org/2000/svg", W = 900, H = 220, pad = 28;
      var svg = document.createElementNS(NS, "svg");
      svg.setAttribute("viewBox", "0 0 " + W + " " + H); svg.setAttribute("width", "100%"); svg.setAttribute("role", "img");
      svg.setAttribute("aria-label", "Credits by day");
      var max = Math.max(1, Math.max.apply(null, u.byDay.map(function (d) { return d.credits; })));
      var bw = (W - pad) / u.byDay.length;
      u.byDay.forEach(function (d, i) {
        var h = ((H - 2 * pad) * Math.max(0, d.credits)) / max;
        var r = document.createElementNS(NS, "rect");
        r.setAttribute("x", String(pad + i * bw + 1)); r.setAttribute("y", String(H - pad - h));
        r.setAttribute("width", String(Math.max(1, bw - 2))); r.setAttribute("height", String(h)); r.setAttribute("fill", "#2962ff");
        r.setAttribute("data-day", d.day); r.setAttribute("data-credits", String(d.credits));
        var t = document.createElementNS(NS, "title"); t.textContent = d.day + ": " + d.credits + " credits"; r.appendChild(t);
        svg.appendChild(r);
        if (i % 5 === 0 || i === u.byDay.length - 1) {
          var lbl = document.createElementNS(NS, "text"); lbl.setAttribute("x", String(pad + i * bw)); lbl.setAttribute("y", String(H - 8)); lbl.textContent = d.day.slice(5); svg.appendChild(lbl);
        }
      });
      var top = document.createElementNS(NS, "text"); top.setAttribute("x", "0"); top.setAttribute("y", "12"); top.textContent = fmt(max); svg.appendChild(top);
      box.appendChild(svg);
      $("usage-total").textContent = fmt(u.totalCredits) + " credits since " + u.fromDay;
      var body = $("usage-endpoints"); clear(body);
      if (u.byEndpoint.length === 0) body.appendChild(row(["No spend in this window.", ""]));
      u.byEndpoint.forEach(function (e) { body.appendChild(row([e.endpoint, fmt(e.credits)])); });
    });
  }

  function loadKeys() {
    return call("GET", "/keys").then(function (r) {
      var active = r.keys.filter(function (k) { return k.state === "active"; }).length;
      $("keys-limit").textContent = active + " of " + r.activeKeyLimit + " active keys (your plan's limit).";
      var body = $("keys-body"); clear(body);
      r.keys.forEach(function (k) {
        var action = el("span");
        if (k.state === "active") {
          var b = el("button", "Revoke", "danger"); b.type = "button"; b.setAttribute("data-revoke-key", k.keyId);
          b.addEventListener("click", function () {
            if (!confirm("Revoke " + k.prefix + "...? Calls with it will get 403 at once.")) return;
            // A revoked key whose OAuth grants are still being revoked says so (the note).
            call("POST", "/keys/" + encodeURIComponent(k.keyId) + "/revoke").then(function (r) { $("new-key").hidden = true; showError("tab-error", r.note ? { message: r.note } : null); return load("keys"); }, function (e) { showError("tab-error", e); });
          });
          action.appendChild(b);
        }
        var tr = row([k.prefix + "...", k.keyId, el("span", k.state, "state-" + k.state), when(k.createdAt), when(k.lastUsedAt), action]);
        tr.setAttribute("data-key-id", k.keyId); tr.setAttribute("data-key-state", k.state);
        body.appendChild(tr);
      });
    });
  }

  function loadApps() {
    return call("GET", "/apps").then(function (r) {
      var body = $("apps-body"); clear(body);
      $("apps-empty").hidden = r.apps.length > 0;
      r.apps.forEach(function (a) {
        var state = a.revokedAt ? "revoked" : a.activeRefreshTokens > 0 ? "active" : "signed out";
        var action = el("span");
        if (!a.revokedAt) {
          var b = el("button", "Revoke", "danger"); b.type = "button"; b.setAttribute("data-revoke-app", a.appId);
          b.addEventListener("click", function () {
            call("POST", "/apps/" + encodeURIComponent(a.appId) + "/revoke").then(function () { return load("apps"); }, function (e) { showError("tab-error", e); });
          });
          action.appendChild(b);
        }
        var tr = row([a.clientName || "(unnamed)", a.appId, state, when(a.createdAt), when(a.lastUsedAt), action]);
        tr.setAttribute("data-app-id", a.appId); tr.setAttribute("data-app-state", state);
        body.appendChild(tr);
      });
    });
  }

  function loadCap() {
    return call("GET", "/overview").then(function (a) {
      var cap = a.caps.monthlyCredits;
      $("cap-current").textContent = cap === null ? "No monthly cap: spend is limited by your balance (and daily cap) only." :
        "Current cap: " + fmt(cap) + " credits; " + fmt(a.caps.usedThisMonthCredits) + " spent this month.";
      $("cap-current").setAttribute("data-cap", cap === null ? "none" : String(cap));
    });
  }

  function submit(id, handler) {
    $(id).addEventListener("submit", function (ev) { ev.preventDefault(); handler(); });
  }
  function opened(s) { location.hash = ""; signedIn(s); }

  submit("sign-in-form", function () {
    call("POST", "/sign-in", { accountId: $("sign-in-account").value, password: $("sign-in-password").value })
      .then(function (s) { $("sign-in-password").value = ""; showError("sign-in-error", null); opened(s); }, function (e) { showError("sign-in-error", e); });
  });
  submit("setup-form", function () {
    var token = (location.hash.match(/^#setup=([\w-]+)$/) || [])[1];
    call("POST", "/setup", { token: token, password: $("setup-password").value })
      .then(function (s) { $("setup-card").hidden = true; showError("sign-in-error", null); opened(s); }, function (e) { showError("sign-in-error", e); });
  });
  submit("sign-up-form", function () {
    call("POST", "/sign-up", { inviteCode: $("sign-up-code").value, password: $("sign-up-password").value })
      .then(function (s) {
        showError("sign-in-error", null); signedIn(s); show("keys");
        $("new-key-value").textContent = s.key; $("new-key").hidden = false;
      }, function (e) { showError("sign-in-error", e); });
  });
  submit("create-key-form", function () {
    call("POST", "/keys").then(function (k) {
      $("new-key-value").textContent = k.key; $("new-key").hidden = false; return load("keys");
    }, function (e) { showError("tab-error", e); });
  });
  submit("invite-form", function () {
    call("POST", "/invite", { inviteCode: $("invite-code").value }).then(function (r) {
      $("invite-result").textContent = "Redeemed: plan " + r.plan + (r.creditsAdded > 0 ? ", " + fmt(r.creditsAdded) + " credits added." : ".");
      $("invite-code").value = "";
    }, function (e) { showError("tab-error", e); });
  });
  submit("cap-form", function () {
    call("POST", "/monthly-cap", { monthlyCapCredits: Number($("cap-value").value) }).then(function () { return load("cap"); }, function (e) { showError("tab-error", e); });
  });
  $("cap-remove").addEventListener("click", function () {
    call("POST", "/monthly-cap", { monthlyCapCredits: null }).then(function () { return load("cap"); }, function (e) { showError("tab-error", e); });
  });
  $("sign-out").addEventListener("click", function () { call("POST", "/sign-out").then(signedOut, signedOut); });
  TABS.forEach(function (t) { $("tab-btn-" + t).addEventListener("click", function () { show(t); }); });

  if (/^#setup=/.test(location.hash)) { signedOut(); $("setup-card").hidden = false; }
  else call("GET", "/session").then(signedIn, signedOut);
})();
`;
