"use strict";
// Every table of the club, live: the server sends the tables that changed.
const tables = new Map();   // table name -> {data, receivedAt, el}
const $ = (id) => document.getElementById(id);

function fmtClock(ms) {
  ms = Math.max(0, ms);
  const s = Math.ceil(ms / 1000);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const two = (n) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${two(m)}:${two(r)}` : `${m}:${two(r)}`;
}

function tableKey(name) {
  return name.split(/(\d+)/).filter(Boolean).map((p) => (/^\d+$/.test(p) ? p.padStart(8, "0") : p)).join("");
}

function card(name) {
  let t = tables.get(name);
  if (t) return t;
  const el = document.createElement("article");
  el.className = "table";
  el.dataset.table = name;
  el.innerHTML = '<h2></h2><div class="names"></div><div class="mini"></div>' +
                 '<div class="clocks-line"></div><div class="last"></div><div class="result"></div>';
  t = {el, data: null, receivedAt: 0};
  tables.set(name, t);
  const names = [...tables.keys()].sort((a, b) => (tableKey(a) < tableKey(b) ? -1 : 1));
  const box = $("tables");
  const after = names[names.indexOf(name) + 1];
  box.insertBefore(el, after ? tables.get(after).el : null);
  return t;
}

function clockLine(t) {
  const c = t.data && t.data.clocks;
  if (!c) return "";
  const left = (side) => c[side] - (c.running === side ? Date.now() - t.receivedAt : 0);
  return `⏱ ${fmtClock(left("white"))} – ${fmtClock(left("black"))}`;
}

function show(d) {
  const t = card(d.table);
  t.data = d; t.receivedAt = Date.now();
  const tags = d.tags || {};
  const el = t.el;
  el.classList.toggle("offline", d.online === false);
  el.querySelector("h2").textContent = `Table ${d.table}` + (d.online === false ? " (offline)" : "");
  el.querySelector(".names").textContent = `${tags.White || "White"} – ${tags.Black || "Black"}`;
  if (d.svg !== undefined) el.querySelector(".mini").innerHTML = d.svg;
  const n = (d.moves || []).length;
  const sans = d.sans || [];
  el.querySelector(".last").textContent = n ? `${Math.floor((n - 1) / 2) + 1}${n % 2 ? "." : "..."} ${sans[n - 1]} (${n} plies)` : "no moves yet";
  el.dataset.plies = String(n);
  el.querySelector(".result").textContent = d.result && d.result !== "*" ? `${d.result} ${d.reason ? "(" + d.reason + ")" : ""}` : "";
  el.querySelector(".clocks-line").textContent = clockLine(t);
}

function showRounds(rounds) {
  const span = $("rounds");
  span.textContent = rounds.length ? "" : "none yet";
  for (const r of rounds) {
    const a = document.createElement("a");
    a.href = `/round/${encodeURIComponent(r)}.pgn`;
    a.textContent = r === "-" ? "(no round)" : `round ${r}`;
    span.appendChild(a);
  }
}

function connect() {
  const es = new EventSource("/events");
  es.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    $("club").textContent = `Club ${msg.club}`;
    $("status").textContent = `${tables.size + msg.tables.filter((d) => !tables.has(d.table)).length} tables` +
      (msg.broker_ok ? "" : " · broker unreachable, showing the last known state");
    for (const d of msg.tables) show(d);
    $("tables").dataset.count = String(tables.size);
    showRounds(msg.rounds || []);
  };
  es.onerror = () => { $("status").textContent = "connection to the dashboard lost – reconnecting…"; };
}

document.addEventListener("DOMContentLoaded", () => {
  connect();
  setInterval(() => { for (const t of tables.values()) t.el.querySelector(".clocks-line").textContent = clockLine(t); }, 500);
});
