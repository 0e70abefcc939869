//! The languages players read inarow in: English, German and Traditional
//! Chinese, each one Project Fluent file (`locales/en/inarow.ftl`,
//! `locales/de/inarow.ftl`, `locales/zh-TW/inarow.ftl`, compiled in).
//! Text for people is made where it is shown, in the viewer's language,
//! with [`Lang::text`] and [`Lang::text_with`]; the translation places
//! the arguments and picks the plural form. Log lines, admin commands and
//! the config stay English.

use std::borrow::Cow;
use std::collections::HashMap;

use fluent_templates::fluent_bundle::FluentValue;
use fluent_templates::{LanguageIdentifier, Loader, langid, static_loader};

static_loader! {
    static LOCALES = {
        locales: "./locales",
        fallback_language: "en",
        // No Unicode isolation marks around arguments: in a terminal they
        // are invisible characters that still take a place.
        customise: |b| b.set_use_isolating(false),
    };
}

/// An argument of a message: text or a number (numbers choose the plural
/// form).
pub type Value<'a> = FluentValue<'a>;

/// A language inarow speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    #[default]
    En,
    De,
    ZhTw,
}

static EN: LanguageIdentifier = langid!("en");
static DE: LanguageIdentifier = langid!("de");
static ZH_TW: LanguageIdentifier = langid!("zh-TW");

impl Lang {
    pub const ALL: [Lang; 3] = [Lang::En, Lang::De, Lang::ZhTw];

