#!/usr/bin/env python3
"""Drives `tsume usi` with a real USI client: cshogi's `cshogi.usi.Engine`, which starts
the engine as a GUI does, the binary alone without arguments.

Usage: python tests/usi_cshogi.py PATH/TO/tsume

Checks the handshake and options, `go mate` on labelled problems (answers replayed with
cshogi's own rules), `checkmate nomate`, `go mate <ms>` timing out, `stop` answering within
100 ms, plain `go`, and that cshogi's CSA parser reads the records `tsume solve --output csa`
writes. Ends with a `N passed, M failed` line; the exit code is 1 if anything failed.
`.ci/run` installs cshogi in a venv and runs this.
"""

import os
import subprocess
import sys
import threading
import time

import cshogi
import cshogi.CSA
from cshogi.usi import Engine

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")

# ミクロコスモス (1525 plies): a search on it runs until stopped.
MICROCOSMOS = "g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1"
THREE_PLY = "6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1"
# P*9b would be pawn-drop mate: no mate.
UCHIFUZUME = "kn7/1s7/9/1N7/9/9/9/9/9 b P2r2b4g3s2n4l17p 1"


class Timeout(Exception):
    pass


def with_timeout(seconds, fn, *args, **kwargs):
    """Runs fn in a thread; raises Timeout if it has not returned in time (cshogi's calls
    block until the engine answers)."""
    result = {}

    def target():
        try:
            result["value"] = fn(*args, **kwargs)
        except BaseException as e:  # noqa: BLE001 - reported to the caller
            result["error"] = e

    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(seconds)
    if t.is_alive():
        raise Timeout(f"{getattr(fn, '__name__', fn)} gave no answer within {seconds} s")
    if "error" in result:
        raise result["error"]
    return result["value"]


def problems(name, step):
    out = []
    with open(os.path.join(DATA, name), encoding="utf-8") as f:
        lines = [l.split("#")[0].split() for l in f]
    for fields in [l for l in lines if l][::step]:
        out.append((" ".join(fields[:4]), int(fields[4])))
    return out


def check_mating_line(sfen, moves):
    board = cshogi.Board(sfen)
    attacker = board.turn
    for i, usi in enumerate(moves):
        m = board.move_from_usi(usi)
        assert board.is_legal(m), f"{sfen}: ply {i + 1} {usi} is illegal"
        board.push(m)
        if board.turn != attacker:
            assert board.is_check(), f"{sfen}: ply {i + 1} {usi} is not a check"
    assert board.is_check() and board.is_game_over(), f"{sfen}: the line does not end in mate"


class Suite:
    def __init__(self, binary):
        self.binary = binary
        # cshogi starts the engine as a single path without arguments, as GUIs do: `tsume`
        # started so is the USI engine (its first input line is `usi`), no wrapper needed.
        self.engine_path = os.path.abspath(binary)
        self.engine = None

    def connect(self):
        if self.engine is not None:
            self.close()
        self.engine = with_timeout(10, Engine, self.engine_path)
        return self.engine

    def close(self):
        if self.engine is None:
            return
        try:
            with_timeout(5, self.engine.quit)
        except Exception:  # noqa: BLE001
            self.engine.proc.kill()
        self.engine = None

    # ---- tests ----

    def test_handshake(self):
        e = self.connect()
        assert e.name.startswith("tsume"), e.name
        lines = with_timeout(10, e.usi)
        for opt in ("USI_Hash", "Threads", "Rules", "FillDefenderHand"):
            assert any(l.startswith(f"option name {opt} ") for l in lines), (opt, lines)
        assert any(l.startswith("id author") for l in lines), lines
        e.setoption("USI_Hash", 64)
        e.setoption("Threads", 2)
        e.setoption("Rules", "raw")
        with_timeout(10, e.isready)
        e.usinewgame()

    def test_go_mate_solves_problems(self):
        e = self.connect()
        e.setoption("USI_Hash", 64)
        # Raw lengths, as the data has them (the engine's default is tsume).
        e.setoption("Rules", "raw")
        with_timeout(10, e.isready)
        solved = 0
        for sfen, length in problems("mate_sample_raw.txt", 20):
            e.position(sfen="sfen " + sfen)
            answer = with_timeout(60, e.go_mate, byoyomi=30000)
            assert answer not in ("nomate", "timeout"), (sfen, answer)
            moves = answer.split()
            assert len(moves) == length, (sfen, length, answer)
            check_mating_line(sfen, moves)
            solved += 1
        assert solved == 10, solved

    def test_go_mate_nomate(self):
        e = self.connect()
        e.position(sfen="sfen " + UCHIFUZUME)
        assert with_timeout(20, e.go_mate, byoyomi=10000) == "nomate"

    def test_go_mate_time_limit(self):
        e = self.connect()
        e.position(sfen="sfen " + MICROCOSMOS)
        start = time.monotonic()
        answer = with_timeout(10, e.go_mate, byoyomi=500)
        took = time.monotonic() - start
        assert answer == "timeout", answer
        assert 0.45 <= took < 2.0, took

    def test_stop(self):
        e = self.connect()
        e.position(sfen="sfen " + MICROCOSMOS)
        infos = []
        result = {}

        def search():
            result["answer"] = e.go_mate(listener=infos.append)
            result["at"] = time.monotonic()

        t = threading.Thread(target=search, daemon=True)
        t.start()
        time.sleep(1.5)
        assert "answer" not in result, result
        sent = time.monotonic()
        e.stop()
        t.join(5)
        assert not t.is_alive(), "no answer to stop"
        latency = result["at"] - sent
        assert result["answer"] == "timeout", result
        assert latency < 0.1, f"stop took {latency:.3f} s"
        progress = [l for l in infos if l.startswith("info ") and " hashfull " in l]
        assert progress, infos
        for key in (" nodes ", " nps ", " time "):
            assert key in progress[0], progress[0]

    def test_plain_go(self):
        e = self.connect()
        e.position(sfen="sfen " + THREE_PLY)
        best, _ = with_timeout(10, e.go, byoyomi=5000)
        assert best == "2c2b+", best
        e.position(moves=["7g7f"])
        best, _ = with_timeout(10, e.go, byoyomi=1000)
        assert best == "resign", best

    def test_csa_records_read_by_cshogi(self):
        for sfen, _ in problems("mate_sample_raw.txt", 40):
            out = subprocess.run(
                [self.binary, "solve", sfen, "--output", "csa"],
                capture_output=True, text=True, timeout=60,
            )
            assert out.returncode == 0, (sfen, out.stderr)
            parsed = cshogi.CSA.Parser.parse_str(out.stdout)[0]
            want = cshogi.Board(sfen)
            got = cshogi.Board(parsed.sfen)
            # The board, the hands and the side to move (CSA has no move number).
            assert got.zobrist_hash() == want.zobrist_hash(), (sfen, parsed.sfen)
            moves = [cshogi.move_to_usi(m) for m in parsed.moves]
            check_mating_line(sfen, moves)
            assert parsed.endgame == "%TSUMI", parsed.endgame


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    binary = os.path.abspath(sys.argv[1])
    suite = Suite(binary)
    tests = [n for n in dir(suite) if n.startswith("test_")]
    passed = failed = 0
    for name in tests:
        start = time.monotonic()
        try:
            getattr(suite, name)()
            passed += 1
            print(f"ok     {name} ({time.monotonic() - start:.1f} s)", flush=True)
        except Exception as e:  # noqa: BLE001 - every failure is reported
            failed += 1
            print(f"FAILED {name}: {type(e).__name__}: {e}", flush=True)
        finally:
            suite.close()
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
