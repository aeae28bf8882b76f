"use strict";
// Every table of the club, live. The server sends the page with every card
// drawn (broadcast/page.py); then the event stream sends the tables that changed.
// webpage/static/common.js (loaded first) gives $, plural, fmtClock and the legend.
const tables = new Map();   // table name -> {data, receivedAt, el, legendKey}
let pieces = {names: {}, castling: []};   // every game's piece names by letter (engine.words)

// A move label (Pf3-f4xe4, AR@e2, Sc1<>e5...) in words, as engine/words.py move_words.
const SQ = "[a-z](?:1[0-9]|[0-9])";
const SQS = `${SQ}(?:,${SQ})*`;
const PLACEMENT = new RegExp(`^([A-Za-z]{2})(\\*?)@(${SQ})$`);
const LABEL = new RegExp(`^([A-Za-z]{1,2})(${SQ})(?:(<>)(${SQ})|-(?:(S)|(${SQ}))` +
                         `(?:x(${SQS}))?(?:\\^(${SQS}))?(?:=([A-Za-z]{1,2}))?)$`);

function moveWords(variant, label) {
  const names = pieces.names[variant] || pieces.names.maxima || {};
  const text = String(label).trim();
  const name = (letter) => (Object.prototype.hasOwnProperty.call(names, letter.toLowerCase())
    ? names[letter.toLowerCase()] : null);
  const list = (squares) => squares.split(",").join(", ");
  let m = PLACEMENT.exec(text);
  if (m) {
    const placed = name(m[1]);
    return placed === null ? text : `places ${m[2] ? "royal " : ""}${placed} on ${m[3]}`;
  }
  m = LABEL.exec(text);
  if (!m) return text;
  const [, letter, frm, swap, swapTo, suicide, to, captures, converts, promotion] = m;
  const piece = name(letter);
  if (piece === null) return text;
  if (swap) return `${piece} ${frm} swaps with ${swapTo}`;
  if (suicide) return captures ? `${piece} ${frm} takes ${list(captures)} and removes itself` : `${piece} ${frm} removes itself`;
  let words;
  if (to === frm) {
    words = `${piece} ${frm}` + (captures ? ` takes ${list(captures)}, stays on ${frm}` : "");
  } else if (captures === to) {   // a capture by replacement
    words = `${piece} ${frm} takes ${to}`;
  } else {
    words = `${piece} ${frm}-${to}`;
    if (captures) words += ` takes ${list(captures)}`;
    else if (pieces.castling.includes(variant) && piece === "King" && Math.abs(frm.charCodeAt(0) - to.charCodeAt(0)) >= 2) {
      words += " (castles)";
    }
  }
  if (converts) words += `, converts ${list(converts)}`;
  if (promotion) {
    const promoted = name(promotion);
    if (promoted === null) return text;
    words += `, becomes ${promoted}`;
  }
  return words;
}

function lastMoveText(d) {
  const moves = Array.isArray(d.moves) ? d.moves : [];
  const n = moves.length;
  if (!n) return "no moves yet";
  const texts = Array.isArray(d.move_texts) ? d.move_texts : null;
  const sans = Array.isArray(d.sans) ? d.sans : [];
  let text = "?";
  if (texts && texts.length >= n) text = String(texts[n - 1]);
  else if (sans.length >= n) text = moveWords(typeof d.variant === "string" ? d.variant : "maxima", sans[n - 1]);
  return `${Math.floor((n - 1) / 2) + 1}${n % 2 ? "." : "..."} ${text} · ${plural(n, "ply", "plies")}`;
}

function tableKey(name) {
  return name.split(/(\d+)/).filter(Boolean).map((p) => (/^\d+$/.test(p) ? p.padStart(8, "0") : p)).join("");
}

const CARD = '<h2><span class="table-name"></span><span class="game-name"></span></h2><div class="names"></div>' +
  '<div class="mini"></div><div class="clocks-line"></div><div class="last"></div><div class="result"></div>' +
  '<details class="legend"><summary>Which piece is which</summary><ul class="legend-list"></ul></details>';

function card(name) {
  let t = tables.get(name);
  if (t) return t;
  const el = document.createElement("article");
  el.className = "table";
  el.dataset.table = name;
  el.innerHTML = CARD;
  t = {el, data: null, receivedAt: 0, legendKey: ""};
  tables.set(name, t);
  const names = [...tables.keys()].sort((a, b) => (tableKey(a) < tableKey(b) ? -1 : 1));
  const box = $("tables");
  const after = names[names.indexOf(name) + 1];
  box.insertBefore(el, after ? tables.get(after).el : null);
  return t;
}

function toMove(d) {
  return (d.result === "*" || d.result == null) && d.mode !== "setup" && d.mode !== "ended" &&
    (d.turn === "white" || d.turn === "black") ? d.turn : null;
}

