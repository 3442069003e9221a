#!/usr/bin/env python3
"""Reads the search traces of the `stats` build (`TSUME_TRACE=<prefix>`, see
solver/src/dfpn/stats.rs and benches/README.md) and says where a search's nodes went.

  trace_tree.py summary TRACE.tsv
      nodes by side and fate; the work left open (nodes never settled), by what became of
      the settled node above it; defender nodes refuted after other evasions were tried
      (RESULTS §53a).
  trace_tree.py compare ONE.tsv THREAD.tsv [THREAD.tsv …]
      the threads of a parallel search against the same search at one thread: nodes inside
      and outside the one-thread tree, nodes entered by more than one thread, nodes by
      budget, and the largest subtrees outside the one-thread tree (RESULTS §53b).
  trace_tree.py floor TRACE.tsv
      what the search would have cost had it known in advance every refutation it ended
      up proving (RESULTS §59a): without the work at nodes never settled; with every
      settled node expanded once; and with each refuted defender node evaluating only the
      evasion that refutes it.
"""
import sys
from collections import Counter, defaultdict


def load(path):
    try:
        return read(path)
    except (OSError, ValueError, IndexError, StopIteration) as e:
        print(f"trace_tree.py: cannot read the trace {path}: {e!r} (write one with the stats "
              "build and TSUME_TRACE, see benches/README.md)", file=sys.stderr)
        sys.exit(2)


def read(path):
    nodes = {}
    with open(path) as f:
        next(f)
        for line in f:
            a = line.rstrip("\n").split("\t")
            nodes[int(a[0])] = dict(_id=int(a[0]), parent=int(a[1]), side=a[2], budget=int(a[3]),
                                    visits=int(a[4]), nodes=int(a[5]), fate=a[6], move=a[7],
                                    via=a[8], first=int(a[9]), moves=int(a[10]))
    return nodes


def children_of(t):
    kids = defaultdict(list)
    for k, v in t.items():
        kids[v["parent"]].append(k)
    return kids


def subtree_totals(t, kids):
    """Nodes below each node of the tree of first entries, itself included."""
    order, seen = [], set()
    stack = [k for k, v in t.items() if v["parent"] not in t]
    while stack:
        k = stack.pop()
        if k in seen:
            continue
        seen.add(k)
        order.append(k)
        stack.extend(kids.get(k, []))
    total = {}
    for k in reversed(order):
        total[k] = t[k]["nodes"] + sum(total.get(c, 0) for c in kids.get(k, []))
    return total


def top_of_run(t, k, inside, memo):
    """The highest ancestor of `k` reached through nodes for which `inside` holds; `memo`
    keeps the answer of every node walked (one walk per run, not per node)."""
    walked = []
    while k not in memo:
        walked.append(k)
        p = t[k]["parent"]
        if p not in t or not inside(t[p]):
            memo[k] = k
            break
        k = p
    for w in walked:
        memo[w] = memo[k]
    return memo[k]


def mn(x):
    return f"{x / 1e6:.2f} M"


def summary(path):
    t = load(path)
    kids = children_of(t)
    all_nodes = sum(v["nodes"] for v in t.values())
    print(f"{path}: {len(t)} nodes entered, {mn(all_nodes)} counted")
    by = Counter()
    for v in t.values():
        by[(v["side"], v["fate"])] += v["nodes"]
    for (side, fate), n in sorted(by.items(), key=lambda x: -x[1]):
        print(f"  {side:<4}{fate:<14}{mn(n):>10}")
    # Open work, by the settled node above its highest open ancestor.
    top = {}
    open_by = Counter()
    for k, v in t.items():
        if v["fate"] != "Open":
            continue
        r = top_of_run(t, k, lambda p: p["fate"] == "Open", top)
        above = t.get(t[r]["parent"])
        open_by[(above["side"], above["fate"]) if above else ("root", "-")] += v["nodes"]
    print("  work never settled, by the settled node above it:")
    for (side, fate), n in sorted(open_by.items(), key=lambda x: -x[1]):
        print(f"    under a {side} node {fate:<14}{mn(n):>10}")
    # Defender nodes refuted with no mate at all after other evasions were tried.
    total = subtree_totals(t, kids)
    refuted, abandoned, ties, refuters = 0, 0, Counter(), []
    for k, v in t.items():
        if v["side"] != "and" or v["fate"] != "NoMate":
            continue
        ch = sorted(kids.get(k, []), key=lambda c: t[c]["first"])
        left = [c for c in ch if t[c]["fate"] == "Open"]
        refuting = [c for c in ch if t[c]["fate"] == "NoMate"]
        if not left or not refuting:
            continue
        refuted += 1
        abandoned += sum(t[c]["nodes"] for c in left)
        refuters.append(total[refuting[0]])
        fewest = min(t[c]["moves"] for c in left)
        own = t[refuting[0]]["moves"]
        ties["fewer" if own < fewest else "as many" if own == fewest else "more"] += 1
    if refuted:
        refuters.sort()
        print(f"  defender nodes refuted (no mate at all) after other evasions: {refuted}; "
              f"the refuting evasion's subtree median {refuters[len(refuters) // 2]} nodes; "
              f"its checks against the fewest of the evasions left: "
              + ", ".join(f"{k} {n}" for k, n in ties.most_common()))


