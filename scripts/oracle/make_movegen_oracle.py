#!/usr/bin/env python3
"""Generate tests/data/movegen_oracle.txt: legal moves and checking moves from cshogi.

The file is an external oracle for the Rust move generator's differential tests.
It is dev-only; nothing in the Rust build depends on Python.

How to run (from the repository root):

    python3 -m venv /tmp/oracle-venv
    /tmp/oracle-venv/bin/pip install cshogi        # produced with cshogi 1.1.0
    /tmp/oracle-venv/bin/python scripts/oracle/make_movegen_oracle.py \
        --data-dir benches/data --out tests/data/movegen_oracle.txt

`--data-dir` is the folder holding the problem files (mate3_sample_solutions.txt,
tricky_rules.txt, zuko.txt, perft.txt, ...); it defaults to benches/data. The output is deterministic for a given cshogi version (fixed seed,
sorted move lists). Extra options: --perft-max-interior N (default 150000) limits which
perft.txt rows are recomputed, --skip-perft, --seed.

What is computed, per position:
  * legal moves = cshogi's `Board.legal_moves`, plus, for every promotion it lists, the
    matching non-promotion if that is legal.  cshogi >= 1.0 generates with Apery's
    `MoveList<LegalAll>`, which already includes pawn/bishop/rook non-promotions, so the
    completion step normally adds nothing (the script prints how many it added).
    The completion does NOT trust `Board.is_legal` alone: cshogi 1.1.0's is_legal accepts
    dead non-promotions such as a pawn or lance move to the last rank, so those are
    filtered out by rule first (P/L to the last rank, N to the last two ranks).
  * gives check = push the move, opponent's king exists and `Board.is_check()`, pop.
  * in_check = side to move has a king and `Board.is_check()`.
Every position is also run through an independent pure-Python reference generator in this
file (`Ref*` below); the script aborts if cshogi and the reference disagree on anything.
Before writing, it recomputes perft counts from perft.txt with the cshogi enumeration
(every depth-1 row, start position depth 1-3, and every deeper row whose interior node
count is at most --perft-max-interior) and aborts on any mismatch.

Positions without a king for the side to move (the attacker in tsume problems) are kept:
cshogi reports king_square() == 81 for a missing king and its generator then treats every
pseudo-legal move as legal, which matches the reference generator.
"""

import argparse
import os
import random
import sys
import time

import cshogi

SEED = 20240611

# ---------------------------------------------------------------------------
# Independent reference move generator (pure Python, written for this check).
# Coordinates: file f 1..9, rank r 1..9 (USI 'a'..'i'); Black moves toward rank 1.
# board[(r-1)*9 + (f-1)] = (color, kind) or None; color 0 = Black, 1 = White;
# kind in P L N S G B R K +P +L +N +S +B +R.
# ---------------------------------------------------------------------------

HAND_KINDS = "RBGSNLP"
PROMOTE = {"P": "+P", "L": "+L", "N": "+N", "S": "+S", "B": "+B", "R": "+R"}
UNPROMOTE = {v: k for k, v in PROMOTE.items()}

_GOLD = [(0, -1), (1, -1), (-1, -1), (1, 0), (-1, 0), (0, 1)]
_KING = [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df, dr) != (0, 0)]
_DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
_ORTH = [(0, 1), (0, -1), (1, 0), (-1, 0)]
# (steps, slides) in Black's orientation
MOVES = {
    "P": ([(0, -1)], []),
    "L": ([], [(0, -1)]),
    "N": ([(1, -2), (-1, -2)], []),
    "S": ([(0, -1), (1, -1), (-1, -1), (1, 1), (-1, 1)], []),
    "G": (_GOLD, []),
    "+P": (_GOLD, []),
    "+L": (_GOLD, []),
    "+N": (_GOLD, []),
    "+S": (_GOLD, []),
    "K": (_KING, []),
    "B": ([], _DIAG),
    "R": ([], _ORTH),
    "+B": (_ORTH, _DIAG),
    "+R": (_DIAG, _ORTH),
}


def sq_usi(f, r):
    return "%d%s" % (f, chr(ord("a") + r - 1))


