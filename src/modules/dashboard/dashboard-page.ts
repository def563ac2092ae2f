/** The dashboard's HTML shell: everything else is drawn by the bundle (src/dashboard-app/). */
export function renderDashboardPage({ nonce }: { nonce: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Merchant console</title>
<link rel="stylesheet" href="/dashboard/app.css">
<script type="module" src="/dashboard/app.js" nonce="${nonce}"></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<div id="mode-banner" class="mode-banner" role="status" hidden></div>
<header class="top">
  <h1>Merchant console</h1>
  <div class="conn"><span id="connection" role="status" aria-live="polite">Signed out</span></div>
  <div id="account" class="account" hidden>
    <span id="who"></span>
    <label class="switch"><input id="live-mode" type="checkbox"> Live mode</label>
    <button id="sign-out" type="button">Sign out</button>
  </div>
  <nav id="console-nav" aria-label="Console" hidden>
    <ul>
      <li><a href="#/">Dashboard</a></li>
      <li><a href="#/settings/api-keys" data-needs="api_keys:write">API keys</a></li>
      <li><a href="#/settings/security">Security</a></li>
      <li><a href="#/settings/team" data-needs="team:write">Team</a></li>
      <li><a href="#/settings/webhooks" data-needs="webhooks:read">Webhooks</a></li>
      <li><a href="#/settings/audit" data-needs="audit_log:read">Audit log</a></li>
      <li><a href="#/settings/branding" data-needs="emails:write">Branding</a></li>
      <li><a href="#/settings/emails" data-needs="emails:read">Emails</a></li>
      <li><a href="#/settings/lmn-reviews" data-needs="lmn_reviews:read">LMN reviews</a></li>
    </ul>
  </nav>
</header>
<main id="main">
  <section id="sign-in" aria-labelledby="sign-in-title" class="card narrow" hidden>
    <h2 id="sign-in-title">Sign in</h2>
    <form id="sign-in-form" novalidate>
      <label for="email">Email</label>
      <input id="email" name="email" type="email" autocomplete="username" spellcheck="false" required aria-describedby="sign-in-error">
      <label for="password">Password</label>
      <input id="password" name="password" type="password" autocomplete="current-password" required aria-describedby="sign-in-error">
      <p id="sign-in-status" class="help" role="status"></p>
      <p id="sign-in-error" class="error" role="alert"></p>
      <button type="submit">Sign in</button>
    </form>
    <form id="two-factor-form" novalidate hidden>
      <label for="totp-code">Authentication code</label>
      <input id="totp-code" name="totp-code" inputmode="numeric" autocomplete="one-time-code" spellcheck="false" required aria-describedby="totp-help two-factor-error">
      <p id="totp-help" class="help">The 6-digit code of your authenticator app, or one of your recovery codes.</p>
      <p id="two-factor-error" class="error" role="alert"></p>
      <button type="submit">Verify</button>
    </form>
  </section>
  <section id="setup" aria-labelledby="setup-title" class="card narrow" hidden>
    <h2 id="setup-title">Set your password</h2>
    <p id="setup-link-state" class="error" role="alert" hidden></p>
    <form id="setup-form" novalidate>
      <label for="new-password">New password</label>
      <input id="new-password" name="new-password" type="password" autocomplete="new-password" required aria-describedby="new-password-help setup-error">
      <p id="new-password-help" class="help">At least 12 characters; not a common password, not your email.</p>
      <p id="setup-error" class="error" role="alert"></p>
      <button type="submit">Set password</button>
    </form>
  </section>
  <div id="settings" class="settings" hidden></div>
  <div id="app" hidden>
  <div id="dashboard-view" class="dashboard-view">
    <section aria-labelledby="revenue-title" class="card wide">
      <h2 id="revenue-title">Revenue, last 30 days</h2>
      <div class="chart-box"><canvas id="revenue-chart" role="img" aria-label="Revenue per day: HSA/FSA, regular and refunds"></canvas></div>
      <p id="revenue-summary" class="summary"></p>
    </section>
    <section aria-labelledby="orders-title" class="card wide">
      <h2 id="orders-title">Recent orders</h2>
      <div class="table-wrap" tabindex="0" role="region" aria-label="Recent orders table, scrolls sideways"><table id="orders">
        <caption class="sr-only">The 20 most recent orders; choose an order for its details and receipt</caption>
        <thead><tr><th scope="col">Order</th><th scope="col">Customer</th><th scope="col">Status</th><th scope="col" class="num">Total</th><th scope="col" class="num">HSA/FSA</th><th scope="col" class="num">Regular</th><th scope="col" class="num">Refunded</th><th scope="col">Created</th></tr></thead>
        <tbody></tbody>
      </table></div>
      <p id="orders-empty" class="help" hidden>No orders yet.</p>
    </section>
    <section id="order-detail" aria-labelledby="order-detail-title" class="card wide" hidden tabindex="-1">
      <h2 id="order-detail-title">Order</h2>
      <div id="order-detail-body"></div>
      <button id="order-detail-close" type="button">Close details</button>
    </section>
    <section id="subscriptions-panel" aria-labelledby="subscriptions-title" class="card" hidden>
      <h2 id="subscriptions-title">Subscriptions</h2>
      <p class="help">Needing attention first, then those ending at their period end.</p>
      <ul id="subscriptions" class="list"></ul>
    </section>
    <section id="checkouts-panel" aria-labelledby="checkouts-title" class="card" hidden>
      <h2 id="checkouts-title">Open checkouts</h2>
      <ul id="checkouts" class="list"></ul>
    </section>
    <section id="payment-links-panel" aria-labelledby="payment-links-title" class="card" hidden>
      <h2 id="payment-links-title">Payment links</h2>
      <ul id="payment-links" class="list"></ul>
    </section>
    <section id="activity-panel" aria-labelledby="activity-title" class="card">
      <h2 id="activity-title">Live activity</h2>
      <ol id="activity" class="list" tabindex="0" aria-labelledby="activity-title" aria-live="polite" aria-relevant="additions"></ol>
    </section>
  </div>
  </div>
</main>
</body>
</html>`;
}
