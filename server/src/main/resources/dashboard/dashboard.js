// loomcrawl dashboard: polls /stats and /crawl once a second. No framework, no external requests.
// With a token, it is asked for once, kept in sessionStorage and sent as a header: never in a URL.
"use strict";

const TOKEN_KEY = "loomcrawl.token";
const POINTS = 120; // two minutes of history
const $ = (id) => document.getElementById(id);
const fmt = (n) => (n == null ? "–" : Math.round(n).toLocaleString("en"));

let tokenPrompt = null;

function askToken() {
  if (!tokenPrompt) {
    tokenPrompt = new Promise((resolve) => {
      const dialog = $("token-dialog");
      $("token-form").onsubmit = () => {
        sessionStorage.setItem(TOKEN_KEY, $("token-input").value.trim());
        tokenPrompt = null;
        resolve();
      };
      dialog.showModal();
    });
  }
  return tokenPrompt;
}

// A request with the token, given again when the server refuses it.
async function authorized(path, options = {}) {
  for (;;) {
    const headers = { ...(options.headers || {}) };
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (token) headers.Authorization = "Bearer " + token;
    const response = await fetch(path, { ...options, headers });
    if (response.status === 401) {
      // Asked again only if the token sent is still the one kept: a request that left before the token was
      // given (the first refresh sends several) just goes again with it, instead of opening the dialog twice.
      if (sessionStorage.getItem(TOKEN_KEY) === token) {
        sessionStorage.removeItem(TOKEN_KEY);
        await askToken();
      }
      continue;
    }
    return response;
  }
}

async function failure(response) {
  const body = await response.json().catch(() => null);
  return new Error(body && body.message ? body.message : "HTTP " + response.status);
}

async function api(path, options = {}) {
  const response = await authorized(path, { ...options, headers: { Accept: "application/json", ...(options.headers || {}) } });
  if (!response.ok) throw await failure(response);
  return response.json().catch(() => null);
}

// Saves a job's data as the file the server names, fetched with the token, which a plain link cannot send.
async function download(path) {
  const response = await authorized(path);
  if (!response.ok) throw await failure(response);
  const named = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "");
  const url = URL.createObjectURL(await response.blob());
  const a = document.createElement("a");
  a.href = url;
  a.download = named ? named[1] : "loomcrawl-data";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

// A job's data in each form the server has it: rows, links, and the Markdown and WARC files a job keeps.
function dataLinks(tr, job) {
  const l = job.links;
  const forms = [["JSONL", l.export], ["CSV", l.self + "/export?format=csv"], ["links", l.links],
    ["Markdown", l.markdown], ["WARC", l.warc]].filter(([, href]) => href);
  const key = forms.map(([name]) => name).join(" ");
  const shown = tr.querySelector("span.data");
  if (shown && shown.dataset.forms === key) return shown;
  const span = document.createElement("span");
  span.className = "data";
  span.dataset.forms = key;
  forms.forEach(([name, href], i) => {
    if (i) span.append(" · ");
    const a = document.createElement("a");
    a.href = href;
    a.download = "";
    a.textContent = name;
    a.onclick = (event) => {
      // Without a token the browser saves the file as it comes, a WARC file of gigabytes too; with one, it is
      // fetched whole first, as only fetch can send the token.
      if (!sessionStorage.getItem(TOKEN_KEY)) return;
      event.preventDefault();
      download(href).catch(showError);
    };
    span.append(a);
  });
  return span;
}

function lineChart(canvas, series) {
  return new Chart(canvas, {
    type: "line",
    data: { labels: [], datasets: series.map(([label, color, axis]) => ({
      label, data: [], borderColor: color, backgroundColor: color, pointRadius: 0, borderWidth: 2, tension: 0,
      yAxisID: axis || "y" })) },
    options: {
      animation: false, maintainAspectRatio: false, interaction: { mode: "index", intersect: false },
      scales: { x: { ticks: { maxTicksLimit: 8 } }, y: { beginAtZero: true },
                ...(series.some((s) => s[2] === "y2") ? { y2: { beginAtZero: true, position: "right", grid: { drawOnChartArea: false } } } : {}) },
      plugins: { legend: { position: "bottom" } } } });
}

