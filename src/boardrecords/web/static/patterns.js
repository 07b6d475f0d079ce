// The pattern page of `records serve`: the board (render/board.py) whose points cycle unused, Black, White, empty, any on each click;
// pressing on one point and releasing on another drags the pattern's region (the points inside it are the
// pattern, a point left unused there is "any"; the points outside are not part of it). Without a region the
// pattern is the rectangle around the points used. From the keyboard the board is one stop of the Tab order: the
// arrow keys move between its points, Space or Enter cycles the point (a button's click), and Shift with the arrow
// keys sets the region from the point where Shift was first held to the one reached, as a drag does. The form's pattern field gets the rows (X, O, . and *, joined
// by /) and its region field the dragged region's two corners by their names, so the URL keeps both.
// With `pattern-from` the board shows a stored game's position: a region dragged over it is that position's
// pattern (the server takes it from the record, as `records search --pattern-from` does); a click or a typed
// pattern makes it a drawn pattern of its own.
(function () {
  "use strict";
  var holder = document.getElementById("pattern-board");
  var field = document.getElementById("pattern-text");
  var regionField = document.getElementById("pattern-region");
  if (!holder || !field || !regionField) { return; }
  var size = Math.max(2, Math.min(52, parseInt(holder.getAttribute("data-size"), 10) || 19));
  var names = (holder.getAttribute("data-names") || "").split(" ");
  var position = holder.getAttribute("data-position") || "";
  var fromFields = [document.getElementById("pattern-from"), document.getElementById("pattern-move")];
  var fromAnchor = document.getElementById("anchor-region");
  var fromMode = !!fromFields[0];
  var CYCLE = ["", "X", "O", ".", "*"];
  var cells = [];
  var region = null; // {left, top, right, bottom}, inclusive
  // The points are the board's own (render/board.py draws them on the intersections, named in the notation).
  var grid = holder.querySelector("svg");
  var regionBox = document.getElementById("region-box");
  if (!grid) { return; }
  var cells = Array.prototype.slice.call(grid.querySelectorAll(".pattern-point"));
  if (cells.length !== size * size) { return; }

  function state(i) { return cells[i].getAttribute("data-state"); }

  function set(i, value) {
    cells[i].setAttribute("data-state", value);
    cells[i].querySelector("text").textContent = value === "." ? "·" : value === "*" ? "*" : "";
    cells[i].setAttribute("aria-label", names[i] + (value === "X" ? " black" : value === "O" ? " white" :
      value === "." ? " empty" : value === "*" ? " any" : ""));
  }

  function inside(r, c) {
    return region !== null && r >= region.top && r <= region.bottom && c >= region.left && c <= region.right;
  }

  // The anchor on the board: the board's edges (and the corner where two meet) that the chosen anchor puts the
  // pattern's sides on, drawn over the board's frame; with a record's region, the edges the region touches.
  var anchorField = document.getElementById("pattern-anchor");
  var anchorNote = document.getElementById("anchor-note");
  var SIDES = { corner: ["top", "left"], edge: ["top"], top: ["top"], bottom: ["bottom"], left: ["left"],
                right: ["right"], "top-left": ["top", "left"], "top-right": ["top", "right"],
                "bottom-left": ["bottom", "left"], "bottom-right": ["bottom", "right"] };
  var SVG_NS = "http://www.w3.org/2000/svg";
  var marks = document.createElementNS(SVG_NS, "g");
  marks.setAttribute("id", "anchor-marks");
  marks.setAttribute("class", "anchor-marks");
  (regionBox ? regionBox.parentNode : grid).appendChild(marks);
  function sidesChosen() {
    var value = anchorField ? anchorField.value : "anywhere";
    if (value !== "") { return Object.prototype.hasOwnProperty.call(SIDES, value) ? SIDES[value] : []; }
    if (region === null) { return []; }
    var out = [];
    if (region.top === 0) { out.push("top"); }
    if (region.bottom === size - 1) { out.push("bottom"); }
    if (region.left === 0) { out.push("left"); }
    if (region.right === size - 1) { out.push("right"); }
    return out;
  }
  function showAnchor() {
    while (marks.firstChild) { marks.removeChild(marks.firstChild); }
    var sides = sidesChosen();
    grid.setAttribute("data-anchor", sides.join(" "));
    if (anchorNote) {
      anchorNote.textContent = sides.length ? "Anchored: the pattern's " + sides.join(" and ") + " side" +
        (sides.length > 1 ? "s" : "") + " on the board's edge" + (sides.length > 1 ? "s" : "") +
        " (highlighted), in every symmetry of the board." : "";
    }
    if (!sides.length) { return; }
    var a = cells[0].querySelector("rect"), b = cells[size * size - 1].querySelector("rect");
    var w = parseFloat(a.getAttribute("width"));
    var x0 = parseFloat(a.getAttribute("x")) + w / 2, y0 = parseFloat(a.getAttribute("y")) + w / 2;
    var x1 = parseFloat(b.getAttribute("x")) + w / 2, y1 = parseFloat(b.getAttribute("y")) + w / 2;
    var ends = { top: [x0, y0, x1, y0], bottom: [x0, y1, x1, y1], left: [x0, y0, x0, y1], right: [x1, y0, x1, y1] };
    sides.forEach(function (side) {
      var line = document.createElementNS(SVG_NS, "line");
      var e = ends[side];
      line.setAttribute("x1", String(e[0])); line.setAttribute("y1", String(e[1]));
      line.setAttribute("x2", String(e[2])); line.setAttribute("y2", String(e[3]));
      line.setAttribute("class", "anchor-edge");
      line.setAttribute("data-side", side);
      marks.appendChild(line);
    });
    if (sides.length === 2) {
      var corner = document.createElementNS(SVG_NS, "circle");
      corner.setAttribute("cx", String(sides.indexOf("left") >= 0 ? x0 : x1));
      corner.setAttribute("cy", String(sides.indexOf("top") >= 0 ? y0 : y1));
      corner.setAttribute("r", String(w * 0.3));
      corner.setAttribute("class", "anchor-corner");
      marks.appendChild(corner);
    }
  }
  if (anchorField) { anchorField.addEventListener("change", showAnchor); }

  function show() {
    showAnchor();
    for (var i = 0; i < cells.length; i++) {
      var r = Math.floor(i / size), c = i % size;
      cells[i].classList.toggle("in-region", inside(r, c));
      cells[i].classList.toggle("outside", region !== null && !inside(r, c));
    }
    // The region's outline over the board, from the hit squares of its two corners.
    if (!regionBox) { return; }
    if (region === null) { regionBox.setAttribute("width", "0"); regionBox.setAttribute("height", "0"); return; }
    var a = cells[region.top * size + region.left].querySelector("rect");
    var b = cells[region.bottom * size + region.right].querySelector("rect");
    var x = parseFloat(a.getAttribute("x")), y = parseFloat(a.getAttribute("y"));
    regionBox.setAttribute("x", String(x));
    regionBox.setAttribute("y", String(y));
    regionBox.setAttribute("width", String(parseFloat(b.getAttribute("x")) + parseFloat(b.getAttribute("width")) - x));
    regionBox.setAttribute("height", String(parseFloat(b.getAttribute("y")) + parseFloat(b.getAttribute("height")) - y));
  }

  // The rectangle written: the region, else the one around the points used (null when none is used).
  function box() {
    if (region !== null) { return region; }
    var top = size, left = size, bottom = -1, right = -1;
    for (var i = 0; i < cells.length; i++) {
      if (state(i)) {
        var r = Math.floor(i / size), c = i % size;
        top = Math.min(top, r); bottom = Math.max(bottom, r);
        left = Math.min(left, c); right = Math.max(right, c);
      }
    }
    return bottom < 0 ? null : { left: left, top: top, right: right, bottom: bottom };
  }

  function write() {
    show();
    var at = box();
    if (at === null) { field.value = ""; regionField.value = ""; regionField.disabled = true; return; }
    var rows = [];
    for (var r = at.top; r <= at.bottom; r++) {
      var row = "";
      for (var c = at.left; c <= at.right; c++) { row += state(r * size + c) || "*"; }
      rows.push(row);
    }
    field.value = rows.join("/");
    // Only a dragged region is kept in the address: a pattern without one may grow by the next click.
    regionField.value = region === null ? "" : names[at.top * size + at.left] + ":" + names[at.bottom * size + at.right];
    regionField.disabled = region === null;
  }

  // A drawn pattern of its own from now on: the record's fields are no longer sent.
  function drawn() {
    if (!fromMode) { return; }
    fromMode = false;
    fromFields.forEach(function (f) { if (f) { f.disabled = true; } });
    if (fromAnchor) {
      if (fromAnchor.selected) { fromAnchor.parentNode.value = "anywhere"; }
      fromAnchor.parentNode.removeChild(fromAnchor);
    }
    field.disabled = false;
  }

  function indexOf(target) {
    var point = target && target.closest ? target.closest(".pattern-point") : null;
    return point ? parseInt(point.getAttribute("data-index"), 10) : null;
  }

  function rect(a, b) {
    var ra = Math.floor(a / size), ca = a % size, rb = Math.floor(b / size), cb = b % size;
    return { left: Math.min(ca, cb), top: Math.min(ra, rb), right: Math.max(ca, cb), bottom: Math.max(ra, rb) };
  }

  // Pointer events: a mouse, a pen and a finger drag alike. A finger's pointer stays captured by the point it went
  // down on, so the point under it is looked up from where it is.
  var pressed = null;  // the point the pointer went down on
  var dragged = false; // a drag ended: the click that follows it is not a click on a point
  function under(ev) { return indexOf(document.elementFromPoint(ev.clientX, ev.clientY)); }
  grid.addEventListener("pointerdown", function (ev) {
    if (ev.button !== 0 || !ev.isPrimary) { return; }
    pressed = indexOf(ev.target);
    dragged = false;
    if (pressed !== null) { ev.preventDefault(); }
  });
  grid.addEventListener("pointermove", function (ev) {
    if (pressed === null) { return; }
    var i = under(ev);
    if (i === null || i === pressed) { return; }
    region = rect(pressed, i);
    show();
  });
  document.addEventListener("pointerup", function (ev) {
    if (pressed === null) { return; }
    var i = under(ev);
    if (i !== null && i !== pressed) {
      region = rect(pressed, i);
      dragged = true;
      write();
    }
    pressed = null;
  });
  document.addEventListener("pointercancel", function () { pressed = null; });
  grid.addEventListener("click", function (ev) {
    if (dragged) { dragged = false; return; }
    var i = indexOf(ev.target);
    if (i !== null) { cycle(i); }
  });
  function cycle(i) {
    drawn();
    set(i, CYCLE[(CYCLE.indexOf(state(i)) + 1) % CYCLE.length]);
    write();
  }
  // The keyboard: one point of the board takes the Tab stop (the last one focused), the arrow keys move it.
  var cursor = 0;
  var start = null; // the point where Shift + arrows began the region
  var STEPS = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
  grid.addEventListener("focusin", function (ev) {
    var i = indexOf(ev.target);
    if (i === null || i === cursor) { return; }
    cells[cursor].tabIndex = -1;
    cells[i].tabIndex = 0;
    cursor = i;
  });
  grid.addEventListener("keydown", function (ev) {
    var i = indexOf(ev.target), step = STEPS[ev.key];
    // Space and Enter cycle the point, as they click a button (an SVG point is no button of its own).
    if (i !== null && (ev.key === " " || ev.key === "Enter") && !ev.altKey && !ev.ctrlKey && !ev.metaKey) {
      ev.preventDefault();
      cycle(i);
      return;
    }
    if (i === null || !step || ev.altKey || ev.ctrlKey || ev.metaKey) { return; }
    ev.preventDefault(); // the arrows move on the board, not the page
    var r = Math.max(0, Math.min(size - 1, Math.floor(i / size) + step[0]));
    var c = Math.max(0, Math.min(size - 1, i % size + step[1]));
    var j = r * size + c;
    if (ev.shiftKey) {
      if (start === null) { start = i; }
      region = rect(start, j);
      write();
    } else {
      start = null;
    }
    cells[j].focus();
  });
  grid.addEventListener("keyup", function (ev) { if (ev.key === "Shift") { start = null; } });

  field.addEventListener("input", function () {
    drawn();
    region = null;
    regionField.value = "";
    regionField.disabled = true;
    show();
  });
  document.getElementById("pattern-clear").addEventListener("click", function () {
    drawn();
    for (var i = 0; i < cells.length; i++) { set(i, ""); }
    region = null;
    field.value = "";
    regionField.value = "";
    regionField.disabled = true;
    show();
  });

  // What the page was opened with: a record's position (every point as it stands), and the pattern already in
  // the form, drawn where the server placed it (inside its region when the address gave one).
  if (position.length === size * size) {
    for (var p = 0; p < position.length; p++) {
      var ch = position.charAt(p);
      set(p, ch === "B" ? "X" : ch === "W" ? "O" : ".");
    }
  }
  var left = parseInt(holder.getAttribute("data-left"), 10) || 0;
  var top = parseInt(holder.getAttribute("data-top"), 10) || 0;
  var rows = field.value.split("/").filter(function (r) { return r.length > 0; });
  if (rows.length && !position) {
    rows.forEach(function (row, r) {
      for (var c = 0; c < row.length; c++) {
        var ch = row.charAt(c).toUpperCase();
        if (top + r < size && left + c < size && CYCLE.indexOf(ch) > 0) { set((top + r) * size + left + c, ch); }
      }
    });
  }
  if (rows.length && holder.getAttribute("data-region") && top + rows.length <= size &&
      left + rows[0].length <= size) {
    region = { left: left, top: top, right: left + rows[0].length - 1, bottom: top + rows.length - 1 };
  }
  show();
})();
