// The game page of `records serve`: the link "search this position's pattern" opens the patterns page over the
// position on the board (the replay's slider holds its move), where a region dragged over it is searched for.
(function () {
  "use strict";
  var link = document.getElementById("pattern-from-link");
  var slider = document.getElementById("slider");
  if (!link || !slider) { return; }
  var base = link.getAttribute("href").replace(/&move=\d*$/, "");
  function update() { link.setAttribute("href", base + "&move=" + (parseInt(slider.value, 10) || 0)); }
  ["click", "mouseover", "focus", "mousedown"].forEach(function (kind) { link.addEventListener(kind, update); });
})();
