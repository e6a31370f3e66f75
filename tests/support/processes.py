"""Child processes that Ctrl-C reaches as it would from a terminal.

A test run started with SIGINT ignored (a background job of a script, as
`nohup python -m pytest &`, or after `trap "" INT`) passes that on to every
child, and a Python child that starts with SIGINT ignored never raises
KeyboardInterrupt.
The Ctrl-C tests start their children with `preexec_fn=sigint_default`.
"""

from __future__ import annotations

import signal


def sigint_default() -> None:
    """In the child, before it runs the program: SIGINT back to the default
    disposition, which a starting Python turns into KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
