"""Writes tests/data/verify_yozume.txt: mined mate-3/5 positions (YaneuraOu sets, via
benches/data) with their labelled solution and, from cshogi's DfPn, every mating first
move. `tsume verify` must flag 余詰 at ply 1 exactly when there is more than one.

Usage: python3 make_verify_yozume.py > tests/data/verify_yozume.txt
"""
import sys

import os

from mating_first_moves import mating_first_moves

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../benches/data")

print("# Mined mate-in-3/5 positions (YaneuraOu mate sets via benches/data/mate{3,5}_sample_solutions.txt)")
print("# with the labelled solution; the comment lists every mating first move found by")
print("# cshogi 1.1.0's DfPn (scripts/oracle/make_verify_yozume.py): 余詰 at ply 1 iff more than one.")
for name in ["mate3", "mate5"]:
    with open(f"{DATA}/{name}_sample_solutions.txt") as f:
        lines = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    for line in lines[:40:2]:
        sfen, moves = line.split(" moves ")
        sfen = " ".join(sfen.split()[:4])
        mates = mating_first_moves(sfen)
        print(f"{sfen} moves {moves.split('#')[0].strip()} # mating-first-moves={','.join(mates)}")
        sys.stdout.flush()
