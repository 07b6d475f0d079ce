// Every page of a served archive with accounts: who is signed in, in the navigation, with the pages an editor or
// an admin has and a button that signs out (POST /api/logout with the session's CSRF token). On a server without
// accounts /api/account is not there, and nothing is shown.
(function () {
  "use strict";
  var place = document.getElementById("account");
  if (!place || !window.fetch) { return; }
  function link(href, text, id) {
    var a = document.createElement("a");
    a.href = href;
    a.textContent = text;
    if (id) { a.id = id; }
    place.appendChild(a);
  }
  fetch("/api/account", { credentials: "same-origin" }).then(function (answer) {
    return answer.ok ? answer.json() : null;
  }).then(function (me) {
    if (!me) { return; }
    if (!me.name) {
      link("/login", "Sign in", "sign-in");
    } else {
      if (me.role === "editor" || me.role === "admin") { link("/import", "Import", "import-link"); }
      if (me.role === "admin") { link("/audit", "Audit", "audit-link"); }
      var out = document.createElement("button");
      out.type = "button";
      out.id = "sign-out";
      out.textContent = "Sign out " + me.name;
      out.addEventListener("click", function () {
        fetch("/api/logout", { method: "POST", credentials: "same-origin",
                               headers: { "X-CSRF-Token": me.csrf || "" } }).then(function () {
          window.location.assign("/login");
        });
      });
      place.appendChild(out);
    }
    place.hidden = false;
  }).catch(function () { return null; });
})();
