//! The table and the path as seen from a node: table keys and their salts, child keys,
//! probes (with the transfers between the games' entries), the path's hasher and the
//! repetition check; in a parallel search, the children read again from the table.

use super::node::*;
use super::search::*;
use super::table::{Kind, Probe, Table, NO_MATE};
use crate::color::Color;
use crate::hand::Hand;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::zobrist;

/// The table-key salt of a position: zero when every piece of the set is on the board or in
/// a hand (the usual problem), else a mix of the pieces missing from the game.
pub fn table_salt(pos: &Position) -> u64 {
    salt_of(pos.missing_pieces())
}

/// The table key, attacker hand and repetition depth of a child (see [`Search::child_key`]).
pub(super) type ChildKey = (u64, Hand, Option<u32>);

/// The plies a defender node must have left for the plain lower-bound game to read the raw
/// game's proofs of its evasions ([`Search::probe_raw_proof`]): read at every node, the
/// probe cost more time than its nodes saved on the shorter problems (`benches/RESULTS.md`
/// §43).
pub(super) const RAW_PROOFS_ABOVE: u16 = 40;

/// The longest problems whose lower-bound game asks its last question of the two-ply game
/// first (`tsume::lower_bound_game`): the plain game reads no raw proof up to 43 plies, and
/// at 43 the one diagram of 将棋図巧 measured (No. 27h) lost (`benches/RESULTS.md` §52). The
/// plain game reads two-ply entries only within this budget ([`Search::probe_two_ply`]).
pub(crate) const TWO_PLY_FIRST_UP_TO: u16 = 41;

