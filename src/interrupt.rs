//! Ctrl-C during `tsume solve`: the first stops the search, and its answer so far (the best
//! mate found, or unknown) is printed as after a limit; the process then ends as
//! interrupted, killed by the signal (status 130 in a shell), so that a script's loop of
//! solves stops too. A second Ctrl-C ends the process at once.

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