    /// The name the config and the records use: `en`, `de`, `zh-TW`.
    pub fn id(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::De => "de",
            Lang::ZhTw => "zh-TW",
        }
    }

    /// The language an id names (any case), if inarow speaks it.
    pub fn of_id(id: &str) -> Option<Lang> {
        Lang::ALL
            .into_iter()
            .find(|l| l.id().eq_ignore_ascii_case(id))
    }

    /// The language's own name, for choosing it.
    pub fn own_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::De => "Deutsch",
            Lang::ZhTw => "繁體中文",
        }
    }

    /// The language of a POSIX locale (`de_DE.UTF-8`, `zh_TW.UTF-8`,
    /// `de`, `zh_Hant`), if inarow speaks it; `C`, `POSIX` and the rest:
    /// `None`.
    pub fn from_locale(locale: &str) -> Option<Lang> {
        let base = locale.split(['.', '@']).next().unwrap_or("");
        let mut parts = base.split(['_', '-']);
        let lang = parts.next().unwrap_or("").to_ascii_lowercase();
        let rest: Vec<String> = parts.map(str::to_ascii_lowercase).collect();
        match lang.as_str() {
            "en" => Some(Lang::En),
            "de" => Some(Lang::De),
            "zh" if rest
                .iter()
                .any(|p| matches!(p.as_str(), "tw" | "hk" | "mo" | "hant")) =>
            {
                Some(Lang::ZhTw)
            }
            _ => None,
        }
    }

    /// The language the environment asks for: `LC_ALL`, else
    /// `LC_MESSAGES`, else `LANG` (the first one set decides), if inarow
    /// speaks it.
    pub fn from_vars(get: impl Fn(&str) -> Option<String>) -> Option<Lang> {
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .into_iter()
            .find_map(|v| get(v).filter(|s| !s.is_empty()))
            .and_then(|l| Lang::from_locale(&l))
    }

    /// The language a browser asks for first (`Accept-Language: de-DE,
    /// de;q=0.9, en;q=0.8`), among those inarow speaks: the highest
    /// quality wins, the first listed among equals; `zh-TW`, `zh-HK` and
    /// `zh-Hant` are Traditional Chinese. Bounded: at most 32 entries
    /// are read.
    pub fn from_accept_language(header: &str) -> Option<Lang> {
        let mut best: Option<(f32, Lang)> = None;
        for entry in header.split(',').take(32) {
            let mut parts = entry.split(';');
            let tag = parts.next().unwrap_or("").trim();
            let q = parts
                .find_map(|p| p.trim().strip_prefix("q="))
                .map_or(Some(1.0), |q| q.trim().parse::<f32>().ok())
                .filter(|q| q.is_finite() && *q > 0.0);
            let (Some(q), Some(lang)) = (q, Lang::from_locale(tag)) else {
                continue;
            };
            if best.is_none_or(|(b, _)| q > b) {
                best = Some((q, lang));
            }
        }
        best.map(|(_, l)| l)
    }

    fn langid(self) -> &'static LanguageIdentifier {
        match self {
            Lang::En => &EN,
            Lang::De => &DE,
            Lang::ZhTw => &ZH_TW,
        }
    }

    /// The message `id` in this language.
    pub fn text(self, id: &str) -> String {
        LOCALES.lookup(self.langid(), id)
    }

    /// The message `id` in this language with its arguments.
    pub fn text_with(self, id: &str, args: &[(&'static str, FluentValue<'_>)]) -> String {
        let args: HashMap<Cow<'static, str>, FluentValue> = args
            .iter()
            .map(|(k, v)| (Cow::Borrowed(*k), v.clone()))
            .collect();
        LOCALES.lookup_with_args(self.langid(), id, &args)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILES: [(Lang, &str); 3] = [
        (Lang::En, include_str!("../locales/en/inarow.ftl")),
        (Lang::De, include_str!("../locales/de/inarow.ftl")),
        (Lang::ZhTw, include_str!("../locales/zh-TW/inarow.ftl")),
    ];

    /// Each message of a file: its id and the arguments it uses.
    fn messages(file: &str) -> HashMap<String, Vec<String>> {
        let mut out: HashMap<String, Vec<String>> = HashMap::new();
        let mut current: Option<String> = None;
        for line in file.lines() {
            let value = if !line.starts_with([' ', '\t', '#', '*', '[']) && line.contains(" = ") {
                let (id, value) = line.split_once(" = ").unwrap();
                current = Some(id.trim().to_string());
                out.entry(id.trim().to_string()).or_default();
                value
            } else if line.starts_with([' ', '}']) {
                line
            } else {
                current = None;
                continue;
            };
            if let Some(id) = &current {
                let args = out.get_mut(id).unwrap();
                for part in value.split('$').skip(1) {
                    let name: String = part
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
                        .collect();
                    if !args.contains(&name) {
                        args.push(name);
                    }
                }
            }
        }
        for args in out.values_mut() {
            args.sort();
        }
        out
    }

    #[test]
    fn every_message_is_in_every_language_with_the_same_arguments() {
        let english = messages(FILES[0].1);
        assert!(english.len() > 20, "{english:?}");
        for (lang, file) in &FILES[1..] {
            let other = messages(file);
            for (id, args) in &english {
                let Some(theirs) = other.get(id) else {
                    panic!("{} lacks {id}", lang.id());
                };
                assert_eq!(theirs, args, "{} {id}: other arguments", lang.id());
            }
            for id in other.keys() {
                assert!(
                    english.contains_key(id),
                    "{} has {id}, English not",
                    lang.id()
                );
            }
        }
    }

    /// The string literals of the code that have a message id's shape
    /// (`keys-undo`), with their files: in the screens (`src/session`)
    /// every such literal is a message id; elsewhere those
    /// given to `text`, `text_with`, `t`, `tw`, `say` and `words` (or,
    /// `everywhere`, all of them: a message may be named anywhere).
    fn ids_in_code(everywhere: bool) -> Vec<(String, String)> {
        let root = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/src"));
        let shaped = |s: &str| {
            s.contains('-')
                && s.starts_with(|c: char| c.is_ascii_lowercase())
                && !s.ends_with('-')
                && s.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        };
        let mut asked = Vec::new();
        let mut dirs = vec![root.clone()];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                    continue;
                }
                if path.extension().is_none_or(|e| e != "rs") || path.ends_with("lang.rs") {
                    continue;
                }
                let code = std::fs::read_to_string(&path).unwrap();
                let rel = path.strip_prefix(&root).unwrap().display().to_string();
                let screens = rel.starts_with("session");
                // Literals: the text between quotes, outside comments and
                // outside the tests at the end of the file.
                for line in code.lines().take_while(|l| !l.starts_with("#[cfg(test)]")) {
                    let line = line.split("//").next().unwrap();
                    for (i, lit) in line.split('"').enumerate() {
                        if i % 2 == 0 || !shaped(lit) {
                            continue;
                        }
                        let before = line.split(&format!("\"{lit}\"")).next().unwrap();
                        let called = [".text(", ".text_with(", ".t(", ".tw(", ".say(", ".words("]
                            .iter()
                            .any(|c| before.trim_end().ends_with(c));
                        if screens || called || everywhere {
                            asked.push((rel.clone(), lit.to_string()));
                        }
                    }
                }
            }
        }
        asked
    }

    /// Every message id the code asks for exists in English (and so,
    /// by the test above, in every language).
    #[test]
    fn every_message_the_code_asks_for_exists() {
        let english = messages(FILES[0].1);
        let asked = ids_in_code(false);
        assert!(asked.len() > 100, "{asked:?}");
        let missing: Vec<_> = asked
            .iter()
            .filter(|(_, id)| !english.contains_key(id))
            .collect();
        assert!(
            missing.is_empty(),
            "asked for, and no file has: {missing:?}"
        );
    }

    /// Every English message is asked for somewhere: no translation is
    /// kept of a text nobody sees.
    #[test]
    fn every_message_is_used() {
        let asked: std::collections::HashSet<String> =
            ids_in_code(true).into_iter().map(|(_, id)| id).collect();
        let mut unused: Vec<_> = messages(FILES[0].1)
            .into_keys()
            .filter(|id| !asked.contains(id))
            .collect();
        unused.sort();
        assert!(unused.is_empty(), "never asked for: {unused:?}");
    }

    #[test]
    fn arguments_are_placed_by_each_translation_without_marks() {
        let args = |player: &str| {
            [
                ("player", FluentValue::from(player.to_string())),
                ("points", FluentValue::from("(1|0) (2|0) (3|0) (4|0)")),
            ]
        };
        assert_eq!(
            Lang::De.text_with("end-line", &args("Spieler 1 (Rot)")),
            "Spieler 1 (Rot) hat mit folgenden Steinen gewonnen: (1|0) (2|0) (3|0) (4|0)"
        );
        assert_eq!(
            Lang::En.text_with("end-line", &args("Anna (Red)")),
            "Anna (Red) wins with (1|0) (2|0) (3|0) (4|0)"
        );
        let zh = Lang::ZhTw.text_with("end-line", &args("Anna（紅）"));
        assert_eq!(zh, "Anna（紅） 以 (1|0) (2|0) (3|0) (4|0) 連線獲勝");
        assert!(!zh.contains('\u{2068}') && !zh.contains('\u{2069}'));
        assert_eq!(Lang::De.text("game-connect4"), "Vier Gewinnt");
        assert_eq!(Lang::ZhTw.text("game-renju"), "連珠");
    }

    #[test]
    fn a_browsers_first_choice_among_the_languages_spoken_wins() {
        assert_eq!(
            Lang::from_accept_language("de-DE,de;q=0.9,en;q=0.8"),
            Some(Lang::De)
        );
        assert_eq!(
            Lang::from_accept_language("fr, zh-TW;q=0.7, de;q=0.5"),
            Some(Lang::ZhTw)
        );
        assert_eq!(
            Lang::from_accept_language("en;q=0.2, zh-Hant;q=0.9"),
            Some(Lang::ZhTw)
        );
        // Simplified Chinese and the rest: none of ours.
        assert_eq!(Lang::from_accept_language("zh-CN, fr;q=0.9, *;q=0.1"), None);
        assert_eq!(Lang::from_accept_language(""), None);
        // A quality of 0 means "not this one"; nonsense is skipped.
        assert_eq!(
            Lang::from_accept_language("de;q=0, en;q=x, zh-HK;q=0.1"),
            Some(Lang::ZhTw)
        );
        let long = "xx, ".repeat(1000) + "de";
        assert_eq!(
            Lang::from_accept_language(&long),
            None,
            "only the first entries"
        );
    }

    #[test]
    fn locales_map_to_the_languages_spoken_and_the_rest_to_none() {
        for (locale, lang) in [
            ("de_DE.UTF-8", Some(Lang::De)),
            ("de_AT", Some(Lang::De)),
            ("de", Some(Lang::De)),
            ("zh_TW.UTF-8", Some(Lang::ZhTw)),
            ("zh_HK.UTF-8", Some(Lang::ZhTw)),
            ("zh_Hant_TW", Some(Lang::ZhTw)),
            ("zh_CN.UTF-8", None),
            ("en_GB.UTF-8", Some(Lang::En)),
            ("C", None),
            ("POSIX", None),
            ("C.UTF-8", None),
            ("fr_FR.UTF-8", None),
            ("", None),
            ("\u{1b}[2J", None),
        ] {
            assert_eq!(Lang::from_locale(locale), lang, "{locale:?}");
        }
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(
            Lang::from_vars(env(&[("LANG", "de_DE.UTF-8"), ("LC_ALL", "zh_TW.UTF-8")])),
            Some(Lang::ZhTw)
        );
        assert_eq!(
            Lang::from_vars(env(&[("LANG", "de_DE.UTF-8"), ("LC_ALL", "")])),
            Some(Lang::De)
        );
        assert_eq!(Lang::from_vars(env(&[])), None);
        assert_eq!(Lang::of_id("zh-tw"), Some(Lang::ZhTw));
        assert_eq!(Lang::of_id("fr"), None);
    }
}
