#!/usr/bin/env python3
"""Generator throughput per length: runs `tsume generate --length L --threads 1` for a fixed
time per length and prints sound problems per CPU-minute, candidates tried and the time and
rejections per pipeline stage.

Usage: benches/generate_throughput.py [--tsume target/release/tsume] [--seconds 60]
                                      [--lengths 3,5,7,9,11,13,15] [--seed 1]
Single-threaded runs, so wall time is CPU time (on an otherwise idle core). A run of one
length above 3 first finds shorter sound problems (stepping stones, counted in `stones`) and
extends them backwards; their time is included.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser()
    # Where `cargo build --release` puts the binary (under $CARGO_TARGET_DIR when it is set).
    ap.add_argument('--tsume', default=os.path.join(
        os.environ.get('CARGO_TARGET_DIR', 'target'), 'release', 'tsume'))
    ap.add_argument('--seconds', type=float, default=60)
    ap.add_argument('--lengths', default='3,5,7,9,11,13,15')
    ap.add_argument('--seed', type=int, default=1)
    args = ap.parse_args()
    if not os.access(args.tsume, os.X_OK):
        print(f'{args.tsume}: no tsume binary there: build it with `cargo build --release` '
              'or pass --tsume PATH (e.g. --tsume "$(which tsume)")', file=sys.stderr)
        sys.exit(2)
    print(f'{"len":>3} {"sound":>5} {"per CPU-min":>11} {"candidates":>10} {"stones":>6} '
          f'{"screen s":>8} {"verify s":>8}  rejections')
    for length in [int(x) for x in args.lengths.split(',')]:
        with tempfile.TemporaryDirectory() as out:
            cmd = [args.tsume, 'generate', '--count', '100000', '--length', str(length),
                   '--seed', str(args.seed), '--threads', '1', '--time-limit', str(args.seconds),
                   '--out', out, '--stats']
            res = subprocess.run(cmd, capture_output=True, text=True, check=True)
            s = json.loads(res.stdout)
        sound = sum(s['accepted_per_length'].values())
        minutes = s['elapsed_seconds'] / 60
        stages = {k: v for k, v in s['stages'].items() if k != 'accepted'}
        print(f'{length:>3} {sound:>5} {sound / minutes:>11.1f} {s["candidates"]:>10} '
              f'{s.get("stepping_stones", 0):>6} '
              f'{s["screen_seconds"]:>8.1f} {s["verify_seconds"]:>8.1f}  '
              + ' '.join(f'{k}={v}' for k, v in sorted(stages.items())))


if __name__ == '__main__':
    main()
