//! What a running solve has found so far, for the displays that follow it: the progress
//! line of `tsume solve` on a terminal and the USI engine's `info` lines.

use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use tsume_solver::dfpn::{Improvement, Progress, SolveEvent};
use tsume_solver::{Limits, Plies};

/// The state of a running solve as last reported.
#[derive(Clone, Copy, Debug, Default)]
pub struct Snapshot {
    /// Nodes searched (as of the last report: sub-searches report about once a second).
    pub nodes: u64,
    /// Table fill in per mille, of the table last reported.
    pub hashfull: usize,
    /// The best mate found (an upper bound of the answer until it is proven).
    pub best: Option<Plies>,
    /// Every mate shorter than this is proven impossible.
    pub lower_bound: Plies,
}

/// A [`Snapshot`] shared with the solve's callbacks.
#[derive(Clone)]
pub struct Live {
    start: Instant,
    state: Arc<Mutex<Snapshot>>,
}

/// Told of each shorter mate as it is found, on the search thread.
pub type OnMate = Arc<dyn Fn(&Improvement, Duration) + Send + Sync>;

impl Live {
    pub fn new() -> Live {
        Live {
            start: Instant::now(),
            state: Arc::new(Mutex::new(Snapshot {
                lower_bound: Plies::new(1),
                ..Snapshot::default()
            })),
        }
    }

    /// Time since [`Live::new`].
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    pub fn snapshot(&self) -> Snapshot {
        *self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn update(&self, f: impl FnOnce(&mut Snapshot)) {
        f(&mut self.state.lock().unwrap_or_else(|e| e.into_inner()));
    }

    /// Sets `options`' progress and event callbacks to keep this state; `on_mate` is also
    /// told each shorter mate (with the time since [`Live::new`]).
    pub fn attach(&self, options: &mut Limits, on_mate: Option<OnMate>) {
        let live = self.clone();
        options.on_progress = Some(Arc::new(move |p: &Progress| {
            live.update(|s| {
                s.nodes = s.nodes.max(p.nodes);
                s.hashfull = p.hashfull;
            })
        }));
        let live = self.clone();
        options.on_event = Some(Arc::new(move |e: &SolveEvent| match e {
            SolveEvent::Mate(i) => {
                live.update(|s| {
                    s.nodes = s.nodes.max(i.nodes);
                    s.best = Some(i.length);
                });
                if let Some(f) = &on_mate {
                    f(i, live.elapsed());
                }
            }
            SolveEvent::LowerBound {
                lower_bound, nodes, ..
            } => live.update(|s| {
                s.nodes = s.nodes.max(*nodes);
                s.lower_bound = s.lower_bound.max(*lower_bound);
            }),
        }));
    }
}

/// Nodes per second, or `None` under a millisecond: a rate over less time than the
/// millisecond the time is told in is noise (1 node in 20 µs is no 50,000 nps), and taking
/// the time as 1 ms made one up (`nodes 1 time 0.000s nps 1000`).
pub fn nps(nodes: u64, elapsed: Duration) -> Option<u64> {
    (elapsed >= Duration::from_millis(1)).then(|| (nodes as f64 / elapsed.as_secs_f64()) as u64)
}

/// ` nps N` for an `info` line or a summary, empty when [`nps`] has no rate.
pub fn nps_field(nodes: u64, elapsed: Duration) -> String {
    nps(nodes, elapsed).map_or(String::new(), |n| format!(" nps {n}"))
}

/// A count in at most 6 characters: `987`, `12.3k`, `4.56M`, `7.89G`.
fn short_count(n: u64) -> String {
    let n = n as f64;
    match n {
        n if n < 1e3 => format!("{n}"),
        n if n < 1e6 => format!("{:.1}k", n / 1e3),
        n if n < 1e9 => format!("{:.2}M", n / 1e6),
        n => format!("{:.2}G", n / 1e9),
    }
}

/// The terminal progress line (at most 79 columns): best mate, lower bound (every mate
/// shorter is proven impossible), nodes, nodes per second, elapsed time.
pub fn progress_text(s: &Snapshot, elapsed: Duration) -> String {
    let best = s.best.map_or("-".to_string(), |l| l.to_string());
    // 1 is no bound at all: a mate is at least 1 ply.
    let lower = match s.lower_bound.get() {
        0 | 1 => "-".to_string(),
        b => b.to_string(),
    };
    let mut text = format!(
        "best mate {best} | lower bound {lower} | {} nodes | {}/s | {:.1}s",
        short_count(s.nodes),
        nps(s.nodes, elapsed).map_or("-".to_string(), short_count),
        elapsed.as_secs_f64()
    );
    text.truncate(79);
    text
}

/// Runs a function about once a period on a thread of its own until dropped.
pub struct Ticker {
    stop: Option<mpsc::Sender<()>>,
    handle: Option<JoinHandle<()>>,
}

impl Ticker {
    pub fn start(period: Duration, mut f: impl FnMut() + Send + 'static) -> Ticker {
        let (stop, stopped) = mpsc::channel::<()>();
        let handle = std::thread::Builder::new()
            .name("tsume-ticker".into())
            .spawn(move || {
                while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(period) {
                    f();
                }
            })
            .ok();
        Ticker {
            stop: Some(stop),
            handle,
        }
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        // Dropping the sender wakes the thread at once.
        self.stop.take();
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_progress_line_fits_80_columns() {
        let s = Snapshot {
            nodes: u64::MAX,
            hashfull: 1000,
            best: Some(Plies::new(u16::MAX)),
            lower_bound: Plies::new(u16::MAX),
        };
        let text = progress_text(&s, Duration::from_secs(1_000_000_000));
        assert!(text.chars().count() < 80, "{text}");
        let text = progress_text(&Snapshot::default(), Duration::ZERO);
        assert!(text.starts_with("best mate - | lower bound - |"), "{text}");
    }

    #[test]
    fn no_rate_under_a_millisecond() {
        assert_eq!(nps(1, Duration::from_micros(20)), None);
        assert_eq!(nps(21, Duration::ZERO), None);
        assert_eq!(nps_field(21, Duration::from_micros(999)), "");
        assert_eq!(nps(3, Duration::from_millis(1)), Some(3000));
        assert_eq!(nps_field(1_500, Duration::from_millis(1_500)), " nps 1000");
    }

    #[test]
    fn counts_are_short() {
        assert_eq!(short_count(999), "999");
        assert_eq!(short_count(12_345), "12.3k");
        assert_eq!(short_count(4_560_000), "4.56M");
        assert_eq!(short_count(7_890_000_000), "7.89G");
    }
}
