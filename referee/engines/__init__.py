"""Engine processes: spawning (resource limits, process groups), the HGP channel (deadlines,
the pipe fast path), capped stderr logs, protocol transcripts and the guard against leftover
processes. Imports ``hexarena.protocol`` and trio; no other room."""