let threadsChart, rateChart, lastVirtual = null, lastAt = null;

function push(chart, label, values) {
  chart.data.labels.push(label);
  values.forEach((v, i) => chart.data.datasets[i].data.push(v));
  if (chart.data.labels.length > POINTS) {
    chart.data.labels.shift();
    chart.data.datasets.forEach((d) => d.data.shift());
  }
  chart.update();
}

function showStats(s) {
  $("server").textContent = `${s.mode} mode by default · per-host ${s.perHost} · up ${fmt(s.uptimeSeconds)} s`;
  $("f-rate").textContent = fmt(s.pagesPerSecondLast10s);
  $("f-inflight").textContent = fmt(s.fetchesInFlight);
  $("f-platform").textContent = `${fmt(s.livePlatformThreads)} (peak ${fmt(s.peakPlatformThreads)})`;
  $("f-virtual").textContent = fmt(s.virtualThreadsStarted);
  const l = s.latencyMs || {};
  $("f-latency").textContent = l.count ? `${fmt(l.p50)} / ${fmt(l.p95)} / ${fmt(l.p99)}` : "–";
  $("f-pinned").textContent = fmt(s.pinnedVirtualThreadEvents);

  const now = Date.now();
  const startsPerSecond = lastVirtual == null ? 0 : (s.virtualThreadsStarted - lastVirtual) / ((now - lastAt) / 1000);
  lastVirtual = s.virtualThreadsStarted;
  lastAt = now;
  const label = new Date(now).toLocaleTimeString("en-GB");
  push(threadsChart, label, [s.fetchesInFlight, s.livePlatformThreads, Math.max(0, startsPerSecond)]);
  push(rateChart, label, [s.pagesPerSecondLast10s]);
}

const KEYS_SHOWN = 10;

// The busiest politeness keys (GET /hosts), each with a button that pauses it for an hour or lifts its pause.
// Listed by name, not by load: a row that moved every second could not be read, nor its button pressed.
function showHosts(h) {
  const shown = h.hosts.slice(0, KEYS_SHOWN).sort((a, b) => a.key.localeCompare(b.key));
  syncRows($("hosts").tBodies[0], shown, (k) => k.key, (tr, k) => {
    const paused = k.pausedUntil != null;
    const button = tr.querySelector("button") || document.createElement("button");
    button.className = paused ? "resume" : "pause";
    button.textContent = paused ? "Resume" : "Pause";
    // PUT replaces a key's setting: its limit and delay go along, the pause is set or lifted.
    const setting = h.settings[k.key] || {};
    const request = {};
    if (setting.limit != null) request.limit = setting.limit;
    if (setting.minDelayMs != null) request.minDelayMs = setting.minDelayMs;
    if (!paused) request.pausedUntil = new Date(Date.now() + 3600 * 1000).toISOString();
    button.onclick = () => api("/hosts/" + encodeURIComponent(k.key), { method: "PUT",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify(request) }).then(refresh, showError);
    const until = k.pausedUntil || k.restingUntil;
    setCells(tr, [k.key, k.inFlight, fmt(k.queued), k.allowed < k.limit ? `${k.allowed} of ${k.limit}` : k.limit,
      fmt(k.delayMillis), k.requestsPerSecond, k.latencyMillis ? fmt(k.latencyMillis) : "–",
      until ? until.replace("T", " ").slice(0, 19) : "–", button]);
    tr.className = paused ? "paused" : "";
  });
}

// The tables are refreshed in place: each row is found again by its key and only its cells change, so a button
// is the same element from one refresh to the next. Rows drawn afresh each second would lose a click whose
// mouse went down on one button and came up on its successor.
function syncRows(body, items, keyOf, draw) {
  const old = new Map([...body.rows].map((tr) => [tr.dataset.key, tr]));
  items.forEach((item, i) => {
    const key = String(keyOf(item));
    let tr = old.get(key);
    old.delete(key);
    if (!tr) {
      tr = document.createElement("tr");
      tr.dataset.key = key;
    }
    draw(tr, item);
    if (body.rows[i] !== tr) body.insertBefore(tr, body.rows[i] || null);
  });
  old.forEach((tr) => tr.remove());
}

