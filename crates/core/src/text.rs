//! The one sanitiser for text that came from a person or the network.
//!
//! Anything a user typed (names, room codes, bad moves quoted back in an
//! error) passes through here before it is shown on any terminal, so escape
//! sequences, control bytes, bidirectional overrides and zero-width tricks
//! never reach a screen, and every piece has a bounded display width.

use unicode_normalization::UnicodeNormalization;
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
/// space, trims, and cuts to at most `max_width` terminal columns. Text is
/// put in composed form (NFC) first, so a letter typed as a base letter
/// and a combining accent keeps its accent.
pub fn sanitize(input: &str, max_width: usize) -> String {
    let mut out = String::new();
    let mut width = 0;
    let mut pending_space = false;
    for c in input.nfc() {
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

/// Sanitised text in at most `max_width` columns without cutting a word
/// in half: whole words as long as they fit, then `…`; a first word longer
/// than the room is abbreviated (its start, then `…`).
pub fn shorten(input: &str, max_width: usize) -> String {
    let full = sanitize(input, usize::MAX);
    if width(&full) <= max_width {
        return full;
    }
    if max_width == 0 {
        return String::new();
    }
    let room = max_width - 1;
    let mut out = String::new();
    for word in full.split(' ') {
        let extra = usize::from(!out.is_empty());
        if width(&out) + extra + width(word) > room {
            break;
        }
        if extra == 1 {
            out.push(' ');
        }
        out.push_str(word);
    }
    if out.is_empty() {
        out = sanitize(&full, room);
    }
    // A word that closes nothing it opened reads as cut: "(level…" is
    // fine, but a trailing "vs" or "(" with nothing after it is not.
    while out.ends_with(['(', ' ']) {
        out.pop();
    }
    out.push('…');
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

/// A name folded to what it looks like: lower case, look-alike digits,
/// symbols and Cyrillic or Greek letters turned into the Latin letters they
/// resemble, everything but letters and digits dropped. Two names with the
/// same skeleton look the same on a screen.
pub fn name_skeleton(name: &str) -> String {
    name.nfkd()
        .flat_map(char::to_lowercase)
        .filter_map(|c| {
            Some(match c {
                '0' | 'о' | 'ο' => 'o',
                '1' | '|' | '!' | 'ı' | 'і' | 'ι' => 'l',
                '3' | 'е' | 'ε' => 'e',
                '4' | '@' | 'а' | 'α' => 'a',
                '5' | '$' | 'ѕ' => 's',
                '7' | 'т' | 'τ' => 't',
                'с' | 'ϲ' => 'c',
                'р' | 'ρ' => 'p',
                'х' | 'χ' => 'x',
                'у' | 'γ' => 'y',
                'м' | 'μ' => 'm',
                'к' | 'κ' => 'k',
                'ν' => 'v',
                'υ' => 'u',
                'и' => 'n',
                c if c.is_alphanumeric() && c.is_ascii() => c,
                c if c.is_alphabetic() => c,
                _ => return None,
            })
        })
        .map(|c| if c == 'i' { 'l' } else { c })
        .collect()
}

/// Names a person may not take because they would pass for the host's own
/// players or messages: anything that reads as "computer" (with look-alike
/// characters or not), and the host itself.
pub fn is_reserved_name(name: &str) -> bool {
    let sk = name_skeleton(name);
    sk == name_skeleton("cpu")
        || ["computer", "inarow"]
            .iter()
            .any(|r| sk.contains(&name_skeleton(r)))
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

/// Splits text into lines of at most `max` columns, at spaces where it
/// can, and between two-column (CJK) characters, which need no space to
/// break (never before closing punctuation such as `，` or `）`, nor after
/// opening punctuation); a word longer than a line is cut.
pub fn wrap(s: &str, max: usize) -> Vec<String> {
    let max = max.max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in s.split_whitespace() {
        for (i, piece) in breakable(word).into_iter().enumerate() {
            // A space before a word's first piece; its other pieces join.
            let sep = usize::from(i == 0 && !line.is_empty());
            let mut piece = piece.to_string();
            loop {
                if width(&line) + sep + width(&piece) <= max {
                    if sep == 1 && !line.is_empty() {
                        line.push(' ');
                    }
                    line.push_str(&piece);
                    break;
                }
                if !line.is_empty() {
                    lines.push(std::mem::take(&mut line));
                    continue;
                }
                // A piece wider than a line: cut it.
                let mut head = String::new();
                let mut rest = String::new();
                for c in piece.chars() {
                    if rest.is_empty() && width(&head) + width(c.encode_utf8(&mut [0; 4])) <= max {
                        head.push(c);
                    } else {
                        rest.push(c);
                    }
                }
                if head.is_empty() {
                    break;
                }
                lines.push(head);
                if rest.is_empty() {
                    break;
                }
                piece = rest;
            }
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// A word cut where a line may break inside it: before and after each
/// two-column character, but not before closing punctuation nor after
/// opening punctuation.
fn breakable(word: &str) -> Vec<&str> {
    const CLOSING: &str = "，。、：；！？）」』】》〉,.:;!?)";
    const OPENING: &str = "（「『【《〈(";
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut prev: Option<char> = None;
    for (at, c) in word.char_indices() {
        if let Some(p) = prev {
            let wide = |c: char| c.width() == Some(2);
            let may = (wide(c) || wide(p)) && !CLOSING.contains(c) && !OPENING.contains(p);
            if may {
                pieces.push(&word[start..at]);
                start = at;
            }
        }
        prev = Some(c);
    }
    pieces.push(&word[start..]);
    pieces
}

/// Display width of text that has already been sanitised (or is our own).
pub fn width(s: &str) -> usize {
    s.chars().map(|c| c.width().unwrap_or(0)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shorten_never_cuts_a_word_in_half() {
        assert_eq!(shorten("Computer (level 3)", 20), "Computer (level 3)");
        assert_eq!(shorten("Computer (level 3)", 17), "Computer (level…");
        assert_eq!(shorten("Computer (level 3)", 12), "Computer…");
        assert_eq!(shorten("Supercalifragilistic", 6), "Super…");
        for max in 0..30 {
            let s = shorten("Guest7071 (Yellow) vs Bob (Red) (on h1)", max);
            assert!(width(&s) <= max, "{max}: {s}");
            for word in s.trim_end_matches('…').split(' ') {
                assert!(
                    "Guest7071 (Yellow) vs Bob (Red) (on h1)"
                        .split(' ')
                        .any(|w| w == word)
                        || s.split(' ').count() == 1,
                    "{max}: {s}"
                );
            }
        }
    }

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
    fn composed_accents_survive() {
        assert_eq!(sanitize("Rene\u{301}e", 20), "Renée");
        assert_eq!(sanitize("Zoe\u{308}", 20), "Zoë");
    }

    #[test]
    fn computer_names_are_reserved() {
        for n in [
            "Computer (perfect)",
            "computer",
            "C0mputer",
            "COMPUTER (easy)",
            "Cοmputer",
            "The Computer",
            "c o m p u t e r",
            "CPU",
        ] {
            assert!(is_reserved_name(n), "{n}");
        }
        for n in ["Alice", "Compton", "Observer", "Guest0042", "Renée"] {
            assert!(!is_reserved_name(n), "{n}");
        }
        assert_eq!(name_skeleton("B0b!"), name_skeleton("bobl"));
    }

    #[test]
    fn wrapping_breaks_between_chinese_characters_not_before_punctuation() {
        let lines = wrap("雙方輪流在空的交叉點落子，連成五子者勝。", 10);
        assert_eq!(
            lines,
            ["雙方輪流在", "空的交叉點", "落子，連成", "五子者勝。"]
        );
        let lines = wrap("按 Enter 送出，Esc 關閉", 12);
        assert!(lines.iter().all(|l| width(l) <= 12), "{lines:?}");
        assert_eq!(lines.concat().replace(' ', ""), "按Enter送出，Esc關閉");
        // Never a closing mark at the start of a line.
        for max in 6..12 {
            for l in wrap("四子棋，7x6：雙方輪流將棋子投入一欄。", max) {
                assert!(!l.starts_with(['，', '：', '。']), "{max}: {l}");
            }
        }
    }

    #[test]
    fn wrapping_keeps_words_and_bounds() {
        assert_eq!(
            wrap("Welcome to inarow: Connect Four and Gomoku", 20),
            vec!["Welcome to inarow:", "Connect Four and", "Gomoku"]
        );
        assert_eq!(wrap("abcdefghij", 4), vec!["abcd", "efgh", "ij"]);
        assert!(wrap("", 10).is_empty());
        for l in wrap(&"word ".repeat(50), 13) {
            assert!(width(&l) <= 13, "{l}");
        }
    }

    #[test]
    fn quotes_are_cut() {
        assert_eq!(sanitize_quote("abcdefghij", 4), "abcd...");
        assert_eq!(sanitize_quote("ab\x1bc", 4), "abc");
    }
}
