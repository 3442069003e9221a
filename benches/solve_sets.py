#!/usr/bin/env python3
"""Solve fixed problem sets with `tsume solve --json` and print solved count, total time,
nodes and peak memory per set.

Usage: benches/solve_sets.py [--tsume target/release/tsume] [--time-limit S] [--hash MB]
                             [--rules raw|tsume] [--limit N] [--step K] FILE...

FILE lines are `<sfen 4 tokens> <len> [moves ...] [# comment]` as in benches/data. A line
counts as solved when the answer is mate and, if the label is a number, its length equals
the label (raw labels for the mined sets; under --rules tsume, the `published=` length where
given, else at most the raw label).
Uses only the standard library; peak memory is the largest child RSS (ru_maxrss).
"""
import argparse
import json
import re
import resource
import subprocess
import sys
import time


def parse(line):
    body = line.split('#')[0].split()
    if len(body) < 5:
        return None
    comment = line.split('#', 1)[1] if '#' in line else ''
    return ' '.join(body[:4]), body[4], comment


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--tsume', default='target/release/tsume')
    ap.add_argument('--time-limit', type=float, default=60)
    ap.add_argument('--hash', type=int, default=1024)
    ap.add_argument('--rules', default='raw', choices=['raw', 'tsume'])
    ap.add_argument('--limit', type=int, default=0, help='at most N problems per file')
    ap.add_argument('--step', type=int, default=1, help='take every K-th line')
    ap.add_argument('--verbose', action='store_true')
    ap.add_argument('files', nargs='+')
    args = ap.parse_args()
    for path in args.files:
        rows = [p for p in (parse(l) for l in open(path, encoding='utf-8')) if p]
        rows = rows[::args.step]
        if args.limit:
            rows = rows[:args.limit]
        solved = wrong = unknown = 0
        total_time = 0.0
        total_nodes = 0
        for sfen, label, comment in rows:
            cmd = [args.tsume, 'solve', sfen, '--json', '--hash', str(args.hash),
                   '--time-limit', str(args.time_limit), '--rules', args.rules]
            t0 = time.time()
            out = subprocess.run(cmd, capture_output=True, text=True)
            dt = time.time() - t0
            total_time += dt
            try:
                res = json.loads(out.stdout)
            except json.JSONDecodeError:
                print(f'  ERROR {sfen}: {out.stderr.strip()}', file=sys.stderr)
                wrong += 1
                continue
            total_nodes += res.get('nodes', 0)
            expected = label
            at_most = False
            if args.rules == 'tsume':
                m = re.search(r'published=(\d+)', comment)
                if m:
                    expected = m.group(1)
                else:
                    # A raw label only bounds the tsume length from above.
                    at_most = True
            status = res['status']
            length_ok = (not expected.isdigit()) or (
                res.get('length', 0) <= int(expected) if at_most else res.get('length') == int(expected))
            ok = (status == 'mate' and length_ok) or \
                 (status == 'nomate' and expected.startswith('nomate'))
            if status == 'unknown':
                unknown += 1
            elif ok:
                solved += 1
            else:
                wrong += 1
            if args.verbose or (status != 'unknown' and not ok):
                print(f'  {comment.strip()[:40]:40} expected {expected:>6} got {status} '
                      f'{res.get("length", "")} nodes {res.get("nodes")} {dt:.2f}s')
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f'{path}: {solved}/{len(rows)} solved, {wrong} wrong, {unknown} unknown, '
              f'time {total_time:.1f}s, nodes {total_nodes}, peak RSS {peak:.0f} MB')


if __name__ == '__main__':
    main()
