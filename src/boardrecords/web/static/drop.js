// A zone that files can be dropped on (the pages that take an upload): `recordsDropZone(zone, take)` calls
// `take(files)` with the files dropped, and marks the zone while they are held over it.
window.recordsDropZone = function (zone, take) {
  "use strict";
  ["dragenter", "dragover"].forEach(function (name) {
    zone.addEventListener(name, function (ev) { ev.preventDefault(); zone.className = "drop over"; });
  });
  zone.addEventListener("dragleave", function () { zone.className = "drop"; });
  zone.addEventListener("drop", function (ev) {
    ev.preventDefault();
    zone.className = "drop";
    if (ev.dataTransfer && ev.dataTransfer.files && ev.dataTransfer.files.length) { take(ev.dataTransfer.files); }
  });
};
