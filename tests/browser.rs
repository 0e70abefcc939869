//! The web pages in a real browser: Debian's Chromium, driven through
//! WebDriver (`chromedriver`). A game two SSH players play is followed at
//! `/live/ID` as the moves arrive, then replayed at `/g/ID` with the arrow
//! keys; a profile with a hostile name shows it as text, with no script
//! run. Each page type is kept as a screenshot under
//! `target/artefacts/web/` (looked at, not compared).
//!
//! These tests need `chromium` and `chromium-driver` (scripts/test-deps
//! installs them); they fail, never skip, when Chromium cannot start.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

use inarow::store::{GameRecord, PlayerRecord};

use crate::util::http::get;

/// A headless Chromium under its own chromedriver (killed, with the
/// browser, when dropped).
struct Browser {
    client: Client,
    driver: Child,
    /// The page's address root: `http://127.0.0.1:PORT`.
    base: String,
}

impl Drop for Browser {
    fn drop(&mut self) {
        // The driver leads its own process group: the browser goes with it.
        let _ = Command::new("kill")
            .args(["-s", "KILL", "--", &format!("-{}", self.driver.id())])
            .status();
        let _ = self.driver.wait();
    }
}

fn program(var: &str, default: &str) -> String {
    std::env::var(var).unwrap_or_else(|_| default.to_string())
}

