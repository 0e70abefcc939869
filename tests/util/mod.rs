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
