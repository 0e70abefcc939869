//! The `inarow` binary: a thin shell around [`inarow::cli::run`].

use std::process::ExitCode;

fn main() -> ExitCode {
    inarow::cli::main()
}
