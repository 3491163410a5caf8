// The console page: the sign-in forms and the six tabs. Empty shells only: the script
// (`app/main.ts`, served as /console/app.js) fills them with text nodes from the JSON calls
// (never HTML from data).

/**
 * The page. `base` is the path it is served at (`/console`); every URL in the page is built from it.
 * @example consoleHtml({ base: "/console" }).includes('id="tab-keys"') // true
 */
export function consoleHtml(options: { base: string }): string {
  const base = options.base.replace(/[^A-Za-z0-9/_-]/g, "");
  const tab = (id: string, label: string) => `<button type="button" role="tab" data-tab="${id}" id="tab-btn-${id}">${label}</button>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>optionscope developer console</title>
<link rel="icon" href="data:,">
<style>
  :root { color-scheme: dark; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: #0f1419; color: #d1d4dc; }
  header { display: flex; gap: 12px; align-items: center; padding: 10px 16px; border-bottom: 1px solid #2a2e39; }
  header h1 { font-size: 15px; margin: 0; font-weight: 600; flex: 1; }
  main { max-width: 980px; margin: 0 auto; padding: 16px; }
  input, button { font: inherit; color: inherit; background: #1e222d; border: 1px solid #363a45; border-radius: 4px; padding: 6px 10px; }
  button { cursor: pointer; }
  button.primary { background: #2962ff; border-color: #2962ff; color: #fff; }
  button.danger { border-color: #ef5350; color: #ef5350; }
  form { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 8px 0 20px; }
  form label { display: flex; flex-direction: column; font-size: 12px; color: #9598a1; gap: 2px; }
  .card { border: 1px solid #2a2e39; border-radius: 6px; padding: 14px 16px; margin-bottom: 16px; background: #131722; }
  .card h2 { font-size: 14px; margin: 0 0 8px; }
  nav { display: flex; gap: 4px; border-bottom: 1px solid #2a2e39; margin-bottom: 16px; }
  nav button { border: none; border-bottom: 2px solid transparent; border-radius: 0; background: none; padding: 8px 12px; }
  nav button[aria-selected="true"] { border-bottom-color: #2962ff; color: #fff; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid #2a2e39; font-variant-numeric: tabular-nums; }
  th { color: #9598a1; font-weight: 500; font-size: 12px; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; }
  dt { color: #9598a1; }
  dd { margin: 0; font-variant-numeric: tabular-nums; }
  .meter { height: 8px; background: #2a2e39; border-radius: 4px; overflow: hidden; margin-top: 4px; max-width: 360px; }
  .meter > div { height: 100%; background: #26a69a; }
  .meter.over > div { background: #ef5350; }
  .shown-once { font-family: ui-monospace, monospace; background: #1b5e20; color: #fff; padding: 8px 10px; border-radius: 4px; word-break: break-all; }
  .error { color: #ef5350; min-height: 1.5em; }
  .note { color: #9598a1; font-size: 12px; }
  .state-active { color: #26a69a; } .state-revoked, .state-expired { color: #9598a1; }
  svg text { fill: #9598a1; font-size: 10px; }
  [hidden] { display: none !important; }
</style>
</head>
<body data-base="${base}">
<header>
  <h1>optionscope developer console</h1>
  <span id="who"></span>
  <button type="button" id="sign-out" hidden>Sign out</button>
</header>
<main>
  <section id="signed-out" hidden>
    <div class="card" id="setup-card" hidden>
      <h2>Choose your console password</h2>
      <p class="note">This one-time link signs you in; the password is for next time (at least 12 characters).</p>
      <form id="setup-form">
        <label>New password <input id="setup-password" type="password" autocomplete="new-password" minlength="12" required></label>
        <button class="primary" type="submit">Set password and sign in</button>
      </form>
    </div>
    <div class="card">
      <h2>Sign in</h2>
      <form id="sign-in-form">
        <label>Account id <input id="sign-in-account" autocomplete="username" placeholder="acct_..." required></label>
        <label>Password <input id="sign-in-password" type="password" autocomplete="current-password" required></label>
        <button class="primary" type="submit">Sign in</button>
      </form>
    </div>
    <div class="card">
      <h2>New here? Open an account with an invite code</h2>
      <form id="sign-up-form">
        <label>Invite code <input id="sign-up-code" placeholder="osinv_..." required></label>
        <label>New password <input id="sign-up-password" type="password" autocomplete="new-password" minlength="12" required></label>
        <button type="submit">Open account</button>
      </form>
    </div>
    <p class="error" id="sign-in-error" role="alert"></p>
  </section>

  <section id="signed-in" hidden>
    <nav role="tablist">${tab("overview", "Overview")}${tab("usage", "Usage")}${tab("keys", "API keys")}${tab("apps", "Connected apps")}${tab("invite", "Invite code")}${tab("cap", "Monthly cap")}</nav>
    <p class="error" id="tab-error" role="alert"></p>

    <div id="tab-overview" class="tab" data-state="idle">
      <div class="card"><h2>Account</h2><dl id="overview-list"></dl></div>
      <div class="card"><h2>This month's spend</h2><div id="overview-month"></div><div class="meter" id="overview-meter"><div></div></div></div>
    </div>

    <div id="tab-usage" class="tab" data-state="idle" hidden>
      <div class="card"><h2>Credits by day (ET), last 30 days</h2><div id="usage-chart"></div><p class="note" id="usage-total"></p></div>
      <div class="card"><h2>Credits by endpoint</h2><table><thead><tr><th>Endpoint</th><th>Credits</th></tr></thead><tbody id="usage-endpoints"></tbody></table></div>
    </div>

    <div id="tab-keys" class="tab" data-state="idle" hidden>
      <div class="card">
        <h2>API keys</h2>
        <p class="note" id="keys-limit"></p>
        <div id="new-key" hidden><p>Your new key. It is shown only now: copy it somewhere safe.</p><p class="shown-once" id="new-key-value"></p></div>
        <form id="create-key-form"><button class="primary" type="submit" id="create-key">Create key</button></form>
        <table><thead><tr><th>Key</th><th>Id</th><th>State</th><th>Created</th><th>Last used</th><th></th></tr></thead><tbody id="keys-body"></tbody></table>
      </div>
    </div>

    <div id="tab-apps" class="tab" data-state="idle" hidden>
      <div class="card"><h2>Connected apps</h2><p class="note">Tool clients you signed in through OAuth. Revoking one ends its access at once.</p>
        <table><thead><tr><th>App</th><th>Id</th><th>State</th><th>Connected</th><th>Last used</th><th></th></tr></thead><tbody id="apps-body"></tbody></table>
        <p class="note" id="apps-empty" hidden>No connected apps.</p>
      </div>
    </div>

    <div id="tab-invite" class="tab" data-state="idle" hidden>
      <div class="card"><h2>Redeem an invite code</h2>
        <form id="invite-form"><label>Invite code <input id="invite-code" placeholder="osinv_..." required></label><button class="primary" type="submit">Redeem</button></form>
        <p id="invite-result"></p>
      </div>
    </div>

    <div id="tab-cap" class="tab" data-state="idle" hidden>
      <div class="card"><h2>Monthly spend cap</h2>
        <p class="note">Past the cap, calls answer 402 monthly_cap_reached until the 1st (ET) or until you raise the cap.</p>
        <p id="cap-current"></p>
        <form id="cap-form"><label>Cap in credits <input id="cap-value" type="number" min="0" step="1" required></label><button class="primary" type="submit">Set cap</button><button type="button" id="cap-remove">Remove cap</button></form>
      </div>
    </div>
  </section>
</main>
<script src="${base}/app.js"></script>
</body>
</html>
`;
}
