"""Lists the attacker's first moves that lead to a forced mate (any length), with cshogi's
DfPn as an oracle independent of tsume's search: for each checking move, every defender
reply must be a position where cshogi's DfPn proves mate for the attacker.

Usage: python3 mating_first_moves.py "<sfen>" [max_nodes]
"""
import sys

import cshogi


def mating_first_moves(sfen, max_nodes=2_000_000):
    board = cshogi.Board(sfen)
    dfpn = cshogi.DfPn()
    dfpn.set_max_search_node(max_nodes)
    mates = []
    for m in list(board.legal_moves):
        board.push(m)
        if board.is_check():
            all_mate = True
            for r in list(board.legal_moves):
                board.push(r)
                if not dfpn.search(board):
                    all_mate = False
                board.pop()
                if not all_mate:
                    break
            if all_mate:
                mates.append(cshogi.move_to_usi(m))
        board.pop()
    return mates


if __name__ == "__main__":
    nodes = int(sys.argv[2]) if len(sys.argv) > 2 else 2_000_000
    print(" ".join(mating_first_moves(sys.argv[1], nodes)))
