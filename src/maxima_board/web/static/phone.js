"use strict";
// The invited player's page (/play/<token>, web/phone.py). The server sends
// the page drawn; then one EventSource (<page>/events): each message is the
// phone's whole state. The player taps a piece, then a lit square; the legal
// moves come from the server (<page>/moves), which checks every move again.
// common.js (loaded first) gives $, fmtClock and the legend.
const base = location.pathname.replace(/\/+$/, "");
let state = null;
let receivedAt = 0;
let choices = [];        // the legal moves now: {move, from, to, words}
let choicesOf = -1;      // the state version they are of
let picked = null;       // the square of the piece picked
let legendKey = "";
let resignArmed = false;
const WHAT = {takeback: "take-back", draw: "draw", resign: "resignation"};

function say(text, error) {
  const msg = $("msg");
  msg.className = "msg" + (error ? " error" : "");
  msg.textContent = text || "";
}

function toMove(s) {
  return s.result == null && s.ready ? s.turn : null;
}

function showClocks() {
  if (!state) return;
  drawClocks(state.clocks, receivedAt, toMove(state));
}

function render(s) {
  if (s.gone) {
    $("status").textContent = "This invitation has ended: the board's owner invited someone else.";
    choices = []; picked = null; showPicks(); showButtons(null);
    return;
  }
  const changed = !state || state.version !== s.version || state.svg !== s.svg;
  state = s;
  receivedAt = Date.now();
  $("status").textContent = s.status;
  $("title").textContent = `You play ${s.side === "white" ? "White" : "Black"}` + (s.title ? ` · ${s.title}` : "");
  if (changed) {
    $("board").innerHTML = s.svg;
    const key = legendKeyOf($("board"));
    if (key !== legendKey) { legendKey = key; $("legend-list").replaceChildren(...legendItems($("board"))); }
    picked = null;
  }
  showMoves(s.move_texts || []);
  $("result").textContent = s.result ? `${s.result}${s.reason ? " (" + s.reason + ")" : ""}` : "";
  if (s.note) say(s.note);
  showClocks();
  showButtons(s);
  if (s.your_turn && choicesOf !== s.version) loadChoices(s.version);
  if (!s.your_turn) { choices = []; choicesOf = s.version; }
  showPicks();
}

function showButtons(s) {
  const playing = !!s && s.ready && s.on_board && !s.result;
  $("question").hidden = !(playing && s.asks);
  if (playing && s.asks) $("question-text").textContent = `The board's player asks: ${WHAT[s.asks]}.`;
  $("withdraw").hidden = !(playing && s.asked);
  for (const id of ["ask-draw", "ask-takeback", "resign"]) $(id).disabled = !playing || !!s.asked;
  if (!playing) { resignArmed = false; $("resign").textContent = "Resign"; }
}

async function loadChoices(version) {
  try {
    const r = await fetch(base + "/moves");
    if (!r.ok) return;
    const reply = await r.json();
    if (!state || reply.version !== state.version) return;   // a newer state came meanwhile
    choices = Array.isArray(reply.moves) ? reply.moves : [];
    choicesOf = version;
    showPicks();
  } catch (e) { /* the next state asks again */ }
}

// The picked piece and where it may go, lit on the board; the moves that need
// a choice (several moves to one square, a move without a destination) as buttons.
function showPicks(several) {
  const board = $("board");
  for (const el of board.querySelectorAll("rect[data-pick]")) el.removeAttribute("data-pick");
  for (const c of choices) {
    const rect = board.querySelector(`rect[data-square="${c.from}"]`);
    if (rect && !picked) rect.setAttribute("data-pick", "movable");
  }
  const list = $("choices");
  list.textContent = "";
  if (!picked) { list.hidden = true; return; }
  const from = board.querySelector(`rect[data-square="${picked}"]`);
  if (from) from.setAttribute("data-pick", "from");
  const mine = choices.filter((c) => c.from === picked);
  for (const c of mine) {
    const rect = c.to && board.querySelector(`rect[data-square="${c.to}"]`);
    if (rect && rect !== from) rect.setAttribute("data-pick", "to");
  }
  const offered = several || mine.filter((c) => !c.to);
  for (const c of offered) {
    const b = document.createElement("button");
    b.type = "button"; b.className = "choice"; b.textContent = c.words; b.dataset.move = c.move;
    b.addEventListener("click", () => play(c.move));
    list.appendChild(b);
  }
  list.hidden = offered.length === 0;
}

function tapped(ev) {
  const el = ev.target.closest("[data-square]");
  if (!el || !state || !state.your_turn) return;
  const square = el.dataset.square;
  if (picked) {
    const moves = choices.filter((c) => c.from === picked && c.to === square);
    if (moves.length === 1) { play(moves[0].move); return; }
    if (moves.length > 1) { showPicks(moves); say("Which move?"); return; }
  }
  picked = choices.some((c) => c.from === square) && square !== picked ? square : null;
  showPicks();
}

async function post(path, data) {
  try {
    const r = await fetch(base + path, {method: "POST", headers: {"Content-Type": "application/json"},
                                        body: JSON.stringify(data)});
    const reply = await r.json();
    if (!reply.ok) say(reply.error || "refused", true);
    return !!reply.ok;
  } catch (e) {
    say("The board did not answer.", true);
    return false;
  }
}

async function play(move) {
  picked = null; showPicks();
  say("…");
  if (await post("/move", {move})) say("");
}

async function ask(what) {
  if (!(await post("/ask", {what}))) return;
  say(what === "withdraw" ? "" : what === "resign" ? "You resigned." : `Asked the board's player: ${WHAT[what]}.`);
}

function resign() {
  const button = $("resign");
  if (!resignArmed) { resignArmed = true; button.textContent = "Resign: sure?"; return; }
  resignArmed = false; button.textContent = "Resign";
  ask("resign");
}

function connect() {
  const es = new EventSource(base + "/events");
  es.onmessage = (ev) => render(JSON.parse(ev.data));
  es.onerror = () => { $("status").textContent = "connection lost – reconnecting…"; };
}

document.addEventListener("DOMContentLoaded", () => {
  $("board").addEventListener("click", tapped);
  $("ask-draw").addEventListener("click", () => ask("draw"));
  $("ask-takeback").addEventListener("click", () => ask("takeback"));
  $("resign").addEventListener("click", resign);
  $("withdraw").addEventListener("click", () => ask("withdraw"));
  $("accept").addEventListener("click", () => post("/answer", {yes: true}));
  $("decline").addEventListener("click", () => post("/answer", {yes: false}));
  connect();
  setInterval(showClocks, 250);
});
