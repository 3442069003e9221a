#!/usr/bin/env python3
"""Compares two benches/zuko_nodes.sh runs: answers and node counts per problem."""
import sys
a={l.split()[0]:l.split() for l in open(sys.argv[1])}
b={l.split()[0]:l.split() for l in open(sys.argv[2])}
ta=tb=0
for k in b:
    if k not in a: continue
    x,y=a[k],b[k]
    na,nb=int(x[3]),int(y[3])
    ta+=na; tb+=nb
    flag = "" if x[1:3]==y[1:3] else "  <-- answer differs"
    print(f"{k} {x[1]} {x[2]:>4} {na/1e6:8.2f}M  {y[1]} {y[2]:>4} {nb/1e6:8.2f}M  {nb/na:5.2f}{flag}")
print(f"total {ta/1e6:.1f}M -> {tb/1e6:.1f}M  ratio {tb/ta:.3f}")