def compare(one_path, paths):
    one = load(one_path)
    threads = [load(p) for p in paths]
    print(f"one thread: {mn(sum(v['nodes'] for v in one.values()))}")
    for p, t in zip(paths, threads):
        inside = sum(v["nodes"] for k, v in t.items() if k in one)
        outside = sum(v["nodes"] for k, v in t.items() if k not in one)
        print(f"{p}: {mn(inside + outside)}, inside the one-thread tree {mn(inside)}, "
              f"outside {mn(outside)}")
    seen = Counter(k for t in threads for k in t)
    shared = {k for k, c in seen.items() if c > 1}
    print(f"entered by more than one thread: {len(shared)} nodes, "
          + ", ".join(mn(sum(t[k]["nodes"] for k in shared if k in t)) for t in threads))
    bands = [defaultdict(int) for _ in range(len(threads) + 1)]
    for b, t in zip(bands, [one] + threads):
        for v in t.values():
            b[v["budget"] // 64 * 64] += v["nodes"]
    print("nodes by budget: one thread, then each thread")
    for lo in sorted(set().union(*bands)):
        print(f"  {lo:>5}–{lo + 63:<5}" + "".join(f"{b.get(lo, 0) / 1e6:>8.2f}" for b in bands))
    for p, t in zip(paths, threads):
        kids = children_of(t)
        total = subtree_totals(t, kids)
        tops, memo = Counter(), {}
        for k, v in t.items():
            if k not in one:
                tops[top_of_run(t, k, lambda q: q["_id"] not in one, memo)] += v["nodes"]
        print(f"{p}: the largest subtrees outside the one-thread tree")
        for k, n in tops.most_common(5):
            v, depth, a = t[k], 0, k
            while t[a]["parent"] in t:
                a, depth = t[a]["parent"], depth + 1
            print(f"  {mn(n)} under {v['side']} node at depth {depth}, budget {v['budget']}, "
                  f"entered by {v['move']} ({v['fate']}; its subtree {mn(total[k])})")


DISPROOFS = ("NoMate", "Bounded", "PathDependent")


def floor(path):
    t = load(path)
    counted = sum(v["nodes"] for v in t.values())
    settled = [v for v in t.values() if v["fate"] != "Open"]
    kept = sum(v["nodes"] for v in settled)
    # One expansion of a node counts one node and one per child evaluated.
    once = sum(min(v["nodes"], 1 + max(v["moves"], 0)) for v in settled)
    # A refuted defender node: its visit and the refuting evasion's evaluation; a refuted
    # attacker node: every check evaluated (those the table settled cost nothing, as
    # counted). Proven nodes are not needed at all.
    lazy = sum(min(v["nodes"], 2 if v["side"] == "and" else 1 + max(v["moves"], 0))
               for v in settled if v["fate"] in DISPROOFS)
    print(f"{path}: {mn(counted)} counted")
    for name, n in (("without the work at nodes never settled", kept),
                    ("and every settled node expanded once", once),
                    ("and a refuted defender node evaluating its refutation only", lazy)):
        print(f"  {name:<60}{mn(n):>10} ({n / counted:.3f})")


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "summary":
        for p in sys.argv[2:]:
            summary(p)
    elif len(sys.argv) >= 4 and sys.argv[1] == "compare":
        compare(sys.argv[2], sys.argv[3:])
    elif len(sys.argv) >= 3 and sys.argv[1] == "floor":
        for p in sys.argv[2:]:
            floor(p)
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
