//! Naming policy, all in one place: the name a login suggests (generic
//! user names such as `play` and room codes suggest none), guest names,
//! the name each key used last, names kept for the computer, and keeping
//! names unique among those online. Pure; the lobby state applies it.

use std::collections::HashMap;

use rand::RngExt;
use rand::rngs::SmallRng;

use super::codes::looks_like_code;
use crate::text::{MAX_NAME_WIDTH, is_reserved_name, sanitize};

/// User names that say nothing about the person: they get a guest name.
const GENERIC_USERS: [&str; 14] = [
    "",
    "play",
    "guest",
    "anonymous",
    "anon",
    "user",
    "root",
    "admin",
    "ssh",
    "game",
    "games",
    "inarow",
    "telnet",
    "nobody",
];

/// The display name a user name suggests, if any.
pub fn suggested_name(user: &str) -> Option<String> {
    let name = sanitize(user, MAX_NAME_WIDTH);
    let lower = name.to_ascii_lowercase();
    if GENERIC_USERS.contains(&lower.as_str()) || looks_like_code(&name) || is_reserved_name(&name)
    {
        None
    } else {
        Some(name)
    }
}

/// A guest name: stable for a key (from its fingerprint), random otherwise.
pub fn guest_name(identity: Option<&str>, rng: &mut SmallRng) -> String {
    let n = match identity {
        Some(fp) => {
            fp.bytes()
                .fold(0u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b)))
                % 10_000
        }
        None => rng.random_range(0..10_000),
    };
    format!("Guest{n:04}")
}

/// `name`, or `name2`, `name3`... whichever `taken` says is free (never
/// past the width bound); `Guest<id>` if none is.
pub fn unique_name(name: &str, id: u64, taken: impl Fn(&str) -> bool) -> String {
    if !taken(name) {
        return name.to_string();
    }
    for n in 2..10_000u32 {
        let suffix = n.to_string();
        let room = MAX_NAME_WIDTH.saturating_sub(suffix.len());
        let base = sanitize(name, room);
        let candidate = format!("{base}{suffix}");
        if !taken(&candidate) {
            return candidate;
        }
    }
    format!("Guest{id}")
}

/// Keys whose names are remembered, at most; beyond, the memory starts over.
pub const REMEMBERED_MAX: usize = 100_000;

/// The last name each key used, so a returning player gets it back.
#[derive(Debug, Default)]
pub struct Remembered {
    names: HashMap<String, String>,
}

impl Remembered {
    /// The name `identity` used last.
    pub fn get(&self, identity: &str) -> Option<&str> {
        self.names.get(identity).map(String::as_str)
    }

    /// Notes the name of a key (nothing for a session without one).
    pub fn remember(&mut self, identity: Option<&str>, name: &str) {
        if let Some(i) = identity {
            if self.names.len() >= REMEMBERED_MAX {
                self.names.clear();
            }
            self.names.insert(i.to_string(), name.to_string());
        }
    }

    /// How many keys are remembered.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.names.len()
    }

    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::make_rng;

    #[test]
    fn generic_user_names_codes_and_reserved_names_suggest_nothing() {
        for user in [
            "", "play", "PLAY", "guest", "root", "telnet", "KB2C", "computer", "CPU",
        ] {
            assert_eq!(suggested_name(user), None, "{user:?}");
        }
        assert_eq!(suggested_name("alice"), Some("alice".into()));
        assert_eq!(suggested_name("Bob"), Some("Bob".into()));
    }

    #[test]
    fn a_key_has_a_stable_guest_name() {
        let mut rng = make_rng(Some(1));
        let a = guest_name(Some("SHA256:abc"), &mut rng);
        assert_eq!(a, guest_name(Some("SHA256:abc"), &mut rng));
        assert!(a.starts_with("Guest") && a.len() == 9, "{a}");
        let r = guest_name(None, &mut rng);
        assert!(r.starts_with("Guest") && r.len() == 9, "{r}");
    }

    #[test]
    fn taken_names_get_the_first_free_number() {
        let taken = ["ann", "ANN2", "ann3"];
        let is_taken = |n: &str| taken.iter().any(|t| t.eq_ignore_ascii_case(n));
        assert_eq!(unique_name("bob", 1, is_taken), "bob");
        assert_eq!(unique_name("Ann", 1, is_taken), "Ann4");
        // At the width bound the suffix replaces the end of the name.
        let long = "x".repeat(MAX_NAME_WIDTH);
        let got = unique_name(&long, 1, |n| n == long);
        assert_eq!(got, format!("{}2", "x".repeat(MAX_NAME_WIDTH - 1)));
        assert_eq!(unique_name("any", 7, |_| true), "Guest7");
    }

    #[test]
    fn the_memory_of_names_is_bounded() {
        let mut r = Remembered::default();
        r.remember(None, "nobody");
        assert!(r.is_empty());
        for i in 0..REMEMBERED_MAX {
            r.remember(Some(&format!("key{i}")), "x");
        }
        assert_eq!(r.len(), REMEMBERED_MAX);
        assert_eq!(r.get("key5"), Some("x"));
        r.remember(Some("one more"), "y");
        assert_eq!(r.len(), 1, "the memory starts over");
        assert_eq!(r.get("one more"), Some("y"));
    }
}
