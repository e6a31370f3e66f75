"""Round-robin tournaments, Elo ratings and standing ladders.

`schedule` describes a tournament and its games, `worker` plays one game
where a worker runs it, `store` keeps a tournament on disk, `standings` and
`elo` rate the results, `run` ties them together, `ladder` and `focus` grow
a standing ladder.
"""
