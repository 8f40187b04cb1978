/** The dashboard's stylesheet: one file, no build step. */
export const CSS = `
:root { --fg:#1d2433; --muted:#667085; --line:#e4e7ec; --bg:#f7f8fa; --card:#fff; --accent:#2f6fed;
  --ok:#12805c; --okbg:#e6f6ef; --warn:#b54708; --warnbg:#fef0c7; --bad:#b42318; --badbg:#fee4e2; --info:#475467; --infobg:#eef1f5; }
* { box-sizing: border-box; }
body { margin:0; font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif; color:var(--fg); background:var(--bg); }
a { color:var(--accent); text-decoration:none; } a:hover { text-decoration:underline; }
.top { display:flex; align-items:center; gap:24px; padding:10px 24px; background:#101828; color:#fff; }
.top .brand { font-weight:700; letter-spacing:.02em; }
.top nav a { color:#d0d5dd; margin-right:16px; } .top nav a[aria-current] { color:#fff; font-weight:600; }
.top .readonly { margin-left:auto; font-size:12px; padding:2px 8px; border:1px solid #667085; border-radius:10px; color:#d0d5dd; }
main { padding:20px 24px 48px; max-width:1400px; }
h1 { font-size:22px; margin:0; } h2 { font-size:17px; margin:28px 0 8px; } h3 { font-size:15px; margin:0 0 8px; }
.title-row { display:flex; align-items:center; gap:12px; flex-wrap:wrap; } .title-row .spacer { flex:1; }
.lede { color:var(--muted); margin:4px 0 12px; }
.crumbs { margin:0 0 4px; color:var(--muted); }
table { width:100%; border-collapse:collapse; background:var(--card); border:1px solid var(--line); border-radius:8px; overflow:hidden; }
th, td { padding:8px 10px; border-bottom:1px solid var(--line); text-align:left; vertical-align:top; }
th { font-size:12px; text-transform:uppercase; letter-spacing:.04em; color:var(--muted); background:#fcfcfd; font-weight:600; }
th a { color:inherit; }
tr:last-child td { border-bottom:0; }
td.num, th.num { text-align:right; font-variant-numeric:tabular-nums; }
.sub { color:var(--muted); font-size:12px; }
.mono, code { font-family:ui-monospace,SFMono-Regular,Menlo,monospace; font-size:12.5px; }
.feed-id { font-weight:600; white-space:nowrap; }
td.changes { white-space:nowrap; }
tr.attention td:first-child { box-shadow: inset 4px 0 0 var(--bad); }
tr.attention { background:#fffafa; }
tr.selected { background:#f0f5ff; }
.badge { display:inline-block; padding:1px 8px; border-radius:10px; font-size:12px; font-weight:600; white-space:nowrap; }
.badge-ok { background:var(--okbg); color:var(--ok); }
.badge-partial, .badge-skipped { background:var(--warnbg); color:var(--warn); }
.badge-skipped { background:var(--infobg); color:var(--info); }
.badge-failed, .badge-guard-tripped { background:var(--badbg); color:var(--bad); }
.badge-cancelled, .badge-never-run, .badge-paused { background:var(--infobg); color:var(--info); }
.flag { font-size:11px; padding:0 6px; border-radius:8px; background:var(--infobg); color:var(--info); }
.flag-stale { background:var(--warnbg); color:var(--warn); font-weight:600; }
.warn { color:var(--warn); font-weight:600; }
.reason { color:var(--bad); font-size:12px; max-width:320px; }
.changes .c { color:var(--ok); } .changes .u { color:var(--accent); } .changes .d { color:var(--bad); }
.filters { display:flex; gap:8px; flex-wrap:wrap; margin:8px 0 12px; }
.chip { padding:3px 10px; border:1px solid var(--line); border-radius:14px; background:#fff; color:var(--fg); font-size:13px; }
.chip b { color:var(--muted); font-weight:600; } .chip-on { border-color:var(--accent); background:#eef4ff; }
button, .button { font:inherit; font-size:13px; padding:5px 12px; border-radius:6px; border:1px solid var(--accent); background:var(--accent); color:#fff; cursor:pointer; white-space:nowrap; }
button:hover { filter:brightness(1.08); } button:disabled { opacity:.6; cursor:default; }
button.danger { background:var(--bad); border-color:var(--bad); }
.button.small { font-size:12px; padding:2px 8px; margin-left:8px; text-decoration:none; }
form.run-now, .actions form { display:inline; margin:0; }
.progress { font-size:12px; color:var(--accent); min-height:1em; margin-top:4px; }
.card { background:var(--card); border:1px solid var(--line); border-radius:8px; padding:14px 16px; margin:12px 0; }
.card table { border:0; } .card-alert { border-color:#fda29b; background:#fffbfa; }
.guards { margin:0; padding-left:18px; } .guards li.tripped { color:var(--bad); }
.fields { margin:0; padding:0; list-style:none; }
.fields .field { font-weight:600; } .fields .old { color:var(--bad); text-decoration:line-through; } .fields .new { color:var(--ok); font-weight:600; }
.op { font-size:12px; font-weight:600; } .op-create { color:var(--ok); } .op-update, .op-adopt, .op-replace { color:var(--accent); } .op-delete { color:var(--bad); }
.empty { color:var(--muted); text-align:center; padding:20px; }
.result { margin-top:4px; font-size:12px; }
`;

/**
 * Progressive enhancement: Run now without leaving the page (a confirmation where the form asks
 * for one), live progress from /feeds/:id/status, and the result swapped in place when the run ends.
 * Without JavaScript the same forms post and redirect, and every page reads the same.
 */
export const JS = `
(() => {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  async function status(feed) {
    const r = await fetch('/feeds/' + encodeURIComponent(feed) + '/status', { headers: { accept: 'application/json' } });
    return r.ok ? r.json() : null;
  }
  function show(feed, text) {
    for (const el of document.querySelectorAll('[data-progress]')) if (el.dataset.progress === feed) el.textContent = text;
  }
  async function refresh() {
    const r = await fetch(location.href, { headers: { accept: 'text/html' } });
    const doc = new DOMParser().parseFromString(await r.text(), 'text/html');
    document.querySelector('main').replaceWith(doc.querySelector('main'));
  }
  document.addEventListener('submit', async (event) => {
    const form = event.target.closest('form.run-now');
    if (!form) return;
    event.preventDefault();
    const feed = form.dataset.feed;
    if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) return;
    const button = form.querySelector('button');
    button.disabled = true;
    const before = await status(feed);
    const body = new URLSearchParams(new FormData(form));
    body.set('confirm', '1');
    const started = await fetch(form.action, { method: 'POST', body, headers: { accept: 'application/json' } });
    if (!started.ok) { show(feed, 'could not start: ' + (await started.text())); button.disabled = false; return; }
    show(feed, 'queued…');
    const since = before && before.last ? before.last.startedAt : null;
    for (let i = 0; i < 3600; i++) {
      await sleep(400);
      const now = await status(feed);
      if (!now) continue;
      if (now.running) { show(feed, now.running.text); continue; }
      if (now.last && now.last.startedAt !== since) { await refresh(); return; }
    }
  });
})();
`;
