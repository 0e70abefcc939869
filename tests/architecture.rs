//! Keeps the layering: the rules and the engines stay free of IO and async.

use std::path::Path;

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Names that mean IO or async in a pure layer.
const FORBIDDEN: [&str; 7] = [
    "tokio",
    "russh",
    "crossterm",
    "std::net",
    "std::fs",
    "std::io",
    "std::process",
];

/// Lines of `files` (outside comments, and before a file's unit tests)
/// that name a `forbidden` word.
fn offences(files: &[std::path::PathBuf], forbidden: &[&str]) -> Vec<String> {
    let mut offences = Vec::new();
    for f in files {
        let src = std::fs::read_to_string(f).unwrap();
        let code_end = src.find("#[cfg(test)]\nmod tests").unwrap_or(src.len());
        for (n, line) in src[..code_end].lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for word in forbidden {
                if code.contains(word) {
                    offences.push(format!("{}:{}: {word}", f.display(), n + 1));
                }
            }
        }
    }
    offences
}

#[test]
fn game_and_engine_do_no_io() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for dir in ["game", "engine"] {
        rust_files(&root.join(dir), &mut files);
    }
    files.push(root.join("table.rs"));
    files.push(root.join("clock.rs"));
    assert!(files.len() > 5);
    let offences = offences(&files, &FORBIDDEN);
    assert!(
        offences.is_empty(),
        "IO or async in a pure layer:\n{}",
        offences.join("\n")
    );
}

#[test]
fn the_lobby_core_does_no_io() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files: Vec<_> = [
        "lobby/state/mod.rs",
        "lobby/state/cluster.rs",
        "lobby/state/commands.rs",
        "lobby/state/counts.rs",
        "lobby/state/friend_rooms.rs",
        "lobby/state/invitations.rs",
        "lobby/state/online.rs",
        "lobby/state/quick_match.rs",
        "lobby/state/tables.rs",
        "lobby/state/testing.rs",
        "lobby/state/watching.rs",
        "lobby/naming.rs",
        "room_code.rs",
        "presence.rs",
    ]
    .iter()
    .map(|f| root.join(f))
    .collect();
    // Nor does it reach for the lobby task's channels, rooms or threads.
    let lobby_io = [
        "super::room",
        "super::messages",
        "super::compute",
        "crate::server",
    ];
    let offences = offences(&files, &[&FORBIDDEN[..], &lobby_io].concat());
    assert!(
        offences.is_empty(),
        "IO or async in the lobby core:\n{}",
        offences.join("\n")
    );
}

/// Files of `src/<dir>` (a folder or one file).
fn files_of(parts: &[&str]) -> Vec<std::path::PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for part in parts {
        let p = root.join(part);
        if p.is_dir() {
            rust_files(&p, &mut files);
        } else {
            files.push(p);
        }
    }
    files
}

#[test]
fn screens_know_no_transport_lobby_or_clock() {
    // The screens, the terminal layer and the sanitiser are shared by
    // every front end: no runtime, no SSH, no lobby or server, and no clock
    // of their own (the caller says what time it is).
    let files = files_of(&["session", "term", "text.rs", "presence.rs", "room_code.rs"]);
    assert!(files.len() > 8);
    let found = offences(
        &files,
        &[
            "tokio",
            "russh",
            "crate::lobby",
            "crate::server",
            "std::net",
            "std::fs",
            "std::process",
            "Instant::now",
            "SystemTime",
        ],
    );
    assert!(
        found.is_empty(),
        "a screen reaches past its layer:\n{}",
        found.join("\n")
    );
    // crossterm only where bytes are made: the renderer.
    let colour_users: Vec<String> = files
        .iter()
        .filter(|f| !f.ends_with("term/screen.rs"))
        .flat_map(|f| offences(std::slice::from_ref(f), &["crossterm"]))
        .collect();
    assert!(
        colour_users.is_empty(),
        "crossterm outside the renderer:\n{}",
        colour_users.join("\n")
    );
}

#[test]
fn engines_know_no_table_or_screen() {
    let files = files_of(&["engine"]);
    let offences = offences(&files, &["crate::table", "crate::session", "crate::lobby"]);
    assert!(
        offences.is_empty(),
        "an engine reaches past its layer:\n{}",
        offences.join("\n")
    );
}

#[test]
fn the_local_driver_runs_no_threads_and_reads_no_clock() {
    // `inarow play` and the tests share it: the caller decides where the
    // computer thinks and what time it is.
    let files = files_of(&["local.rs"]);
    let extra = [
        "std::thread",
        "Instant::now",
        "crate::lobby",
        "crate::server",
    ];
    let offences = offences(&files, &[&FORBIDDEN[..], &extra].concat());
    assert!(
        offences.is_empty(),
        "IO, threads or a clock in the local driver:\n{}",
        offences.join("\n")
    );
}

/// Every game the host offers is named wherever inarow describes itself:
/// the README's first paragraph, the package description (`--help`), the
/// message of the day by default and in the example config.
#[test]
fn every_game_is_named_in_the_descriptions() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let first_paragraph = readme
        .split("\n\n")
        .find(|p| !p.starts_with('#'))
        .unwrap()
        .replace('\n', " ");
    let help = crate::util::inarow().arg("--help").output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout).to_string();
    let example = std::fs::read_to_string(root.join("config/inarow.toml")).unwrap();
    let example = inarow::config::Config::parse(&example, "example").unwrap();
    let places = [
        ("README", first_paragraph),
        (
            "Cargo.toml description",
            env!("CARGO_PKG_DESCRIPTION").to_string(),
        ),
        ("inarow --help", help),
        ("default motd", inarow::config::Config::default().lobby.motd),
        ("example config motd", example.lobby.motd),
    ];
    for kind in inarow::game::GameKind::ALL {
        for (place, text) in &places {
            assert!(
                text.contains(kind.name()),
                "{place} does not name {}: {text}",
                kind.name()
            );
        }
    }
}