def parse_sfen(sfen):
    """-> (board list, side, hands[2] dict kind->count). Raises ValueError if malformed."""
    toks = sfen.split()
    rows = toks[0].split("/")
    if len(rows) != 9:
        raise ValueError("need 9 ranks: " + sfen)
    board = [None] * 81
    for r, row in enumerate(rows, start=1):
        f = 9
        i = 0
        while i < len(row):
            ch = row[i]
            if ch.isdigit():
                f -= int(ch)
                i += 1
                continue
            prom = False
            if ch == "+":
                prom = True
                i += 1
                ch = row[i]
            color = 0 if ch.isupper() else 1
            kind = ch.upper()
            if kind not in "PLNSGBRK":
                raise ValueError("bad piece " + ch)
            if prom:
                kind = PROMOTE[kind]
            if f < 1:
                raise ValueError("rank too long: " + row)
            board[(r - 1) * 9 + (f - 1)] = (color, kind)
            f -= 1
            i += 1
        if f != 0:
            raise ValueError("rank width != 9: " + row)
    side = 0 if toks[1] == "b" else 1
    hands = [dict.fromkeys(HAND_KINDS, 0), dict.fromkeys(HAND_KINDS, 0)]
    if toks[2] != "-":
        n = 0
        for ch in toks[2]:
            if ch.isdigit():
                n = n * 10 + int(ch)
            else:
                hands[0 if ch.isupper() else 1][ch.upper()] += max(n, 1)
                n = 0
    return board, side, hands


def orient(c, df, dr):
    return (df, dr) if c == 0 else (-df, -dr)


def king_sq(board, c):
    for i, p in enumerate(board):
        if p == (c, "K"):
            return i
    return None


def attacked(board, idx, by):
    """Is square idx attacked by a piece of color `by`?"""
    f, r = idx % 9 + 1, idx // 9 + 1
    # rays in all 8 directions from the target square
    for ddf, ddr in _KING:
        nf, nr = f + ddf, r + ddr
        dist = 1
        while 1 <= nf <= 9 and 1 <= nr <= 9:
            p = board[(nr - 1) * 9 + (nf - 1)]
            if p is not None:
                if p[0] == by:
                    # the piece would move by (-ddf, -ddr) to reach the target
                    steps, slides = MOVES[p[1]]
                    mv = orient(by, -ddf, -ddr)  # back to Black orientation
                    if mv in slides or (dist == 1 and mv in steps):
                        return True
                break
            nf += ddf
            nr += ddr
            dist += 1
    # knights
    for kdf, kdr in MOVES["N"][0]:
        mdf, mdr = orient(by, kdf, kdr)
        nf, nr = f - mdf, r - mdr
        if 1 <= nf <= 9 and 1 <= nr <= 9:
            if board[(nr - 1) * 9 + (nf - 1)] == (by, "N"):
                return True
    return False


def rel_rank(c, r):
    """Rank counted from the mover's far side: 1 = last rank for color c."""
    return r if c == 0 else 10 - r


def must_promote(c, kind, r):
    rr = rel_rank(c, r)
    return (kind in ("P", "L") and rr == 1) or (kind == "N" and rr <= 2)


