"use strict";
// The board's live page. The server sends the page drawn (webpage/page.py);
// from then on one EventSource: every message is the whole board state.
// common.js (loaded first) gives $, plural, fmtClock and the legend.
let state = null;
let receivedAt = 0;
let gamesKey = "";
let games = [];        // the games shown, newest first: the first page, then the older pages asked for
let nextPage = null;   // the address of the next (older) page of games; null: there is none
let legendKey = "";
const titles = {};   // game id -> its name, from /api/variants

// What each LED state asks of the players (the colours are the board picture's); page.py has the same.
const LED_WORDS = {
  "last-from": "last move from", "last-to": "last move to", "remove": "take off", "error-extra": "should be empty",
  "error-missing": "piece missing", "check": "check", "immobilized": "immobilized", "setup-missing": "place a piece",
  "hint": "possible move", "captures": "it would capture", "engine-from": "computer moves from", "engine-to": "computer moves to",
};

// The side to move while the game is played, else null (page.py to_move).
function toMove(s) {
  return (s.result === "*" || s.result == null) && s.mode !== "setup" && s.mode !== "ended" ? s.turn : null;
}

function showClocks() {
  if (!state) return;           // the server's drawing stands until the first state
  drawClocks(state.clocks, receivedAt, toMove(state));
}

function showLegend(board, list) {
  const key = legendKeyOf(board);
  if (key === legendKey) return;
  legendKey = key;
  list.replaceChildren(...legendItems(board));
}

function statusText(s) {
  const t = s.tags || {};
  const where = [t.Event, t.Round && t.Round !== "-" ? "round " + t.Round : ""].filter(Boolean).join(", ");
  const what = s.mode === "setup" ? "setting up" : s.mode === "ended" ? "game over"
    : (s.turn === "white" ? "White to move" : "Black to move");
  return [s.title || "", s.game != null ? "game " + s.game : "", where, what].filter(Boolean).join(" · ");
}

function render(s) {
  state = s;
  receivedAt = Date.now();
  $("board").innerHTML = s.svg;
  showLegend($("board"), $("legend-list"));
  const t = s.tags || {};
  const players = `${t.White || "White"} – ${t.Black || "Black"}`;
  $("players").textContent = players;
  document.title = s.title ? `${s.title}: ${players} · maxima-board` : "maxima-board";
  $("status").textContent = statusText(s);
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
  showMoves(s.move_texts || s.sans || []);
  $("result").textContent = s.result !== "*" ? `${s.result}${s.reason ? " (" + s.reason + ")" : ""}` : "";
  showClocks();
  // The stored games change only when a game starts or ends (issue 22): the
  // plies of the game in play are counted here.
  const key = `${s.game}|${s.result}`;
  if (key !== gamesKey) { gamesKey = key; loadGames(); } else showGames();
}

function showGames() {
  const ul = $("games");
  ul.textContent = "";
  $("games-more").hidden = !nextPage;
  for (const g of games) {
    const live = state && g.id === state.game;
    const plies = live ? state.moves.length : g.plies;
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = `/games/${g.id}.pgn`;
    a.textContent = `${g.id}. ${g.white} – ${g.black}`;
    a.setAttribute("download", `maxima-board-game-${g.id}.pgn`);
    li.appendChild(a);
    const name = g.title || titles[g.variant] || g.variant || "";
    li.appendChild(document.createTextNode(
      [name, plural(plies, "ply", "plies"), live ? state.result : g.result].filter((x) => x && x !== "*")
        .map((x) => " · " + x).join("").replace(/^ · /, " ") +
      `${(live ? state.result === "*" : !g.finished) ? " · playing" : ""}`));
    ul.appendChild(li);
  }
}

// A page of the games list (/api/games: {"games": newest first, "next": the next page's address}).
async function fetchGames(address) {
  const r = await fetch(address);
  if (!r.ok) return null;
  const page = await r.json();
  const next = typeof page.next === "string" && page.next.startsWith("/api/games?") ? page.next : null;
  return Array.isArray(page.games) ? {games: page.games, next} : null;
}

// The first page again (a game started or ended); older pages shown before are dropped.
async function loadGames() {
  try {
    const page = await fetchGames("/api/games");
    if (!page) return;
    games = page.games; nextPage = page.next;
    showGames();
  } catch (e) { /* the next game change retries */ }
}

// "Older games": the next page, added under those shown.
async function moreGames() {
  const button = $("games-more");
  if (!nextPage || button.disabled) return;
  button.disabled = true;
  try {
    const page = await fetchGames(nextPage);
    if (page) {
      const shown = new Set(games.map((g) => g.id));
      games = games.concat(page.games.filter((g) => !shown.has(g.id)));
      nextPage = page.next;
      showGames();
    }
  } catch (e) { /* the button stays: the user may try again */ }
  button.disabled = false;
}

async function loadVariants() {
  try {
    const r = await fetch("/api/variants");
    const list = await r.json();
    const sel = $("f-game");
    const chosen = sel.value;
    sel.textContent = "";
    for (const v of list) {
      titles[v.id] = v.name;
      const o = document.createElement("option");
      o.value = v.id; o.textContent = v.name;
      sel.appendChild(o);
    }
    if (list.some((v) => v.id === chosen)) sel.value = chosen;
    showGames();
  } catch (e) { /* keep the server's list */ }
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

// "Invite a player": the link comes back to this page only (the PIN holder's), shown as text.
async function submitInvite(ev) {
  ev.preventDefault();
  const data = {};
  for (const el of ev.target.elements) if (el.name && el.name !== "token") data[el.name] = el.value;
  const msg = $("invite-msg");
  const box = $("invite-link");
  msg.className = ""; msg.textContent = "…"; box.hidden = true;
  try {
    const r = await fetch("/api/invite", {method: "POST", headers: {"Content-Type": "application/json"},
                                          body: JSON.stringify(data)});
    const reply = await r.json();
    msg.className = reply.ok ? "ok" : "error";
    msg.textContent = reply.ok ? reply.message : reply.error;
    if (reply.ok && typeof reply.link === "string" && reply.link.startsWith("/play/")) {
      const a = $("invite-a");
      a.href = reply.link;
      a.textContent = location.origin + reply.link;
      box.hidden = false;
      $("i-pin").value = "";
    }
  } catch (e) {
    msg.className = "error"; msg.textContent = "The board did not answer.";
  }
}

// "Play a board elsewhere": the game's name is never sent back (it is on the board's display).
async function submitRemote(ev) {
  ev.preventDefault();
  const data = {};
  for (const el of ev.target.elements) if (el.name && el.name !== "token") data[el.name] = el.value;
  const msg = $("remote-msg");
  msg.className = ""; msg.textContent = "…";
  try {
    const r = await fetch("/api/remote", {method: "POST", headers: {"Content-Type": "application/json"},
                                          body: JSON.stringify(data)});
    const reply = await r.json();
    msg.className = reply.ok ? "ok" : "error";
    msg.textContent = reply.ok ? reply.message : reply.error;
    if (reply.ok) { $("r-pin").value = ""; $("r-name").value = ""; }
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
  $("invite-form").addEventListener("submit", submitInvite);
  $("remote-form").addEventListener("submit", submitRemote);
  $("games-more").addEventListener("click", moreGames);
  legendKey = "";
  loadVariants();
  connect();
  setInterval(showClocks, 250);
});
