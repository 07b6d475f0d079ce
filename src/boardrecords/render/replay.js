// The replayer of `records html`: draws each position from the data block, steps with buttons and arrow keys.
// Record text is only ever set with textContent, and shapes only with setAttribute on an allow-list of SVG tags,
// so nothing from a record can become markup or script.
(function () {
  "use strict";
  var SVG_NS = "http://www.w3.org/2000/svg";
  var TAGS = { circle: true, line: true, rect: true, text: true, path: true, polyline: true, polygon: true };
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var positions = data.positions;
  var last = positions.length - 1;
  var index = 0;

  function byId(id) { return document.getElementById(id); }

  function shape(spec) {
    var tag = spec[0], attrs = spec[1], text = spec[2];
    if (!Object.prototype.hasOwnProperty.call(TAGS, tag)) { return null; }
    var el = document.createElementNS(SVG_NS, tag);
    Object.keys(attrs).forEach(function (name) {
      // Event handlers and links never come from the data (defence in depth: the data is written by records).
      if (/^on/i.test(name) || /href/i.test(name)) { return; }
      el.setAttribute(name, String(attrs[name]));
    });
    if (text !== null && text !== undefined) { el.textContent = String(text); }
    return el;
  }

  function fill(layer, specs) {
    while (layer.firstChild) { layer.removeChild(layer.firstChild); }
    specs.forEach(function (spec) {
      var el = shape(spec);
      if (el) { layer.appendChild(el); }
    });
  }

  function stoneSpecs(board) {
    var n = data.size, g = data.geometry, out = [];
    for (var r = 0; r < n; r++) {
      for (var c = 0; c < n; c++) {
        var ch = board.charAt(r * n + c);
        if (ch !== "B" && ch !== "W") { continue; }
        var tpl = data.stone[ch];
        var attrs = {};
        Object.keys(tpl[1]).forEach(function (k) { attrs[k] = tpl[1][k]; });
        attrs.cx = g.off + c * g.cell;
        attrs.cy = g.off + r * g.cell;
        attrs["data-point"] = data.letters.charAt(c) + data.letters.charAt(r);
        out.push([tpl[0], attrs, null]);
      }
    }
    return out;
  }

  function setText(id, text) {
    var el = byId(id);
    if (!el) { return; }
    el.textContent = text || "";
    el.hidden = !text;
  }

  function show(i) {
    index = Math.max(0, Math.min(last, i));
    var p = positions[index];
    fill(byId("layer-under"), p.under);
    fill(byId("layer-stones"), stoneSpecs(p.board));
    fill(byId("layer-over"), p.over);
    setText("move-label", p.label);
    var changes = byId("changes");
    while (changes.firstChild) { changes.removeChild(changes.firstChild); }
    p.changes.forEach(function (line) {
      var li = document.createElement("li");
      li.textContent = line;
      changes.appendChild(li);
    });
    changes.className = p.illegal ? "changes illegal" : "changes";
    setText("to-move", p.toMove);
    setText("taken", p.taken);
    setText("clock", p.clock);
    setText("swap", p.swap);
    setText("comment", p.comment);
    byId("counter").textContent = index + " / " + last;
    byId("board").setAttribute("data-move", String(index));
    byId("slider").value = String(index);
    byId("first").disabled = byId("prev").disabled = index === 0;
    byId("last").disabled = byId("next").disabled = index === last;
    // The address follows the position shown, so that it can be kept or sent (replaceState: no history entry
    // for every step; the hashchange it does not fire is not needed).
    if (asked() !== index) {
      try {
        history.replaceState(null, "", "#move=" + index);
      } catch (e) {
        window.location.replace("#move=" + index);
      }
    }
  }

  byId("first").addEventListener("click", function () { show(0); });
  byId("prev").addEventListener("click", function () { show(index - 1); });
  byId("next").addEventListener("click", function () { show(index + 1); });
  byId("last").addEventListener("click", function () { show(last); });
  var slider = byId("slider");
  slider.max = String(last);
  slider.addEventListener("input", function () { show(parseInt(slider.value, 10) || 0); });
  document.addEventListener("keydown", function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) { return; }
    var keys = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: last, n: index + 1, p: index - 1 };
    if (Object.prototype.hasOwnProperty.call(keys, ev.key) && ev.target !== slider) {
      ev.preventDefault();
      show(keys[ev.key]);
    }
  });
  // `#move=N` in the address opens that position (the archive's pages link to a game at a move).
  function asked() {
    var m = /(?:^#|&)move=(\d+)/.exec(window.location.hash);
    return m ? parseInt(m[1], 10) : null;
  }
  window.addEventListener("hashchange", function () {
    var n = asked();
    if (n !== null) { show(n); }
  });
  show(asked() === null ? data.start : asked());
})();
