//! Problem and move formats: Japanese move [`notation`], [`kif`] and [`csa`] records, and
//! [`usi`] command lines (for `tsume usi`). SFEN itself is read in
//! [`crate::rules::setup`].

#[allow(missing_docs)]
pub mod csa;
#[allow(missing_docs)]
pub mod kif;
pub mod notation;
pub mod usi;
