//! When the search stops (node limit, deadline, stop flag) and its progress reports.

use super::search::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Why the search stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    Nodes,
    Time,
    /// The stop flag was raised.
    Requested,
}

/// When to stop, and whom to tell about progress.
#[derive(Clone, Default)]
pub struct Limits {
    pub node_limit: Option<u64>,
    pub deadline: Option<Instant>,
    /// Set by another thread to stop the search (USI `stop`).
    pub stop_flag: Option<Arc<AtomicBool>>,
    /// Called about once a second with the search's progress.
    pub on_progress: Option<ProgressCallback>,
    /// Threads searching together (0 or 1: the calling thread alone).
    pub threads: usize,
    /// Nodes a parallel search spends alone before the other threads join (`None`: the
    /// default, [`WARM_UP_NODES`](super::WARM_UP_NODES)).
    pub warm_up_nodes: Option<u64>,
}

/// Receives [`Progress`] reports from a running search.
pub type ProgressCallback = Arc<dyn Fn(&Progress) + Send + Sync>;

/// A snapshot of a running search.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub nodes: u64,
    pub elapsed: std::time::Duration,
    /// Table fill in per mille.
    pub hashfull: usize,
}

impl Search<'_> {
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
        if now >= self.next_report {
            self.next_report = now + std::time::Duration::from_secs(1);
            if let Some(f) = &self.limits.on_progress {
                f(&Progress {
                    nodes: self.nodes,
                    elapsed: now - self.start,
                    hashfull: self.table.hashfull(),
                });
            }
        }
    }
}
