"""How did a Texel fit's training and held-out loss fall, step by step?

    python tools/tuning_curve.py squatter-params.json docs/texel-squatter.svg

Draws the answer as an SVG picture (no plotting library).  Reads the
params file `boardgames tune GAME --method texel` wrote (its
`loss` field: the training and held-out loss after each Newton step, step 0
being the starting weights) and draws both curves on one chart, the loss
on the vertical axis and the step on the horizontal one.  The file is
written atomically.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Sequence

from boardgames.io import atomic_write_text

WIDTH, HEIGHT = 560, 320
LEFT, RIGHT, TOP, BOTTOM = 70, 20, 40, 50
COLOURS = {"training": "#1f5fa8", "held out": "#c0392b"}


def _ticks(low: float, high: float, count: int = 5) -> list[float]:
    step = (high - low) / (count - 1) if high > low else 1.0
    return [low + i * step for i in range(count)]


def loss_svg(train: Sequence[float], held: Sequence[float | None], title: str) -> str:
    """The chart of both curves as SVG text."""
    values = [v for v in (*train, *held) if v is not None and math.isfinite(v)]
    low, high = min(values), max(values)
    pad = (high - low) * 0.08 or 0.01
    low, high = low - pad, high + pad
    steps = max(len(train) - 1, 1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + plot_w * i / steps

    def y(v: float) -> float:
        return TOP + plot_h * (high - v) / (high - low)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}"'
        f' viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
        f'<text x="{WIDTH / 2}" y="22" text-anchor="middle" font-size="14">{title}</text>',
        f'<line x1="{LEFT}" y1="{TOP + plot_h}" x2="{LEFT + plot_w}" y2="{TOP + plot_h}"'
        ' stroke="black"/>',
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + plot_h}" stroke="black"/>',
    ]
    for v in _ticks(low, high):
        out.append(f'<line x1="{LEFT - 4}" y1="{y(v):.1f}" x2="{LEFT + plot_w}" y2="{y(v):.1f}"'
                   ' stroke="#ddd"/>')
        out.append(f'<text x="{LEFT - 8}" y="{y(v) + 4:.1f}" text-anchor="end">{v:.4f}</text>')
    every = max(1, steps // 10)
    for i in range(0, steps + 1, every):
        out.append(f'<text x="{x(i):.1f}" y="{TOP + plot_h + 18}" text-anchor="middle">{i}</text>')
    out.append(f'<text x="{LEFT + plot_w / 2}" y="{HEIGHT - 10}" text-anchor="middle">'
               'Newton step (0: the hand-set weights)</text>')
    out.append(f'<text x="16" y="{TOP + plot_h / 2}" text-anchor="middle"'
               f' transform="rotate(-90 16 {TOP + plot_h / 2})">mean logistic loss</text>')
    for row, (name, series) in enumerate((("training", train), ("held out", held))):
        points = [(x(i), y(v)) for i, v in enumerate(series) if v is not None]
        if not points:
            continue
        colour = COLOURS[name]
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        out.extend(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3" fill="{colour}"/>'
                   for px, py in points)
        ly = TOP + 8 + 18 * row
        lx = LEFT + plot_w - 110
        out.append(f'<line x1="{lx}" y1="{ly}" x2="{lx + 24}" y2="{ly}" stroke="{colour}"'
                   ' stroke-width="2"/>')
        out.append(f'<text x="{lx + 30}" y="{ly + 4}">{name}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv: Sequence[str] | None = None) -> None:
    """Read the params file, write the SVG."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("params", help="a params file written by `boardgames tune --method texel`")
    parser.add_argument("svg", help="the SVG file to write")
    parser.add_argument("--title", default=None, help="the chart's title")
    args = parser.parse_args(argv)
    with open(args.params, encoding="utf-8") as handle:
        data = json.load(handle)
    loss = data.get("loss")
    if not isinstance(loss, dict) or not loss.get("train"):
        parser.error(f"{args.params}: no loss curve (not a texel run's params file)")
    title = args.title or f"Texel fit: {data['game']}, {data['evaluator']} evaluator"
    atomic_write_text(args.svg, loss_svg(loss["train"], loss.get("held_out") or [], title))


if __name__ == "__main__":
    main()
