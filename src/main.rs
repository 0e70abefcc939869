//! The `inarow` binary: a thin shell around [`inarow::cli::run`].

use std::process::ExitCode;

/// The host's tasks allocate small, short-lived buffers on every core at
/// once (a frame per redraw); glibc's allocator serialised them on its
/// arena locks under load (a third of the host's CPU went to malloc and
/// futex waits in `perf` with 5,000 watchers). mimalloc keeps per-thread
/// heaps.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    inarow::cli::main()
}
