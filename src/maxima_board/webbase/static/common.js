"use strict";
// What the board's page (board.js) and the club dashboard (dashboard.js) share;
// both pages load this script first.
const $ = (id) => document.getElementById(id);

function plural(n, one, many) { return `${n} ${n === 1 ? one : many}`; }

function fmtClock(ms) {
  ms = Math.max(0, ms);
  const s = Math.ceil(ms / 1000);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const two = (n) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${two(m)}:${two(r)}` : `${m}:${two(r)}`;
}

// Which pieces (side and name) stand on a board's SVG: the legend is built
// again only when this changes.
function legendKeyOf(board) {
  return [...board.querySelectorAll("g.piece")].map((g) => g.dataset.side + g.dataset.name)
    .sort().filter((k, i, all) => i === 0 || all[i - 1] !== k).join("|");
}

// The legend of the pieces on a board, built from its SVG: one line per name
// with each side's figure (as webpage/svg.py legend_items).
function legendItems(board) {
  const byName = new Map();
  for (const g of board.querySelectorAll("g.piece")) {
    const name = g.dataset.name;
    if (!byName.has(name)) byName.set(name, {stand: g.dataset.stand, sides: {}});
    const entry = byName.get(name);
    if (!entry.sides[g.dataset.side]) entry.sides[g.dataset.side] = g.querySelector(".figure");
  }
  const items = [];
  for (const name of [...byName.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    const entry = byName.get(name);
    const li = document.createElement("li");
    li.dataset.name = name;
    for (const side of ["white", "black"]) {
      const figure = entry.sides[side];
      if (!figure) continue;
      const icon = document.createElementNS("http://www.w3.org/2000/svg", "svg");
      icon.setAttribute("viewBox", "0 0 100 100");
      icon.setAttribute("class", "icon");
      icon.setAttribute("aria-hidden", "true");
      icon.appendChild(figure.cloneNode(true));
      li.appendChild(icon);
    }
    const span = document.createElement("span");
    span.className = "name"; span.textContent = name;
    li.appendChild(span);
    if (entry.stand && entry.stand !== name) {
      const stand = document.createElement("span");
      stand.className = "stand"; stand.textContent = entry.stand;
      li.append(" ", stand);
    }
    items.push(li);
  }
  return items;
}

// The moves in words, two plies a line, scrolled to the newest (the board's page, the phone's).
function showMoves(texts) {
  const moves = $("moves");
  moves.textContent = "";
  for (let i = 0; i < texts.length; i += 2) {
    const li = document.createElement("li");
    for (const text of texts.slice(i, i + 2)) {
      const span = document.createElement("span");
      span.className = "ply"; span.textContent = text;
      li.appendChild(span);
    }
    moves.appendChild(li);
  }
  moves.scrollTop = moves.scrollHeight;
}

// Both clocks (#clock-white, #clock-black in #clocks): ``clocks`` as the state has them, taken at
// ``since`` (Date.now()); the running one counts down from there; ``mover``: the side to move, if any.
function drawClocks(clocks, since, mover) {
  $("clocks").hidden = !clocks;
  if (!clocks) return;
  for (const side of ["white", "black"]) {
    let ms = clocks[side];
    if (clocks.running === side) ms -= Date.now() - since;
    const el = $("clock-" + side);
    el.querySelector(".time").textContent = fmtClock(ms);
    el.querySelector(".turn").textContent = mover === side ? " to move" : "";
    el.classList.toggle("running", clocks.running === side);
    el.classList.toggle("flag", ms <= 0);
  }
}
