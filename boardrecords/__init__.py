"""boardrecords: archive, verifier and replayer of game records.

The layers live in sub-packages and depend on each other in one direction only:
``records`` (the format) -> ``verifier`` (rules engines, replay) -> ``schema``
(the archive) -> ``cli`` (the ``records`` command).
"""

__version__ = "0.1.0"
