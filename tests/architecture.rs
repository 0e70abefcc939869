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

/// Lines of `files` (outside comments) that name a `forbidden` word.
fn offences(files: &[std::path::PathBuf], forbidden: &[&str]) -> Vec<String> {
    let mut offences = Vec::new();
    for f in files {
        let src = std::fs::read_to_string(f).unwrap();
        for (n, line) in src.lines().enumerate() {
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
        "lobby/state.rs",
        "lobby/naming.rs",
        "lobby/codes.rs",
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
