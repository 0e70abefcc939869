//! Helpers shared by the integration tests.

#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// The built `inarow` binary.
/// `inarow`, in English whatever the test's own environment says (a test
/// of another language sets its own).
pub fn inarow() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_inarow"));
    c.env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env("LANG", "C.UTF-8");
    c
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

/// Runs `inarow ARGS` to its end and checks it succeeded (its output and
/// errors shown if not); its standard output.
pub fn run_ok(args: &[&str]) -> String {
    output_ok(inarow().args(args))
}

/// Runs `cmd` to its end and checks it succeeded (its output and errors
/// shown if not); its standard output.
pub fn output_ok(cmd: &mut Command) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// `inarow serve --config FILE` for a config the host must refuse: it
/// stops at start, failing; its errors.
pub fn serve_refused(config: &std::path::Path) -> String {
    let out = inarow()
        .args(["serve", "--config"])
        .arg(config)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success(), "{err}");
    err
}

/// The number that follows the first `marker` in `text` (0 if none).
pub fn number_after(text: &str, marker: &str) -> u64 {
    text.split(marker)
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

pub mod http;
pub mod proxy;
pub mod scratch;
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
            .unwrap_or_else(|e| {
                panic!(
                    "this test needs tmux, which does not run: {e} (scripts/test-deps installs it)"
                )
            });
        assert!(ok.success(), "tmux new-session: {ok}");
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

    /// Resizes the window, as a person dragging its corner.
    pub fn resize(&self, cols: u16, rows: u16) {
        let ok = Command::new("tmux")
            .args([
                "resize-window",
                "-t",
                &self.name,
                "-x",
                &cols.to_string(),
                "-y",
                &rows.to_string(),
            ])
            .status()
            .unwrap();
        assert!(ok.success());
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

/// What the tests do with a client of either transport (SSH or telnet), so
/// a test of the host's behaviour is written once and run over both.
#[allow(async_fn_in_trait)]
pub trait TestClient {
    /// Sends bytes as typed.
    async fn send(&mut self, bytes: &[u8]);
    /// Sends bytes unless the write does not complete within `within` (a
    /// host that stopped taking input); returns whether it did.
    async fn try_send(&mut self, bytes: &[u8], within: std::time::Duration) -> bool;
    /// The screen as the person sees it.
    fn screen(&self) -> String;
    /// Reads output for up to `d`.
    async fn pump(&mut self, d: std::time::Duration);
    fn is_closed(&self) -> bool;

    /// Reads until the screen shows `needle`; panics with the screen after 10 s.
    async fn wait_for(&mut self, needle: &str) -> String {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            let s = self.screen();
            if s.contains(needle) {
                return s;
            }
            assert!(!self.is_closed(), "closed before {needle:?} showed:\n{s}");
            assert!(
                std::time::Instant::now() < deadline,
                "{needle:?} did not show:\n{s}"
            );
            self.pump(std::time::Duration::from_millis(50)).await;
        }
    }

    /// Sends each step's keys, then waits for its text: a walk through menus.
    async fn walk(&mut self, steps: &[(&[u8], &str)]) {
        for (keys, needle) in steps {
            self.send(keys).await;
            self.wait_for(needle).await;
        }
    }
}

/// A session drawn into an emulated terminal: what a person would see.
pub trait Emulated {
    fn term(&self) -> &vt100::Parser;

    fn screen(&self) -> String {
        self.term().screen().contents()
    }

    /// Asserts that the screen shows `needle`.
    fn shows(&self, needle: &str) {
        let s = self.screen();
        assert!(s.contains(needle), "{needle:?} not on screen:\n{s}");
    }

    /// Terminal (col, row) where `needle` appears on screen.
    fn find(&self, needle: &str) -> (u16, u16) {
        for (row, line) in self.screen().lines().enumerate() {
            if let Some(byte) = line.find(needle) {
                let col = inarow::text::width(&line[..byte]);
                return (col as u16, row as u16);
            }
        }
        panic!("{needle:?} not on screen:\n{}", self.screen());
    }
}

/// Stones of any colour on a Connect Four board as drawn with emoji (grid
/// rows only: not the stone hovering over the columns, not the players line).
pub fn board_stones(screen: &str) -> usize {
    screen
        .lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit() || "|[(*".contains(c)))
        .map(|l| {
            l.chars()
                .filter(|c| "\u{1F534}\u{1F7E2}\u{1F7E1}\u{1F535}".contains(*c))
                .count()
        })
        .sum()
}

/// From the lobby's first menu, in a real terminal client under tmux:
/// Connect Four against the easy computer, one move with the arrow keys,
/// the computer's answer, then `q`, `y`: lost by forfeit, back at the end
/// screen. The keys a person uses, through the real client.
pub fn play_the_computer_in_tmux(tmux: &Tmux) {
    tmux.keys(&["1"]);
    tmux.wait_for("Play the computer");
    tmux.keys(&["2"]);
    tmux.wait_for("how strong");
    tmux.keys(&["1"]);
    tmux.wait_for("Computer (easy)");
    tmux.wait_for("Move:");
    tmux.keys(&["Left", "Enter"]);
    // Our stone and the computer's answer.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
    while board_stones(&tmux.screen()) < 2 {
        assert!(std::time::Instant::now() < deadline, "{}", tmux.screen());
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    tmux.wait_for("Move:");
    tmux.keys(&["q"]);
    tmux.wait_for("Leave the game?");
    tmux.keys(&["y"]);
    tmux.wait_for("wins by forfeit");
}

/// A client that has stopped reading asks for full repaints (Ctrl-L)
/// thousands of times, paced so the host renders each one (a flood would
/// just be dropped at the door): megabytes of output for a client that
/// takes none of it. The host must cut it off with its memory bounded:
/// checked here, against the host's memory once the session is set up (so
/// the session's own start-up, which varies with the machine's load, is not
/// counted as output held for the client).
pub async fn flood_a_stalled_client<C: TestClient>(server: &ssh::ServerProcess, client: &mut C) {
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let rss_start = rss_of(server.pid());
    let mut watch = ssh::StallWatch::new(server);
    for i in 0..20_000 {
        if !client
            .try_send(b"\x0c", std::time::Duration::from_millis(100))
            .await
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(1)).await;
        if watch.sent(i) {
            break;
        }
    }
    let peak = watch.finish().await;
    assert!(
        ssh::StallWatch::new(server).is_cut(),
        "not cut off:\n{}",
        server.log()
    );
    let grown = peak.saturating_sub(rss_start);
    assert!(
        grown < 16 * 1024,
        "the host grew by {grown} KiB (from {rss_start} KiB)"
    );
}
