//! A command's result on stdout.

use std::io::Write;

/// Writes `bytes` to stdout and flushes them. A reader that went away (`| head`) is not an
/// error: it has what it wanted, and the command ends quietly with its own exit code, where
/// `print!` would panic on the closed pipe. Any other failure (a full disk) is returned.
pub fn write_stdout(bytes: impl AsRef<[u8]>) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes.as_ref()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => r,
    }
}
