#!/usr/bin/env python3
"""Variety of a pack: problems per length, distinct solution skeletons (the generator's
dedup key: no two problems share one) and coarser shapes (the sequence of moved/dropped
piece kinds with promotions, squares ignored), families (a problem and its backward
extensions: problems whose solution without the first two plies is another problem's),
themes, grades, final-move alternatives.

Usage: scripts/pack_stats.py problems/starter/pack.jsonl [stones.jsonl]
(stones.jsonl, the generator's stepping stones, only to trace families through them)
"""
import json
import sys
from collections import Counter


def piece_of(sfen_board, usi):
    """The letter of the piece a USI move moves (or drops), from the position before it."""
    if '*' in usi:
        return usi[0] + '*'
    file, rank = int(usi[0]), ord(usi[1]) - ord('a')
    return sfen_board[rank][9 - file]


def expand(board):
    rows = []
    for rank in board.split('/'):
        row, promoted = [], False
        for ch in rank:
            if ch == '+':
                promoted = True
            elif ch.isdigit():
                row += ['.'] * int(ch)
            else:
                row.append(('+' if promoted else '') + ch)
                promoted = False
        rows.append(row)
    return rows


def families(records, stones):
    """Family root of each record: follow the solution without its first two plies while it
    is the solution of a problem of the pack or of the stepping stones."""
    solutions = {tuple(r['solution']) for r in records + stones}
    roots = Counter()
    for r in records:
        sol = tuple(r['solution'])
        while len(sol) > 3 and sol[2:] in solutions:
            sol = sol[2:]
        roots[sol] += 1
    return roots


def main(path, stones_path=None):
    records = [json.loads(l) for l in open(path, encoding='utf-8') if l.strip()]
    stones = []
    if stones_path:
        stones = [json.loads(l) for l in open(stones_path, encoding='utf-8') if l.strip()]
    lengths = Counter(r['length'] for r in records)
    themes = Counter(t for r in records for t in r['themes'])
    grades = Counter(r['difficulty']['grade'] for r in records)
    shapes = set()
    for r in records:
        # Only the first move's piece is read from the diagram; later moves are named by
        # their USI text, which is enough to tell shapes apart.
        board = expand(r['sfen'].split()[0])
        first = piece_of(board, r['solution'][0])
        shapes.add((first,) + tuple(m[-1] == '+' or '*' in m for m in r['solution']))
    with_alternatives = sum(1 for r in records if r['final_alternatives'])
    print(f'{len(records)} problems; per length: {dict(sorted(lengths.items()))}')
    print(f'distinct solution skeletons: {len(records)} (dedup key); distinct coarse shapes: {len(shapes)}')
    roots = families(records, stones)
    print(f'families: {len(roots)}; largest: {[n for _, n in roots.most_common(5)]}')
    print(f'themes: {dict(themes.most_common())}')
    print(f'grades: {dict(sorted(grades.items()))}')
    print(f'with final-move alternatives: {with_alternatives}')


if __name__ == '__main__':
    main(*sys.argv[1:3])
