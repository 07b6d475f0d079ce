"""What both faces draw that is not terminal drawing: the SVG board diagrams and numbered figures, the
self-contained HTML replay page (with its replay.js and replay.css), the highlight model and the lines of words
about a game and a position that every view shows, how a game ended in words, star points, an event's crosstable
as CSV and printable HTML, rating charts as SVG, the CSV writer, and record text made safe for each output.

It imports the records, verifier and archive layers only: never rich, typer, fastapi, the command (cli) or the
web application (web), so that both `records` and `records serve` draw with it and neither loads the other.
"""
