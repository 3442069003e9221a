//! Problem and move formats: Japanese move [`notation`], [`kif`] and [`csa`] records, and
//! [`usi`] command lines (for `tsume usi`). SFEN itself is read in
//! [`crate::rules::setup`].

pub mod csa;
pub mod kif;
pub mod notation;
pub mod usi;

/// The 1-based line of the first carriage return not followed by a line feed (classic Mac
/// OS line endings), if any. `str::lines` splits at LF only: with CR-only endings a whole
/// file would be one line, so the KIF and CSA readers refuse such a text.
pub(crate) fn bare_carriage_return(text: &str) -> Option<usize> {
    text.match_indices('\r')
        .map(|(i, _)| i)
        .find(|&i| !text[i + 1..].starts_with('\n'))
        .map(|at| text[..at].matches('\n').count() + 1)
}

/// What the readers say of a text [`bare_carriage_return`] finds.
pub(crate) const BARE_CARRIAGE_RETURN: &str = "a carriage return without a line feed (CR-only \
     line endings): save the file with LF or CRLF line endings";
