// The recording pages of `records serve` (web/record_pages.py). On /record: the start form, sent to
// POST /api/recordings, then the game's page. On /record/ID: a click on a point of the board (render/board.py names
// each point in the game's notation) or a point typed plays it (POST /api/recordings/ID/moves with the number of
// moves this page saw, so that a page behind another recorder is refused, not forked); the buttons play the special
// moves the rules offer now; a refusal is shown with its rule. The page follows the game's event stream, so every
// viewer sees each move arrive; the board is redrawn by the server (GET /record/ID/board).
(function () {
  "use strict";
  var csrf = null;

  function headers() {
    var h = { "Content-Type": "application/json" };
    if (csrf) { h["X-CSRF-Token"] = csrf; }
    return h;
  }

  // With accounts, a session's CSRF token (none for the local default).
  var ready = fetch("/api/account", { credentials: "same-origin" }).then(function (r) {
    return r.ok ? r.json() : {};
  }).then(function (a) { csrf = a && a.csrf ? a.csrf : null; }).catch(function () { csrf = null; });

  function post(path, body) {
    return ready.then(function () {
      return fetch(path, { method: "POST", credentials: "same-origin", headers: headers(),
                           body: JSON.stringify(body || {}) });
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) { return { status: r.status, data: data }; });
    });
  }

  // -- the start page -----------------------------------------------------------------------------------------
  var start = document.getElementById("record-start");
  if (start) {
    var game = document.getElementById("record-game");
    var size = document.getElementById("record-size");
    var sizeFor = function () {
      var option = game.options[game.selectedIndex];
      if (option) { size.value = option.getAttribute("data-size"); }
    };
    game.addEventListener("change", sizeFor);
    sizeFor();
    start.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var body = {};
      Array.prototype.forEach.call(start.elements, function (el) {
        if (!el.name || el.value === "") { return; }
        if (el.name === "size" || el.name === "handicap") { body[el.name] = parseInt(el.value, 10); }
        else if (el.name === "komi") { body.komi = parseFloat(el.value); }
        else if (el.name === "time") { body.time = parseFloat(el.value) * 60; }
        else { body[el.name] = el.value; }
      });
      post("/api/recordings", body).then(function (answer) {
        if (answer.status === 200) { window.location.href = "/record/" + answer.data.id; return; }
        document.getElementById("record-start-error").textContent = answer.data.error || ("error " + answer.status);
      });
    });
    return;
  }

  // -- the game's page ----------------------------------------------------------------------------------------
  var dataNode = document.getElementById("record-data");
  if (!dataNode) { return; }
  var position = JSON.parse(dataNode.textContent);
  var id = position.id;
  var holder = document.getElementById("record-board");
  var message = document.getElementById("record-message");
  var shownRevision = -1;
  var dead = {}; // the points marked dead (their index, row by row) while the final marks are set

  function points() { return holder.querySelectorAll(".points [data-point]"); }

  function showDead() {
    Array.prototype.forEach.call(points(), function (el, i) { el.classList.toggle("dead", !!dead[i]); });
  }

  function say(text) { message.textContent = text || ""; }

  function colourWord(c) { return c === "B" ? "Black" : "White"; }

  function describe(p) {
    if (p.state === "finished") { return "Finished: " + p.result + (p.record_id ? " (stored as record #" + p.record_id + ", " + p.verdict + ")" : ""); }
    if (p.state === "discarded") { return "Discarded."; }
    if (p.ended) { return "The game has ended: " + p.result + (p.reason ? " (" + p.reason + ")" : "") + ". Finish it to store it."; }
    var who = p.to_move ? colourWord(p.to_move) + (p.player_to_move ? " (" + p.player_to_move + ")" : "") : "either colour";
    return "Move " + (p.count + 1) + ": " + who + " to play." + (p.stopped ? " Two passes stopped the game (ING-5): finish it, or play on." : "");
  }

  function button(label, move, colour) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.setAttribute("data-move", move);
    if (colour) { b.setAttribute("data-colour", colour); }
    return b;
  }

  function showMoves(p) {
    var list = document.getElementById("record-moves");
    list.textContent = "";
    p.moves.forEach(function (m) {
      var li = document.createElement("li");
      li.className = m.colour;
      li.textContent = m.number + ". " + colourWord(m.colour) + " " + m.name + (m.comment ? " — " + m.comment : "");
      list.appendChild(li);
    });
  }

  function showControls(p) {
    var open = p.state === "playing";
    var offered = p.offered || {};
    document.getElementById("record-pass").hidden = !(open && offered.pass);
    document.getElementById("record-swap").hidden = !(open && offered.swap);
    document.getElementById("record-resign").hidden = !(open && !p.ended);
    document.getElementById("record-undo").hidden = !(open && p.count > 0);
    document.getElementById("record-colour").hidden = !(open && !p.ended && !p.to_move);
    document.getElementById("record-controls").classList.toggle("closed", !open);
    document.getElementById("record-marking").hidden = !(open && offered.marks);
    if (!(open && offered.marks)) { dead = {}; document.getElementById("record-mark-mode").checked = false; }
    var specials = document.getElementById("record-specials");
    specials.textContent = "";
    if (!open) { return; }
    (offered.relocations || []).forEach(function (m) { specials.appendChild(button("Move " + m.name, m.value)); });
    (offered.removals || []).forEach(function (m) { specials.appendChild(button("Remove " + m.name, m.value)); });
    (offered.sweeps || []).forEach(function (m) { specials.appendChild(button("Sweep " + m.name.replace("sweep-", ""), m.value)); });
  }

  function redrawBoard(p) {
    fetch("/record/" + id + "/board", { credentials: "same-origin" }).then(function (r) {
      return r.ok ? r.text() : null;
    }).then(function (svg) {
      if (svg !== null && p.revision >= shownRevision) {
        holder.innerHTML = svg;
        holder.setAttribute("data-revision", String(p.revision));
        showDead();
      }
    });
  }

  function show(p, board) {
    if (p.revision < shownRevision) { return; }
    var changed = p.revision !== shownRevision;
    shownRevision = p.revision;
    position = p;
    document.getElementById("record-status").textContent = describe(p);
    showMoves(p);
    showControls(p);
    if (board && changed) { redrawBoard(p); }
  }

  function chosenColour() {
    if (position.to_move) { return null; }
    var picked = document.querySelector('input[name="colour"]:checked');
    return picked ? picked.value : null;
  }

  function number(idName) {
    var v = document.getElementById(idName).value;
    return v === "" ? null : parseFloat(v);
  }

  function play(move, colour) {
    say("");
    var body = { move: move, after: position.count };
    var c = colour || chosenColour();
    if (c) { body.colour = c; }
    var bt = number("record-black-time"), wt = number("record-white-time");
    if (bt !== null) { body.black_time = bt; }
    if (wt !== null) { body.white_time = wt; }
    return post("/api/recordings/" + id + "/moves", body).then(answered);
  }

  function answered(answer) {
    if (answer.status === 200) { show(answer.data, true); return true; }
    say(answer.data.error || ("error " + answer.status));
    if (answer.data.position) { show(answer.data.position, true); }
    return false;
  }

  holder.addEventListener("click", function (ev) {
    var point = ev.target && ev.target.closest ? ev.target.closest("[data-point]") : null;
    if (!point || position.state !== "playing") { return; }
    if (document.getElementById("record-mark-mode").checked && position.offered.marks) {
      // Marking: a click on a stone marks it dead (again: alive); nothing is played.
      var i = Array.prototype.indexOf.call(points(), point);
      var row = position.board[Math.floor(i / position.size)] || "";
      if (row.charAt(i % position.size) === "B" || row.charAt(i % position.size) === "W") {
        if (dead[i]) { delete dead[i]; } else { dead[i] = true; }
        showDead();
      }
      return;
    }
    play(point.getAttribute("data-point"));
  });

  document.getElementById("record-marks-send").addEventListener("click", function () {
    // A dead white stone stands in Black's territory (TB), a dead black one in White's (TW): ING-7, CON-7.
    var body = { marks_black: [], marks_white: [], after: position.count };
    var all = points();
    Object.keys(dead).forEach(function (key) {
      var i = parseInt(key, 10);
      var stone = (position.board[Math.floor(i / position.size)] || "").charAt(i % position.size);
      var name = all[i] ? all[i].getAttribute("data-point") : null;
      if (name && stone === "W") { body.marks_black.push(name); }
      if (name && stone === "B") { body.marks_white.push(name); }
    });
    say("");
    post("/api/recordings/" + id + "/marks", body).then(answered);
  });

  document.getElementById("record-entry-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var entry = document.getElementById("record-entry");
    var typed = entry.value.trim();
    if (!typed) { return; }
    play(typed).then(function (ok) { if (ok) { entry.value = ""; } });
  });

  document.getElementById("record-controls").addEventListener("click", function (ev) {
    var b = ev.target && ev.target.closest ? ev.target.closest("button[data-move]") : null;
    if (!b) { return; }
    var move = b.getAttribute("data-move");
    var colour = b.getAttribute("data-colour");
    if (move === "resign" && !window.confirm(colourWord(position.to_move || "B") + " resigns?")) { return; }
    play(move, colour);
  });

  document.getElementById("record-undo").addEventListener("click", function () {
    say("");
    post("/api/recordings/" + id + "/undo", { after: position.count }).then(answered);
  });

  document.getElementById("record-comment-send").addEventListener("click", function () {
    var text = document.getElementById("record-comment").value;
    post("/api/recordings/" + id + "/comment", { text: text, after: position.count }).then(function (answer) {
      if (answered(answer)) { document.getElementById("record-comment").value = ""; }
    });
  });

  document.getElementById("record-finish").addEventListener("click", function () {
    say("");
    var result = document.getElementById("record-result").value.trim();
    post("/api/recordings/" + id + "/finish", result ? { result: result } : {}).then(function (answer) {
      if (answer.status !== 200) { say(answer.data.error || ("error " + answer.status)); return; }
      var stored = document.getElementById("record-stored");
      stored.textContent = "Stored: ";
      var link = document.createElement("a");
      link.href = "/games/" + answer.data.record;
      link.id = "record-stored-link";
      link.textContent = "record #" + answer.data.record + " (" + answer.data.verdict + ")";
      stored.appendChild(link);
    });
  });

  document.getElementById("record-discard").addEventListener("click", function () {
    if (!window.confirm("Discard this recording?")) { return; }
    post("/api/recordings/" + id + "/discard", {}).then(function (answer) {
      if (answer.status !== 200) { say(answer.data.error || ("error " + answer.status)); }
    });
  });

  show(position, false);
  // Live: every change of the game, made here or by another recorder, arrives as an event.
  if (window.EventSource) {
    var source = new EventSource("/api/recordings/" + id + "/events");
    source.addEventListener("position", function (ev) {
      try { show(JSON.parse(ev.data), true); } catch (e) { /* a broken event: the next one brings the position */ }
    });
  }
})();
