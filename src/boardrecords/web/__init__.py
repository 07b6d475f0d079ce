"""`records serve`: the archive in a browser (pages) and to programs (`/api/`), read-only. app.py makes the
application over one read-only Archive (archive/front.py, given to the routes by deps.py); api.py and pages.py are
the routes, each one question to the archive; upload.py verifies an uploaded file."""
