// The upload page of `records serve`: a file dropped on the zone is put in the form's file field and sent.
(function () {
  "use strict";
  var drop = document.getElementById("drop");
  var input = document.getElementById("verify-file");
  var form = document.getElementById("verify-form");
  if (!drop || !input || !form || !window.recordsDropZone) { return; }
  window.recordsDropZone(drop, function (files) {
    input.files = files;
    form.submit();
  });
})();
