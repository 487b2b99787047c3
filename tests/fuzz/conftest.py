"""The fuzz suite's settings (docs/fuzzing.md): the `fuzz` profile by default, `fuzz-long` (ten times
the examples, fresh random inputs each run) with HEXARENA_FUZZ=long.

Every fuzz test fails on an exception other than its parser's documented error and on an input
that takes over a second of CPU time (tests/support/fuzz_texts.py's `one_second`; Hypothesis' own
`deadline` counts wall time, which the other processes of a shared machine stretch at random)."""
from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

#: Examples per parser in the default profile; `fuzz-long` runs ten times as many.
EXAMPLES = 100

settings.register_profile(
    "fuzz", max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
    print_blob=True, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("fuzz-long", parent=settings.get_profile("fuzz"), max_examples=10 * EXAMPLES,
                          derandomize=False)
settings.load_profile("fuzz-long" if os.environ.get("HEXARENA_FUZZ") == "long" else "fuzz")
