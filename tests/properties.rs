//! Property tests for everything that reads bytes or text from people or
//! the network: the key decoder, the move parser, the sanitiser.

use inarow::game::{GameKind, Move, Point, Rules};
use inarow::term::input::{Key, KeyDecoder};
use inarow::text;
use proptest::prelude::*;

fn any_rules() -> impl Strategy<Value = Rules> {
    prop_oneof![
        (4u8..=12, 4u8..=10)
            .prop_map(|(w, h)| Rules::new(GameKind::ConnectFour, w, h, 4, false).unwrap()),
        (5u8..=26).prop_map(|n| Rules::new(GameKind::Gomoku, n, n, 5, false).unwrap()),
    ]
}

/// Byte streams that look like terminal input: keys, escape sequences,
/// mouse reports, UTF-8, and noise.
fn terminal_bytes() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        any::<u8>().prop_map(|b| vec![b]),
        Just(b"\x1b[A".to_vec()),
        Just(b"\x1bOD".to_vec()),
        Just(b"\r\n".to_vec()),
        Just(b"\r\0".to_vec()),
        Just(b"\x1b".to_vec()),
        Just(b"\x1b[<0;12;7M".to_vec()),
        Just(b"\x1b[M !!".to_vec()),
        Just("é🔴".as_bytes().to_vec()),
        "[a-z0-9,]{0,4}".prop_map(|s| s.into_bytes()),
    ];
    prop::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn key_decoder_never_panics_and_is_split_invariant(bytes in terminal_bytes(), cut in any::<prop::sample::Index>()) {
        let whole = KeyDecoder::decode_all(&bytes);
        let at = cut.index(bytes.len() + 1);
        let mut d = KeyDecoder::new();
        let mut out = Vec::new();
        d.feed(&bytes[..at], &mut out);
        d.feed(&bytes[at..], &mut out);
        d.flush(&mut out);
        prop_assert_eq!(out, whole);
    }

    #[test]
    fn key_decoder_survives_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        let mut d = KeyDecoder::new();
        let mut out = Vec::new();
        for chunk in bytes.chunks(7) {
            d.feed(chunk, &mut out);
        }
        d.flush(&mut out);
        // Decoded characters are never control characters.
        for k in out {
            if let Key::Char(c) = k {
                prop_assert!(!c.is_control());
            }
        }
    }

    #[test]
    fn move_parser_never_panics(rules in any_rules(), input in any::<String>()) {
        let _ = rules.parse_move(&input);
    }

    #[test]
    fn move_parser_errors_never_echo_control_characters(rules in any_rules(), input in "\\PC{0,3}[\\x00-\\x1f\\x7f\\u{9b}]{1,3}\\PC{0,3}") {
        if let Err(e) = rules.parse_move(&input) {
            let msg = e.to_string();
            prop_assert!(!msg.chars().any(|c| c.is_control()), "{:?}", msg);
        }
    }

    #[test]
    fn every_printed_move_parses_back(
        (rules, x, y) in any_rules().prop_flat_map(|r| (Just(r), 0..r.width(), 0..r.height()))
    ) {
        let p = Point::new(x, y);
        prop_assert_eq!(rules.parse_move(&rules.format_point(p)), Ok(Move::Point(p)));
        if rules.kind() == GameKind::ConnectFour {
            let m = Move::Column(x);
            prop_assert_eq!(rules.parse_move(&rules.format_move(m)), Ok(m));
            // Digits from 1 too.
            prop_assert_eq!(rules.parse_move(&(u32::from(x) + 1).to_string()), Ok(m));
        } else {
            // `8,h` form.
            let alt = format!("{},{}", u32::from(y) + 1, (b'a' + x) as char);
            prop_assert_eq!(rules.parse_move(&alt), Ok(Move::Point(p)));
        }
    }

    #[test]
    fn sanitised_text_is_printable_and_bounded(input in any::<String>(), max in 1usize..40) {
        let s = text::sanitize(&input, max);
        prop_assert!(text::width(&s) <= max);
        prop_assert!(!s.chars().any(|c| c.is_control()), "{:?}", s);
        let name = text::sanitize_name(&input, "Guest");
        prop_assert!(!name.is_empty() && text::width(&name) <= text::MAX_NAME_WIDTH);
    }
}

mod telnet {
    use inarow::server::telnet_codec::{Codec, Decoded, IAC, escape};
    use proptest::prelude::*;

