//! The players' own languages: the language a stock OpenSSH client sends
//! (`SendEnv LANG`) is the language of its screens; a client that sends
//! none, or one inarow does not speak, reads the host's
//! `[lobby] default_language`.

use crate::util::ssh::{TestHost, start_host_with};

/// `ssh` to the test host under tmux with `env` set for it and sent.
fn connect(t: &TestHost, tmux: &crate::util::Tmux, env: &str, user: &str) {
    let port = t.addr.port();
    tmux.run(&format!(
        "{env} ssh -tt -p {port} -o SendEnv=LANG -o SendEnv=LC_ALL -o StrictHostKeyChecking=no \
         -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o PubkeyAuthentication=no \
         {user}@127.0.0.1; echo SSH-EXIT-$?; sleep 60"
    ));
}

#[test]
fn the_lobby_speaks_the_language_the_ssh_client_sends() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let t = rt.block_on(start_host_with(""));
    // German: the game menu and the game names.
    let tmux = crate::util::Tmux::new("inarow-lang-de", 80, 24);
    connect(&t, &tmux, "LANG=de_DE.UTF-8", "uwe");
    let s = tmux.wait_for("Wähle ein Spiel:");
    assert!(s.contains("Vier Gewinnt"), "{s}");
    assert!(s.contains("vier in einer Reihe, Steine fallen"), "{s}");
    assert!(s.contains("Beenden"), "{s}");
    tmux.keys(&["1"]);
    let s = tmux.wait_for("Schnelles Spiel");
    assert!(s.contains("Gegen den Computer"), "{s}");
    tmux.kill();
    // LC_ALL overrides LANG: Traditional Chinese.
    let tmux = crate::util::Tmux::new("inarow-lang-zh", 80, 24);
    connect(&t, &tmux, "LANG=de_DE.UTF-8 LC_ALL=zh_TW.UTF-8", "mei");
    let s = tmux.wait_for("選擇遊戲：");
    assert!(
        s.contains("四子棋") && s.contains("五子棋") && s.contains("連珠"),
        "{s}"
    );
    tmux.kill();
    // A language inarow does not speak: the host's default (English).
    let tmux = crate::util::Tmux::new("inarow-lang-fr", 80, 24);
    connect(&t, &tmux, "LANG=fr_FR.UTF-8", "zoe");
    let s = tmux.wait_for("Choose a game:");
    assert!(s.contains("Connect Four"), "{s}");
    tmux.kill();
    drop(t);
    drop(rt);
}

#[test]
fn a_client_that_sends_no_language_reads_the_hosts_default() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let t = rt.block_on(start_host_with("[lobby]\ndefault_language = \"de\""));
    let tmux = crate::util::Tmux::new("inarow-lang-default", 80, 24);
    connect(&t, &tmux, "LANG= LC_ALL=", "ida");
    let s = tmux.wait_for("Wähle ein Spiel:");
    assert!(s.contains("Vier Gewinnt"), "{s}");
    tmux.kill();
    drop(t);
    drop(rt);
}
