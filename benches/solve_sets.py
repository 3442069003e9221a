#!/usr/bin/env python3
"""Solve fixed problem sets with `tsume solve --json` and print solved count, total time,
nodes and peak memory per set.

Usage: benches/solve_sets.py [--tsume target/release/tsume] [--time-limit S] [--hash MB]
                             [--rules raw|tsume] [--limit N] [--step K] FILE...

FILE lines are `<sfen 4 tokens> <len> [moves ...] [# comment]` as in benches/data. A line
counts as solved when the answer is a mate proven shortest and, if the label is a number,
its length equals the label (raw labels for the mined sets; under --rules tsume, the
`published=` length where given, else at most the raw label). A mate found before the
limit but not proven shortest counts as answered (and with the right length if it has it),
neither solved nor wrong; the time to the right length is the `time_ms` of the first
`improvements` entry with the final length.
Uses only the standard library; peak memory is the largest child RSS (ru_maxrss).
"""
import argparse
import json
import os
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
    # Where `cargo build --release` puts the binary (under $CARGO_TARGET_DIR when it is set).
    ap.add_argument('--tsume', default=os.path.join(
        os.environ.get('CARGO_TARGET_DIR', 'target'), 'release', 'tsume'))
    ap.add_argument('--time-limit', type=float, default=60)
    ap.add_argument('--hash', type=int, default=1024)
    ap.add_argument('--threads', type=int, default=1, help='search threads per problem')
    ap.add_argument('--rules', default='raw', choices=['raw', 'tsume'])
    ap.add_argument('--limit', type=int, default=0, help='at most N problems per file')
    ap.add_argument('--step', type=int, default=1, help='take every K-th line')
    ap.add_argument('--verbose', action='store_true')
    ap.add_argument('files', nargs='+')
    args = ap.parse_args()
    if not os.access(args.tsume, os.X_OK):
        print(f'{args.tsume}: no tsume binary there: build it with `cargo build --release` '
              'or pass --tsume PATH (e.g. --tsume "$(which tsume)")', file=sys.stderr)
        sys.exit(2)
    for path in args.files:
        rows = [p for p in (parse(l) for l in open(path, encoding='utf-8')) if p]
        rows = rows[::args.step]
        if args.limit:
            rows = rows[:args.limit]
        solved = wrong = unknown = answered = right = 0
        total_time = 0.0
        total_nodes = 0
        # Time until the reported mate had the right length (from `improvements`).
        time_to_right = 0.0
        for sfen, label, comment in rows:
            cmd = [args.tsume, 'solve', sfen, '--json', '--hash', str(args.hash),
                   '--time-limit', str(args.time_limit), '--rules', args.rules,
                   '--threads', str(args.threads)]
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
            # A mate found before the limit is a mate, proven shortest or not.
            proven = status != 'mate' or res.get('shortest') == 'proven'
            length_ok = (not expected.isdigit()) or (
                res.get('length', 0) <= int(expected) if at_most else res.get('length') == int(expected))
            ok = (status == 'mate' and length_ok) or \
                 (status == 'nomate' and expected.startswith('nomate'))
            to_right = None
            if status == 'mate':
                answered += 1
                if length_ok:
                    right += 1
                    first = next((i for i in res.get('improvements', [])
                                  if i['length'] == res['length']), None)
                    to_right = first['time_ms'] / 1000 if first else dt
                    time_to_right += to_right
            if status == 'unknown':
                unknown += 1
            elif ok and proven:
                solved += 1
            elif not ok and proven:
                wrong += 1
            if args.verbose or (status != 'unknown' and proven and not ok):
                print(f'  {comment.strip()[:40]:40} expected {expected:>6} got {status} '
                      f'{res.get("length", "")}{"" if proven else " (unproven)"} '
                      f'nodes {res.get("nodes")} {dt:.2f}s'
                      + ('' if to_right is None else f' (right length at {to_right:.2f}s)'))
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f'{path}: {solved}/{len(rows)} solved (proven), {answered} answered with a mate, '
              f'{right} with the right length (reached in {time_to_right:.1f}s in all), '
              f'{wrong} wrong, {unknown} unknown, '
              f'time {total_time:.1f}s, nodes {total_nodes}, peak RSS {peak:.0f} MB')


if __name__ == '__main__':
    main()
