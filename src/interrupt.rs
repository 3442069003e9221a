//! Ctrl-C during `tsume solve`: the first stops the search, and its answer so far (the best
//! mate found, or unknown) is printed as after a limit; the process then ends as
//! interrupted, killed by the signal (status 130 in a shell), so that a script's loop of
//! solves stops too. A second Ctrl-C ends the process at once.
//!
//! Ctrl-C during `tsume generate` ([`tell_then_die`]): one line on stderr, then the process
//! dies by the signal where the run stands, as it did without a handler; the pack's files
//! are written so that any such point is safe (see `tsume_generator::run`).

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;

/// The flag that the first Ctrl-C raises (the search's stop flag), once the handlers are
/// in place; `None` where they cannot be (then Ctrl-C ends the process as before).
#[cfg(unix)]
pub fn watch() -> Option<Arc<AtomicBool>> {
    use signal_hook::consts::SIGINT;
    use signal_hook::flag;
    let raised = Arc::new(AtomicBool::new(false));
    // The conditional default first: it reads the flag before the second handler raises
    // it, so only a second Ctrl-C finds it raised and ends the process.
    flag::register_conditional_default(SIGINT, Arc::clone(&raised)).ok()?;
    flag::register(SIGINT, Arc::clone(&raised)).ok()?;
    Some(raised)
}

#[cfg(not(unix))]
pub fn watch() -> Option<Arc<AtomicBool>> {
    None
}

/// Ends the process as interrupted if the flag of [`watch`] was raised (after the answer
/// is written); returns otherwise.
pub fn end_if_raised(raised: Option<&AtomicBool>) {
    if !raised.is_some_and(|r| r.load(Relaxed)) {
        return;
    }
    #[cfg(unix)]
    {
        // The signal's own default action: the process dies by SIGINT, as it would have
        // without the handlers.
        let _ = signal_hook::low_level::emulate_default_handler(signal_hook::consts::SIGINT);
    }
}

/// From now on, the first Ctrl-C prints `message()` (computed then) on stderr and the
/// process dies by SIGINT at once, as it would have without a handler: the rest of the
/// process is not stopped or waited for, only told about. A second Ctrl-C, while the first
/// is being told, ends the process at once. Where the handler cannot be set up (not Unix, no
/// thread), Ctrl-C ends the process silently as before.
#[cfg(unix)]
pub fn tell_then_die(message: impl Fn() -> String + Send + 'static) {
    use signal_hook::consts::SIGINT;
    use signal_hook::flag;
    use signal_hook::iterator::Signals;
    let (ready_tx, ready_rx) = std::sync::mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("ctrl-c".into())
        .spawn(move || {
            // Registered here, so that nothing is left registered (and Ctrl-C ignored) if
            // this thread cannot be started.
            let Ok(mut signals) = Signals::new([SIGINT]) else {
                let _ = ready_tx.send(());
                return;
            };
            let raised = Arc::new(AtomicBool::new(false));
            let _ = flag::register_conditional_default(SIGINT, Arc::clone(&raised));
            let _ = ready_tx.send(());
            if signals.forever().next().is_some() {
                raised.store(true, Relaxed);
                eprintln!("{}", message());
                let _ = signal_hook::low_level::emulate_default_handler(SIGINT);
            }
        });
    if spawned.is_ok() {
        // Set up before the caller goes on, so that a Ctrl-C from then on is told.
        let _ = ready_rx.recv();
    }
}

#[cfg(not(unix))]
pub fn tell_then_die(_message: impl Fn() -> String + Send + 'static) {}