def pseudo_moves(board, hands, c):
    """Yield (usi, from_idx or None, to_idx, new_kind, drop_kind)."""
    for idx, p in enumerate(board):
        if p is None or p[0] != c:
            continue
        kind = p[1]
        f, r = idx % 9 + 1, idx // 9 + 1
        steps, slides = MOVES[kind]
        targets = []
        for df, dr in steps:
            mdf, mdr = orient(c, df, dr)
            nf, nr = f + mdf, r + mdr
            if 1 <= nf <= 9 and 1 <= nr <= 9:
                q = board[(nr - 1) * 9 + (nf - 1)]
                if q is None or q[0] != c:
                    targets.append((nf, nr))
        for df, dr in slides:
            mdf, mdr = orient(c, df, dr)
            nf, nr = f + mdf, r + mdr
            while 1 <= nf <= 9 and 1 <= nr <= 9:
                q = board[(nr - 1) * 9 + (nf - 1)]
                if q is not None and q[0] == c:
                    break
                targets.append((nf, nr))
                if q is not None:
                    break
                nf += mdf
                nr += mdr
        for nf, nr in targets:
            to = (nr - 1) * 9 + (nf - 1)
            base = sq_usi(f, r) + sq_usi(nf, nr)
            can_prom = kind in PROMOTE and (rel_rank(c, r) <= 3 or rel_rank(c, nr) <= 3)
            if can_prom:
                yield base + "+", idx, to, PROMOTE[kind], None
            if not must_promote(c, kind, nr):
                yield base, idx, to, kind, None
    pawn_files = set()
    for idx, p in enumerate(board):
        if p == (c, "P"):
            pawn_files.add(idx % 9 + 1)
    for kind in HAND_KINDS:
        if hands[c][kind] == 0:
            continue
        for to in range(81):
            if board[to] is not None:
                continue
            f, r = to % 9 + 1, to // 9 + 1
            if must_promote(c, kind, r):
                continue  # dead drop
            if kind == "P" and f in pawn_files:
                continue  # nifu
            yield "%s*%s" % (kind, sq_usi(f, r)), None, to, kind, kind


def make(board, hands, c, frm, to, new_kind, drop_kind):
    b = list(board)
    h = [dict(hands[0]), dict(hands[1])]
    if drop_kind is not None:
        h[c][drop_kind] -= 1
    else:
        cap = b[to]
        if cap is not None:
            k = UNPROMOTE.get(cap[1], cap[1])
            h[c][k] += 1
        b[frm] = None
    b[to] = (c, new_kind)
    return b, h


def has_legal_move(board, hands, c):
    ks = king_sq(board, c)
    for usi, frm, to, nk, dk in pseudo_moves(board, hands, c):
        b, _ = make(board, hands, c, frm, to, nk, dk)
        k = to if (dk is None and nk == "K") else ks
        if k is None or not attacked(b, k, 1 - c):
            return True
    return False


def ref_analyse(sfen):
    """-> (in_check, sorted legal usi list, sorted checking usi list)."""
    board, c, hands = parse_sfen(sfen)
    ks = king_sq(board, c)
    oks = king_sq(board, 1 - c)
    in_check = ks is not None and attacked(board, ks, 1 - c)
    legal, checks = [], []
    for usi, frm, to, nk, dk in pseudo_moves(board, hands, c):
        b, h = make(board, hands, c, frm, to, nk, dk)
        k = to if (dk is None and nk == "K") else ks
        if k is not None and attacked(b, k, 1 - c):
            continue
        gives = oks is not None and attacked(b, oks, c)
        if dk == "P" and gives and not has_legal_move(b, h, 1 - c):
            continue  # uchifuzume
        legal.append(usi)
        if gives:
            checks.append(usi)
    return in_check, sorted(legal), sorted(checks)


# ---------------------------------------------------------------------------
# cshogi oracle
# ---------------------------------------------------------------------------

STATS = {"nonpromo_added": 0, "nonpromo_rejected_dead": 0, "cshogi_check_moves_diff": 0}


def cs_legal_usis(board, parsed=None):
    """Complete legal move set (USI strings) for a cshogi Board."""
    usis = set(cshogi.move_to_usi(m) for m in board.legal_moves)
    promos = [u for u in usis if u.endswith("+")]
    if promos:
        if parsed is None:
            parsed = parse_sfen(board.sfen())
        pboard, c, _ = parsed
        for u in promos:
            base = u[:-1]
            if base in usis:
                continue
            frm = (ord(base[1]) - ord("a")) * 9 + int(base[0]) - 1
            kind = pboard[frm][1]
            to_r = ord(base[3]) - ord("a") + 1
            if must_promote(c, kind, to_r):
                STATS["nonpromo_rejected_dead"] += 1
                continue
            m = board.move_from_usi(base)
            if board.is_legal(m):
                usis.add(base)
                STATS["nonpromo_added"] += 1
    return usis


