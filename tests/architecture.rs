//! Keeps the layering where the compiler cannot: the pure core is a crate
//! of its own (crates/core) whose dependencies cannot do IO or async, so a
//! `tokio`, `russh` or `crossterm` there fails to build; what the standard
//! library offers (files, sockets, processes), the layers inside each
//! crate and circles between modules are checked here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

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

/// What the standard library offers for IO: the core could name it
/// although its dependencies cannot.
const STD_IO: [&str; 4] = ["std::net", "std::fs", "std::io", "std::process"];

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
fn the_core_does_no_io() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/core/src");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    // Unit tests in files of their own may do what tests do.
    files.retain(|f| !f.ends_with("tests.rs"));
    assert!(files.len() > 20);
    let offences = offences(&files, &STD_IO);
    assert!(
        offences.is_empty(),
        "IO in the pure core:\n{}",
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

/// Files of `<src>/<part>` (a folder or one file), `src` being a crate's
/// source folder from the workspace root (`src`, `crates/core/src`).
fn files_of(src: &str, parts: &[&str]) -> Vec<std::path::PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(src);
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
    let mut files = files_of("src", &["session", "term", "presence.rs", "room_code.rs"]);
    files.extend(files_of("crates/core/src", &["text.rs"]));
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
fn engines_know_no_table() {
    // The screens and the lobby are out of the core's reach; the table is
    // beside the engines in it.
    let files = files_of("crates/core/src", &["engine"]);
    let offences = offences(&files, &["crate::table"]);
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
    let files = files_of("src", &["local.rs"]);
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
    inarow::config::Config::parse(&example, "example").unwrap();
    let example_motd = example
        .lines()
        .find(|l| l.contains("motd = "))
        .unwrap()
        .to_string();
    let places = [
        ("README", first_paragraph),
        (
            "Cargo.toml description",
            env!("CARGO_PKG_DESCRIPTION").to_string(),
        ),
        ("inarow --help", help),
        (
            "the built-in welcome",
            inarow::lang::Lang::En.text("lobby-welcome"),
        ),
        ("example config motd", example_motd),
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

/// A module of a crate, by its path from the crate root
/// (`["engine", "gomoku", "board"]`; the root itself is `[]`).
type ModPath = Vec<String>;

/// Every module file under a crate's `src` folder, by module path;
/// `main.rs` (the binary's own crate) and test modules are left out.
fn module_files(src: &Path) -> BTreeMap<ModPath, PathBuf> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut out = BTreeMap::new();
    for f in files {
        let mut path: ModPath = f
            .strip_prefix(src)
            .unwrap()
            .iter()
            .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
            .collect();
        if path == ["main"] || path.iter().any(|p| p == "tests") {
            continue;
        }
        if matches!(path.last().map(String::as_str), Some("mod" | "lib")) {
            path.pop();
        }
        out.insert(path, f);
    }
    out
}

/// A file's code before its unit tests, without comments.
fn code_of(file: &Path) -> String {
    let src = std::fs::read_to_string(file).unwrap();
    let end = src.find("#[cfg(test)]\nmod tests").unwrap_or(src.len());
    src[..end]
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths a `use` tree names, one per leaf: `a::{b, c::{self, d}}`
/// gives `a::b`, `a::c` and `a::c::d` (a renaming `as` is dropped).
fn expand_use(tree: &str) -> Vec<Vec<String>> {
    fn go(prefix: &[String], tree: &str, out: &mut Vec<Vec<String>>) {
        let (mut depth, mut start) = (0, 0);
        let mut items = Vec::new();
        for (i, c) in tree.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    items.push(&tree[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        items.push(&tree[start..]);
        for item in items.into_iter().map(str::trim).filter(|i| !i.is_empty()) {
            let mut p = prefix.to_vec();
            if let Some(open) = item.find('{') {
                p.extend(
                    item[..open]
                        .split("::")
                        .map(str::trim)
                        .filter(|s| !s.is_empty())
                        .map(String::from),
                );
                go(&p, &item[open + 1..item.rfind('}').unwrap()], out);
            } else {
                let item = item.split(" as ").next().unwrap();
                p.extend(
                    item.split("::")
                        .map(str::trim)
                        .filter(|s| *s != "self")
                        .map(String::from),
                );
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    go(
        &[],
        &tree.split_whitespace().collect::<Vec<_>>().join(" "),
        &mut out,
    );
    out
}

/// What a module's code names: the paths of its `use` items (with whether
/// the item is a `pub use`, a re-export) and the `crate::`, `super::` and
/// `self::` paths written in its code.
fn named_paths(code: &str) -> Vec<(bool, Vec<String>)> {
    let mut out = Vec::new();
    let mut rest = code;
    // `use` items, up to their `;`.
    let mut other = String::new();
    while let Some(i) = find_use(rest) {
        other.push_str(&rest[..i.0]);
        let after = &rest[i.1..];
        let end = after.find(';').unwrap_or(after.len());
        for p in expand_use(&after[..end]) {
            out.push((i.2, p));
        }
        rest = &after[(end + 1).min(after.len())..];
    }
    other.push_str(rest);
    // Paths written in place: `crate::a::b(...)`, `super::renju::Board`.
    let bytes = other.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    for start in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(i) = other[from..].find(start) {
            let i = from + i;
            from = i + start.len();
            if i > 0 && (ident(bytes[i - 1]) || bytes[i - 1] == b':') {
                continue;
            }
            let mut end = i;
            while end < bytes.len() && (ident(bytes[end]) || bytes[end] == b':') {
                end += 1;
            }
            from = end.max(from);
            let path: Vec<String> = other[i..end]
                .split("::")
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect();
            out.push((false, path));
        }
    }
    out
}

/// The next `use` item in `code`: where its line starts, where its tree
/// starts, and whether it is a `pub use`.
fn find_use(code: &str) -> Option<(usize, usize, bool)> {
    let mut at = 0;
    for line in code.split_inclusive('\n') {
        let t = line.trim_start();
        let indent = line.len() - t.len();
        for (prefix, public) in [
            ("use ", false),
            ("pub use ", true),
            ("pub(crate) use ", true),
        ] {
            if t.starts_with(prefix) {
                return Some((at, at + indent + prefix.len(), public));
            }
        }
        at += line.len();
    }
    None
}

/// The module a path names from module `from`, as far as it is a module
/// of `modules` (the item's own module for `a::b::Item`); a name another
/// module re-exports (`pub use`) is followed to the module it comes from.
/// `None` for paths outside the crate.
fn resolve(
    modules: &BTreeMap<ModPath, PathBuf>,
    exports: &BTreeMap<ModPath, BTreeMap<String, Vec<String>>>,
    from: &[String],
    path: &[String],
    in_use: bool,
) -> Option<ModPath> {
    let mut at: ModPath;
    let mut rest = path;
    match path.first().map(String::as_str)? {
        "crate" => {
            at = Vec::new();
            rest = &path[1..];
        }
        "self" => {
            at = from.to_vec();
            rest = &path[1..];
        }
        "super" => {
            at = from.to_vec();
            while rest.first().is_some_and(|s| s == "super") {
                at.pop()?;
                rest = &rest[1..];
            }
        }
        first => {
            // A bare path in a `use` names a child module (or an outside crate).
            let mut child = from.to_vec();
            child.push(first.to_string());
            if !in_use || !modules.contains_key(&child) {
                return None;
            }
            at = from.to_vec();
        }
    }
    for (i, seg) in rest.iter().enumerate() {
        let mut child = at.clone();
        child.push(seg.clone());
        if modules.contains_key(&child) {
            at = child;
            continue;
        }
        // A name this module re-exports from one of its own modules.
        if let Some(target) = exports.get(&at).and_then(|e| e.get(seg)) {
            let mut full = target.clone();
            full.extend(rest[i + 1..].iter().cloned());
            return resolve(modules, exports, &at, &full, true).or(Some(at));
        }
        break;
    }
    Some(at)
}

/// The edges between modules of one folder: `a -> b` when a file in `a`
/// (a file, or a folder with everything in it) names something in its
/// sibling `b`. Naming one's own parent's items or one's own submodules
/// is not an edge: a folder's `mod.rs` is its front door.
fn sibling_edges(src: &Path) -> BTreeSet<(ModPath, ModPath)> {
    let modules = module_files(src);
    let named: BTreeMap<ModPath, Vec<(bool, Vec<String>)>> = modules
        .iter()
        .map(|(m, f)| (m.clone(), named_paths(&code_of(f))))
        .collect();
    // Per module: the names its `pub use` items bring in, to their paths.
    let mut exports: BTreeMap<ModPath, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    for (m, paths) in &named {
        for (public, p) in paths {
            if *public && let Some(name) = p.last() {
                exports
                    .entry(m.clone())
                    .or_default()
                    .insert(name.clone(), p.clone());
            }
        }
    }
    let mut edges = BTreeSet::new();
    for (m, paths) in &named {
        for (public, p) in paths {
            // A re-export is the folder's front door, not a dependency.
            if *public {
                continue;
            }
            let Some(target) = resolve(&modules, &exports, m, p, true) else {
                continue;
            };
            let common = m.iter().zip(&target).take_while(|(a, b)| a == b).count();
            if common == m.len() || common == target.len() {
                continue;
            }
            edges.insert((m[..=common].to_vec(), target[..=common].to_vec()));
        }
    }
    edges
}

/// The circles among `edges`, each as its modules in order (each circle
/// once, from its smallest module).
fn circles(edges: &BTreeSet<(ModPath, ModPath)>) -> Vec<Vec<ModPath>> {
    let mut found = BTreeSet::new();
    for (a, b) in edges {
        // The shortest way back from b to a, if any.
        let mut prev: BTreeMap<&ModPath, &ModPath> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([b]);
        while let Some(x) = queue.pop_front() {
            if x == a {
                break;
            }
            for (_, y) in edges
                .range((x.clone(), Vec::new())..)
                .take_while(|(f, _)| f == x)
            {
                if y != b && !prev.contains_key(y) {
                    prev.insert(y, x);
                    queue.push_back(y);
                }
            }
        }
        if a != b && !prev.contains_key(a) {
            continue;
        }
        let mut circle = vec![a.clone()];
        let mut x = a;
        while x != b {
            x = prev[x];
            circle.push(x.clone());
        }
        circle.reverse();
        // circle: b ... a; rotate to start at its smallest module.
        let min = circle.iter().enumerate().min_by_key(|(_, m)| *m).unwrap().0;
        circle.rotate_left(min);
        found.insert(circle);
    }
    found.into_iter().collect()
}

fn show(circle: &[ModPath]) -> String {
    let mut names: Vec<String> = circle.iter().map(|m| m.join("::")).collect();
    names.push(names[0].clone());
    names.join(" -> ")
}

#[test]
fn the_core_has_no_circles_between_its_modules() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/core/src");
    let edges = sibling_edges(&src);
    // The reading works: it sees what is known to be there.
    let edge = |a: &str, b: &str| {
        let split = |s: &str| s.split("::").map(String::from).collect::<ModPath>();
        edges.contains(&(split(a), split(b)))
    };
    assert!(edge("engine", "game"), "{edges:?}");
    assert!(edge("table", "engine"), "{edges:?}");
    assert!(
        edge("engine::connect4::solver", "engine::connect4::book"),
        "{edges:?}"
    );
    assert!(edge("game::position", "game::renju"), "{edges:?}");
    let found = circles(&edges);
    assert!(
        found.is_empty(),
        "circles between the core's modules:\n{}",
        found.iter().map(|c| show(c)).collect::<Vec<_>>().join("\n")
    );
    // And the reading finds a circle where there is one.
    let mut with_one = edges.clone();
    with_one.insert((vec!["game".into()], vec!["table".into()]));
    assert!(!circles(&with_one).is_empty());
}

/// No circles between the root crate's modules either (a child naming its
/// parent's items, or a folder its own files, is not an edge: `mod.rs` is
/// a folder's front door).
#[test]
fn the_root_crate_has_no_circles_between_its_modules() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let edges = sibling_edges(&src);
    // The reading works: it sees what is known to be there.
    let edge = |a: &str, b: &str| {
        let split = |s: &str| s.split("::").map(String::from).collect::<ModPath>();
        edges.contains(&(split(a), split(b)))
    };
    assert!(edge("server", "lobby"), "{edges:?}");
    assert!(edge("cluster", "lobby"), "{edges:?}");
    assert!(edge("lobby::room", "lobby::state"), "{edges:?}");
    let found = circles(&edges);
    assert!(
        found.is_empty(),
        "circles between the root crate's modules:\n{}",
        found.iter().map(|c| show(c)).collect::<Vec<_>>().join("\n")
    );
}
