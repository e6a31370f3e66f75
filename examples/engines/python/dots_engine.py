#!/usr/bin/env python3
"""A small dots-and-boxes engine that speaks the boardgames engine protocol.

It knows nothing of the boardgames library: it reads commands on stdin and
answers on stdout, as a program in any language would (docs/engines.md).
Let the library drive it:

    boardgames match dots --ai "program:python3 examples/engines/python/dots_engine.py" \
        --ai2 random --games 10

It plays greedily: it takes a box when it can, else avoids drawing the
third side of a box when it can, else draws any edge.
"""

import random
import sys

rows, cols = 3, 3
drawn = set()  # the edges drawn so far, as (i, j) points of the grid


def answer(text=""):
    sys.stdout.write(f"= {text}\n\n")
    sys.stdout.flush()


def error(text):
    sys.stdout.write(f"? {text}\n\n")
    sys.stdout.flush()


def edges():
    """Every edge: the grid points (i, j) with i + j odd."""
    return [(i, j) for i in range(2 * rows + 1) for j in range(2 * cols + 1) if (i + j) % 2]


def parse(word):
    """'B3' -> (1, 2): the row is a letter, the column a number from 1."""
    i, j = ord(word[0].upper()) - ord("A"), int(word[1:]) - 1
    if (i, j) not in edges():
        raise ValueError(f"{word} is not an edge")
    return i, j


def name(edge):
    return f"{chr(ord('A') + edge[0])}{edge[1] + 1}"


def sides_after(edge):
    """For each box next to `edge`, how many of its sides would be drawn."""
    i, j = edge
    boxes = [(i - 1, j), (i + 1, j)] if i % 2 == 0 else [(i, j - 1), (i, j + 1)]
    counts = []
    for bi, bj in boxes:
        if 0 < bi < 2 * rows and 0 < bj < 2 * cols:
            around = [(bi - 1, bj), (bi + 1, bj), (bi, bj - 1), (bi, bj + 1)]
            counts.append(1 + sum(side in drawn for side in around))
    return counts


def choose():
    free = [edge for edge in edges() if edge not in drawn]
    random.shuffle(free)
    takes = [edge for edge in free if 4 in sides_after(edge)]
    safe = [edge for edge in free if 3 not in sides_after(edge)]
    return (takes or safe or free)[0], len(takes)


def main():
    global rows, cols, drawn
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command, args = words[0], words[1:]
        if command == "quit":
            answer()
            return
        elif command == "protocol":
            answer("2")
        elif command == "name":
            answer("dots-greedy (Python)")
        elif command == "version":
            answer("1.0")
        elif command == "game":
            options = dict(arg.split("=", 1) for arg in args[1:] if "=" in arg)
            if args[:1] != ["dots"]:
                error("this engine plays dots only")
                continue
            rows, cols = int(options.get("rows", 3)), int(options.get("cols", 3))
            drawn = set()
            answer()
        elif command == "moves":
            try:
                drawn = {parse(word) for word in args}
            except (ValueError, IndexError) as exc:
                error(str(exc))
                continue
            answer()
        elif command == "genmove":
            edge, takes = choose()
            sys.stdout.write(f"info depth=1 score={takes} nodes={len(edges())} pv={name(edge)}\n")
            drawn.add(edge)
            answer(name(edge))
        else:
            error(f"unknown command: {command}")


if __name__ == "__main__":
    main()