def cs_analyse(board):
    parsed = parse_sfen(board.sfen())
    pboard, c, _ = parsed
    has_k = king_sq(pboard, c) is not None
    has_ok = king_sq(pboard, 1 - c) is not None
    in_check = has_k and board.is_check()
    legal = sorted(cs_legal_usis(board, parsed))
    checks = []
    if has_ok:
        for u in legal:
            board.push(board.move_from_usi(u))
            if board.is_check():
                checks.append(u)
            board.pop()
        # informational: cshogi's own check generator (may omit non-promotions)
        own = set(cshogi.move_to_usi(m) for m in board.check_moves)
        if own != set(checks):
            STATS["cshogi_check_moves_diff"] += 1
    return bool(in_check), legal, checks, has_k, has_ok


# ---------------------------------------------------------------------------
# perft validation
# ---------------------------------------------------------------------------

def perft(board, depth):
    usis = cs_legal_usis(board)
    if depth == 1:
        return len(usis)
    n = 0
    for u in usis:
        board.push(board.move_from_usi(u))
        n += perft(board, depth - 1)
        board.pop()
    return n


def run_perft(data_dir, max_interior):
    rows = []
    for line in open(os.path.join(data_dir, "perft.txt"), encoding="utf-8"):
        t = line.split("#")[0].split()
        if len(t) < 6:
            continue
        rows.append((" ".join(t[:4]), int(t[4]), int(t[5])))
    known = {(s, d): n for s, d, n in rows}
    startpos = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    done, bad, skipped = [], [], 0
    board = cshogi.Board()
    for s, d, n in rows:
        interior = known.get((s, d - 1), None) if d > 1 else 1
        want = d == 1 or (s == startpos and d <= 3) or (interior is not None and interior <= max_interior)
        if not want:
            skipped += 1
            continue
        board.set_sfen(s)
        t0 = time.time()
        got = perft(board, d)
        ok = got == n
        done.append((s, d, n, got, ok))
        if not ok:
            bad.append((s, d, n, got))
        if d > 1:
            print("  perft d=%d %-60s expected %d got %d %s (%.1fs)" % (
                d, s[:60], n, got, "ok" if ok else "MISMATCH", time.time() - t0), file=sys.stderr)
    d1 = sum(1 for r in done if r[1] == 1)
    print("perft: %d rows checked (%d depth-1, %d deeper), %d skipped as too deep, %d mismatches" % (
        len(done), d1, len(done) - d1, skipped, len(bad)), file=sys.stderr)
    # depth-1 rows also against the reference generator
    refbad = 0
    for s, d, n, got, ok in done:
        if d == 1:
            rn = len(ref_analyse(s)[1])
            if rn != n:
                refbad += 1
                print("  reference generator disagrees on perft-1 %s: %d vs %d" % (s, rn, n), file=sys.stderr)
    print("perft: reference generator depth-1 mismatches: %d" % refbad, file=sys.stderr)
    return bad, refbad, rows


# ---------------------------------------------------------------------------
# position collection
# ---------------------------------------------------------------------------

def read_lines(path):
    out = []
    if not os.path.exists(path):
        return out
    for line in open(path, encoding="utf-8"):
        t = line.split("#")[0].split()
        if len(t) < 4:
            continue
        sfen = " ".join(t[:4])
        moves = t[t.index("moves") + 1:] if "moves" in t else []
        out.append((sfen, moves))
    return out


def key_of(sfen):
    return " ".join(sfen.split()[:3])


class Collector:
    def __init__(self):
        self.items = []  # (sfen, tag)
        self.seen = set()

    def add(self, sfen, tag):
        k = key_of(sfen)
        if k in self.seen:
            return False
        self.seen.add(k)
        self.items.append((sfen, tag))
        return True


def pick_move(rng, board, prefer_check):
    usis = sorted(cs_legal_usis(board))
    if not usis:
        return None
    if rng.random() < prefer_check:
        checks = []
        for u in usis:
            board.push(board.move_from_usi(u))
            if board.is_check():
                checks.append(u)
            board.pop()
        if checks:
            return rng.choice(checks)
    return rng.choice(usis)