// The clocks with their sides and the side to move (page.py clock_html).
function showClocks(t) {
  const line = t.el.querySelector(".clocks-line");
  const d = t.data;
  if (!d) return;
  const c = d.clocks;
  const side = toMove(d);
  if (!c || !Number.isInteger(c.white) || !Number.isInteger(c.black)) {
    line.textContent = "";
    if (side) {
      const span = document.createElement("span");
      span.className = "to-move";
      span.textContent = side === "white" ? "White to move" : "Black to move";
      line.appendChild(span);
    }
    return;
  }
  if (line.querySelectorAll(".clock").length !== 2) {
    line.textContent = "";
    for (const s of ["white", "black"]) {
      const span = document.createElement("span");
      span.className = "clock"; span.dataset.side = s;
      span.innerHTML = '<span class="side"></span> <span class="time"></span><span class="turn"></span>';
      span.querySelector(".side").textContent = s === "white" ? "White" : "Black";
      line.appendChild(span);
    }
  }
  for (const el of line.querySelectorAll(".clock")) {
    const s = el.dataset.side;
    const ms = c[s] - (c.running === s ? Date.now() - t.receivedAt : 0);
    el.querySelector(".time").textContent = fmtClock(ms);
    el.querySelector(".turn").textContent = side === s ? " to move" : "";
    el.classList.toggle("running", c.running === s);
    el.classList.toggle("flag", ms <= 0);
  }
}

// The legend of the card's board, from its SVG (webpage/svg.py legend_items).
function showLegend(t) {
  const board = t.el.querySelector(".mini");
  const key = legendKeyOf(board);
  if (key === t.legendKey) return;
  t.legendKey = key;
  t.el.querySelector(".legend-list").replaceChildren(...legendItems(board));
}

function show(d) {
  const t = card(d.table);
  t.data = d; t.receivedAt = Date.now();
  const tags = d.tags || {};
  const el = t.el;
  el.classList.toggle("offline", d.online === false);
  el.querySelector(".table-name").textContent = `Table ${d.table}` + (d.online === false ? " (offline)" : "");
  el.querySelector(".game-name").textContent = typeof d.title === "string" ? d.title : "";
  el.querySelector(".names").textContent = `${tags.White || "White"} – ${tags.Black || "Black"}`;
  if (d.svg !== undefined) {
    el.querySelector(".mini").innerHTML = d.svg;
    showLegend(t);
  }
  el.querySelector(".last").textContent = lastMoveText(d);
  el.dataset.plies = String(Array.isArray(d.moves) ? d.moves.length : 0);
  el.querySelector(".result").textContent = d.result && d.result !== "*" ? `${d.result}${d.reason ? " (" + d.reason + ")" : ""}` : "";
  showClocks(t);
}

// The heading, the status line and a round's link, as page.py writes them (club_heading, status_text,
// round_label).
function clubHeading(club) {
  return ["", "club"].includes(String(club).trim().toLowerCase()) ? "Club dashboard" : `${club} · club dashboard`;
}

function statusText(count, brokerOk) {
  return (count ? plural(count, "table", "tables") : "no table seen yet") +
    (brokerOk ? "" : " · broker unreachable, showing the last known state");
}

function roundLabel(r) {
  return r === "-" ? "games without a round" : `round ${r}`;
}

function showRounds(rounds) {
  const span = $("rounds");
  span.textContent = rounds.length ? "" : "none yet";
  for (const r of rounds) {
    const a = document.createElement("a");
    a.href = `/round/${encodeURIComponent(r)}.pgn`;
    a.textContent = roundLabel(r);
    span.appendChild(a);
  }
}

function connect() {
  const es = new EventSource("/events");
  es.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.club !== $("club").dataset.club) {   // the server's heading stays (its empty-state hint names the club)
      $("club").dataset.club = msg.club;
      $("club").textContent = clubHeading(msg.club);
      document.title = `${clubHeading(msg.club)} · maxima-board`;
    }
    for (const d of msg.tables) show(d);
    $("status").textContent = statusText(tables.size, msg.broker_ok);
    $("empty").hidden = tables.size > 0;
    $("tables").dataset.count = String(tables.size);
    showRounds(msg.rounds || []);
  };
  es.onerror = () => { $("status").textContent = "connection to the dashboard lost – reconnecting…"; };
}

document.addEventListener("DOMContentLoaded", () => {
  try { pieces = JSON.parse($("piece-names").textContent); } catch (e) { /* moves stay as labels */ }
  for (const el of document.querySelectorAll("#tables article.table")) {   // the server's cards
    tables.set(el.dataset.table, {el, data: null, receivedAt: 0, legendKey: ""});
  }
  connect();
  setInterval(() => { for (const t of tables.values()) showClocks(t); }, 500);
});