// Sets a row's cells: text where it changed, a node where it is not already the cell's content.
function setCells(tr, cells) {
  while (tr.cells.length < cells.length) tr.insertCell();
  cells.forEach((c, i) => {
    const td = tr.cells[i];
    if (c instanceof Node) {
      if (td.firstChild !== c || td.childNodes.length !== 1) td.replaceChildren(c);
    } else if (td.textContent !== String(c)) {
      td.textContent = c;
    }
  });
}

// A continuous job never ends: in place of an ETA, what its revisits are doing and what they found.
function revisits(p) {
  const found = Object.assign({}, p.changes || {});
  delete found.new;
  const revisited = Object.values(found).reduce((a, b) => a + b, 0);
  return `${fmt(p.due)} due of ${fmt(p.queued)} · ${fmt(revisited)} revisited (${fmt(found.changed || 0)} changed, `
    + `${fmt(found.unchanged || 0)} unchanged)`;
}

// A webhook whose receiver does not take events, and why: its events wait, and a job that seems well is not.
function webhookTrouble(webhook) {
  if (!webhook || !webhook.failing) return "";
  return ` · webhook failing (${fmt(webhook.tries)} tries, ${fmt(webhook.pending)} events wait): ${webhook.failing}`;
}

// A host that waits (a Retry-After rest, a pause) ends when its wait does, and with no request on the wire the
// last seconds' rate is no forecast: then what the job waits for, not an ETA. A host adaptive politeness holds
// below its limit goes on at its server's pace, which the rate reads: named beside the ETA.
function eta(p, waiting, heldBack, webhook) {
  const named = (hosts) => Object.entries(hosts || {}).map(([host, why]) => `${host} (${why})`).join("; ");
  const held = named(waiting), slowed = named(heldBack) ? " · held back: " + named(heldBack) : "";
  if (p && p.continuous) return revisits(p) + (held ? " · waiting: " + held : "") + slowed + webhookTrouble(webhook);
  if (p && p.status === "running" && held) return "waiting: " + held + slowed;
  return timeLeft(p) + (p && p.status === "running" ? slowed : "");
}

function timeLeft(p) {
  if (!p || p.status !== "running" || !(p.recentPagesPerSecond > 0) || p.fetching === 0) return "–";
  const left = Math.min(p.maxPages - (p.pages + p.failed), p.queued + p.inFlight);
  if (left <= 0) return "–";
  const s = Math.round(left / p.recentPagesPerSecond);
  return s < 60 ? s + " s" : Math.floor(s / 60) + " min " + (s % 60) + " s";
}

function showJobs(list) {
  syncRows($("jobs").tBodies[0], list.jobs, (job) => job.id, (tr, job) => {
    const p = job.progress, sum = job.summary;
    const pages = sum ? sum.pages : p ? p.pages : 0;
    const failed = sum ? sum.failed : p ? p.failed : 0;
    const skipped = sum ? sum.skipped : p ? p.skipped : 0;
    const running = job.status === "running" || job.status === "queued";
    let fraction = running ? 0 : 1;
    if (running && p && p.continuous) {
      fraction = p.queued > 0 ? 1 - p.due / p.queued : 1; // the share of its URLs not due yet: fresh
    } else if (running && p) {
      const stored = p.pages + p.failed + p.skipped;
      fraction = stored / Math.max(1, Math.min(p.maxPages, stored + p.queued + p.inFlight));
    }
    let bar = tr.querySelector(".bar");
    if (!bar) {
      bar = document.createElement("div");
      bar.className = "bar";
      bar.append(document.createElement("i"));
    }
    bar.title = Math.round(fraction * 100) + (running && p && p.continuous ? "% fresh" : "%");
    bar.firstChild.style.width = Math.min(100, fraction * 100) + "%";
    const rate = running && p ? p.recentPagesPerSecond : sum ? sum.pagesPerSecond : 0;
    const byKind = sum ? sum.failures : p ? p.failures : null;
    const failures = Object.entries(byKind || {}).map(([k, v]) => `${k} ${v}`).join(", ");
    let action = "";
    if (running) {
      action = tr.querySelector("button.cancel") || document.createElement("button");
      action.className = "cancel";
      action.textContent = "Cancel";
      action.onclick = () => api("/crawl/" + job.id, { method: "DELETE" }).then(refresh, showError);
    }
    setCells(tr, [job.id, job.status, job.mode + (job.mode === "pool" ? ":" + job.poolSize : ""), bar, fmt(pages),
      fmt(failed), fmt(skipped), fmt(rate), eta(p, job.waiting, job.heldBack, job.webhook), failures || "–", dataLinks(tr, job), action]);
    tr.dataset.job = job.id;
    tr.dataset.status = job.status;
    tr.dataset.pages = pages;
    tr.className = "status-" + job.status;
  });
}