def random_walk(rng, board, plies, prefer_check):
    """Play up to `plies` random legal moves; returns the number played."""
    for i in range(plies):
        u = pick_move(rng, board, prefer_check)
        if u is None:
            return i
        board.push(board.move_from_usi(u))
    return plies


def collect(data_dir, rng, perft_rows):
    col = Collector()
    board = cshogi.Board()

    # 1. random playouts from the start position, 0..150 plies, with a bias to checks
    for i in range(270):
        board.reset()
        target = rng.randint(0, 150)
        prefer = rng.choice([0.0, 0.1, 0.3, 0.6])
        snaps = sorted(set([target] + [rng.randint(0, target) for _ in range(2)]))
        played = 0
        for s in snaps:
            played += random_walk(rng, board, s - played, prefer)
            col.add(board.sfen(), "startpos-playout")
            if played < s:
                break

    # 2. problem files: the SFEN, some plies of the given solution, random continuations
    sources = [
        ("mate3_sample_solutions.txt", 36),
        ("mate5_sample_solutions.txt", 36),
        ("mate7_sample_solutions.txt", 36),
        ("mate9_sample_solutions.txt", 36),
        ("mate11_sample_solutions.txt", 36),
        ("shogimate_attacker_in_check_solutions.txt", 90),
        ("tricky_rules.txt", None),
        ("tricky_rules_solutions.txt", None),
        ("zuko_solutions.txt", 45),
        ("zuko.txt", None),
        ("shtsume_tsume50_solutions.txt", None),
        ("microcosmos_solution.txt", None),
    ]
    for fname, limit in sources:
        entries = read_lines(os.path.join(data_dir, fname))
        if not entries:
            print("warning: %s missing or empty" % fname, file=sys.stderr)
            continue
        if limit is not None and len(entries) > limit:
            entries = [entries[i] for i in sorted(rng.sample(range(len(entries)), limit))]
        tag = fname.split(".")[0]
        for sfen, moves in entries:
            board.set_sfen(sfen)
            col.add(board.sfen(), tag)
            # plies of the solution: the first two and one more at random
            if moves:
                ks = {1, 2, rng.randint(1, len(moves))}
                for k in sorted(x for x in ks if x <= len(moves)):
                    board.set_sfen(sfen)
                    for u in moves[:k]:
                        board.push(board.move_from_usi(u))
                    col.add(board.sfen(), tag + "+solution")
            # random continuation (defender replies keep it in-check-heavy)
            board.set_sfen(sfen)
            n = rng.randint(1, 6)
            random_walk(rng, board, n, 0.5)
            col.add(board.sfen(), tag + "+random")

    # 3. the depth-1 perft positions (their counts are known independently)
    for s, d, n in perft_rows:
        if d == 1:
            board.set_sfen(s)
            col.add(board.sfen(), "perft")
    return col.items


