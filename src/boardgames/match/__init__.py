"""One game between two players, matches, and the records they leave.

`play` is the referee (`play_game`, `play_match`), `records` the JSON game
record, `timing` and `watchdog` how moves are timed and hard limits kept,
`timeuse` the time each player used, `openings` opening files.
"""
