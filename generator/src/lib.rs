//! Generator of sound tsume problems (rules doc §3), exported as puzzle packs.
//!
//! - [`rng`]: a deterministic random number generator (one stream per candidate);
//! - [`candidate`]: random placements around a defender king, and mutations of accepted
//!   problems;
//! - [`extend`]: backward extension, a check and a reply put before an accepted problem;
//! - [`pipeline`]: legal set-up → quick mate screen → length → `tsume verify` → removal of
//!   unnecessary pieces;
//! - [`line`](mod@line): the one reader of problem lines (a pack's JSON lines, SFEN lines), used by
//!   `tsume verify`, `tsume render` and `tsume html`;
//! - [`identity`]: what makes two problems the same (the id, the solution skeleton);
//! - [`pack`]: the pack records (id, themes, grade, dedup) and files;
//! - [`merge`]: shard packs (or any packs) joined into one;
//! - [`run`]: the parallel, deterministic, resumable generation loop.

pub mod candidate;
pub mod extend;
pub mod identity;
pub mod line;
pub mod merge;
pub mod pack;
pub mod pipeline;
pub mod rng;
pub mod run;