    /// Streams a telnet client could send: data, commands, negotiations,
    /// subnegotiations (NAWS with doubled 255s, TTYPE), CR NUL, and noise.
    fn telnet_bytes() -> impl Strategy<Value = Vec<u8>> {
        let piece = prop_oneof![
            "[a-z0-9 ]{0,6}".prop_map(|s| s.into_bytes()),
            (251u8..=254, any::<u8>()).prop_map(|(v, o)| vec![IAC, v, o]),
            (any::<u16>(), any::<u16>()).prop_map(|(w, h)| crate::util::telnet::naws(w, h)),
            "[A-Z0-9-]{0,12}"
                .prop_map(|t| [vec![IAC, 250, 24, 0], t.into_bytes(), vec![IAC, 240]].concat()),
            Just(vec![IAC, IAC]),
            Just(vec![b'\r', 0]),
            Just(vec![IAC, 244]),
            any::<u8>().prop_map(|b| vec![b]),
        ];
        prop::collection::vec(piece, 0..30).prop_map(|v| v.concat())
    }

    fn decode_in_pieces(bytes: &[u8], cuts: &[usize]) -> Decoded {
        let mut c = Codec::new();
        c.greeting();
        let mut all = Decoded::default();
        let mut start = 0;
        for &cut in cuts.iter().chain(std::iter::once(&bytes.len())) {
            let cut = cut.clamp(start, bytes.len());
            let d = c.decode(&bytes[start..cut]);
            all.data.extend(d.data);
            all.events.extend(d.events);
            all.reply.extend(d.reply);
            start = cut;
        }
        all
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn never_panics_on_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
            let mut c = Codec::new();
            c.greeting();
            for chunk in bytes.chunks(5) {
                let d = c.decode(chunk);
                prop_assert!(d.reply.len() <= 3 * chunk.len() + 6);
            }
        }

        #[test]
        fn any_split_decodes_the_same(bytes in telnet_bytes(), mut cuts in prop::collection::vec(any::<usize>(), 0..6)) {
            let whole = decode_in_pieces(&bytes, &[]);
            for c in cuts.iter_mut() {
                *c %= bytes.len() + 1;
            }
            cuts.sort_unstable();
            prop_assert_eq!(decode_in_pieces(&bytes, &cuts), whole);
        }

        #[test]
        fn escaping_round_trips(data in prop::collection::vec(any::<u8>(), 0..300)) {
            let escaped = escape(&data);
            let d = Codec::new().decode(&escaped);
            prop_assert_eq!(d.data, data);
            prop_assert!(d.events.is_empty() && d.reply.is_empty());
        }
    }
}

/// Each small type prints what it parses back to itself, whatever the case
/// and spaces around it; anything else is a typed error, never a panic.
fn round_trips<T>(values: &[T])
where
    T: std::str::FromStr + std::fmt::Display + PartialEq + std::fmt::Debug,
    T::Err: std::fmt::Display,
{
    for v in values {
        let text = v.to_string();
        for variant in [text.clone(), text.to_uppercase(), format!("  {text} ")] {
            match variant.parse::<T>() {
                Ok(back) => assert_eq!(&back, v, "{variant:?}"),
                Err(e) => panic!("{variant:?} did not parse back: {e}"),
            }
        }
    }
}

#[test]
fn names_round_trip() {
    use inarow::engine::Level;
    use inarow::game::Colour;
    use inarow::session::setup::Opponent;
    use inarow::term::board::Theme;
    round_trips(&[GameKind::ConnectFour, GameKind::Gomoku]);
    round_trips(&[
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Perfect,
        Level::Strong,
    ]);
    let ladder: Vec<Level> = (1..=8).map(|n| Level::gomoku(n).unwrap()).collect();
    round_trips(&ladder);
    round_trips(&Colour::ALL);
    round_trips(&[Theme::Emoji, Theme::Ascii]);
    round_trips(&[Opponent::Human, Opponent::Computer]);
}

proptest! {
    #[test]
    fn board_sizes_round_trip(w in 0u8.., h in 0u8..) {
        let size = inarow::game::BoardSize { width: w, height: h };
        prop_assert_eq!(size.to_string().parse::<inarow::game::BoardSize>(), Ok(size));
    }

    #[test]
    fn any_text_parses_or_fails_cleanly(s in ".{0,40}") {
        use inarow::engine::Level;
        use inarow::game::{BoardSize, Colour};
        use inarow::term::board::Theme;
        // Errors quote the text sanitised and short.
        for e in [
            s.parse::<GameKind>().err().map(|e| e.to_string()),
            s.parse::<Level>().err().map(|e| e.to_string()),
            s.parse::<Colour>().err().map(|e| e.to_string()),
            s.parse::<Theme>().err().map(|e| e.to_string()),
            s.parse::<BoardSize>().err().map(|e| e.to_string()),
        ].into_iter().flatten() {
            prop_assert!(!e.chars().any(char::is_control), "{:?}", e);
            prop_assert!(e.chars().count() < 120, "{:?}", e);
        }
    }
}
