// The upload page of `records serve`: a file dropped on the zone is put in the form's file field and sent.
(function () {
  "use strict";
  var drop = document.getElementById("drop");
  var input = document.getElementById("verify-file");
  var form = document.getElementById("verify-form");
  if (!drop || !input || !form) { return; }
  ["dragenter", "dragover"].forEach(function (name) {
    drop.addEventListener(name, function (ev) { ev.preventDefault(); drop.className = "drop over"; });
  });
  drop.addEventListener("dragleave", function () { drop.className = "drop"; });
  drop.addEventListener("drop", function (ev) {
    ev.preventDefault();
    drop.className = "drop";
    if (ev.dataTransfer && ev.dataTransfer.files && ev.dataTransfer.files.length) {
      input.files = ev.dataTransfer.files;
      form.submit();
    }
  });
})();