// The change feed of the newest running job that has one, read from its SSE stream with fetch (so the token
// goes as a header, which EventSource cannot send); the newest events first, 20 of them.
const CHANGES_SHOWN = 20;
let followed = null;

function followChanges(list) {
  const job = list.jobs.find((j) => (j.status === "running" || j.status === "queued") && j.progress
    && Object.keys(j.progress.changes || {}).length > 0);
  if (!job || (followed && followed.id === job.id)) return;
  if (followed) followed.abort.abort();
  followed = { id: job.id, abort: new AbortController(), last: 0 };
  $("changes-section").hidden = false;
  $("changes-job").textContent = "job " + job.id + ", live";
  $("changes").tBodies[0].replaceChildren();
  readChanges(followed).catch(() => { if (followed) followed = null; });
}

async function readChanges(f) {
  const headers = { Accept: "text/event-stream" };
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) headers.Authorization = "Bearer " + token;
  if (f.last) headers["Last-Event-ID"] = String(f.last);
  const response = await fetch("/crawl/" + f.id + "/changes", { headers, signal: f.abort.signal });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffered.indexOf("\n\n")) >= 0) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const data = block.split("\n").find((l) => l.startsWith("data:"));
      if (data) showChange(f, JSON.parse(data.slice(5)));
    }
  }
}

function showChange(f, e) {
  f.last = e.id;
  const detail = e.kind === "changed" ? `${e.severity}${e.distance != null ? ", " + e.distance + " bits" : ""}`
    : e.kind === "moved" ? "to " + e.target : "";
  const tr = document.createElement("tr");
  setCells(tr, [e.id, e.at.replace("T", " ").slice(0, 19), e.kind, e.url, e.status, detail]);
  tr.className = "change-" + e.kind;
  const body = $("changes").tBodies[0];
  body.prepend(tr);
  while (body.rows.length > CHANGES_SHOWN) body.deleteRow(body.rows.length - 1);
}

function showError(e) {
  $("error").textContent = e ? String(e.message || e) : "";
}

async function refresh() {
  try {
    const [stats, jobs, hosts] = await Promise.all([api("/stats"), api("/crawl?limit=20"), api("/hosts?limit=" + KEYS_SHOWN)]);
    showStats(stats);
    showHosts(hosts);
    showJobs(jobs);
    followChanges(jobs);
    showError(null);
  } catch (e) {
    showError(e);
  }
}

async function start(event) {
  event.preventDefault();
  const seeds = $("seeds").value.split(/\s+/).filter(Boolean);
  const request = { seeds, maxDepth: Number($("max-depth").value), maxPages: Number($("max-pages").value) };
  if ($("mode").value) request.mode = $("mode").value;
  if ($("content").value) request.content = $("content").value;
  try {
    const job = await api("/crawl", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(request) });
    $("start-result").textContent = "job " + job.id + " started";
    refresh();
  } catch (e) {
    $("start-result").textContent = e.message;
  }
}

function init() {
  threadsChart = lineChart($("chart-threads"), [["requests in flight", "#3b82f6"], ["live platform threads", "#dc2626"],
    ["virtual threads started /s", "#16a34a", "y2"]]);
  rateChart = lineChart($("chart-rate"), [["requests/s", "#7c3aed"]]);
  $("start").addEventListener("submit", start);
  refresh();
  setInterval(refresh, 1000);
}

document.addEventListener("DOMContentLoaded", init);
