// The boards of `records serve`: a continuation lettered on the board and its row of the table light up together
// when the pointer is over either or either has the focus (the letter is the row's `data-letter`).
(function () {
  "use strict";
  function marked(letter) {
    return document.querySelectorAll('[data-letter="' + letter + '"]');
  }
  function light(ev, on) {
    var el = ev.target && ev.target.closest ? ev.target.closest("[data-letter]") : null;
    if (!el) { return; }
    marked(el.getAttribute("data-letter")).forEach(function (m) { m.classList.toggle("lit", on); });
  }
  ["mouseover", "focusin"].forEach(function (name) {
    document.addEventListener(name, function (ev) { light(ev, true); });
  });
  ["mouseout", "focusout"].forEach(function (name) {
    document.addEventListener(name, function (ev) { light(ev, false); });
  });
})();