impl Search<'_> {
    /// The board key and attacker hand of the position after `m` (its table key), and the
    /// path depth of the position it repeats, if any: the board key is computed once.
    #[inline]
    pub(super) fn child_key(&self, m: Move) -> (u64, Hand, Option<u32>) {
        let key = self.pos.board_key_after(m) ^ self.salt;
        let mut hands = [self.pos.hand(Color::Black), self.pos.hand(Color::White)];
        hands[self.pos.side_to_move().index()] = self.pos.hand_after(m);
        let repeats = self
            .path
            .get(zobrist::full_key(key ^ self.salt, hands[0], hands[1]));
        (key, hands[self.attacker.index()], repeats)
    }

    /// [`Search::child_key`] of every move, each child's table cluster prefetched: the
    /// loads all start before the first probe waits for one.
    #[inline]
    pub(super) fn prefetch_child_keys(&self, moves: &MoveList, keys: &mut Vec<ChildKey>) {
        keys.extend(moves.iter().map(|&m| {
            let key = self.child_key(m);
            self.table.prefetch(key.0);
            key
        }));
    }

    /// Probes the table for a position whose key is `key` (salted for the pieces `missing`
    /// from the game and for the game). In the two-ply game, a result of the plain
    /// lower-bound game settles it too where it can (see [`Search::probe_plain`]).
    ///
    /// In a lower-bound game, where its own entries do not settle the position, the raw
    /// game's "no mate at all" does, copied into this table by the raw searches
    /// ([`Search::no_mate_copies`]) in the position's own cluster: a lower-bound mate is a
    /// raw mate, each excused interposition captured and the captured piece kept (a
    /// stronger attacker keeps its mates), so no raw mate at all is no lower-bound mate at
    /// all, in the plain and the two-ply game alike. Bounded raw disproofs say nothing here
    /// (the raw line is longer). Raw proofs do hold, but read at every child they change
    /// the order of the lower-bound disproofs more than they save (`benches/RESULTS.md`
    /// §31d, §35e); they are read after evasions only ([`Search::probe_raw_proof`]). The
    /// "no mate at all", read in the raw game's own table, cost nearly every child a second
    /// cluster's four cache lines (§40).
    #[inline]
    pub(super) fn probe_transfer(&self, key: u64, missing: Hand, hand: Hand, budget: u16) -> Probe {
        let p = self.probe_missing(key, missing, hand, budget);
        if p.kind() != Kind::Unknown {
            return p;
        }
        if self.defences == Defences::TsumeTwoPly {
            if let Some(q) = self.probe_plain(key ^ TWO_PLY_SALT, missing, hand, budget) {
                return q;
            }
        }
        if self.defences == Defences::Tsume && budget <= TWO_PLY_FIRST_UP_TO - 2 {
            if let Some(q) = self.probe_two_ply(key ^ TWO_PLY_SALT, missing, hand, budget) {
                return q;
            }
        }
        if self.defences.excuses_interpositions() {
            let q = self
                .table
                .probe(key ^ self.game_salt ^ RAW_NO_MATE_SALT, hand, budget);
            if q.kind() == Kind::Disproven && q.len == NO_MATE {
                return Probe { best: None, ..q };
            }
        }
        p
    }

    /// In the lower-bound games, the raw game's proof of the position after an evasion
    /// (key `key`, no pieces out of the game, attacker hand `hand`, `budget` plies left),
    /// if it settles it: a raw mate within `b` is a plain lower-bound mate within `b` (this
    /// game only excuses some interpositions, and keeps every other defence), and so a
    /// two-ply mate within `b + 2` (the two-ply game reads proofs within `budget − 2`).
    ///
    /// Read after evasions only, where it saves a refuting search the proof that an evasion
    /// fails (寿: a fifth of its nodes); read after checks too it reordered the disproofs
    /// at a cost (`benches/RESULTS.md` §31d, §43). Read only where this game's table has
    /// no entry for the position: in a solve the raw searches do not run while this game
    /// does, so a later look would mostly find what the first did, at the price of another
    /// cluster (prefetched with the game's own, [`Search::prefetch_raw_proofs`]).
    ///
    /// Only below defender nodes with more than [`Search::raw_proofs_above`] plies left
    /// (`remaining`): nearer the horizon an evasion's own proof is cheap and the raw
    /// cluster's load is not.
    #[inline]
    pub(super) fn probe_raw_proof(
        &self,
        key: u64,
        hand: Hand,
        remaining: u16,
        budget: u16,
    ) -> Option<Probe> {
        let slack = if self.defences == Defences::TsumeTwoPly {
            2
        } else {
            0
        };
        let raw = self.raw_proofs_below(remaining)?;
        let q = raw.probe(key ^ self.game_salt, hand, budget.checked_sub(slack)?);
        (q.kind() == Kind::Proven).then(|| Probe {
            best: None,
            len: q.len + slack,
            ..q
        })
    }

    /// The raw table's clusters of the children `keys` of a defender node with `remaining`
    /// plies prefetched where [`Search::probe_raw_proof`] may read them.
    #[inline]
    pub(super) fn prefetch_raw_proofs(&self, keys: &[ChildKey], remaining: u16) {
        if let Some(raw) = self.raw_proofs_below(remaining) {
            for key in keys {
                raw.prefetch(key.0);
            }
        }
    }

    /// The raw table whose proofs the evasions of a defender node with `remaining` plies
    /// read: none with pieces out of the game (the raw game has no such positions) or
    /// within [`Search::raw_proofs_above`] plies of the horizon.
    #[inline]
    fn raw_proofs_below(&self, remaining: u16) -> Option<&Table> {
        self.raw_proofs
            .filter(|_| self.missing.is_empty() && remaining > self.raw_proofs_above)
    }

    /// A two-ply lower-bound answer within `budget` from the plain lower-bound game's
    /// entries (key `plain`): along any line the plain length `ℓ` and the two-ply budget
    /// `v + 2` satisfy `ℓ ≤ v + 2 ≤ ℓ + 2`, and the rule's excused interpositions keep the
    /// order, so no plain mate within `b` is no two-ply mate within `b`, and a plain mate
    /// within `b − 2` is a two-ply mate within `b`.
    #[inline]
    pub(super) fn probe_plain(
        &self,
        plain: u64,
        missing: Hand,
        hand: Hand,
        budget: u16,
    ) -> Option<Probe> {
        let d = self.probe_missing(plain, missing, hand, budget);
        if d.kind() == Kind::Disproven {
            return Some(d);
        }
        let mut q = self.probe_missing(plain, missing, hand, budget.checked_sub(2)?);
        (q.kind() == Kind::Proven).then(|| {
            q.len += 2;
            q
        })
    }

    /// A plain lower-bound answer within `budget` from the two-ply game's entries (key
    /// `two_ply`), the converse of [`Search::probe_plain`]: no two-ply mate within `b + 2`
    /// is no plain mate within `b`, and a two-ply mate within `b` is a plain mate within
    /// `b`. Where the evaluator asks the two-ply question before the plain one
    /// (`tsume::lower_bound_game`), the plain questions that follow (the best-play line's)
    /// find their answers here. Read only within [`TWO_PLY_FIRST_UP_TO`]`− 2` plies: above,
    /// only the value questions' entries are found (§44e: no node saved), and the two
    /// probes cost 寿 3 % of its time (§52i).
    #[inline]
    pub(super) fn probe_two_ply(
        &self,
        two_ply: u64,
        missing: Hand,
        hand: Hand,
        budget: u16,
    ) -> Option<Probe> {
        let mut d = self.probe_missing(two_ply, missing, hand, budget.checked_add(2)?);
        if d.kind() == Kind::Disproven {
            if d.len != NO_MATE {
                d.len -= 2;
            }
            return Some(d);
        }
        let q = self.probe_missing(two_ply, missing, hand, budget);
        (q.kind() == Kind::Proven).then_some(q)
    }

    /// Probes the table for `key` (salted for the pieces `missing` from the game). A
    /// position with pieces out of the game lies between two ordinary positions on the
    /// same board, and every game searched here is monotone in both hands (a stronger side
    /// keeps every result it had), so both lend it their results:
    /// - with one of the pieces back in the game, in the defender's hand: the defender was
    ///   stronger there, so a proof stored there holds here;
    /// - with all of them in the attacker's hand: the defender's hand is the same (the pieces
    ///   are in neither defender's hand), the attacker held more, so a disproof stored
    ///   there holds here, for the attacker hands it covers less the missing pieces. Only
    ///   "no mate at all" is taken: bounded disproofs would hold too, but they change the
    ///   order of the disproof searches more than they save (`benches/RESULTS.md` §35).
    ///
    /// This lets the tsume game's "piece removed" positions (the captures of useless
    /// interpositions) share the proofs and disproofs of ordinary ones.
    #[inline]
    pub(super) fn probe_missing(&self, key: u64, missing: Hand, hand: Hand, budget: u16) -> Probe {
        let p = self.table.probe(key, hand, budget);
        if missing.is_empty() || p.kind() == Kind::Proven {
            return p;
        }
        let base = key ^ salt_of(missing);
        for k in missing.kinds() {
            let q = self
                .table
                .probe(base ^ salt_of(missing.remove(k)), hand, budget);
            if q.kind() == Kind::Proven {
                return q;
            }
        }
        if p.kind() != Kind::Disproven {
            let q = self.table.probe(base, hand.plus(missing), budget);
            if q.kind() == Kind::Disproven && q.len == NO_MATE {
                // The stored disproof hand covers `hand + missing`, so it holds `missing`.
                return Probe {
                    hand: q.hand.saturating_sub(missing),
                    best: None,
                    ..q
                };
            }
        }
        p
    }

    /// Fills `c` from the table or the repetition path: `key` and `hand` are its table key
    /// and attacker hand (`missing`: the pieces out of the game there), `full` its full key,
    /// `budget` its remaining length.
    #[inline]
    pub(super) fn probe_child(
        &self,
        c: &mut Child,
        key: u64,
        missing: Hand,
        hand: Hand,
        full: u64,
        budget: u16,
    ) -> bool {
        if let Some(d) = self.path.get(full) {
            c.repeats(d);
            return true;
        }
        let p = self.probe_transfer(key, missing, hand, budget);
        c.take(&p);
        p.found
    }

    /// A pending interposition refuted as an ordinary move becomes the flagged child that
    /// may still be excused (see [`Via::Pending`]).
    pub(super) fn flag_if_refuted(&mut self, c: &mut Child, remaining: u16) {
        if c.via != Via::Pending || c.dn != 0 {
            return;
        }
        // A repetition stays a failure (the position is on the path: never searched again).
        // A refutation that only depends on the path further down does not: the capture of
        // the interposed piece may still excuse the interposition.
        if self.path.contains(self.pos.full_key_after(c.mv)) {
            return;
        }
        c.via = Via::Interposition;
        let key = self.pos.board_key_after(c.mv) ^ self.salt ^ interposition_flag(c.mv.to());
        let p = self.probe_transfer(key, self.missing, self.pos.hand(self.attacker), remaining);
        c.take(&p);
        c.rep_depth = u32::MAX;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dfpn::table::Table;
    use crate::piece::PieceKind::{Gold, Pawn, Rook, Silver};

    /// A search of `game` at 将棋図巧 No. 2's root (any position serves: only keys and hands
    /// are probed), and that root's board key.
    fn search_at_a_root(table: &Table, game: Defences) -> (Search<'_>, u64) {
        let pos =
            Position::from_sfen("9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1")
                .expect("sfen");
        let board = pos.board_key();
        let search = Search::with_rules(table, pos, Color::Black, Limits::default(), game);
        (search, board)
    }

    /// A gold out of the game, the attacker holding a pawn. The same board with the gold in
    /// the attacker's hand (the same defender's hand) proven to have no mate at all for
    /// hands up to pawn, gold and silver has none here for hands up to pawn and silver;
    /// with the gold in the defender's hand (a stronger defender), or disproven within a
    /// bound only, it lends nothing here.
    #[test]
    fn a_position_with_a_piece_out_of_the_game_takes_a_stronger_attackers_disproof() {
        let table = Table::new(1);
        let (search, board) = search_at_a_root(&table, Defences::Tsume);
        let missing = Hand::EMPTY.add(Gold);
        let key = board ^ salt_of(missing);
        let pawn = Hand::EMPTY.add(Pawn);
        let stronger = pawn.plus(missing).add(Silver);
        assert_eq!(
            search.probe_missing(key, missing, pawn, 9).kind(),
            Kind::Unknown
        );

        table.store_disproven(board, pawn, NO_MATE, 1);
        table.store_disproven(board, stronger, 11, 1);
        assert_eq!(
            search.probe_missing(key, missing, pawn, 9).kind(),
            Kind::Unknown
        );

        table.store_disproven(board, stronger, NO_MATE, 1);
        let p = search.probe_missing(key, missing, pawn, 9);
        assert_eq!((p.kind(), p.len), (Kind::Disproven, NO_MATE));
        assert_eq!(p.hand, pawn.add(Silver));
        assert!(p.best.is_none(), "a move of the other position");
        // Not for a hand the disproof does not cover.
        assert_eq!(
            search.probe_missing(key, missing, pawn.add(Rook), 9).kind(),
            Kind::Unknown
        );
    }

    /// Each lower-bound game reads the other's entries where its own know nothing: no
    /// two-ply mate within `b + 2` is no plain mate within `b` and a two-ply mate within
    /// `b` a plain one (`probe_two_ply`); no plain mate within `b` is no two-ply mate within
    /// `b` and a plain mate within `b − 2` a two-ply one (`probe_plain`). Nothing else
    /// transfers.
    #[test]
    fn the_plain_and_the_two_ply_game_read_each_others_entries() {
        fn read(game: Defences, store: impl Fn(&Table, u64), budget: u16) -> (Kind, u16) {
            let table = Table::new(1);
            let (search, board) = search_at_a_root(&table, game);
            store(&table, board);
            let p =
                search.probe_transfer(board ^ search.game_salt, Hand::EMPTY, Hand::EMPTY, budget);
            (p.kind(), p.len)
        }
        let hand = Hand::EMPTY;
        let two_ply_disproof =
            |t: &Table, board| t.store_disproven(board ^ TWO_PLY_SALT, hand, 11, 1);
        let two_ply_proof =
            |t: &Table, board| t.store_proven(board ^ TWO_PLY_SALT, hand, 15, None, 1);
        let plain_disproof = |t: &Table, board| t.store_disproven(board, hand, 11, 1);
        let plain_proof = |t: &Table, board| t.store_proven(board, hand, 15, None, 1);
        let plain = Defences::Tsume;
        assert_eq!(read(plain, two_ply_disproof, 9), (Kind::Disproven, 9));
        assert_eq!(
            read(plain, two_ply_disproof, 11).0,
            Kind::Unknown,
            "needs 13 there"
        );
        assert_eq!(read(plain, two_ply_proof, 15), (Kind::Proven, 15));
        assert_eq!(read(plain, two_ply_proof, 13).0, Kind::Unknown);
        let two_ply = Defences::TsumeTwoPly;
        assert_eq!(read(two_ply, plain_disproof, 11), (Kind::Disproven, 11));
        assert_eq!(read(two_ply, plain_disproof, 13).0, Kind::Unknown);
        assert_eq!(read(two_ply, plain_proof, 17), (Kind::Proven, 17));
        assert_eq!(
            read(two_ply, plain_proof, 15).0,
            Kind::Unknown,
            "a plain 15 may be a two-ply 17"
        );
    }

    /// Both lower-bound games read the raw game's proofs after evasions: a raw mate within
    /// `b` is a plain mate within `b` and a two-ply mate within `b + 2`, whose length it
    /// takes.
    #[test]
    fn the_lower_bound_games_read_raw_proofs_for_the_budgets_they_settle() {
        fn read(game: Defences, budget: u16) -> Option<(Kind, u16)> {
            let (table, raw) = (Table::new(1), Table::new(1));
            let (mut search, board) = search_at_a_root(&table, game);
            search.raw_proofs = Some(&raw);
            search.raw_proofs_above = 0;
            raw.store_proven(board, Hand::EMPTY, 9, None, 1);
            let key = board ^ search.game_salt;
            let p = search.probe_raw_proof(key, Hand::EMPTY, budget + 1, budget)?;
            Some((p.kind(), p.len))
        }
        assert_eq!(read(Defences::Tsume, 9), Some((Kind::Proven, 9)));
        assert_eq!(read(Defences::Tsume, 7), None);
        assert_eq!(read(Defences::TsumeTwoPly, 11), Some((Kind::Proven, 11)));
        assert_eq!(
            read(Defences::TsumeTwoPly, 9),
            None,
            "a raw 9 may be a two-ply 11"
        );
    }

    /// A raw search copies each "no mate at all" it stores into the lower-bound games'
    /// table when it is given one (not a bounded disproof: the raw line is longer), under
    /// a salt of its own; the lower-bound games read the copy where their own entries know
    /// nothing, for the hands it covers.
    #[test]
    fn a_lower_bound_search_takes_the_raw_games_no_mate_at_all() {
        let pawn = Hand::EMPTY.add(Pawn);
        for game in [Defences::Tsume, Defences::TsumeTwoPly] {
            let table = Table::new(1);
            let raw = Table::new(1);
            let (mut raw_search, board) = search_at_a_root(&raw, Defences::All);
            let (search, _) = search_at_a_root(&table, game);
            let key = board ^ search.game_salt;
            let read = |hand| search.probe_transfer(key, Hand::EMPTY, hand, 9);
            raw_search.disproven(board, pawn, NO_MATE, u32::MAX, 1);
            assert_eq!(read(pawn).kind(), Kind::Unknown, "no table to copy to");
            raw_search.no_mate_copies = Some(&table);
            raw_search.disproven(board, pawn, 11, u32::MAX, 1);
            assert_eq!(read(pawn).kind(), Kind::Unknown, "a bounded disproof");
            raw_search.disproven(board, pawn, NO_MATE, u32::MAX, 1);
            let p = read(pawn);
            assert_eq!((p.kind(), p.len), (Kind::Disproven, NO_MATE), "{game:?}");
            assert!(p.best.is_none(), "a move of the other game");
            assert_eq!(read(pawn.add(Rook)).kind(), Kind::Unknown);
            assert_eq!(
                table.probe(key, pawn, 9).kind(),
                Kind::Unknown,
                "the copy is not the position's own entry"
            );
        }
    }
}
