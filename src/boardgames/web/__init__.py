"""`boardgames web`: the browser app (a Starlette app in `app.py`, its game
sessions, and the static page), for the `web` extra."""
