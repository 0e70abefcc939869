//! The one sanitiser for text that came from a person or the network.
//!
//! Anything a user typed (names, room codes, bad moves quoted back in an
//! error) passes through here before it is shown on any terminal, so escape
//! sequences, control bytes, bidirectional overrides and zero-width tricks
//! never reach a screen, and every piece has a bounded display width.

use unicode_width::UnicodeWidthChar;

/// Longest display name, in terminal columns.
pub const MAX_NAME_WIDTH: usize = 20;

/// Characters that are printable by category but rearrange or hide text:
/// bidirectional controls, zero-width characters, the BOM, and the like.
fn is_invisible_format(c: char) -> bool {
    matches!(c,
        '\u{00AD}'                  // soft hyphen
        | '\u{034F}'                // combining grapheme joiner
        | '\u{061C}'                // Arabic letter mark
        | '\u{115F}' | '\u{1160}'   // Hangul fillers
        | '\u{17B4}' | '\u{17B5}'
        | '\u{180B}'..='\u{180F}'
        | '\u{200B}'..='\u{200F}'   // zero-width space/joiners, LRM, RLM
        | '\u{2028}'..='\u{202E}'   // line/paragraph separators, bidi embeddings/overrides
        | '\u{2060}'..='\u{206F}'   // word joiner, invisible operators, bidi isolates
        | '\u{3164}'
        | '\u{FE00}'..='\u{FE0F}'   // variation selectors
        | '\u{FEFF}'                // BOM
        | '\u{FFA0}'
        | '\u{FFF0}'..='\u{FFFF}'
        | '\u{E0000}'..='\u{E0FFF}' // tags and supplementary variation selectors
    )
}

/// The display width of one character we are willing to show, or `None`
/// if it must be dropped (controls, escapes, invisible or zero-width characters).
fn shown_width(c: char) -> Option<usize> {
    if c.is_control() || is_invisible_format(c) {
        return None;
    }
    match c.width() {
        Some(w @ 1..=2) => Some(w),
        _ => None,
    }
}

/// Keeps printable characters only, turns any run of whitespace into one
/// space, trims, and cuts to at most `max_width` terminal columns.
pub fn sanitize(input: &str, max_width: usize) -> String {
    let mut out = String::new();
    let mut width = 0;
    let mut pending_space = false;
    for c in input.chars() {
        if c.is_whitespace() {
            pending_space = !out.is_empty();
            continue;
        }
        let Some(w) = shown_width(c) else { continue };
        let extra = usize::from(pending_space);
        if width + extra + w > max_width {
            break;
        }
        if pending_space {
            out.push(' ');
            width += 1;
            pending_space = false;
        }
        out.push(c);
        width += w;
    }
    out
}

/// A display name: sanitised, at most [`MAX_NAME_WIDTH`] columns; `fallback`
/// when nothing printable is left.
pub fn sanitize_name(input: &str, fallback: &str) -> String {
    let name = sanitize(input, MAX_NAME_WIDTH);
    if name.is_empty() {
        fallback.to_string()
    } else {
        name
    }
}

/// User input quoted back in a message: printable characters only, at most
/// `max_chars` of them, `...` when cut.
pub fn sanitize_quote(input: &str, max_chars: usize) -> String {
    let cleaned = sanitize(input, usize::MAX);
    if cleaned.chars().count() <= max_chars {
        cleaned
    } else {
        let mut s: String = cleaned.chars().take(max_chars).collect();
        s.push_str("...");
        s
    }
}

/// Display width of text that has already been sanitised (or is our own).
pub fn width(s: &str) -> usize {
    s.chars().map(|c| c.width().unwrap_or(0)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_and_escape_bytes_never_come_through() {
        let hostile = "Ev\x1b[2J\x1b]0;pwned\x07il\r\n\u{202E}eve\u{200B}\x7f\u{9b}31m";
        let s = sanitize_name(hostile, "Guest");
        assert!(!s.contains('\x1b'));
        assert!(!s.chars().any(|c| c.is_control()), "{s:?}");
        assert!(!s.contains('\u{202E}') && !s.contains('\u{200B}'));
        assert!(s.starts_with("Ev[2J]0;pwnedil"), "{s:?}");
    }

    #[test]
    fn names_are_trimmed_collapsed_and_bounded() {
        assert_eq!(sanitize_name("  Alice \t  Smith  ", "x"), "Alice Smith");
        assert_eq!(sanitize_name("\x1b\x07", "Player 1"), "Player 1");
        assert_eq!(sanitize_name("", "Player 2"), "Player 2");
        let long = "a".repeat(100);
        assert_eq!(sanitize_name(&long, "x").len(), MAX_NAME_WIDTH);
        // Wide characters count double and are never split.
        let wide = "\u{1F534}".repeat(30);
        let s = sanitize_name(&wide, "x");
        assert_eq!(width(&s), MAX_NAME_WIDTH);
    }

    #[test]
    fn quotes_are_cut() {
        assert_eq!(sanitize_quote("abcdefghij", 4), "abcd...");
        assert_eq!(sanitize_quote("ab\x1bc", 4), "abc");
    }
}
