// The game page of `records serve`: the link "search this position's pattern" opens the patterns page over the
// position on the board (the replay's slider holds its move), where a region dragged over it is searched for; the
// move shown on the board (the board's `data-move`, set by the replay) is the one highlighted in the move list,
// scrolled into the list's view; the variations that leave the line there are lit in the tree, and the moves where
// they do are marked in the list.
(function () {
  "use strict";
  var link = document.getElementById("pattern-from-link");
  var slider = document.getElementById("slider");
  if (link && slider) {
    var base = link.getAttribute("href").replace(/&move=\d*$/, "");
    var update = function () { link.setAttribute("href", base + "&move=" + (parseInt(slider.value, 10) || 0)); };
    ["click", "mouseover", "focus", "mousedown"].forEach(function (kind) { link.addEventListener(kind, update); });
  }
  var board = document.getElementById("board");
  var list = document.getElementById("moves");
  if (!board || !list) { return; }
  var current = null;
  function mark() {
    var item = list.querySelector('li[data-move="' + (board.getAttribute("data-move") || "0") + '"]');
    if (item === current) { return; }
    if (current) { current.classList.remove("current"); current.removeAttribute("aria-current"); }
    current = item;
    if (!item) { return; }
    item.classList.add("current");
    item.setAttribute("aria-current", "step");
    // Only the list scrolls (not the page): the item into the list's own view.
    var top = item.offsetTop - list.offsetTop, bottom = top + item.offsetHeight;
    if (top < list.scrollTop) { list.scrollTop = top; }
    else if (bottom > list.scrollTop + list.clientHeight) { list.scrollTop = bottom - list.clientHeight; }
  }
  // The variations that play another move next, from the position shown, light up in the tree.
  var tree = document.getElementById("variations");
  function alternatives() {
    if (!tree) { return; }
    var next = String((parseInt(board.getAttribute("data-move"), 10) || 0) + 1);
    Array.prototype.forEach.call(tree.querySelectorAll("li[data-at]"), function (li) {
      li.classList.toggle("here", li.getAttribute("data-at") === next);
    });
  }
  new MutationObserver(mark).observe(board, { attributes: true, attributeFilter: ["data-move"] });
  new MutationObserver(alternatives).observe(board, { attributes: true, attributeFilter: ["data-move"] });
  alternatives();
  mark();
})();
