//! When the search stops (node limit, deadline, stop flag), why it ended unsettled, and its
//! progress reports.

use super::search::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// How often a search reports its progress: the displays tick once a second and show the
/// last report, so a report each second left them a second behind, and the evaluator's
/// many short sub-searches (each under a second) never reported at all.
#[cfg(not(test))]
pub(super) const REPORT_PERIOD: std::time::Duration = std::time::Duration::from_millis(100);
/// In unit tests every clock check reports (every 256 nodes), so that which searches
/// report does not depend on the machine's speed.
#[cfg(test)]
pub(super) const REPORT_PERIOD: std::time::Duration = std::time::Duration::ZERO;

/// Why the search stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The node limit was reached.
    Nodes,
    /// The deadline passed.
    Time,
    /// The stop flag was raised.
    Requested,
}

/// Why a search, or a question answered by several searches, ended without an answer.
///
/// Only [`Unsettled::Limit`] means that a limit was reached; the other two are left open
/// for reasons of their own, so that "stopped by the node limit" is never said of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unsettled {
    /// A limit stopped the search.
    Limit(Stop),
    /// The searches contradicted each other (a transposition-table key collision: a
    /// position proven mate whose every move the next search finds no mate, or a search
    /// that ended unsettled with no limit reached). "Unknown" rather than a wrong answer.
    Inconsistent,
    /// The tie-break between equally long defences gave up before trying them all (see
    /// [`TieBreak`](crate::tsume::TieBreak)), so pieces left over prove nothing.
    CutShort,
}

impl Unsettled {
    /// The limit that stopped the search, if that is why it is unsettled.
    pub fn limit(self) -> Option<Stop> {
        match self {
            Unsettled::Limit(stop) => Some(stop),
            Unsettled::Inconsistent | Unsettled::CutShort => None,
        }
    }

    /// Whether searching again with a bigger node budget may settle it: after the node
    /// limit, and after a contradiction or a cut-short tie-break too, since the bigger
    /// search leaves other entries in the tables (the verifier retries these).
    pub fn may_settle_with_more_nodes(self) -> bool {
        !matches!(self, Unsettled::Limit(Stop::Time | Stop::Requested))
    }
}

impl From<Stop> for Unsettled {
    fn from(stop: Stop) -> Unsettled {
        Unsettled::Limit(stop)
    }
}

/// When to stop, and whom to tell: the one set of limits of every search, from a
/// [`Solver`](crate::Solver) solve or verification down to one df-pn search.
///
/// ```
/// use std::time::Duration;
/// use tsume_solver::Limits;
///
/// let limits = Limits {
///     node_limit: Some(1_000_000),
///     ..Limits::default()
/// }
/// .with_time_limit(Duration::from_secs(10));
/// assert!(limits.deadline.is_some());
/// ```
#[derive(Clone, Default)]
pub struct Limits {
    /// Stop after this many nodes in all (with several threads, each thread's).
    pub node_limit: Option<u64>,
    /// Nodes of each sub-search of the tsume evaluator and of a verification (the
    /// verifier's `--budget`); `node_limit` still bounds them all together.
    pub per_search: Option<u64>,
    /// Stop at this instant (see [`Limits::with_time_limit`]): a solve and the searches
    /// after it (its variations) given the same limits share one clock.
    pub deadline: Option<Instant>,
    /// Set by another thread to stop the search (USI `stop`).
    pub stop_flag: Option<Arc<AtomicBool>>,
    /// Called about once a second with the search's progress.
    pub on_progress: Option<ProgressCallback>,
    /// Called each time a solve learns a shorter mate or a higher lower bound.
    pub on_event: Option<super::EventCallback>,
    /// Threads searching together (0 or 1: the calling thread alone).
    pub threads: usize,
    /// Nodes a parallel search spends alone before the other threads join (`None`: the
    /// default, [`WARM_UP_NODES`](super::WARM_UP_NODES); tests set 0 to search everything
    /// in parallel).
    pub warm_up_nodes: Option<u64>,
}

impl Limits {
    /// These limits with a deadline `time` from now (`None`: no deadline).
    pub fn with_time_limit(self, time: impl Into<Option<std::time::Duration>>) -> Limits {
        Limits {
            deadline: time.into().map(|t| Instant::now() + t),
            ..self
        }
    }
}

/// Receives [`Progress`] reports from a running search.
pub type ProgressCallback = Arc<dyn Fn(&Progress) + Send + Sync>;

/// A snapshot of a running search.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: std::time::Duration,
    /// Table fill in per mille.
    pub hashfull: usize,
}

/// `on_progress` for a search that counts its nodes from zero after `before` nodes of the
/// searches it continues: it then reports their nodes and its own together.
pub(crate) fn progress_after(
    on_progress: &Option<ProgressCallback>,
    before: u64,
) -> Option<ProgressCallback> {
    on_progress.clone().map(|f| {
        Arc::new(move |p: &Progress| {
            f(&Progress {
                nodes: before + p.nodes,
                ..*p
            })
        }) as ProgressCallback
    })
}

impl Search<'_> {
    /// Why the last search ended unsettled: the limit that stopped it, or, when none did
    /// (it cannot happen but by a contradiction), [`Unsettled::Inconsistent`].
    pub fn unsettled(&self) -> Unsettled {
        self.stopped
            .map_or(Unsettled::Inconsistent, Unsettled::Limit)
    }

    #[inline]
    pub(super) fn tick(&mut self) {
        self.nodes += 1;
        #[cfg(feature = "stats")]
        self.stats.node();
        if self.limits.node_limit.is_some_and(|n| self.nodes >= n) {
            self.stopped = Some(Stop::Nodes);
        }
        // Every 256 nodes: `stop` is answered within a few milliseconds even in a debug build
        // (~80 k nodes/s), and the clock read costs nothing per node.
        if self.nodes & 255 == 0 {
            self.check_clock();
        }
    }

    #[cold]
    pub(super) fn check_clock(&mut self) {
        if self
            .limits
            .stop_flag
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            self.stopped = Some(Stop::Requested);
        }
        if self
            .halt
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            self.stopped = Some(Stop::Requested);
        }
        let now = Instant::now();
        if self.limits.deadline.is_some_and(|d| now >= d) {
            self.stopped = Some(Stop::Time);
        }
        self.tell_nodes();
        if now >= self.next_report {
            self.next_report = now + REPORT_PERIOD;
            if let Some(f) = &self.limits.on_progress {
                f(&Progress {
                    nodes: self.nodes + self.other_threads_nodes(),
                    elapsed: now - self.start,
                    hashfull: self.table.hashfull(),
                });
            }
        }
    }
}
