"""The values of a request, checked by type before anything changes.

`read_json` reads a request's body within the server's cap (refused by its
Content-Length before a byte is read, cut off at the cap while it streams)
and returns its JSON object; the other functions check one field each and
say which field is wrong and why: `{"paused": "no"}` is refused, not read
as "pause", and `{"ai": 5}` is not the AI named "5".
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from starlette.requests import Request

from ..errors import BoardgamesError, OptionError, quote
from ..io import parse_json
from ..options import check_flag, check_whole


class TooLarge(BoardgamesError):
    """A request body over the server's cap (status 413)."""


async def read_json(request: Request, limit: int) -> dict[str, Any]:
    """The JSON object a request that changes something sends (at most `limit` bytes)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise OptionError("send JSON (Content-Type: application/json)")
    length = request.headers.get("content-length")
    if length is not None:
        if not length.isdigit():
            raise OptionError(f"bad Content-Length {quote(length)}")
        if int(length) > limit:
            raise TooLarge(f"request too large ({length} bytes; at most {limit})")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise TooLarge(f"request too large (over {limit} bytes)")
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw.strip():
        return {}
    data = parse_json(raw, "the request")
    if not isinstance(data, dict):
        raise OptionError("send a JSON object")
    return data


def only(data: dict[str, Any], known: Iterable[str], what: str) -> None:
    """OptionError naming the fields of `data` that `what` does not take."""
    names = tuple(known)
    unknown = sorted(str(key) for key in data if key not in names)
    if unknown:
        takes = ", ".join(names) or "no fields"
        raise OptionError(f"unknown field(s) {', '.join(unknown)} in {what} (it takes {takes})")


def flag(data: dict[str, Any], key: str, default: bool) -> bool:
    """A true/false field (JSON true or false, nothing else)."""
    return default if data.get(key) is None else check_flag(key, data[key])


def text(data: dict[str, Any], key: str) -> str | None:
    """A text field, or None when it is absent or null."""
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise OptionError(f"{key} must be text, not {quote(value)}")
    return value


def whole(data: dict[str, Any], key: str, low: int | None = 0) -> int | None:
    """A whole-number field, or None when it is absent or null."""
    value = data.get(key)
    return None if value is None else check_whole(key, value, low)
