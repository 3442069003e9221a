//! An engine process driven over pipes, as a GUI drives it: lines sent to its input,
//! its output read line by line with a deadline (tests/usi.rs, tests/usi_gui.rs).

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

pub struct Pipe {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Every line received so far, and the commands sent when `log_sent` (for failure
    /// messages).
    pub log: Vec<String>,
    log_sent: bool,
}

impl Pipe {
    /// Starts `tsume` with `args` (in `dir` if given), its output read on a thread.
    pub fn spawn(args: &[&str], dir: Option<&Path>, log_sent: bool) -> Pipe {
        let mut command = Command::new(env!("CARGO_BIN_EXE_tsume"));
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        if let Some(dir) = dir {
            command.current_dir(dir);
        }
        let mut child = command.spawn().expect("starting tsume");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Pipe {
            child,
            stdin,
            lines: rx,
            log: Vec::new(),
            log_sent,
        }
    }

    pub fn send(&mut self, cmd: &str) {
        if self.log_sent {
            self.log.push(format!("> {cmd}"));
        }
        writeln!(self.stdin, "{cmd}").expect("writing to the engine");
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first that `done` accepts (`what` names it in the
    /// failure message).
    pub fn until(
        &mut self,
        what: &str,
        done: impl Fn(&str) -> bool,
        timeout: Duration,
    ) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.log.push(line.clone());
                    let end = done(&line);
                    got.push(line);
                    if end {
                        return got;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!(
                    "no {what} within {timeout:?}; engine said:\n{}",
                    self.log.join("\n")
                ),
                Err(RecvTimeoutError::Disconnected) => panic!(
                    "the engine closed stdout before {what}; it said:\n{}",
                    self.log.join("\n")
                ),
            }
        }
    }

    /// Waits for the process to exit.
    pub fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "the engine did not exit within {timeout:?}:\n{}",
                self.log.join("\n")
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Pipe {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
