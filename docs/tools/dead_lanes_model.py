#!/usr/bin/env python3
"""How many dead lanes a frame evaluates, and what compacting them would move.

A model of ParticleStore in the steady-state benchmark effect: births at a
constant rate, eight to a block in birth order, lifetimes uniform in [3, 4] s,
dead leading blocks dropped every step. The frame's block loop evaluates every
lane of a block with at least one live lane, so the lanes that died in partly
alive blocks cost as much as live ones (docs/performance-design.md, "The floor
of the missed issue-9 targets"). Two ways to fill the holes while keeping birth
order, each counted in lanes moved per frame:

- merge: join neighbouring partly alive blocks whose live lanes fit in one
  block (the later block's lanes move into the earlier one);
- repack: every `every` frames, move the live lanes of all partly alive
  blocks in front of the first full block into dense blocks.

Prints, for each, the share of evaluated lanes that are dead (averaged over
300 frames after a 600-frame warm-up) and the lanes moved per frame. Pure
Python, a fixed seed: the same figures every run.

usage: python3 docs/tools/dead_lanes_model.py [LIVE]     (default 10000)
"""
import random
import sys

DT = 1 / 60
WARM_UP, MEASURED = 600, 300


def kill(blocks, t):
    for block in blocks:
        for lane, death in enumerate(block):
            if death is not None and death <= t:
                block[lane] = None
    return [b for b in blocks if any(d is not None for d in b)]


def merge(blocks):
    moved, i = 0, 0
    while i < len(blocks) - 1:
        first = [d for d in blocks[i] if d is not None]
        if len(first) == 8:
            break  # the full blocks begin: nothing behind them is older
        second = [d for d in blocks[i + 1] if d is not None]
        if len(first) + len(second) <= 8:
            moved += len(second) + sum(1 for k, d in enumerate(first) if blocks[i][k] is not d)
            blocks[i] = first + second + [None] * (8 - len(first) - len(second))
            del blocks[i + 1]
        else:
            i += 1
    return moved


def repack(blocks):
    k = 0
    while k < len(blocks) and any(d is None for d in blocks[k]):
        k += 1
    before = [(b, lane) for b in range(k) for lane in range(8) if blocks[b][lane] is not None]
    lanes = [blocks[b][lane] for b, lane in before]
    moved = sum(1 for n, where in enumerate(before) if where != (n // 8, n % 8))
    dense = [lanes[n:n + 8] + [None] * (8 - len(lanes[n:n + 8])) for n in range(0, len(lanes), 8)]
    blocks[:k] = dense
    return moved


def run(live, strategy=None, every=1):
    rng = random.Random(1)
    rate = live / 3.5  # births a second: the mean lifetime holds `live` alive
    blocks, filling, t, owed = [], [], 0.0, 0.0
    moved, evaluated, alive = 0, 0, 0
    for frame in range(WARM_UP + MEASURED):
        t += DT
        owed += rate * DT
        births, owed = int(owed), owed - int(owed)
        for _ in range(births):
            filling.append(t + 3 + rng.random())
            if len(filling) == 8:
                blocks.append(filling)
                filling = []
        blocks = kill(blocks, t)
        step = 0
        if strategy == "merge":
            step = merge(blocks)
        elif strategy == "repack" and frame % every == 0:
            step = repack(blocks)
        if frame >= WARM_UP:
            moved += step
            evaluated += 8 * len(blocks)
            alive += sum(1 for b in blocks for d in b if d is not None)
    dead = (evaluated - alive) / evaluated
    return dead, moved / MEASURED


def main():
    live = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    print(f"{live} live particles, lifetimes uniform in [3, 4] s, {MEASURED} frames after {WARM_UP}")
    for name, strategy, every in [
        ("as stored", None, 1),
        ("merge neighbours", "merge", 1),
        ("repack every frame", "repack", 1),
        ("repack every 10 frames", "repack", 10),
    ]:
        dead, moved = run(live, strategy, every)
        print(f"  {name:24s} dead share of evaluated lanes {100 * dead:4.1f} %, lanes moved a frame {moved:6.1f}")


if __name__ == "__main__":
    main()
