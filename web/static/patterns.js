// The pattern page of `records serve`: a board whose points cycle unused, Black, White, empty, any on each click;
// the rectangle around the points used fills the form's pattern field (X, O, . and *, rows joined by /).
(function () {
  "use strict";
  var holder = document.getElementById("pattern-board");
  var field = document.getElementById("pattern-text");
  if (!holder || !field) { return; }
  var size = Math.max(2, Math.min(52, parseInt(holder.getAttribute("data-size"), 10) || 19));
  var CYCLE = ["", "X", "O", ".", "*"];
  var cells = [];
  var grid = document.createElement("div");
  grid.className = "pattern-grid";
  grid.style.gridTemplateColumns = "repeat(" + size + ", 1fr)";
  for (var i = 0; i < size * size; i++) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "pattern-point";
    b.setAttribute("data-index", String(i));
    b.setAttribute("data-state", "");
    grid.appendChild(b);
    cells.push(b);
  }
  holder.appendChild(grid);

  function state(i) { return cells[i].getAttribute("data-state"); }

  function set(i, value) {
    cells[i].setAttribute("data-state", value);
    cells[i].textContent = value === "." ? "·" : value;
  }

  function write() {
    var top = size, left = size, bottom = -1, right = -1;
    for (var i = 0; i < cells.length; i++) {
      if (state(i)) {
        var r = Math.floor(i / size), c = i % size;
        top = Math.min(top, r); bottom = Math.max(bottom, r);
        left = Math.min(left, c); right = Math.max(right, c);
      }
    }
    if (bottom < 0) { field.value = ""; return; }
    var rows = [];
    for (var r2 = top; r2 <= bottom; r2++) {
      var row = "";
      for (var c2 = left; c2 <= right; c2++) { row += state(r2 * size + c2) || "*"; }
      rows.push(row);
    }
    field.value = rows.join("/");
  }

  grid.addEventListener("click", function (ev) {
    var target = ev.target;
    if (!target || !target.hasAttribute || !target.hasAttribute("data-index")) { return; }
    var i = parseInt(target.getAttribute("data-index"), 10);
    set(i, CYCLE[(CYCLE.indexOf(state(i)) + 1) % CYCLE.length]);
    write();
  });
  document.getElementById("pattern-clear").addEventListener("click", function () {
    for (var i = 0; i < cells.length; i++) { set(i, ""); }
    field.value = "";
  });
  // A pattern already in the form is drawn one point in from the top left.
  var rows = field.value.split("/").filter(function (r) { return r.length > 0; });
  rows.forEach(function (row, r) {
    for (var c = 0; c < row.length; c++) {
      var i = (r + 1) * size + c + 1;
      if (r + 1 < size && c + 1 < size && CYCLE.indexOf(row.charAt(c).toUpperCase()) > 0) {
        set(i, row.charAt(c).toUpperCase());
      }
    }
  });
})();
