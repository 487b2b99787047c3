"""``hexarena check``: the HGP compliance sequence run against one engine (``tool``), graded
command by command (``grading``), with the refusals it must give (``refusals``). Imports the
``engines`` room."""
