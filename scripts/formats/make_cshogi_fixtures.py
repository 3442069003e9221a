#!/usr/bin/env python3
"""Writes KIF and CSA fixtures with cshogi's own exporters, for tests/formats.rs.

The fixtures check that tsume reads records written by another tool: each problem is
exported three times (KIF Shift-JIS `.kif`, KIF UTF-8 `.kifu`, CSA `.csa`) with its
solution, and `expected.tsv` lists, for each file, the starting SFEN and the USI moves as
cshogi itself understands them.

Run it from the repository root (cshogi 1.1.0 made the committed files):

    python3 -m venv /tmp/cshogi-venv && /tmp/cshogi-venv/bin/pip install cshogi
    /tmp/cshogi-venv/bin/python scripts/formats/make_cshogi_fixtures.py

The output is deterministic (fixed start time, fixed problem choice).
"""

import os
import sys
from datetime import datetime
from importlib.metadata import version

import cshogi
import cshogi.CSA
import cshogi.KIF

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
OUT = os.path.join(ROOT, "tests", "data", "formats", "cshogi")
SHARED = os.path.join(ROOT, "..", "shared", "data")
START = datetime(2024, 1, 1, 0, 0, 0)

# (name, file, line index): zuko problems (Black attacks, long lines with promotions and
# recaptures) and mined mate-in-3 positions (White attacks: the diagram says 後手番).
CHOICES = [
    ("zuko001", "zuko_solutions.txt", 0),
    ("zuko002", "zuko_solutions.txt", 1),
    ("zuko005", "zuko_solutions.txt", 4),
    ("mate3_w1", "mate3_sample_solutions.txt", 0),
    ("mate3_w2", "mate3_sample_solutions.txt", 1),
    ("mate5_1", "mate5_sample_solutions.txt", 0),
]


def read_problem(path, index):
    lines = [l for l in open(path, encoding="utf-8") if l.strip() and not l.startswith("#")]
    body = lines[index].split("#")[0].split()
    sfen = " ".join(body[:4])
    moves = body[body.index("moves") + 1:]
    return sfen, moves


def main():
    os.makedirs(OUT, exist_ok=True)
    rows = []
    for name, fname, index in CHOICES:
        sfen, usi_moves = read_problem(os.path.join(SHARED, fname), index)
        board = cshogi.Board(sfen)
        start_sfen = board.sfen()
        moves = []
        for u in usi_moves:
            m = board.move_from_usi(u)
            if not board.is_legal(m):
                sys.exit(f"{name}: illegal move {u}")
            moves.append(m)
            board.push(m)
        assert board.is_game_over(), f"{name}: the line does not end in mate"

        for ext in (".kif", ".kifu"):
            path = os.path.join(OUT, name + ext)
            kif = cshogi.KIF.Exporter(path)  # .kifu: UTF-8, otherwise cp932
            kif.header(["attacker", "defender"], starttime=START, handicap=cshogi.Board(sfen))
            for m in moves:
                kif.move(m)
            kif.close()
            rows.append((name + ext, start_sfen, " ".join(usi_moves)))

        path = os.path.join(OUT, name + ".csa")
        csa = cshogi.CSA.Exporter(path, encoding="utf-8")
        csa.info(cshogi.Board(sfen), names=["attacker", "defender"], version="V2.2")
        for m in moves:
            csa.move(m)
        csa.endgame("%TSUMI")
        csa.close()
        rows.append((name + ".csa", start_sfen, " ".join(usi_moves)))

    with open(os.path.join(OUT, "expected.tsv"), "w", encoding="utf-8", newline="\n") as f:
        f.write("# file\tstarting SFEN (cshogi Board.sfen())\tUSI moves; made by "
                "scripts/formats/make_cshogi_fixtures.py with cshogi "
                f"{version('cshogi')}\n")
        for row in rows:
            f.write("\t".join(row) + "\n")
    print(f"wrote {len(rows)} fixtures to {OUT}")


if __name__ == "__main__":
    main()
