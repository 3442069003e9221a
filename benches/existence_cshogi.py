#!/usr/bin/env python3
"""Mate-existence workload with cshogi's DfPn, the counterpart of `benches/existence/`.

Usage: benches/existence_cshogi.py [--step K] [--per-position FILE] [--tag NAME] FILE...

Same positions (every K-th problem line, default 10; `line.split('#')[0].split()`), same output
format (`RESULT <tag> <set> n=.. solved=.. cpu=..s wall=..s nodes=..`). For each position a fresh
`cshogi.DfPn(depth, nodes, draw_ply)` is made outside the timed region with generous limits
(max depth 1600 plies, 2^32-1 nodes, no draw ply: the defaults of cshogi 1.1.0, set
explicitly), and `DfPn.search(board)` is timed (thread CPU time and wall time). `search` is
an OR-node search for the side to move, so White-to-move (White attacks) positions are given
as they are: no flipping is needed. Nodes are DfPn's `searched_node`, which is not the same
unit as tsume's node count (cshogi does not count some leaf work, e.g. its 1-ply mate checks,
as nodes), so compare times, not nodes.

Requires cshogi (tested with 1.1.0): e.g. `python3 -m venv /tmp/v && /tmp/v/bin/pip install cshogi`.
"""
import argparse
import os
import time

import cshogi


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--step', type=int, default=10)
    ap.add_argument('--per-position')
    ap.add_argument('--tag', default='cshogi')
    ap.add_argument('--depth', type=int, default=1600)
    ap.add_argument('--nodes', type=int, default=2**32 - 1)
    ap.add_argument('files', nargs='+')
    args = ap.parse_args()
    out = open(args.per_position, 'w') if args.per_position else None
    sets = {}
    total = [0, 0, 0.0, 0.0, 0]
    for path in args.files:
        name = os.path.basename(path).split('_')[0]
        rows = [l for l in open(path, encoding='utf-8') if len(l.split('#')[0].split()) >= 5]
        acc = sets.setdefault(name, [0, 0, 0.0, 0.0, 0])
        for i in range(0, len(rows), args.step):
            body = rows[i].split('#')[0].split()
            sfen = ' '.join(body[:4])
            board = cshogi.Board(sfen)
            dfpn = cshogi.DfPn(args.depth, args.nodes, 2**31 - 2)
            w0 = time.perf_counter()
            c0 = time.thread_time()
            mate = dfpn.search(board)
            cpu = time.thread_time() - c0
            wall = time.perf_counter() - w0
            nodes = dfpn.searched_node
            del dfpn
            if not mate:
                print(f'FAIL {name} line {i + 1} {sfen}: no mate found')
            if out:
                out.write(f'{name}\t{i + 1}\t{sfen}\t{body[4]}\t{int(mate)}\t{cpu:.6f}\t{nodes}\n')
            for a in (acc, total):
                a[0] += 1
                a[1] += int(mate)
                a[2] += cpu
                a[3] += wall
                a[4] += nodes
    for name, a in list(sets.items()) + [('total', total)]:
        print(f'RESULT {args.tag} {name} n={a[0]} solved={a[1]} cpu={a[2]:.3f}s '
              f'wall={a[3]:.3f}s nodes={a[4]}')


if __name__ == '__main__':
    main()
