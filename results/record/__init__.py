"""The game record, at the bottom of the project: standard library only, imported by the referee
(which writes records) and by the analytics above it (which read them).

* ``game``     :class:`GameRecord` and its closed vocabularies (``Ending``, ``Forfeit``,
               ``VoidCause``), the journal line's schema.
* ``journal``  the append-only journal: writer (flushed and fsynced), reader, torn-tail cut,
               atomic file writes.
* ``repair``   ``hexarena repair``: a journal's unreadable lines moved verbatim to a side file.
* ``sgf``      SGF records: the writer and a small FF[4] reader.
* ``printable`` outside text (names, reasons) escaped for a terminal: what every command prints.

Nothing here imports trio, pandas or another package of the project.
"""
