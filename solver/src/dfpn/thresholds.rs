//! Thresholds of df-pn: what a node passes to the child it searches next.

use super::search::*;

/// The threshold for the best child: a little above the second best (the 1+ε trick of
/// Pawlewicz and Lew), so that the search does not flip between two close children.
#[inline]
pub(super) fn one_plus_epsilon(second: u32) -> u32 {
    second.saturating_add(1).saturating_add(second / 4)
}

/// The proof-number threshold of an attacker node's best child in a refuting search (a
/// bounded search that does not expect a proof, see [`Search::refutes`]): twice the
/// second best, plus one (1+ε with ε = 1). Every check of such a node is to be refuted, in
/// whatever order, so the search stays with one check until it is clearly worse than
/// another instead of going back and forth between them (benches/RESULTS.md §45e).
#[inline]
pub(super) fn refuting_or_child_pn_threshold(second: u32) -> u32 {
    second.saturating_add(1).saturating_add(second)
}

/// The disproof-number threshold of a defender node's best evasion in a refuting search:
/// just above the second best (ε = 0). One evasion refutes the node, most often one whose
/// own disproof is cheap, so the search moves on to another as soon as the one it tries
/// is no longer the most promising (benches/RESULTS.md §45e).
#[inline]
pub(super) fn refuting_and_child_dn_threshold(second: u32) -> u32 {
    second.saturating_add(1)
}

/// The disproof-number threshold of an attacker node's best child: the node's disproof
/// number (`dn`, hardest child plus one per other open child) reaches `th_dn` when the
/// child's reaches `th_dn` less one per other open child.
///
/// Once `dn` is saturated (only an infinite threshold lets the search go on), the child may
/// use the whole threshold: the difference would stop it at once, and the node would call
/// it again and again without progress.
pub(super) fn or_child_dn_threshold(th_dn: u32, dn: u32, open: u32) -> u32 {
    if dn >= MAX_FINITE {
        th_dn
    } else {
        th_dn - (open - 1)
    }
}

/// The proof-number threshold of a defender node's child (proof number `child_pn`) when
/// the node's sum is `pn`: the sum reaches `th_pn` when the child's reaches `th_pn` less
/// the others.
///
/// With the sum saturated (only an infinite threshold lets the search go on) the
/// difference would leave the child one more than its own proof number: it would return
/// after a few nodes, to be called again, millions of times over. That livelock was seen
/// in `tsume verify` once table entries of earlier searches brought huge numbers (a check
/// refuted in 0.5 M nodes was not refuted in 20 M).
pub(super) fn and_child_pn_threshold(th_pn: u32, pn: u32, child_pn: u32) -> u32 {
    if pn >= MAX_FINITE {
        th_pn
    } else {
        th_pn - (pn - child_pn.min(pn))
    }
}

#[cfg(test)]
mod threshold_tests {
    use super::*;
    use crate::dfpn::table::INF;

    #[test]
    fn refuting_searches_hold_on_to_a_check_and_let_go_of_an_evasion() {
        assert_eq!(one_plus_epsilon(40), 51);
        assert_eq!(refuting_or_child_pn_threshold(40), 81);
        assert_eq!(refuting_and_child_dn_threshold(40), 41);
        assert_eq!(refuting_or_child_pn_threshold(u32::MAX - 3), u32::MAX);
        assert_eq!(refuting_and_child_dn_threshold(u32::MAX), u32::MAX);
    }

    #[test]
    fn a_child_keeps_the_difference_below_saturation() {
        assert_eq!(and_child_pn_threshold(100, 30, 10), 80);
        assert_eq!(or_child_dn_threshold(100, 30, 4), 97);
        assert_eq!(and_child_pn_threshold(INF, MAX_FINITE - 5, 10), 16);
    }

    #[test]
    fn a_saturated_sum_passes_the_whole_threshold_on() {
        // A child whose threshold stays "its proof number plus one" would return at once.
        assert_eq!(and_child_pn_threshold(INF, MAX_FINITE, 1_833_066_361), INF);
        assert_eq!(or_child_dn_threshold(INF, MAX_FINITE, 3), INF);
    }
}
