"""A tournament run: the config (``config``, ``config_sections``, ``config_check``), the pure
schedule and its growth (``schedule``, ``growth``), the engines of one worker slot (``pool``),
the runner with its single journal writer (``run``), the folder lock and the pre-flight.
Imports the ``engines`` and ``game`` rooms and ``hexarena.results``."""
