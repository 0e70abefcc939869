//! Helpers shared by the integration tests.

#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// The built `inarow` binary.
pub fn inarow() -> Command {
    Command::new(env!("CARGO_BIN_EXE_inarow"))
}

/// Runs `inarow ARGS` with `input` on stdin and returns its output.
pub fn run_with_input(args: &[&str], input: &str) -> Output {
    let mut child = inarow()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start inarow");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    child.wait_with_output().expect("inarow ran")
}

pub mod ssh;
pub mod telnet;

/// Resident memory of a process, in KiB.
pub fn rss_of(pid: u32) -> usize {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// A tmux session for driving a terminal program like a person.
pub struct Tmux {
    name: String,
}

impl Tmux {
    pub fn new(name: &str, cols: u16, rows: u16) -> Tmux {
        let name = format!("{name}-{}", std::process::id());
        let _ = Command::new("tmux")
            .args(["kill-session", "-t", &name])
            .output();
        let ok = Command::new("tmux")
            .args([
                "new-session",
                "-d",
                "-s",
                &name,
                "-x",
                &cols.to_string(),
                "-y",
                &rows.to_string(),
            ])
            .status()
            .expect("tmux runs");
        assert!(ok.success());
        Tmux { name }
    }

    /// Types a shell command line and Enter.
    pub fn run(&self, command: &str) {
        self.keys(&[command, "Enter"]);
    }

    /// Sends tmux key names (`Enter`, `Left`, `C-c`) or literal text.
    pub fn keys(&self, keys: &[&str]) {
        for k in keys {
            let ok = Command::new("tmux")
                .args(["send-keys", "-t", &self.name, k])
                .status()
                .unwrap();
            assert!(ok.success());
        }
    }

    pub fn screen(&self) -> String {
        let out = Command::new("tmux")
            .args(["capture-pane", "-p", "-t", &self.name])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    pub fn wait_for(&self, needle: &str) -> String {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
        loop {
            let s = self.screen();
            if s.contains(needle) {
                return s;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "{needle:?} did not show:\n{s}"
            );
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }

    pub fn kill(&self) {
        let _ = Command::new("tmux")
            .args(["kill-session", "-t", &self.name])
            .output();
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        self.kill();
    }
}
