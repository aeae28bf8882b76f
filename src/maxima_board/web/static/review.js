// A stored game's page (/games/N): the arrow keys follow the page's own links (Back, Next, Start, End),
// so stepping works the same with and without JavaScript.
"use strict";
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const target = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last",
                   ArrowUp: "first", ArrowDown: "last" }[event.key];
  if (!target) return;
  const link = document.getElementById(target);
  if (link && link.tagName === "A") {
    event.preventDefault();
    window.location.assign(link.getAttribute("href"));
  }
});
