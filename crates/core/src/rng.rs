//! The one place random generators are made: seeded for tests and
//! reproducible runs, from the operating system otherwise. Used by the
//! engines, the screens and the lobby alike.

use rand::SeedableRng;
use rand::rngs::SmallRng;

/// A fast random generator, seeded for tests or from the OS.
pub fn make_rng(seed: Option<u64>) -> SmallRng {
    match seed {
        Some(s) => SmallRng::seed_from_u64(s),
        None => rand::make_rng(),
    }
}
