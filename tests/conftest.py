"""Shared test configuration: hypothesis profiles.

``dev`` (the default) explores more examples; ``ci`` (chosen when the ``CI`` environment variable is set)
keeps runs short and never fails a test for being slow on a busy machine.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile("ci", max_examples=50, deadline=None, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
