#!/bin/sh
# Fills fuzz/corpus/<target>/ with seed inputs taken from tests/data/ (one input per file).
# The corpus directory is git-ignored; run this once before the first `cargo fuzz run`.
set -eu
cd "$(dirname "$0")"
data=../tests/data
mkdir -p corpus/sfen corpus/usi_move corpus/kif corpus/csa

seed() { # seed <dir> <text>: named by content hash, as libFuzzer names its inputs
    printf '%s' "$2" > "$1/$(printf '%s' "$2" | sha1sum | cut -c1-40)"
}

# SFENs: the bad-SFEN corpus (second column), perft rows, mate-in-5 problems and a sample
# of the move-generator oracle positions.
cut -f2 "$data/bad_sfen.txt" | grep -v '^#' | while IFS= read -r s; do seed corpus/sfen "$s"; done
grep -v '^#' "$data/perft.txt" | cut -d' ' -f1-4 | sort -u |
    while IFS= read -r s; do seed corpus/sfen "$s"; done
grep -v '^#' "$data/mate5_200.sfen" | head -50 | cut -d' ' -f1-4 |
    while IFS= read -r s; do seed corpus/sfen "$s"; done
grep -v '^#' "$data/movegen_oracle.txt" | awk 'NR % 10 == 1' | cut -f1 |
    while IFS= read -r s; do seed corpus/sfen "$s"; done

# USI moves: every distinct move of the oracle's move lists, and some near misses.
grep -v '^#' "$data/movegen_oracle.txt" | cut -f3 | tr ' ' '\n' | grep . | sort -u |
    while IFS= read -r m; do seed corpus/usi_move "$m"; done
for m in 7g7f 8h2b+ P*5e K*5e p*5e 7g7g 7g7j 7g7f++ 0g7f 7g7f+x 'P*5' '7g 7f'; do
    seed corpus/usi_move "$m"
done
# KIF and CSA: the records cshogi wrote (Shift-JIS and UTF-8 KIF, CSA).
cp "$data"/formats/cshogi/*.kif "$data"/formats/cshogi/*.kifu corpus/kif/
cp "$data"/formats/cshogi/*.csa corpus/csa/
echo "sfen: $(ls corpus/sfen | wc -l) inputs, usi_move: $(ls corpus/usi_move | wc -l) inputs," \
    "kif: $(ls corpus/kif | wc -l), csa: $(ls corpus/csa | wc -l)"