impl Browser {
    async fn start(http: std::net::SocketAddr) -> Browser {
        use std::os::unix::process::CommandExt;
        let port = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            l.local_addr().unwrap().port()
        };
        let driver_path = program("CHROMEDRIVER", "/usr/bin/chromedriver");
        let driver = Command::new(&driver_path)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "{driver_path} cannot start ({e}): install chromium and chromium-driver \
                     (scripts/test-deps does)"
                )
            });
        let url = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(15);
        while tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_err()
        {
            assert!(
                Instant::now() < deadline,
                "{driver_path} did not listen on {port}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let mut caps = serde_json::Map::new();
        caps.insert("browserName".into(), json!("chrome"));
        caps.insert(
            "goog:chromeOptions".into(),
            json!({
                "binary": program("CHROMIUM", "/usr/bin/chromium"),
                "args": ["--headless", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--window-size=1000,1000"],
            }),
        );
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        let client = ClientBuilder::new(connector)
            .capabilities(caps)
            .connect(&url)
            .await
            .unwrap_or_else(|e| panic!("Chromium cannot start under {driver_path}: {e}"));
        Browser {
            client,
            driver,
            base: format!("http://{http}"),
        }
    }

    async fn open(&self, path: &str) {
        self.client
            .goto(&format!("{}{path}", self.base))
            .await
            .unwrap_or_else(|e| panic!("{path}: {e}"));
    }

    async fn js(&self, script: &str) -> Value {
        self.client
            .execute(script, vec![])
            .await
            .unwrap_or_else(|e| panic!("{script}: {e}"))
    }

    /// Waits until `script` returns `want`; its last answer otherwise.
    async fn until(&self, script: &str, want: Value, within: Duration) -> Value {
        let deadline = Instant::now() + within;
        loop {
            let got = self.js(script).await;
            if got == want || Instant::now() >= deadline {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }

    async fn key(&self, key: Key) {
        let k: char = key.into();
        let keys = KeyActions::new("keyboard".into())
            .then(KeyAction::Down { value: k })
            .then(KeyAction::Up { value: k });
        self.client.perform_actions(keys).await.unwrap();
    }

    /// Keeps what the browser shows now as `target/artefacts/web/NAME.png`.
    async fn screenshot(&self, name: &str) {
        let png = self.client.screenshot().await.unwrap();
        assert!(png.starts_with(b"\x89PNG"), "a PNG");
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/artefacts/web");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    }

    async fn close(self) {
        let _ = self.client.clone().close().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_played_over_ssh_is_followed_live_and_replayed_with_the_keys_in_chromium() {
    use crate::util::ssh::play;
    let (mut t, http, store) = crate::web::host_with_store("").await;
    let (mut first, mut second) = crate::ssh::quick_match_pair(&t, ["lena", "max"], b"1").await;
    let room = crate::web::live_game(http).await;
    let browser = Browser::start(http).await;

    // Live: the page takes each move from its event stream.
    browser.open(&format!("/live/{room}")).await;
    let moves = "return document.querySelector('.live').dataset.moves || null";
    let stones = "return document.querySelectorAll('.board-now g.stone').length";
    assert_eq!(
        browser
            .until(moves, json!("0"), Duration::from_secs(10))
            .await,
        json!("0"),
        "the live page took the game's state"
    );
    let line = [
        (0, "a"),
        (1, "b"),
        (0, "a"),
        (1, "b"),
        (0, "a"),
        (1, "b"),
        (0, "a"),
    ];
    for (n, (who, mv)) in line.into_iter().enumerate() {
        let c = if who == 0 { &mut first } else { &mut second };
        play(c, mv).await;
        let n = n + 1;
        assert_eq!(
            browser
                .until(moves, json!(n.to_string()), Duration::from_secs(10))
                .await,
            json!(n.to_string()),
            "move {n} reached the page"
        );
        assert_eq!(browser.js(stones).await, json!(n));
        if n == 4 {
            assert_eq!(
                browser
                    .js("return document.querySelector('.live .list').textContent")
                    .await,
                json!("A B A B"),
                "the move list follows"
            );
            browser.screenshot("live").await;
        }
    }
    // The result, then the link to the recorded game.
    let status = browser
        .until(
            "return document.querySelector('.live .status b').textContent.includes('wins')",
            json!(true),
            Duration::from_secs(10),
        )
        .await;
    assert_eq!(status, json!(true), "the result is shown");
    let link = browser
        .until(
            "return document.querySelector('.after a') !== null",
            json!(true),
            Duration::from_secs(15),
        )
        .await;
    assert_eq!(link, json!(true), "the link to the recorded game appears");
    browser
        .client
        .find(Locator::Css(".after a"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();

    // The recorded game: every stone, the winning line, the move list.
    browser
        .client
        .wait()
        .at_most(Duration::from_secs(10))
        .for_element(Locator::Css(".replay"))
        .await
        .expect("the game page");
    let url = browser.client.current_url().await.unwrap();
    let id = url
        .path()
        .strip_prefix("/g/")
        .expect("a /g/ID page")
        .to_string();
    let record = store
        .game(&id)
        .await
        .unwrap()
        .expect("the game is recorded");
    assert_eq!(record.moves.len(), 7);
    assert_eq!(
        browser
            .js("return document.querySelectorAll('.replay g.stone').length")
            .await,
        json!(7)
    );
    assert_eq!(
        browser
            .js("return document.querySelectorAll('.replay circle.win:not(.later)').length")
            .await,
        json!(4),
        "the winning line is marked"
    );
    assert_eq!(
        browser
            .js("return document.querySelectorAll('ol.moves li').length")
            .await,
        json!(7)
    );
    let body = browser.js("return document.body.innerText").await;
    let body = body.as_str().unwrap();
    assert!(body.contains("lena") && body.contains("max"), "{body}");
    browser.screenshot("game").await;

    // The replay: Home to the empty board, → twice to the second move.
    let hidden = "return document.querySelectorAll('.replay g.stone.later').length";
    browser.key(Key::Home).await;
    assert_eq!(browser.js(hidden).await, json!(7), "Home hides every stone");
    browser.key(Key::Right).await;
    browser.key(Key::Right).await;
    assert_eq!(browser.js(hidden).await, json!(5), "→ → shows two stones");
    assert_eq!(
        browser
            .js("return document.querySelector('.replay .at').textContent")
            .await,
        json!("move 2 of 7")
    );
    assert_eq!(
        browser
            .js("return document.querySelector('ol.moves li.current').dataset.n")
            .await,
        json!("2")
    );
    assert_eq!(
        browser
            .js("return document.querySelectorAll('.replay circle.win:not(.later)').length")
            .await,
        json!(0),
        "the line is marked only at the end"
    );
    assert!(
        browser
            .client
            .current_url()
            .await
            .unwrap()
            .as_str()
            .ends_with("?move=2"),
        "the address keeps the position"
    );
    browser.key(Key::Left).await;
    assert_eq!(browser.js(hidden).await, json!(6), "← takes one back");
    browser.key(Key::End).await;
    assert_eq!(browser.js(hidden).await, json!(0), "End shows them all");
    // The position an address names is where a reload starts.
    browser.open(&format!("/g/{id}?move=3")).await;
    assert_eq!(browser.js(hidden).await, json!(4));

    browser.close().await;
    store.close().await;
    t.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_names_are_shown_as_text_with_no_script_run_in_chromium() {
    let (mut t, http, store) = crate::web::host_with_store("").await;
    let now = inarow::store::now_ms();
    // Names no host lets anyone take, put into the store as a bad
    // import or an old version might have: the pages must show them as
    // text all the same.
    let script = "<script>window.pwned=1</script>";
    let img = "\"'><img src=x onerror=alert(1)>";
    let a = store
        .create_account("SHA256:browser-a", "Scripter", now)
        .await
        .unwrap();
    let b = store
        .create_account("SHA256:browser-b", "Imager", now)
        .await
        .unwrap();
    let db = t.dir.path().join("var/inarow.db");
    rename_raw(&db, &a.id, script).await;
    rename_raw(&db, &b.id, img).await;
    let g = GameRecord::column_win(
        [
            PlayerRecord::person(script, Some(&a.id), "Red"),
            PlayerRecord::person(img, Some(&b.id), "Yellow"),
        ],
        true,
        now,
    );
    store.record_game(&g).await.unwrap();
    crate::web::daily_puzzle(&store).await;
    let browser = Browser::start(http).await;

    for (name, shot) in [(script, "profile"), (img, "profile-2")] {
        let path = format!("/@/{}", url_escape(name));
        assert_eq!(get(http, &path).await.0, 200, "{path}");
        browser.open(&path).await;
        assert_eq!(
            browser
                .js("return document.querySelector('h1').textContent")
                .await,
            json!(name),
            "the name is the heading's text"
        );
        assert_eq!(browser.js("return window.pwned || 0").await, json!(0));
        assert_eq!(
            browser
                .js("return document.querySelectorAll('img, body script:not([src])').length")
                .await,
            json!(0),
            "no element came from a name"
        );
        browser.screenshot(shot).await;
    }
    // The game both played, and the other pages: the names as text there too.
    browser.open(&format!("/g/{}", g.id)).await;
    let text = browser.js("return document.body.innerText").await;
    assert!(
        text.as_str().unwrap().contains(script) && text.as_str().unwrap().contains(img),
        "{text}"
    );
    assert_eq!(browser.js("return window.pwned || 0").await, json!(0));
    for (path, shot) in [("/", "home"), ("/leaderboard/connect4", "leaderboard")] {
        browser.open(path).await;
        assert_eq!(browser.js("return window.pwned || 0").await, json!(0));
        assert_ne!(
            browser
                .js("return document.querySelector('h1').textContent")
                .await,
            json!("Not found")
        );
        browser.screenshot(shot).await;
    }
    // The day's puzzle, played by clicking the columns.
    browser.open("/puzzle/daily").await;
    let status = "return document.querySelector('p.status').textContent";
    let click = async |column: &str| {
        browser
            .client
            .find(Locator::Css(&format!("a.play[aria-label='play {column}']")))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
    };
    click("D").await;
    let now = browser
        .until(
            status,
            json!("Right. Yellow answers A: your move."),
            Duration::from_secs(10),
        )
        .await;
    assert_eq!(now, json!("Right. Yellow answers A: your move."));
    assert_eq!(
        browser
            .js("return document.querySelectorAll('.puzzle g.stone').length")
            .await,
        json!(6)
    );
    click("E").await;
    let solved = browser
        .until(
            "return document.querySelector('p.status').textContent.startsWith('Solved!')",
            json!(true),
            Duration::from_secs(10),
        )
        .await;
    assert_eq!(solved, json!(true), "{}", browser.js(status).await);
    assert_eq!(
        browser
            .js("return document.querySelectorAll('a.play').length")
            .await,
        json!(0)
    );
    browser.screenshot("puzzle").await;

    // A profile lists the opponent's name as text too.
    browser.open(&format!("/@/{}", url_escape(script))).await;
    let profile = browser.js("return document.body.innerText").await;
    assert!(profile.as_str().unwrap().contains(img), "{profile}");

    browser.close().await;
    store.close().await;
    t.shutdown().await;
}

/// Percent-escapes everything but letters and digits.
fn url_escape(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// Gives `account` the name `name` straight in the store's database,
/// past the checks every way in makes.
async fn rename_raw(db: &std::path::Path, account: &str, name: &str) {
    use inarow::text::{MAX_NAME_WIDTH, name_skeleton, sanitize};
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}", db.display()))
        .await
        .unwrap();
    let key = name_skeleton(&sanitize(name, MAX_NAME_WIDTH * 4));
    sqlx::query("UPDATE accounts SET name = ?, name_key = ? WHERE id = ?")
        .bind(name)
        .bind(key)
        .bind(account)
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
}
