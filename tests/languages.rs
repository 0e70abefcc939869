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
    // The built-in welcome (no `lobby.motd` set) too.
    assert!(s.contains("Willkommen bei inarow"), "{s}");
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

/// A player whose client sends `zh_TW.UTF-8` plays a game against the
/// computer to its end, all in Traditional Chinese: the game's title, the
/// status line, the question before resigning and the end screen.
#[test]
fn a_game_in_traditional_chinese_is_played_to_its_end_screen() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let t = rt.block_on(start_host_with(""));
    let tmux = crate::util::Tmux::new("inarow-lang-zh-game", 80, 24);
    connect(&t, &tmux, "LC_ALL= LANG=zh_TW.UTF-8", "mei");
    tmux.wait_for("選擇遊戲：");
    tmux.keys(&["1"]);
    tmux.wait_for("與電腦對弈");
    tmux.keys(&["2"]);
    let s = tmux.wait_for("誰先下");
    assert!(s.contains("與電腦下四子棋：要多強？"), "{s}");
    tmux.keys(&["f"]);
    tmux.wait_for("你");
    tmux.keys(&["1"]);
    let s = tmux.wait_for("四子棋 7x6");
    assert!(s.contains("（你）") && s.contains("? 說明"), "{s}");
    assert!(s.contains("電腦（簡單）"), "the computer's name too: {s}");
    tmux.wait_for("輪到 mei");
    // The table's refusal crosses as data and is worded here.
    tmux.keys(&["="]);
    tmux.wait_for("電腦不接受和棋，繼續下");
    tmux.keys(&["d", "Enter"]);
    std::thread::sleep(std::time::Duration::from_millis(500));
    tmux.keys(&["!"]);
    tmux.wait_for("認輸？你將輸掉這局。y/n");
    tmux.keys(&["y"]);
    let s = tmux.wait_for("你輸了。");
    assert!(
        s.contains(" 認輸：電腦（簡單，") && s.contains("） 獲勝"),
        "{s}"
    );
    assert!(s.contains("[r] 再來一局"), "{s}");
    tmux.kill();
    drop(t);
    drop(rt);
}

/// `L` in the lobby switches the language (English, Deutsch, 繁體中文)
/// at once, and an account keeps the choice: the same key connecting
/// again reads German, whatever its client sends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn l_switches_the_language_and_the_account_keeps_it() {
    use crate::util::ssh::{Client, Login, new_key, start_host};
    let t = start_host().await;
    let key = new_key();
    let mut a = Client::in_lobby(t.addr, "play", Login::Key(key.clone())).await;
    a.wait_for("Choose a game:").await;
    a.send(b"L").await;
    a.wait_for("Wähle ein Spiel:").await;
    a.wait_for("[L] Sprache").await;
    a.send(b"1").await;
    a.wait_for("Schnelles Spiel").await;
    drop(a);
    let mut again = Client::connect(t.addr, "play", Login::Key(key)).await;
    again.wait_for("Wähle ein Spiel:").await;
    // Twice more: Chinese, then English again.
    again.send(b"L").await;
    again.wait_for("選擇遊戲：").await;
    again.send(b"L").await;
    again.wait_for("Choose a game:").await;
}

/// Telnet has no `SendEnv`, but NEW-ENVIRON: the stock inetutils client
/// tells the variables it exports (`environ export LANG`, here from its
/// `.telnetrc`), and the name prompt is in that language; a client that
/// exports none reads the host's default.
#[test]
fn a_telnet_client_exporting_its_locale_is_spoken_to_in_it() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let t = rt.block_on(start_host_with("[lobby]\ndefault_language = \"de\""));
    let port = t.host.as_ref().unwrap().telnet_addr.unwrap().port();
    let home = tempfile::tempdir().unwrap();
    std::fs::write(
        home.path().join(".telnetrc"),
        "127.0.0.1\n environ export LANG\n",
    )
    .unwrap();
    let tmux = crate::util::Tmux::new("inarow-lang-telnet", 80, 24);
    tmux.run(&format!(
        "HOME={} LANG=zh_TW.UTF-8 telnet 127.0.0.1 {port}; sleep 60",
        home.path().display()
    ));
    tmux.wait_for("大家要怎麼稱呼你？");
    tmux.keys(&["Mei", "Enter"]);
    let s = tmux.wait_for("選擇遊戲：");
    assert!(s.contains("四子棋"), "{s}");
    tmux.kill();
    // The same client exporting nothing: the host's German.
    let tmux = crate::util::Tmux::new("inarow-lang-telnet-default", 80, 24);
    tmux.run(&format!(
        "HOME={} LANG=zh_TW.UTF-8 telnet 127.0.0.1 {port}; sleep 60",
        tempfile::tempdir().unwrap().path().display()
    ));
    tmux.wait_for("Wie sollen dich die anderen nennen?");
    tmux.kill();
    drop(rt);
}

/// The raw protocol: a client telling `LC_ALL` over `LANG` through
/// NEW-ENVIRON is spoken to in `LC_ALL`'s language.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn telnet_new_environ_lc_all_wins_over_lang() {
    use crate::util::TestClient;
    let t = start_host_with("").await;
    let addr = t.host.as_ref().unwrap().telnet_addr.unwrap();
    let mut c = crate::util::telnet::TelnetClient::connect_with_environ(
        addr,
        Some("xterm"),
        80,
        24,
        &[("LANG", "zh_TW.UTF-8"), ("LC_ALL", "de_DE.UTF-8")],
    )
    .await;
    c.wait_for("Wie sollen dich die anderen nennen?").await;
}
