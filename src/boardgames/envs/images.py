"""Pictures of a position as numpy RGB images (the `rgb_array` render mode),
drawn from its planes with numpy alone: one square per point of the grid,
coloured by the planes set there (the first player's colour red, the
second's blue; territory and won cells in lighter shades)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from ..planes import Planes

Image = npt.NDArray[np.uint8]
BACKGROUND = (245, 245, 240)
GRID = (90, 90, 90)
#: Colours by plane name, as the first player sees the position; later ones paint over earlier.
COLOURS: dict[str, tuple[int, int, int]] = {
    "board": (225, 215, 190),
    "edge places": (225, 215, 190),
    "my territory": (245, 170, 170),
    "their territory": (170, 190, 245),
    "my cells": (245, 170, 170),
    "their cells": (170, 190, 245),
    "edges": (30, 30, 30),
    "mine": (200, 40, 40),
    "theirs": (40, 80, 200),
}
#: Colour of a plane the table does not name.
OTHER = (120, 160, 90)
#: About how many pixels wide and high the picture is.
PIXELS = 288


def rgb_image(planes: Planes[Any], state: Any) -> Image:
    """The position as an (height, width, 3) uint8 image."""
    tensor = planes.encode(state, 0)
    if tensor.ndim == 2:  # one row of points: wrap it into a square-ish grid
        count, depth = tensor.shape
        cols = math.ceil(math.sqrt(count))
        rows = math.ceil(count / cols)
        grid = np.zeros((rows * cols, depth), dtype=np.int8)
        grid[:count] = tensor
        tensor = grid.reshape(rows, cols, depth)
    rows, cols, _ = tensor.shape
    colours = np.empty((rows, cols, 3), dtype=np.uint8)
    colours[:] = BACKGROUND
    order = sorted(
        range(len(planes.names)),
        key=lambda i: list(COLOURS).index(planes.names[i]) if planes.names[i] in COLOURS else -1,
    )
    for i in order:
        colours[tensor[:, :, i] != 0] = COLOURS.get(planes.names[i], OTHER)
    scale = max(4, PIXELS // max(rows, cols))
    image = np.repeat(np.repeat(colours, scale, axis=0), scale, axis=1)
    image[::scale, :] = GRID  # a thin line around every square
    image[:, ::scale] = GRID
    return image
