//! Problem and move formats: Japanese move [`notation`], [`kif`] and [`csa`] records, and
//! [`usi`] command lines (for `tsume usi`). SFEN itself is read in
//! [`crate::rules::setup`].

pub mod csa;
pub mod kif;
pub mod notation;
pub mod usi;
