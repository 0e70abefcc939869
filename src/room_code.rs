//! Room codes: the short codes a host gives a friend (`ssh CODE@host`, or
//! typed in the lobby). Pure: the alphabet, how typed codes are read, and
//! how new ones are drawn.

use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;

/// Room codes use no vowels (so no user name such as `play` or `guest`
/// is ever taken for a code, and no word is spelled by accident) and no
/// characters that look alike (I/1, O/0). 28^4 = 614,656 codes.
const CODE_ALPHABET: &[u8] = b"BCDFGHJKLMNPQRSTVWXZ23456789";
const CODE_LEN: usize = 4;
/// A guest's resume code (`ssh CODE@host` after a dropped connection):
/// longer, 28^6 = 481,890,304 codes, so it cannot be guessed in the grace
/// time.
pub const RESUME_LEN: usize = 6;

/// Normalises a typed room code: upper case, no spaces or dashes.
pub fn normalise_code(code: &str) -> String {
    code.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .take(16)
        .collect::<String>()
        .to_ascii_uppercase()
}

/// Whether a character can be part of a room code (either case).
pub fn is_code_char(c: char) -> bool {
    c.is_ascii() && CODE_ALPHABET.contains(&(c as u8).to_ascii_uppercase())
}

/// Whether text has the shape of a room code (used for `ssh CODE@host`).
pub fn looks_like_code(text: &str) -> bool {
    (text.len() == CODE_LEN || text.len() == RESUME_LEN)
        && text
            .bytes()
            .all(|b| CODE_ALPHABET.contains(&b.to_ascii_uppercase()))
}

/// A random code for which `taken` is false.
pub fn new_code(rng: &mut SmallRng, taken: impl Fn(&str) -> bool) -> String {
    new_code_of(rng, CODE_LEN, taken)
}

/// A random code of `len` characters for which `taken` is false.
pub fn new_code_of(rng: &mut SmallRng, len: usize, taken: impl Fn(&str) -> bool) -> String {
    loop {
        let code: String = (0..len)
            .map(|_| char::from(*CODE_ALPHABET.choose(rng).unwrap_or(&b'A')))
            .collect();
        if !taken(&code) {
            return code;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes() {
        assert_eq!(normalise_code(" kb-2c "), "KB2C");
        assert!(looks_like_code("KB2C"));
        assert!(looks_like_code("kb2c"));
        assert!(!looks_like_code("KB0C"), "0 is not in the alphabet");
        assert!(looks_like_code("KB2CXW"), "a resume code");
        assert!(!looks_like_code("KB2CX"));
        for word in ["play", "user", "root", "demo", "test", "game"] {
            assert!(!looks_like_code(word), "{word}");
        }
    }

    #[test]
    fn new_codes_have_the_shape_of_codes_and_avoid_taken_ones() {
        let mut rng = crate::rng::make_rng(Some(7));
        let mut seen = std::collections::HashSet::new();
        for _ in 0..200 {
            let code = new_code(&mut rng, |c| seen.contains(c));
            assert!(looks_like_code(&code), "{code}");
            assert_eq!(normalise_code(&code), code);
            assert!(code.chars().all(is_code_char));
            assert!(seen.insert(code), "a code given twice");
        }
    }
}
