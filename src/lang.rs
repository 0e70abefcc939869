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
            } else if line.starts_with(' ') {
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

    /// Every message id the code asks for exists in English (and so,
    /// by the test above, in every language).
    #[test]
    fn every_message_the_code_asks_for_exists() {
        let english = messages(FILES[0].1);
        let mut asked = Vec::new();
        let mut dirs = vec![std::path::PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src"
        ))];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let code = std::fs::read_to_string(&path).unwrap();
                    for call in [".text(\"", ".text_with(\""] {
                        for part in code.split(call).skip(1) {
                            let id = part.split('"').next().unwrap();
                            asked.push((path.display().to_string(), id.to_string()));
                        }
                    }
                }
            }
        }
        assert!(asked.len() > 10, "{asked:?}");
        for (file, id) in asked {
            if id == "{id}" {
                continue;
            }
            assert!(
                english.contains_key(&id),
                "{file} asks for {id}, which no file has"
            );
        }
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
