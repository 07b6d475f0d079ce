// The upload page of a served archive (/import): the files chosen or dropped are sent with XMLHttpRequest, whose
// upload events show how much has gone; the answer is the page with the import's summary, whose summary replaces
// the one shown. Without this script the form is sent as any form is, and the same page answers.
(function () {
  "use strict";
  var form = document.getElementById("import-form");
  var input = document.getElementById("import-file");
  var drop = document.getElementById("import-drop");
  var shown = document.getElementById("import-progress");
  var bar = document.getElementById("import-bar");
  var status = document.getElementById("import-status");
  var result = document.getElementById("import-result");
  if (!form || !input || !drop || !shown || !bar || !status || !result) { return; }
  var dropped = null;

  function send(files) {
    var data = new FormData();
    data.append("csrf", form.elements.namedItem("csrf").value);
    for (var i = 0; i < files.length; i++) { data.append("file", files[i], files[i].name); }
    var xhr = new XMLHttpRequest();
    xhr.open("POST", form.getAttribute("action"));
    shown.hidden = false;
    bar.value = 0;
    status.textContent = "sending…";
    xhr.upload.addEventListener("progress", function (ev) {
      if (ev.lengthComputable) {
        bar.value = Math.round(100 * ev.loaded / ev.total);
        status.textContent = "sent " + Math.round(ev.loaded / 1024) + " of " + Math.round(ev.total / 1024) + " KiB";
      }
    });
    xhr.upload.addEventListener("load", function () {
      bar.value = 100;
      status.textContent = "sent; verifying and storing…";
    });
    xhr.addEventListener("load", function () {
      var page = new DOMParser().parseFromString(xhr.responseText, "text/html");
      var answer = page.getElementById("import-result");
      var error = page.querySelector(".error");
      if (xhr.status === 200 && answer) {
        result.replaceChildren.apply(result, Array.prototype.map.call(answer.childNodes, function (n) {
          return document.importNode(n, true);
        }));
        status.textContent = "done";
      } else {
        status.textContent = "not imported (" + xhr.status + "): " + (error ? error.textContent : xhr.statusText);
      }
    });
    xhr.addEventListener("error", function () { status.textContent = "the upload was cut off: nothing of it was stored"; });
    xhr.send(data);
  }

  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var files = dropped || input.files;
    if (files && files.length) { send(files); }
  });
  if (window.recordsDropZone) {
    window.recordsDropZone(drop, function (files) { dropped = files; send(files); });
  }
  input.addEventListener("change", function () { dropped = null; });
})();
