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

#[test]
fn game_and_engine_do_no_io() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let forbidden = [
        "tokio",
        "russh",
        "crossterm",
        "std::net",
        "std::fs",
        "std::io",
        "std::process",
    ];
    let mut files = Vec::new();
    for dir in ["game", "engine"] {
        rust_files(&root.join(dir), &mut files);
    }
    files.push(root.join("table.rs"));
    assert!(files.len() > 5);
    let mut offences = Vec::new();
    for f in &files {
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
    assert!(
        offences.is_empty(),
        "IO or async in a pure layer:\n{}",
        offences.join("\n")
    );
}
