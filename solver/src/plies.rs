//! [`Plies`]: the length of a mate, and the length budget of a search.

use std::fmt;

/// A number of plies (half-moves): the length of a mate, a lower bound of it, or the budget
/// of a search ("mate within this many plies").
///
/// It costs what a `u16` costs (`#[repr(transparent)]`, every method `const` and inline).
/// "No budget" is a value of its own, [`Plies::UNLIMITED`], rather than a number that
/// happens to be large: [`Plies::below`] keeps it, so that a position reached by paths of
/// different lengths shares one table entry in the first search.
///
/// Where it stops: the search's own recursion (`or_node`, `and_node` and the children's
/// estimates in `dfpn`) and the transposition table's packed entries keep raw `u16`
/// budgets, read once from a `Plies` at [`Search::solve_current`](crate::dfpn::Search::solve_current):
/// they compare and store budgets at every node, and the table packs a length into 16 bits
/// of a word next to the `NO_MATE` sentinel. The tsume evaluator's values can be negative
/// (a line that ends with pieces left over counts 2 plies less, a mate in 1 keeping a piece
/// is −1), so they stay `i32` and become a budget through [`Plies::of_value`].
///
/// ```
/// use tsume_solver::Plies;
///
/// let budget = Plies::new(7);
/// assert_eq!(budget.below(), Plies::new(6));
/// assert_eq!(Plies::UNLIMITED.below(), Plies::UNLIMITED);
/// assert_eq!(budget.to_string(), "7");
/// ```
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Plies(u16);

impl Plies {
    /// No plies: the defender to move is already mated.
    pub const ZERO: Plies = Plies(0);

    /// The budget of a search with no length limit (the first search of a solve). Above
    /// every mate length the search can store (`u16::MAX` is the table's "no mate").
    pub const UNLIMITED: Plies = Plies(u16::MAX - 1);

    /// `n` plies.
    #[inline]
    pub const fn new(n: u16) -> Plies {
        Plies(n)
    }

    /// The number of plies.
    #[inline]
    pub const fn get(self) -> u16 {
        self.0
    }

    /// Whether this is the budget of no length limit.
    #[inline]
    pub const fn is_unlimited(self) -> bool {
        self.0 == Plies::UNLIMITED.0
    }

    /// The budget one ply deeper: one less, or still [`Plies::UNLIMITED`].
    #[inline]
    pub const fn below(self) -> Plies {
        if self.is_unlimited() {
            self
        } else {
            Plies(self.0 - 1)
        }
    }

    /// `n` plies less (a length or a limited budget, of at least `n`).
    #[inline]
    pub const fn minus(self, n: u16) -> Plies {
        Plies(self.0 - n)
    }

    /// `n` plies more (a length, never [`Plies::UNLIMITED`]).
    #[inline]
    pub const fn plus(self, n: u16) -> Plies {
        Plies(self.0 + n)
    }

    /// The length of a line of `moves` moves.
    ///
    /// Panics if it does not fit (no line of a search is that long: the table stores
    /// lengths in 16 bits).
    #[inline]
    pub fn of_line<T>(moves: &[T]) -> Plies {
        Plies(u16::try_from(moves.len()).expect("a line of at most u16::MAX plies"))
    }

    /// A tsume value (see [`tsume_value`](crate::tsume::tsume_value)) as a budget: values
    /// below zero, which no budget reaches, count as zero.
    #[inline]
    pub fn of_value(value: i32) -> Plies {
        Plies(u16::try_from(value.max(0)).expect("a value of at most u16::MAX plies"))
    }

    /// The number of plies as a tsume value (see [`Plies::of_value`]).
    #[inline]
    pub fn value(self) -> i32 {
        i32::from(self.0)
    }
}

impl fmt::Display for Plies {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl TryFrom<usize> for Plies {
    type Error = std::num::TryFromIntError;

    fn try_from(n: usize) -> Result<Plies, Self::Error> {
        u16::try_from(n).map(Plies)
    }
}

impl From<Plies> for u16 {
    fn from(plies: Plies) -> u16 {
        plies.0
    }
}

impl From<Plies> for u64 {
    fn from(plies: Plies) -> u64 {
        plies.0.into()
    }
}

impl From<Plies> for usize {
    fn from(plies: Plies) -> usize {
        plies.0.into()
    }
}
