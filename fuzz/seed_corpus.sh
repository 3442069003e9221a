#!/bin/sh
# Fills fuzz/corpus/<target>/ with seed inputs taken from tests/data/ (one input per file).
# The corpus directory is git-ignored; run this once before the first `cargo fuzz run`.
set -eu
cd "$(dirname "$0")"
data=../tests/data
mkdir -p corpus/sfen corpus/usi_move corpus/kif corpus/csa corpus/pack_line corpus/usi

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
# Pack lines: whole packs and problem lists, and single lines of the starter pack.
cp "$data"/html/pack/pack.jsonl corpus/pack_line/html-pack.jsonl
cp "$data"/render/pack.jsonl corpus/pack_line/render-pack.jsonl
for f in verify_cases.txt verify_yozume.txt tricky_rules.txt rules_doc_examples.txt; do
    cp "$data/$f" "corpus/pack_line/$f"
done
head -20 ../problems/starter/pack.jsonl | while IFS= read -r l; do seed corpus/pack_line "$l"; done
head -20 ../problems/starter/pack.sfen | while IFS= read -r l; do seed corpus/pack_line "$l"; done
# USI sessions: the commands a GUI sends, one session per file.
for s in 'usi\nisready\nusinewgame\nposition startpos moves 7g7f\ngo mate 1000\nstop\nquit\n' \
    'setoption name USI_Hash value 64\nsetoption name Threads value 2\nisready\n' \
    'position sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1\ngo mate infinite\nstop\n' \
    'go mate abc\ngo byoyomi 100\ngo btime 0 wtime 0 byoyomi 1000\ngo infinite\nponderhit\ngameover win\n' \
    'debug on\nregister later\nposition startpos moves 7g7f 3c3d 8h2b+\ngo mate -5\n'; do
    seed corpus/usi "$(printf "$s")"
done
echo "sfen: $(ls corpus/sfen | wc -l) inputs, usi_move: $(ls corpus/usi_move | wc -l) inputs," \
    "kif: $(ls corpus/kif | wc -l), csa: $(ls corpus/csa | wc -l)," \
    "pack_line: $(ls corpus/pack_line | wc -l), usi: $(ls corpus/usi | wc -l)"
