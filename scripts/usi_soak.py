#!/usr/bin/env python3
"""Soak test for `tsume usi` (not run in CI).

Drives one engine process through N random sequences of setoption / position / go / stop
/ isready with random delays, and checks that

- every `go` gets exactly one answer (`checkmate …` for `go mate`, `bestmove …` for plain
  `go`) within a timeout, and every `isready` a `readyok`;
- the engine never exits or writes to stderr before `quit`;
- the resident memory (VmRSS) does not grow: it is sampled after a warm-up and at the
  end, both times in one fixed state (1 MiB table, raw rules, after a small search, since
  the table kept between searches dominates the figure), and the growth must stay under
  16 MiB.

Usage: scripts/usi_soak.py [--engine target/release/tsume] [--sequences 1000] [--seed 1]
Exit code 0 when every check held, 1 otherwise. Prints the figures at the end.
"""

import argparse
import os
import queue
import random
import subprocess
import sys
import threading
import time

MATE3 = "6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1"
MATE5 = "l2gkg2l/2s3s2/p1nppp1pp/2p3p2/P4P1P1/4n3P/1PPPG1N2/1BKS2+s2/LN3+r3 w RBgl3p 72"
# ミクロコスモス: never finishes here, so only a time limit or stop ends its search.
MICROCOSMOS = ("g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/"
               "2P1+Ps2N/4+P1P1L/+B5G1g b - 1")
POSITIONS = [
    f"position sfen {MATE3}",
    f"position sfen {MATE3} moves 2c2b+ 1b1c",
    f"position sfen {MATE5}",
    f"position sfen {MICROCOSMOS}",
    "position startpos",
    "position startpos moves 7g7f 3c3d",
    "position sfen 9/9/9 b - 1",  # malformed
    "position startpos moves 7g7e",  # illegal move
    "position sfen 9/9/9/9/9/9/9/9/4K4 b G 1",  # no king to mate
]
GOS = [
    ("go mate 50", "checkmate"),
    ("go mate 300", "checkmate"),
    ("go mate infinite", "checkmate"),
    ("go mate abc", "checkmate"),
    ("go byoyomi 200", "bestmove"),
    ("go btime 0 wtime 0 byoyomi 100", "bestmove"),
    ("go movetime 150", "bestmove"),
    ("go infinite", "bestmove"),
]
OPTIONS = [
    "setoption name USI_Hash value 1",
    "setoption name USI_Hash value 16",
    "setoption name USI_Hash value 64",
    "setoption name Rules value raw",
    "setoption name Rules value tsume",
    "setoption name FillDefenderHand value false",
]


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


class Engine:
    def __init__(self, path):
        self.proc = subprocess.Popen(
            [path, "usi"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, bufsize=1)
        self.lines = queue.Queue()
        self.stderr = []
        self.sent = []
        self.answers = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def _read_err(self):
        for line in self.proc.stderr:
            self.stderr.append(line)

    def send(self, cmd):
        self.sent.append(cmd)
        self.proc.stdin.write(cmd + "\n")
        self.proc.stdin.flush()

    def expect(self, prefix, timeout):
        """Lines up to the first starting with `prefix`; raises on timeout or exit. Every
        answer line read on the way is recorded in `self.answers`."""
        deadline = time.monotonic() + timeout
        got = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {prefix!r} within {timeout} s; got {got[-5:]}; "
                                     f"last commands {self.sent[-8:]}")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise AssertionError(f"the engine exited before {prefix!r}")
            got.append(line)
            if line.startswith(("checkmate", "bestmove")):
                self.answers.append(line)
            if line.startswith(prefix):
                return got

    def wait_answers(self, n, timeout):
        """Waits until `n` answers have been read in all."""
        deadline = time.monotonic() + timeout
        while len(self.answers) < n:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{len(self.answers)} answers, not {n}, within {timeout} s; "
                                     f"last commands {self.sent[-8:]}")
            self.expect(("checkmate", "bestmove"), left)


def settled_rss(e, counts):
    """VmRSS with the engine in one fixed state (a 1 MiB table, raw rules, one small
    search done): the kept table's size does not hide or fake a leak."""
    for cmd in ["setoption name USI_Hash value 1", "setoption name Rules value raw",
                f"position sfen {MATE3}", "go mate 1000"]:
        e.send(cmd)
    counts["go"] += 1
    e.wait_answers(counts["go"], 15)
    e.send("isready")
    e.expect("readyok", 10)
    time.sleep(0.2)
    return rss_kb(e.proc.pid)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="target/release/tsume")
    ap.add_argument("--sequences", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--warmup", type=int, default=100,
                    help="sequences before the first memory sample")
    ap.add_argument("--sample-every", type=int, default=0,
                    help="also print the settled VmRSS every N sequences")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    e = Engine(args.engine)
    e.send("usi")
    e.expect("usiok", 10)
    counts = {"go": 0, "stop": 0, "isready": 0, "setoption": 0, "answers": 0}
    longest = 0.0
    rss_warm = None
    start = time.monotonic()
    for i in range(args.sequences):
        if i == args.warmup:
            rss_warm = settled_rss(e, counts)
        elif args.sample_every and i % args.sample_every == 0 and i > args.warmup:
            print(f"sequence {i}: VmRSS {settled_rss(e, counts)} kB", flush=True)
        for _ in range(rng.randrange(3)):
            e.send(rng.choice(OPTIONS))
            counts["setoption"] += 1
        e.send(rng.choice(POSITIONS))
        go, answer = rng.choice(GOS)
        e.send(go)
        counts["go"] += 1
        time.sleep(rng.random() * 0.05)
        if rng.random() < 0.3:
            e.send("isready")
            counts["isready"] += 1
            e.expect("readyok", 10)
        unbounded = "infinite" in go or go == "go mate abc"
        if unbounded or rng.random() < 0.3:
            e.send("stop")
            counts["stop"] += 1
        t0 = time.monotonic()
        e.wait_answers(counts["go"], 15)
        longest = max(longest, time.monotonic() - t0)
        counts["answers"] += 1
        if len(e.answers) != counts["go"] or not e.answers[-1].startswith(answer):
            raise AssertionError(f"sequence {i}: answers {e.answers[-2:]} to {go!r}")
    # No late answer after the last one.
    e.send("isready")
    e.expect("readyok", 10)
    if len(e.answers) != counts["go"]:
        raise AssertionError(f"{len(e.answers)} answers to {counts['go']} go commands")
    rss_end = settled_rss(e, counts)
    e.send("quit")
    code = e.proc.wait(timeout=10)
    elapsed = time.monotonic() - start
    print(f"sequences {args.sequences} in {elapsed:.1f} s; {counts}")
    print(f"longest wait for an answer after the last command: {longest * 1000:.0f} ms")
    print(f"VmRSS after {args.warmup} sequences: {rss_warm} kB; at the end: {rss_end} kB; "
          f"growth {rss_end - rss_warm} kB")
    ok = True
    if code != 0:
        print(f"FAIL: exit code {code}")
        ok = False
    if e.stderr:
        print("FAIL: stderr:\n" + "".join(e.stderr[-20:]))
        ok = False
    if rss_warm is not None and rss_end - rss_warm > 16 * 1024:
        print("FAIL: resident memory grew by more than 16 MiB after the warm-up")
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