# ---------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.normpath(os.path.join(here, "..", ".."))
    # The problem files ship with the repository (benches/data/README.md names their
    # sources): a fresh clone needs nothing beside it.
    default_data = os.path.join(repo, "benches", "data")
    ap.add_argument("--data-dir", default=default_data)
    ap.add_argument("--out", default=os.path.join(repo, "tests", "data", "movegen_oracle.txt"))
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--perft-max-interior", type=int, default=150000)
    ap.add_argument("--skip-perft", action="store_true")
    args = ap.parse_args()

    version = getattr(cshogi, "__version__", None)
    if version is None:
        try:
            from importlib.metadata import version as _v
            version = _v("cshogi")
        except Exception:
            version = "unknown"
    print("cshogi %s, seed %d, data %s" % (version, args.seed, args.data_dir), file=sys.stderr)

    perft_rows = []
    if not args.skip_perft:
        bad, refbad, perft_rows = run_perft(args.data_dir, args.perft_max_interior)
        if bad or refbad:
            sys.exit("perft validation failed")
    else:
        for line in open(os.path.join(args.data_dir, "perft.txt"), encoding="utf-8"):
            t = line.split("#")[0].split()
            if len(t) >= 6:
                perft_rows.append((" ".join(t[:4]), int(t[4]), int(t[5])))

    rng = random.Random(args.seed)
    items = collect(args.data_dir, rng, perft_rows)

    board = cshogi.Board()
    lines = []
    mism = 0
    n_check = n_nok = n_noopp = n_evasion_check = n_nolegal = 0
    tags = {}
    for sfen, tag in items:
        board.set_sfen(sfen)
        out_sfen = board.sfen()
        if parse_sfen(out_sfen) != parse_sfen(sfen):
            sys.exit("cshogi did not round-trip %s -> %s" % (sfen, out_sfen))
        in_check, legal, checks, has_k, has_ok = cs_analyse(board)
        r_check, r_legal, r_checks = ref_analyse(out_sfen)
        if (in_check, legal, checks) != (r_check, r_legal, r_checks):
            mism += 1
            print("MISMATCH %s\n  cshogi-only legal %s\n  ref-only legal %s\n"
                  "  cshogi-only checks %s\n  ref-only checks %s\n  in_check %s/%s" % (
                      out_sfen, sorted(set(legal) - set(r_legal)), sorted(set(r_legal) - set(legal)),
                      sorted(set(checks) - set(r_checks)), sorted(set(r_checks) - set(checks)),
                      in_check, r_check), file=sys.stderr)
            continue
        tags[tag.split("+")[0]] = tags.get(tag.split("+")[0], 0) + 1
        n_check += in_check
        n_nok += not has_k
        n_noopp += not has_ok
        n_nolegal += not legal
        n_evasion_check += bool(in_check and checks)
        lines.append("%s\t%d\t%s\t%s" % (out_sfen, int(in_check), " ".join(legal), " ".join(checks)))
    if mism:
        sys.exit("%d positions: cshogi and the reference generator disagree" % mism)

    header = [
        "# movegen_oracle.txt: legal moves and checking moves per position, generated by",
        "# scripts/oracle/make_movegen_oracle.py with cshogi %s (PyPI), seed %d." % (version, args.seed),
        "# Format, one position per line, 4 tab-separated fields:",
        "#   <sfen: board side hand movenumber>\\t<in_check 0|1>\\t<legal moves>\\t<legal moves giving check>",
        "# Move lists are USI, space separated, sorted by string; a field is empty when there is no move.",
        "# Legal moves include every legal non-promotion (pawn/bishop/rook in or into the zone, lance to",
        "# rank 2/8, knight to rank 3/7) and exclude dead moves/drops, nifu and pawn-drop mate.",
        "# in_check: the side to move has a king and it is attacked. Gives check: after the move the",
        "# opponent's king exists and is attacked. A side with no king is never in check and cannot",
        "# be checked. Every line was cross-checked against an independent Python generator.",
        "# Positions: random playouts from the start position, problem positions from shared/data",
        "# (mate3-11 samples, shogimate_attacker_in_check, tricky_rules, zuko, shtsume_tsume50,",
        "# microcosmos) with some plies of their solutions and short random continuations, and the",
        "# depth-1 perft.txt positions.",
        "# positions=%d in_check=%d no_mover_king=%d no_opponent_king=%d no_legal_move=%d "
        "in_check_with_checking_evasion=%d" % (len(lines), n_check, n_nok, n_noopp, n_nolegal, n_evasion_check),
    ]
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w", encoding="utf-8", newline="\n") as fh:
        fh.write("\n".join(header + lines) + "\n")
    size = os.path.getsize(args.out)
    print("wrote %s: %d positions, %d bytes" % (args.out, len(lines), size), file=sys.stderr)
    print("  in_check=%d (%.1f%%) no_mover_king=%d no_opponent_king=%d no_legal_move=%d "
          "in_check_with_checking_evasion=%d" % (
              n_check, 100.0 * n_check / max(1, len(lines)), n_nok, n_noopp, n_nolegal, n_evasion_check),
          file=sys.stderr)
    print("  by source: %s" % ", ".join("%s=%d" % kv for kv in sorted(tags.items())), file=sys.stderr)
    print("  stats: %s" % STATS, file=sys.stderr)


if __name__ == "__main__":
    main()
