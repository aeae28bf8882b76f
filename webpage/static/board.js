"use strict";
// The board's live page: one EventSource; every message is the whole board state.
let state = null;
let receivedAt = 0;
let gamesKey = "";

const $ = (id) => document.getElementById(id);
// What each LED state asks of the players (the colours are the board picture's).
const LED_WORDS = {
  "last-from": "last move from", "last-to": "last move to", "remove": "take off", "error-extra": "should be empty",
  "error-missing": "piece missing", "check": "check", "immobilized": "immobilized", "setup-missing": "place a piece",
  "hint": "possible move", "engine-from": "computer moves from", "engine-to": "computer moves to",
};

function fmtClock(ms) {
  ms = Math.max(0, ms);
  const s = Math.ceil(ms / 1000);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const two = (n) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${two(m)}:${two(r)}` : `${m}:${two(r)}`;
}

function showClocks() {
  const c = state && state.clocks;
  $("clocks").hidden = !c;
  if (!c) return;
  for (const side of ["white", "black"]) {
    let ms = c[side];
    if (c.running === side) ms -= Date.now() - receivedAt;
    const el = $("clock-" + side);
    el.textContent = (side === "white" ? "White " : "Black ") + fmtClock(ms);
    el.classList.toggle("running", c.running === side);
    el.classList.toggle("flag", ms <= 0);
  }
}

function render(s) {
  state = s;
  receivedAt = Date.now();
  $("board").innerHTML = s.svg;
  const t = s.tags || {};
  $("players").textContent = `${t.White || "White"} – ${t.Black || "Black"}`;
  const where = [t.Event, t.Round && t.Round !== "-" ? "round " + t.Round : ""].filter(Boolean).join(", ");
  const what = s.mode === "setup" ? "setting up" : s.mode === "ended" ? "game over"
    : (s.turn === "white" ? "White to move" : "Black to move");
  $("status").textContent = [s.game ? "Game " + s.game : "", where, what].filter(Boolean).join(" · ");
  $("oled").textContent = (s.display || []).join("\n");
  const lit = $("lit");
  lit.textContent = "";
  const byState = {};
  for (const [sq, st] of Object.entries(s.leds || {})) (byState[st] = byState[st] || []).push(sq);
  for (const [st, squares] of Object.entries(byState)) {
    const li = document.createElement("li");
    li.dataset.led = st;
    li.textContent = `${LED_WORDS[st] || st}: ${squares.sort().join(", ")}`;
    lit.appendChild(li);
  }
  const moves = $("moves");
  moves.textContent = "";
  for (let i = 0; i < s.sans.length; i += 2) {
    const li = document.createElement("li");
    li.textContent = s.sans[i] + (i + 1 < s.sans.length ? " " + s.sans[i + 1] : "");
    moves.appendChild(li);
  }
  moves.scrollTop = moves.scrollHeight;
  $("result").textContent = s.result !== "*" ? `${s.result}${s.reason ? " (" + s.reason + ")" : ""}` : "";
  showClocks();
  const key = `${s.game}|${s.result}|${s.moves.length}`;
  if (key !== gamesKey) { gamesKey = key; loadGames(); }
}

async function loadGames() {
  try {
    const r = await fetch("/api/games");
    if (!r.ok) return;
    const games = await r.json();
    const ul = $("games");
    ul.textContent = "";
    for (const g of games.slice().reverse()) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = `/games/${g.id}.pgn`;
      a.textContent = `${g.id}. ${g.white} – ${g.black}`;
      a.setAttribute("download", `maxima-board-game-${g.id}.pgn`);
      li.appendChild(a);
      li.appendChild(document.createTextNode(` ${g.result} · ${g.plies} plies${g.finished ? "" : " · playing"}`));
      ul.appendChild(li);
    }
  } catch (e) { /* the next state retries */ }
}

async function loadVariants() {
  try {
    const r = await fetch("/api/variants");
    const list = await r.json();
    const sel = $("f-game");
    sel.textContent = "";
    for (const v of list) {
      const o = document.createElement("option");
      o.value = v.id; o.textContent = v.name;
      sel.appendChild(o);
    }
  } catch (e) { /* keep the default */ }
}

async function submitNewGame(ev) {
  ev.preventDefault();
  const form = ev.target;
  const data = {};
  for (const el of form.elements) {
    if (!el.name) continue;
    data[el.name] = el.type === "checkbox" ? (el.checked ? "on" : "off") : el.value;
  }
  const msg = $("form-msg");
  msg.className = ""; msg.textContent = "…";
  try {
    const r = await fetch("/api/new-game", {method: "POST", headers: {"Content-Type": "application/json"},
                                            body: JSON.stringify(data)});
    const reply = await r.json();
    msg.className = reply.ok ? "ok" : "error";
    msg.textContent = reply.ok ? reply.message : reply.error;
    if (reply.ok) $("f-pin").value = "";
  } catch (e) {
    msg.className = "error"; msg.textContent = "The board did not answer.";
  }
}

function connect() {
  const es = new EventSource("/events");
  es.onmessage = (ev) => render(JSON.parse(ev.data));
  es.onerror = () => { $("status").textContent = "connection lost – reconnecting…"; };
}

document.addEventListener("DOMContentLoaded", () => {
  $("new-game-form").addEventListener("submit", submitNewGame);
  loadVariants();
  connect();
  setInterval(showClocks, 250);
});
