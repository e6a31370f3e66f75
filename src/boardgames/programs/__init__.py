"""External programs as players: any program that speaks the engine protocol
(docs/engine-protocol.md) plays wherever an AI does, as `program:CMD ARGS`.

`spec` reads a program's spec, `player` is the runner's side of the
protocol (`ProgramPlayer`) and `wire` its framing (a command and its
answer, `info` lines), `process` one untrusted program's process (its own
process group, its log, reading with deadlines and bounds), `reaper` the
small process that ends every program when the process that started them
dies.  Only `spec` is imported here: the rest loads when a program is
started.
"""

from .spec import PREFIX, is_program_spec, program_argv

__all__ = ["PREFIX", "is_program_spec", "program_argv"]
