"""`records serve`: the archive in a browser (pages) and to programs (`/api/`), read-only. app.py makes the
application; answers.py builds the commands' JSON objects from the library; api.py and pages.py are the routes."""
