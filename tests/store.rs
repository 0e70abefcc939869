//! The store's test suite, run against both backends: SQLite in a temporary
//! file, and PostgreSQL (`INAROW_TEST_PG`, default
//! `postgres://root@127.0.0.1:5432/test`) in a scratch schema of its own,
//! dropped afterwards. The tests of PostgreSQL-only behaviour run on
//! PostgreSQL alone. A test that cannot reach PostgreSQL fails
//! (`scripts/test-deps` starts one).

use std::future::Future;
use std::str::FromStr;

use crate::util::proxy::Proxy;
use std::time::Duration;

use inarow::game::GameKind;
use inarow::store::{
    AccountError, GameRecord, GameResult, Journal, KeyError, LinkError, MoveRecord, PlayerRecord,
    Reason, Recorded, Recorder, RecorderOptions, RenameError, SCHEMA_VERSION, Store, StoreError,
    StoreOptions, Stored,
};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{AssertSqlSafe, Executor};

const NOW: i64 = 1_800_000_000_000;

fn pg_url() -> String {
    std::env::var("INAROW_TEST_PG").unwrap_or_else(|_| "postgres://root@127.0.0.1:5432/test".into())
}

/// Where one run of a test body keeps its database.
#[derive(Clone, Debug)]
struct Backend {
    name: &'static str,
    url: String,
    /// PostgreSQL: the scratch schema.
    schema: Option<String>,
}

impl Backend {
    fn options(&self) -> StoreOptions {
        StoreOptions {
            pg_schema: self.schema.clone(),
            ..StoreOptions::default()
        }
    }

    async fn open(&self) -> Result<Store, StoreError> {
        Store::open_with(&self.url, &self.options()).await
    }

    /// Runs one statement outside the store (to fake what the store would not do).
    async fn raw(&self, sqlite_sql: &str, pg_sql: &str) {
        match &self.schema {
            None => {
                let path = self.url.strip_prefix("sqlite://").unwrap();
                let pool = sqlx::sqlite::SqlitePoolOptions::new()
                    .max_connections(1)
                    .connect_with(sqlx::sqlite::SqliteConnectOptions::new().filename(path))
                    .await
                    .unwrap();
                pool.execute(AssertSqlSafe(sqlite_sql.to_string()))
                    .await
                    .unwrap();
                pool.close().await;
            }
            Some(schema) => {
                let opts = PgConnectOptions::from_str(&self.url)
                    .unwrap()
                    .options([("search_path", schema.as_str())]);
                let pool = PgPoolOptions::new()
                    .max_connections(1)
                    .connect_with(opts)
                    .await
                    .unwrap();
                pool.execute(AssertSqlSafe(pg_sql.to_string()))
                    .await
                    .unwrap();
                pool.close().await;
            }
        }
    }
}

/// A scratch schema's name: `store_test_` + a UUIDv7 (its first 48 bits
/// are the creation time, which lets a later run drop leftovers).
fn scratch_schema_name() -> String {
    format!("store_test_{}", uuid::Uuid::now_v7().simple())
}

/// Drops scratch schemas older than an hour (left by a test that crashed).
async fn drop_stale_schemas(admin: &sqlx::PgPool) {
    let names: Vec<String> = sqlx::query_scalar(
        "SELECT nspname::TEXT FROM pg_namespace WHERE nspname LIKE 'store\\_test\\_%'",
    )
    .fetch_all(admin)
    .await
    .unwrap_or_default();
    let now = inarow::store::now_ms();
    for name in names {
        let hex = &name["store_test_".len()..];
        let born = hex
            .get(..12)
            .and_then(|h| i64::from_str_radix(h, 16).ok())
            .unwrap_or(now);
        if now - born > 3_600_000 && hex.chars().all(|c| c.is_ascii_hexdigit()) {
            let _ = admin
                .execute(AssertSqlSafe(format!(
                    "DROP SCHEMA IF EXISTS {name} CASCADE"
                )))
                .await;
        }
    }
}

/// A connection to the PostgreSQL server the tests use; a test that cannot
/// reach it fails, saying so.
async fn pg_admin() -> sqlx::PgPool {
    let url = pg_url();
    PgPoolOptions::new()
        .max_connections(1)
        .acquire_timeout(Duration::from_secs(3))
        .connect(&url)
        .await
        .unwrap_or_else(|e| {
            panic!(
                "this test needs PostgreSQL at {url} (INAROW_TEST_PG), which is unreachable: {e} \
                 (scripts/test-deps installs and starts one)"
            )
        })
}

/// Runs `body` on SQLite, then on PostgreSQL (see the file's doc). The body
/// gets the backend and a freshly migrated store; the database is dropped
/// afterwards even when the body panics (the panic is then passed on).
async fn on_both<F, Fut>(body: F)
where
    F: Fn(Backend, Store) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    on_sqlite(&body).await;
    on_postgres(body).await;
}

/// Runs `body` on SQLite in a temporary file (see [`on_both`]).
async fn on_sqlite<F, Fut>(body: &F)
where
    F: Fn(Backend, Store) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let dir = tempfile::tempdir().unwrap();
    let backend = Backend {
        name: "sqlite",
        url: format!("sqlite://{}", dir.path().join("var/inarow.db").display()),
        schema: None,
    };
    let store = backend.open().await.expect("open SQLite store");
    let result = tokio::spawn(body(backend.clone(), store.clone())).await;
    store.close().await;
    if let Err(e) = result {
        std::panic::resume_unwind(e.into_panic());
    }
}

/// Runs `body` on PostgreSQL in a scratch schema of its own (see
/// [`on_both`]): alone, for what only PostgreSQL does. The backend's
/// `schema` is always set.
async fn on_postgres<F, Fut>(body: F)
where
    F: Fn(Backend, Store) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let admin = pg_admin().await;
    drop_stale_schemas(&admin).await;
    let schema = scratch_schema_name();
    admin
        .execute(AssertSqlSafe(format!("CREATE SCHEMA {schema}")))
        .await
        .unwrap();
    let backend = Backend {
        name: "postgres",
        url: pg_url(),
        schema: Some(schema.clone()),
    };
    let store = match backend.open().await {
        Ok(store) => store,
        Err(e) => {
            let _ = admin
                .execute(AssertSqlSafe(format!("DROP SCHEMA {schema} CASCADE")))
                .await;
            panic!("open PostgreSQL store: {e}");
        }
    };
    let result = tokio::spawn(body(backend, store.clone())).await;
    store.close().await;
    admin
        .execute(AssertSqlSafe(format!("DROP SCHEMA {schema} CASCADE")))
        .await
        .unwrap();
    admin.close().await;
    if let Err(e) = result {
        std::panic::resume_unwind(e.into_panic());
    }
}

pub(crate) fn person(name: &str, account: Option<&str>, colour: &str) -> PlayerRecord {
    PlayerRecord::person(name, account, colour)
}

/// `n` rated games Alice (`a`) won against Carol (`c`), a second apart.
fn alice_wins(a: &str, c: &str, n: i64) -> Vec<GameRecord> {
    (0..n)
        .map(|i| {
            game(
                [
                    person("Alice", Some(a), "red"),
                    person("Carol", Some(c), "yellow"),
                ],
                Some(0),
                true,
                NOW + i * 1_000,
            )
        })
        .collect()
}

/// A Connect Four game between two seats, won by `winner` (None: draw).
pub(crate) fn game(
    players: [PlayerRecord; 2],
    winner: Option<u8>,
    rated: bool,
    ended_ms: i64,
) -> GameRecord {
    GameRecord {
        result: if winner.is_some() {
            GameResult::Win
        } else {
            GameResult::Draw
        },
        winner,
        reason: if winner.is_some() {
            Reason::Line
        } else {
            Reason::Draw
        },
        line: if winner.is_some() {
            vec![(3, 0), (3, 1), (3, 2), (3, 3)]
        } else {
            vec![]
        },
        moves: vec![
            MoveRecord {
                x: 3,
                y: 0,
                ms: 1_000,
            },
            MoveRecord {
                x: 4,
                y: 0,
                ms: 2_500,
            },
        ],
        ..GameRecord::column_win(players, rated, ended_ms)
    }
}

/// A new account for a key, at `NOW`.
async fn account(store: &Store, fp: &str, name: &str) -> inarow::store::Account {
    store.create_account(fp, name, NOW).await.unwrap()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

#[tokio::test]
async fn store_names_are_unique_by_case_and_look_alikes() {
    on_both(|b, store| async move {
        let alice = account(&store, "SHA256:alice", "Alice").await;
        assert_eq!(alice.name, "Alice");
        let found = store.account_by_key("SHA256:alice").await.unwrap().unwrap();
        assert_eq!(found, alice, "{}", b.name);
        assert_eq!(store.account(&alice.id).await.unwrap(), Some(alice.clone()));
        assert_eq!(store.account_by_key("SHA256:nobody").await.unwrap(), None);
        for taken in [
            "alice",
            "ALICE",
            "A1ice",
            "Al1ce",
            "\u{410}lice",
            "a.l.i.c.e",
        ] {
            assert!(
                matches!(
                    store.create_account("SHA256:other", taken, NOW).await,
                    Err(AccountError::NameTaken)
                ),
                "{} {taken}",
                b.name
            );
            assert_eq!(
                store.name_taken(taken).await.unwrap().as_deref(),
                Some(alice.id.as_str())
            );
        }
        assert_eq!(store.name_taken("Bob").await.unwrap(), None);
        assert!(matches!(
            store.create_account("SHA256:alice", "Alison", NOW).await,
            Err(AccountError::KeyTaken)
        ));
        // The failed attempt left no account behind.
        assert_eq!(store.name_taken("Alison").await.unwrap(), None);
        for bad in [
            "Computer",
            "c0mputer",
            "",
            "   ",
            "\x1b[31mred",
            &"x".repeat(500),
        ] {
            assert!(
                matches!(
                    store.create_account("SHA256:bad", bad, NOW).await,
                    Err(AccountError::NameInvalid(_))
                ),
                "{bad:?}"
            );
        }
        assert!(
            store
                .create_account(&"k".repeat(10_000), "Kay", NOW)
                .await
                .is_err()
        );
        let bob = account(&store, "SHA256:bob", "Bob").await;
        assert_ne!(bob.id, alice.id);
        let users = store.users("").await.unwrap();
        assert_eq!(
            users.iter().map(|u| u.name.as_str()).collect::<Vec<_>>(),
            ["Alice", "Bob"]
        );
        assert_eq!(users[0].keys, 1);
        let users = store.users("ALI").await.unwrap();
        assert_eq!(users.len(), 1);
        assert_eq!(users[0].id, alice.id);
        // '%' is no wildcard: "A%e" would match "Alice" if it were.
        assert!(store.users("A%e").await.unwrap().is_empty());
    })
    .await;
}

#[tokio::test]
async fn store_renames_at_most_once_a_minute_and_never_onto_a_taken_name() {
    on_both(|_, store| async move {
        let a = account(&store, "SHA256:a", "Alice").await;
        store.create_account("SHA256:b", "Bob", NOW).await.unwrap();
        store.rename(&a.id, "Alicia", NOW).await.unwrap();
        assert_eq!(store.account(&a.id).await.unwrap().unwrap().name, "Alicia");
        assert_eq!(
            store.account(&a.id).await.unwrap().unwrap().renamed_ms,
            Some(NOW)
        );
        match store.rename(&a.id, "Alba", NOW + 30_000).await {
            Err(RenameError::TooSoon { wait_secs }) => assert_eq!(wait_secs, 30),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            store.rename(&a.id, "B0b", NOW + 61_000).await,
            Err(RenameError::Taken)
        ));
        assert!(matches!(
            store.rename(&a.id, "computer", NOW + 61_000).await,
            Err(RenameError::Invalid(inarow::store::NameProblem::Reserved))
        ));
        // Its own name in another case is still its own.
        store.rename(&a.id, "ALICIA", NOW + 61_000).await.unwrap();
        // The old name is free again.
        assert_eq!(store.name_taken("Alice").await.unwrap(), None);
        account(&store, "SHA256:c", "Alice").await;
        // Administrators are not rate limited.
        store.admin_rename("alicia", "Zed").await.unwrap();
        store.admin_rename("Zed", "Zoe").await.unwrap();
        assert_eq!(store.account(&a.id).await.unwrap().unwrap().name, "Zoe");
        assert!(matches!(
            store.admin_rename("nobody", "X").await,
            Err(RenameError::NoAccount)
        ));
        assert!(matches!(
            store.rename("no-such-id", "Free", NOW).await,
            Err(RenameError::NoAccount)
        ));
    })
    .await;
}

/// The stones setting (`[t]`) is kept with the account, over a reopening
/// of the store; unset, it reads as not chosen; only short names are taken.
#[tokio::test]
async fn store_keeps_an_accounts_stones_setting() {
    on_both(|b, store| async move {
        let a = account(&store, "SHA256:a", "Alice").await;
        let other = account(&store, "SHA256:b", "Bob").await;
        assert_eq!(store.stones(&a.id).await.unwrap(), None, "{}", b.name);
        assert!(store.set_stones(&a.id, "ascii").await.unwrap());
        assert_eq!(store.stones(&a.id).await.unwrap().as_deref(), Some("ascii"));
        assert_eq!(store.stones(&other.id).await.unwrap(), None, "only hers");
        assert!(store.set_stones(&a.id, "emoji").await.unwrap());
        assert_eq!(store.stones(&a.id).await.unwrap().as_deref(), Some("emoji"));
        assert!(!store.set_stones("no-such-id", "ascii").await.unwrap());
        assert_eq!(store.stones("no-such-id").await.unwrap(), None);
        for bad in ["", "ASCII", "a b", "emoji'; --", &"x".repeat(100)] {
            assert!(
                matches!(
                    store.set_stones(&a.id, bad).await,
                    Err(StoreError::Invalid(_))
                ),
                "{bad:?}"
            );
        }
        assert_eq!(store.stones(&a.id).await.unwrap().as_deref(), Some("emoji"));
        // A rename leaves it alone; a reopened store still has it.
        store.rename(&a.id, "Alicia", NOW).await.unwrap();
        let again = b.open().await.unwrap();
        assert_eq!(again.stones(&a.id).await.unwrap().as_deref(), Some("emoji"));
        again.close().await;
    })
    .await;
}

#[tokio::test]
async fn store_link_codes_are_one_time_and_expire_and_keys_can_be_removed() {
    on_both(|_, store| async move {
        let a = account(&store, "SHA256:one", "Alice").await;
        let b = account(&store, "SHA256:bob", "Bob").await;
        let code = store.create_link_code(&a.id, NOW).await.unwrap();
        assert_eq!(code.len(), 9);
        let typed = code.to_lowercase().replace('-', "");
        let linked = store
            .redeem_link_code(&typed, "SHA256:two", NOW + 1_000)
            .await
            .unwrap();
        assert_eq!(linked.id, a.id);
        assert_eq!(
            store
                .account_by_key("SHA256:two")
                .await
                .unwrap()
                .unwrap()
                .id,
            a.id
        );
        assert!(matches!(
            store
                .redeem_link_code(&code, "SHA256:three", NOW + 2_000)
                .await,
            Err(LinkError::Unknown)
        ));
        let late = store.create_link_code(&a.id, NOW).await.unwrap();
        assert!(matches!(
            store
                .redeem_link_code(&late, "SHA256:three", NOW + 10 * 60_000)
                .await,
            Err(LinkError::Expired)
        ));
        // Another account's key cannot be taken over, and the code stays usable.
        let code = store.create_link_code(&a.id, NOW).await.unwrap();
        assert!(matches!(
            store.redeem_link_code(&code, "SHA256:bob", NOW).await,
            Err(LinkError::KeyTaken)
        ));
        assert_eq!(
            store
                .account_by_key("SHA256:bob")
                .await
                .unwrap()
                .unwrap()
                .id,
            b.id
        );
        store
            .redeem_link_code(&code, "SHA256:three", NOW)
            .await
            .unwrap();
        // A newer code replaces the older one.
        let first = store.create_link_code(&b.id, NOW).await.unwrap();
        let second = store.create_link_code(&b.id, NOW).await.unwrap();
        assert!(matches!(
            store.redeem_link_code(&first, "SHA256:x", NOW).await,
            Err(LinkError::Unknown)
        ));
        assert!(matches!(
            store.redeem_link_code("junk\x1b", "SHA256:x", NOW).await,
            Err(LinkError::Unknown)
        ));
        store
            .redeem_link_code(&second, "SHA256:bob2", NOW)
            .await
            .unwrap();

        let keys: Vec<String> = store
            .keys(&a.id)
            .await
            .unwrap()
            .into_iter()
            .map(|k| k.fingerprint)
            .collect();
        assert_eq!(keys.len(), 3);
        for k in ["SHA256:one", "SHA256:two", "SHA256:three"] {
            assert!(keys.contains(&k.to_string()), "{keys:?}");
        }
        assert!(matches!(
            store.remove_key(&a.id, "SHA256:bob").await,
            Err(KeyError::NotFound)
        ));
        store.remove_key(&a.id, "SHA256:one").await.unwrap();
        store.remove_key(&a.id, "SHA256:two").await.unwrap();
        assert!(matches!(
            store.remove_key(&a.id, "SHA256:three").await,
            Err(KeyError::LastKey)
        ));
        assert_eq!(store.account_by_key("SHA256:one").await.unwrap(), None);
        assert_eq!(store.keys(&a.id).await.unwrap().len(), 1);
    })
    .await;
}

#[tokio::test]
async fn store_a_rated_game_moves_both_ratings_once() {
    on_both(|b, store| async move {
        let a = account(&store, "SHA256:a", "Alice").await;
        let c = account(&store, "SHA256:c", "Carol").await;
        let g = game(
            [
                person("Alice", Some(&a.id), "red"),
                person("Carol", Some(&c.id), "yellow"),
            ],
            Some(0),
            true,
            NOW,
        );
        let change = store.record_game(&g).await.unwrap().expect("rated");
        let cfg = Glicko2Config::new();
        let (wa, wc) = glicko2(
            &Glicko2Rating::new(),
            &Glicko2Rating::new(),
            &Outcomes::WIN,
            &cfg,
        );
        assert!(
            close(change.after[0].rating, wa.rating) && close(change.after[1].rating, wc.rating)
        );
        assert!(
            (change.after[0].rating - 1662.31).abs() < 0.01,
            "{change:?}"
        );
        assert!((change.after[0].deviation - 290.32).abs() < 0.01);
        assert_eq!(change.before[0].rating, 1500.0);
        assert_eq!(change.accounts, [a.id.clone(), c.id.clone()]);

        // Stored with the ratings before and after.
        let stored = store.game(&g.id).await.unwrap().unwrap();
        assert_eq!(stored.players[0].rating_before, Some(1500.0));
        assert!(close(stored.players[0].rating_after.unwrap(), wa.rating));
        assert!(close(stored.players[1].rating_after.unwrap(), wc.rating));
        assert_eq!(stored.moves, g.moves);
        assert_eq!(stored.line, g.line);
        assert!(stored.rated);
        assert_eq!(
            (stored.result, stored.winner, stored.reason),
            (GameResult::Win, Some(0), Reason::Line)
        );

        // The same game again changes nothing.
        assert_eq!(
            store.record_games(std::slice::from_ref(&g)).await.unwrap(),
            vec![Stored::Duplicate]
        );
        let ra = store.ratings(&a.id, NOW).await.unwrap();
        assert_eq!(ra.len(), 1);
        assert_eq!(
            (
                ra[0].game,
                ra[0].games,
                ra[0].wins,
                ra[0].losses,
                ra[0].draws
            ),
            (GameKind::ConnectFour, 1, 1, 0, 0)
        );
        assert!(close(ra[0].rating.rating, wa.rating));
        let rc = store.ratings(&c.id, NOW).await.unwrap();
        assert_eq!((rc[0].games, rc[0].wins, rc[0].losses), (1, 0, 1));

        // A second game (a draw) starts from the stored ratings.
        let g2 = game(
            [
                person("Carol", Some(&c.id), "red"),
                person("Alice", Some(&a.id), "yellow"),
            ],
            None,
            true,
            NOW + 1_000,
        );
        let change2 = store.record_game(&g2).await.unwrap().unwrap();
        let (dc, da) = glicko2(&wc, &wa, &Outcomes::DRAW, &cfg);
        assert!(
            close(change2.after[0].rating, dc.rating) && close(change2.after[1].rating, da.rating)
        );
        assert!(close(change2.before[1].rating, wa.rating));

        // Unrated: against the computer, a guest, odd boards. Stored, no rating moves.
        let mut cpu = person("Computer (hard)", None, "yellow");
        cpu.computer = Some("hard".into());
        let vs_cpu = game(
            [person("Alice", Some(&a.id), "red"), cpu],
            Some(1),
            true,
            NOW + 2_000,
        );
        assert_eq!(store.record_game(&vs_cpu).await.unwrap(), None);
        let vs_guest = game(
            [
                person("guest42", None, "red"),
                person("Carol", Some(&c.id), "yellow"),
            ],
            Some(0),
            true,
            NOW + 3_000,
        );
        assert_eq!(store.record_game(&vs_guest).await.unwrap(), None);
        let mut big = game(
            [
                person("Alice", Some(&a.id), "red"),
                person("Carol", Some(&c.id), "yellow"),
            ],
            Some(0),
            true,
            NOW + 4_000,
        );
        big.width = 9;
        big.height = 7;
        assert_eq!(store.record_game(&big).await.unwrap(), None);
        assert!(
            !store.game(&big.id).await.unwrap().unwrap().rated,
            "stored as unrated"
        );
        assert_eq!(
            store.ratings(&a.id, NOW).await.unwrap()[0].games,
            2,
            "{}",
            b.name
        );

        // History and profile: newest first.
        let h = store.history(&a.id, 10).await.unwrap();
        assert_eq!(
            h.iter().map(|g| g.id.as_str()).collect::<Vec<_>>(),
            [&big.id, &vs_cpu.id, &g2.id, &g.id]
        );
        assert_eq!(h[1].players[1].computer.as_deref(), Some("hard"));
        let p = store.profile(&c.id, NOW).await.unwrap().unwrap();
        assert_eq!(p.name, "Carol");
        assert_eq!(p.recent.len(), 4);
        assert_eq!(p.ratings[0].draws, 1);
        assert_eq!(store.profile("no-such-account", NOW).await.unwrap(), None);

        // Export: by player (any case), by game, since.
        let all = store
            .export(&inarow::store::ExportFilter {
                limit: 100,
                ..Default::default()
            })
            .await
            .unwrap();
        assert_eq!(all.len(), 5);
        let guest = store
            .export(&inarow::store::ExportFilter {
                player: Some("GUEST42".into()),
                limit: 100,
                ..Default::default()
            })
            .await
            .unwrap();
        assert_eq!(guest.len(), 1);
        assert_eq!(guest[0].id, vs_guest.id);
        let since = store
            .export(&inarow::store::ExportFilter {
                since_ms: Some(NOW + 2_000 - 60_000),
                limit: 100,
                ..Default::default()
            })
            .await
            .unwrap();
        assert_eq!(since.len(), 3);
        let gomoku = store
            .export(&inarow::store::ExportFilter {
                game: Some(GameKind::Gomoku),
                limit: 100,
                ..Default::default()
            })
            .await
            .unwrap();
        assert!(gomoku.is_empty());
        let page = store
            .export(&inarow::store::ExportFilter {
                limit: 2,
                ..Default::default()
            })
            .await
            .unwrap();
        let next = store
            .export(&inarow::store::ExportFilter {
                after: Some((page[1].started_ms, page[1].id.clone())),
                limit: 100,
                ..Default::default()
            })
            .await
            .unwrap();
        assert_eq!(page.len() + next.len(), 5);

        // A hostile record is refused before it reaches the database.
        let mut bad = game(
            [person("x", None, "red"), person("y", None, "blue")],
            Some(0),
            false,
            NOW,
        );
        bad.moves.push(MoveRecord {
            x: 200,
            y: 0,
            ms: 0,
        });
        assert!(matches!(
            store.record_game(&bad).await,
            Err(StoreError::Invalid(_))
        ));
    })
    .await;
}

/// Names without look-alike letters, so each is its own skeleton.
fn player_name(i: usize) -> String {
    const LETTERS: &[u8] = b"abcdefghjkmnpqrsuvwxyz";
    format!(
        "pl{}{}",
        LETTERS[i / LETTERS.len()] as char,
        LETTERS[i % LETTERS.len()] as char
    )
}

#[tokio::test]
async fn store_leaderboard_counts_only_settled_players_and_ranks_me_anywhere() {
    on_both(|_, store| async move {
        let mut ids = Vec::new();
        for i in 0..26 {
            let a = store
                .create_account(&format!("SHA256:{i}"), &player_name(i), NOW)
                .await
                .unwrap();
            ids.push(a.id);
        }
        // Round robin, 24 rounds: the higher number mostly wins.
        let mut games = Vec::new();
        let mut t = NOW;
        for round in 0..24 {
            for i in 0..26 {
                let j = (i + round + 1) % 26;
                if i == j {
                    continue;
                }
                t += 1_000;
                let upset = (i + j + round) % 4 == 0;
                let winner = if (i > j) != upset { 0 } else { 1 };
                games.push(game(
                    [
                        person(&player_name(i), Some(&ids[i]), "red"),
                        person(&player_name(j), Some(&ids[j]), "yellow"),
                    ],
                    Some(winner),
                    true,
                    t,
                ));
            }
        }
        for chunk in games.chunks(50) {
            store.record_games(chunk).await.unwrap();
        }
        // A newcomer with a few games does not qualify.
        let newbie = account(&store, "SHA256:new", "Newbie").await;
        for _ in 0..2 {
            t += 1_000;
            store
                .record_game(&game(
                    [
                        person("Newbie", Some(&newbie.id), "red"),
                        person(&player_name(0), Some(&ids[0]), "yellow"),
                    ],
                    Some(0),
                    true,
                    t,
                ))
                .await
                .unwrap();
        }
        // What the board should be, from each player's own ratings.
        let mut expected: Vec<(f64, String)> = Vec::new();
        for id in ids.iter().chain([&newbie.id]) {
            let r = &store.ratings(id, t).await.unwrap()[0];
            if r.games >= 5 && r.rating.deviation < 110.0 {
                expected.push((r.rating.rating, id.clone()));
            }
        }
        expected.sort_by(|a, b| b.0.total_cmp(&a.0));
        assert!(expected.len() > 21, "{} qualified", expected.len());
        let best = expected[0].1.clone();
        let board = store
            .leaderboard(GameKind::ConnectFour, Some(&best), t)
            .await
            .unwrap();
        assert_eq!(
            board
                .top
                .iter()
                .map(|r| r.account.clone())
                .collect::<Vec<_>>(),
            expected[..20]
                .iter()
                .map(|e| e.1.clone())
                .collect::<Vec<_>>()
        );
        for (n, row) in board.top.iter().enumerate() {
            assert_eq!(row.rank, n as i64 + 1);
            assert!(row.games >= 5 && row.deviation < 110.0, "{row:?}");
        }
        assert_eq!(board.me.as_ref().unwrap().rank, 1);
        // The weakest settled player ranks outside the top 20, and is told where.
        let weakest = &expected[expected.len() - 1].1;
        assert!(!board.top.iter().any(|r| &r.account == weakest));
        let me = store
            .leaderboard(GameKind::ConnectFour, Some(weakest), t)
            .await
            .unwrap()
            .me
            .unwrap();
        assert_eq!(me.rank, expected.len() as i64);
        assert_eq!(me.account, *weakest);
        // Those who did not settle (too few games, or too extreme) rank 0.
        for id in &ids {
            if !expected.iter().any(|e| &e.1 == id) {
                assert_eq!(board_rank(&store, id, t).await, 0);
            }
        }
        // Unqualified: rank 0; no rating at all: no row.
        let nb = store
            .leaderboard(GameKind::ConnectFour, Some(&newbie.id), t)
            .await
            .unwrap()
            .me
            .unwrap();
        assert_eq!((nb.rank, nb.games), (0, 2));
        assert_eq!(
            store
                .leaderboard(GameKind::Gomoku, Some(&newbie.id), t)
                .await
                .unwrap()
                .me,
            None
        );
        assert!(
            store
                .leaderboard(GameKind::Gomoku, None, t)
                .await
                .unwrap()
                .top
                .is_empty()
        );
        // Years without a game: every deviation has grown past 110.
        let later = t + 400 * 7 * 24 * 3_600_000;
        let stale = store
            .leaderboard(GameKind::ConnectFour, Some(&best), later)
            .await
            .unwrap();
        assert!(stale.top.is_empty(), "{:?}", stale.top.first());
        assert_eq!(stale.me.unwrap().rank, 0);
    })
    .await;
}

async fn board_rank(store: &Store, id: &str, now: i64) -> i64 {
    store
        .leaderboard(GameKind::ConnectFour, Some(id), now)
        .await
        .unwrap()
        .me
        .unwrap()
        .rank
}

#[tokio::test]
async fn store_bans_expire_and_lift() {
    on_both(|_, store| async move {
        store
            .ban("SHA256:troll", "spam\x1b[2J in chat", Some(1), NOW)
            .await
            .unwrap();
        let ban = store
            .ban_for("SHA256:troll", NOW + 1_000)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(ban.until_ms, Some(NOW + 3_600_000));
        assert!(!ban.reason.contains('\x1b'), "{:?}", ban.reason);
        assert!(ban.reason.contains("spam"));
        assert_eq!(
            store
                .ban_for("SHA256:troll", NOW + 3_600_000)
                .await
                .unwrap(),
            None
        );
        assert_eq!(store.ban_for("SHA256:other", NOW).await.unwrap(), None);
        store.ban("203.0.113.7", "", None, NOW).await.unwrap();
        assert!(
            store
                .ban_for("203.0.113.7", NOW + 1_000_000_000)
                .await
                .unwrap()
                .is_some()
        );
        assert_eq!(store.bans().await.unwrap().len(), 2);
        assert!(store.unban("203.0.113.7").await.unwrap());
        assert!(!store.unban("203.0.113.7").await.unwrap());
        assert_eq!(store.ban_for("203.0.113.7", NOW).await.unwrap(), None);
        assert!(store.ban("", "x", None, NOW).await.is_err());
        assert!(store.ban(&"x".repeat(1000), "x", None, NOW).await.is_err());
        assert_eq!(store.ban_for(&"x".repeat(1000), NOW).await.unwrap(), None);
    })
    .await;
}

#[tokio::test]
async fn store_refuses_a_database_newer_than_the_binary() {
    on_both(|b, store| async move {
        store.create_account("SHA256:a", "Alice", NOW).await.unwrap();
        // Reopening an up-to-date database is fine and keeps the data.
        let again = b.open().await.unwrap();
        assert!(again.account_by_key("SHA256:a").await.unwrap().is_some());
        again.close().await;
        b.raw(
            "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
             VALUES (999, 'future', TRUE, X'00', 0)",
            "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
             VALUES (999, 'future', TRUE, '\\x00'::bytea, 0)",
        )
        .await;
        match b.open().await {
            Err(e @ StoreError::SchemaTooNew { .. }) => {
                let text = e.to_string();
                let expected = format!("database schema version 999 is newer than this binary ({SCHEMA_VERSION})");
                assert!(text.contains(&expected), "{}: {text}", b.name);
            }
            other => panic!("{}: {other:?}", b.name),
        }
    })
    .await;
}

#[tokio::test]
async fn store_sqlite_creates_its_folder_and_names_the_url_in_errors() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("a/b/inarow.db").display());
    let store = Store::open(&url).await.unwrap();
    assert!(dir.path().join("a/b/inarow.db").exists());
    assert!(store.sqlite_path().is_some());
    store.close().await;
    // A file where the folder should be: the error names the URL.
    std::fs::write(dir.path().join("file"), b"x").unwrap();
    let bad = format!("sqlite://{}", dir.path().join("file/inarow.db").display());
    let e = Store::open(&bad).await.unwrap_err().to_string();
    assert!(e.contains(&bad), "{e}");
    // A password never shows (nothing listens on port 1).
    let options = StoreOptions {
        acquire_timeout: Duration::from_millis(500),
        ..StoreOptions::default()
    };
    let e = Store::open_with("postgres://user:hunter2@127.0.0.1:1/db", &options)
        .await
        .unwrap_err()
        .to_string();
    assert!(e.contains("postgres://user:***@127.0.0.1:1/db"), "{e}");
    assert!(!e.contains("hunter2"), "{e}");
}

/// A SQLite file damaged after its header (pages overwritten) is refused
/// when the store opens (`PRAGMA quick_check`), by `Store::open` and by
/// `inarow serve`, with a message naming the file.
#[tokio::test]
async fn store_sqlite_damaged_file_is_refused_at_start_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("inarow.db");
    let url = format!("sqlite://{}", path.display());
    let store = Store::open(&url).await.unwrap();
    for i in 0..400 {
        account(&store, &format!("SHA256:damage{i}"), &format!("player{i}")).await;
    }
    store.close().await;
    // Everything into the main file, the log gone.
    let pool = sqlx::sqlite::SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(sqlx::sqlite::SqliteConnectOptions::new().filename(&path))
        .await
        .unwrap();
    pool.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        .await
        .unwrap();
    pool.close().await;
    // A sound file opens.
    Store::open(&url).await.unwrap().close().await;
    let pool = sqlx::sqlite::SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(sqlx::sqlite::SqliteConnectOptions::new().filename(&path))
        .await
        .unwrap();
    pool.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        .await
        .unwrap();
    pool.close().await;
    let mut bytes = std::fs::read(&path).unwrap();
    let page = 4096;
    let pages = bytes.len() / page;
    assert!(pages > 10, "{pages} pages");
    // The header and the schema (page 1) intact; pages in the middle and
    // the last one overwritten.
    for p in [pages / 2, pages / 2 + 1, pages - 1] {
        for (i, b) in bytes[p * page..(p + 1) * page].iter_mut().enumerate() {
            *b = (i % 251) as u8 ^ 0xA5;
        }
    }
    std::fs::write(&path, &bytes).unwrap();
    let e = Store::open(&url).await.unwrap_err().to_string();
    assert!(e.contains("damaged"), "{e}");
    assert!(e.contains(&path.display().to_string()), "{e}");

    let config = dir.path().join("inarow.toml");
    let text = crate::util::ssh::merge(
        &crate::util::ssh::test_config_text(dir.path(), ""),
        &format!("[store]\nurl = \"{url}\"\n"),
    );
    std::fs::write(&config, text).unwrap();
    let err = crate::util::serve_refused(&config);
    assert!(err.contains("damaged"), "{err}");
    assert!(err.contains(&path.display().to_string()), "{err}");
}

/// A PostgreSQL server nobody listens for: the error says what failed
/// ("cannot reach PostgreSQL at HOST:PORT: connection refused"), not that a
/// pool timed out, and never the password: from the store, `inarow serve`,
/// `inarow admin` and `inarow games`.
#[tokio::test]
async fn store_unreachable_postgres_says_what_failed() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let url = format!("postgres://user:hunter2@127.0.0.1:{port}/db");
    let wanted = format!("cannot reach PostgreSQL at 127.0.0.1:{port}: connection refused");
    let options = StoreOptions {
        acquire_timeout: Duration::from_millis(500),
        ..StoreOptions::default()
    };
    let e = Store::open_with(&url, &options)
        .await
        .unwrap_err()
        .to_string();
    assert!(e.contains(&wanted), "{e}");
    assert!(
        !e.contains("pool timed out") && !e.contains("hunter2"),
        "{e}"
    );

    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("inarow.toml");
    let text = crate::util::ssh::merge(
        &crate::util::ssh::test_config_text(dir.path(), ""),
        &format!("[store]\nurl = \"{url}\"\n"),
    );
    std::fs::write(&config, text).unwrap();
    for args in [
        &["serve"][..],
        &["admin", "users"],
        &["admin", "ban", "10.0.0.0/8"],
        &["games", "export"],
    ] {
        let out = crate::util::inarow()
            .args(args)
            .arg("--config")
            .arg(&config)
            .stdout(std::process::Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}: {err}");
        assert!(err.contains(&wanted), "{args:?}: {err}");
        assert!(
            !err.contains("pool timed out") && !err.contains("hunter2"),
            "{args:?}: {err}"
        );
    }
}

/// `inarow serve` with a store it cannot open stops at once with an error
/// naming the store's URL (never its password) and a failure status.
#[test]
fn serve_stops_with_an_error_naming_a_store_it_cannot_open() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("file"), b"x").unwrap();
    let sqlite = format!("sqlite://{}", dir.path().join("file/inarow.db").display());
    for (url, shown) in [
        (
            "postgres://user:hunter2@127.0.0.1:1/db",
            "postgres://user:***@127.0.0.1:1/db",
        ),
        (sqlite.as_str(), sqlite.as_str()),
    ] {
        let path = dir.path().join("inarow.toml");
        let text = crate::util::ssh::merge(
            &crate::util::ssh::test_config_text(dir.path(), ""),
            &format!("[store]\nurl = \"{url}\"\n"),
        );
        std::fs::write(&path, text).unwrap();
        let mut child = crate::util::inarow()
            .args(["serve", "--config"])
            .arg(&path)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if std::time::Instant::now() > deadline {
                let _ = child.kill();
                panic!("inarow serve kept running without its store ({url})");
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let mut err = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
        assert!(!status.success(), "{url}: {err}");
        assert!(err.contains(shown), "{url}: {err}");
        assert!(!err.contains("hunter2"), "{err}");
    }
}

/// Games journaled by an earlier run (one of them also stored already, and
/// a torn last line) are replayed at start, each stored exactly once.
#[tokio::test]
async fn store_journal_is_replayed_at_start_exactly_once() {
    on_both(|b, store| async move {
        let a = account(&store, "SHA256:a", "Alice").await;
        let c = account(&store, "SHA256:c", "Carol").await;
        let games = alice_wins(&a.id, &c.id, 5);
        store.record_game(&games[0]).await.unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let journal = Journal::new(&path);
        journal.append(&games).unwrap();
        {
            use std::io::Write;
            let mut f = std::fs::OpenOptions::new()
                .append(true)
                .open(&path)
                .unwrap();
            f.write_all(b"{\"id\":\"0192").unwrap();
        }
        let recorder = Recorder::start(
            store.clone(),
            Journal::new(&path),
            RecorderOptions::default(),
        );
        // A game submitted now is stored after the replayed ones.
        let last = game(
            [
                person("Carol", Some(&c.id), "red"),
                person("Alice", Some(&a.id), "yellow"),
            ],
            Some(0),
            true,
            NOW + 10_000,
        );
        let answer = recorder.submit(last.clone()).await.unwrap();
        assert!(
            matches!(answer, Recorded::Stored(Stored::New(Some(_)))),
            "{}: {answer:?}",
            b.name
        );
        recorder.shutdown().await;
        assert_eq!(
            std::fs::metadata(&path).unwrap().len(),
            0,
            "journal emptied"
        );
        let r = store.ratings(&a.id, NOW).await.unwrap();
        assert_eq!(
            (r[0].games, r[0].wins, r[0].losses),
            (6, 5, 1),
            "{}",
            b.name
        );
        assert_eq!(store.history(&a.id, 100).await.unwrap().len(), 6);
        // The replay went in journal order: each stored game's rating_before
        // is the previous game's rating_after.
        let mut prev = 1500.0;
        for g in games.iter().chain([&last]) {
            let s = store.game(&g.id).await.unwrap().unwrap();
            let seat = s
                .players
                .iter()
                .position(|p| p.account.as_deref() == Some(a.id.as_str()))
                .unwrap();
            assert!(
                close(s.players[seat].rating_before.unwrap(), prev),
                "{}",
                b.name
            );
            prev = s.players[seat].rating_after.unwrap();
        }
        // Replaying the same journal lines again stores nothing new.
        let journal = Journal::new(&path);
        journal.append(&games).unwrap();
        let recorder = Recorder::start(
            store.clone(),
            Journal::new(&path),
            RecorderOptions::default(),
        );
        recorder.shutdown().await;
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 0);
        assert_eq!(store.ratings(&a.id, NOW).await.unwrap()[0].games, 6);
    })
    .await;
}

/// A cuttable proxy in front of the PostgreSQL server `url` names.
async fn proxy_in_front_of(url: &str) -> Proxy {
    let opts = PgConnectOptions::from_str(url).unwrap();
    Proxy::start(format!("{}:{}", opts.get_host(), opts.get_port())).await
}

/// A writer whose store is the PostgreSQL scratch schema of `b` reached
/// through a cuttable proxy (`acquire_timeout` its pool's wait), its
/// journal in a scratch folder; Alice's and Carol's accounts made in
/// `store` directly.
struct Proxied {
    proxy: Proxy,
    via: Store,
    a: inarow::store::Account,
    c: inarow::store::Account,
    _dir: tempfile::TempDir,
    path: std::path::PathBuf,
    recorder: Recorder,
}

async fn writer_behind_proxy(
    b: &Backend,
    store: &Store,
    acquire_timeout: Duration,
    recorder: RecorderOptions,
) -> Proxied {
    let schema = b.schema.clone().unwrap();
    let proxy = proxy_in_front_of(&b.url).await;
    let proxied = proxied_url(&proxy, &b.url);
    let options = StoreOptions {
        pg_schema: Some(schema),
        acquire_timeout,
        ..StoreOptions::default()
    };
    let via = Store::open_with(&proxied, &options).await.unwrap();
    let a = account(store, "SHA256:a", "Alice").await;
    let c = account(store, "SHA256:c", "Carol").await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    let recorder = Recorder::start(via.clone(), Journal::new(&path), recorder);
    Proxied {
        proxy,
        via,
        a,
        c,
        _dir: dir,
        path,
        recorder,
    }
}

/// Waits (at most 30 s) until the journal at `path` is empty: replayed.
async fn journal_replayed(path: &std::path::Path) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while std::fs::metadata(path).map(|m| m.len()).unwrap_or(0) > 0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "journal never replayed"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// `url` (same user, database and parameters) through `proxy`.
fn proxied_url(proxy: &Proxy, url: &str) -> String {
    let (head, tail) = url.split_once("://").unwrap();
    let (auth, rest) = tail.split_once('/').unwrap_or((tail, ""));
    let user = auth
        .rsplit_once('@')
        .map(|(u, _)| format!("{u}@"))
        .unwrap_or_default();
    format!("{head}://{user}127.0.0.1:{}/{rest}", proxy.port)
}

/// PostgreSQL cut off under a running writer: finished games go to the
/// journal, and reach the store once it is back, each exactly once.
#[tokio::test]
async fn store_postgres_cut_off_loses_and_duplicates_nothing() {
    on_postgres(|b, store| async move {
        let w = writer_behind_proxy(
            &b,
            &store,
            Duration::from_millis(800),
            RecorderOptions {
                retry: Duration::from_millis(200),
                ..RecorderOptions::default()
            },
        )
        .await;
        let mk = |i: i64| {
            game(
                [
                    person("Alice", Some(&w.a.id), "red"),
                    person("Carol", Some(&w.c.id), "yellow"),
                ],
                Some((i % 2) as u8),
                true,
                NOW + i * 1_000,
            )
        };
        let games: Vec<GameRecord> = (0..8).map(mk).collect();
        let first = w.recorder.submit(games[0].clone()).await.unwrap();
        assert!(
            matches!(first, Recorded::Stored(Stored::New(Some(_)))),
            "{first:?}"
        );

        w.proxy.cut();
        for g in &games[1..5] {
            let answer = w.recorder.submit(g.clone()).await.unwrap();
            assert_eq!(answer, Recorded::Journaled);
        }
        assert!(std::fs::metadata(&w.path).unwrap().len() > 0);
        assert_eq!(
            store.history(&w.a.id, 100).await.unwrap().len(),
            1,
            "nothing reached the store"
        );

        w.proxy.restore();
        // Replayed on the writer's next retry, before the newer games.
        let mut answers = Vec::new();
        for g in &games[5..] {
            answers.push(w.recorder.submit(g.clone()));
        }
        for answer in answers {
            let answer = tokio::time::timeout(Duration::from_secs(30), answer)
                .await
                .unwrap()
                .unwrap();
            assert!(
                matches!(
                    answer,
                    Recorded::Stored(Stored::New(Some(_))) | Recorded::Journaled
                ),
                "{answer:?}"
            );
        }
        journal_replayed(&w.path).await;
        w.recorder.shutdown().await;
        w.via.close().await;

        let history = store.history(&w.a.id, 100).await.unwrap();
        assert_eq!(history.len(), 8, "every game once");
        let r = store.ratings(&w.a.id, NOW).await.unwrap();
        assert_eq!((r[0].games, r[0].wins, r[0].losses), (8, 4, 4));
        // In order: ratings chain from one game to the next.
        let mut prev = 1500.0;
        for g in &games {
            let s = store.game(&g.id).await.unwrap().unwrap();
            assert!(
                close(s.players[0].rating_before.unwrap(), prev),
                "game {}",
                g.ended_ms
            );
            prev = s.players[0].rating_after.unwrap();
        }
    })
    .await;
}

/// PostgreSQL that stops answering (its connections stay open, nothing
/// comes back): a finished game is journaled within the writer's deadline
/// rather than waiting for the store, and stored exactly once when the
/// store answers again.
#[tokio::test]
async fn store_postgres_stalled_journals_within_the_deadline() {
    on_postgres(|b, store| async move {
        let w = writer_behind_proxy(
            &b,
            &store,
            // Longer than the test waits: only the writer's deadline can
            // answer while the store is stalled.
            Duration::from_secs(60),
            RecorderOptions {
                retry: Duration::from_millis(200),
                deadline: Duration::from_millis(500),
                ..RecorderOptions::default()
            },
        )
        .await;
        let games = alice_wins(&w.a.id, &w.c.id, 3);
        let first = w.recorder.submit(games[0].clone()).await.unwrap();
        assert!(
            matches!(first, Recorded::Stored(Stored::New(Some(_)))),
            "{first:?}"
        );

        w.proxy.stall();
        // The store never answers while stalled: the answer can only come
        // from the deadline.
        for g in &games[1..] {
            let answer =
                tokio::time::timeout(Duration::from_secs(20), w.recorder.submit(g.clone()))
                    .await
                    .expect("the writer waited for a stalled store")
                    .unwrap();
            assert_eq!(answer, Recorded::Journaled);
        }
        assert_eq!(Journal::new(&w.path).read().unwrap().records.len(), 2);

        w.proxy.restore();
        journal_replayed(&w.path).await;
        w.recorder.shutdown().await;
        w.via.close().await;
        assert_eq!(
            store.history(&w.a.id, 100).await.unwrap().len(),
            3,
            "each once"
        );
        let r = store.ratings(&w.a.id, NOW).await.unwrap();
        assert_eq!((r[0].games, r[0].wins), (3, 3));
    })
    .await;
}

/// A full queue never makes a game wait: the submission goes to the journal
/// at once; shutdown drains the queue, and every game is stored once.
#[tokio::test]
async fn store_full_queue_spills_to_the_journal_and_shutdown_drains() {
    on_both(|b, store| async move {
        let a = account(&store, "SHA256:a", "Alice").await;
        let c = account(&store, "SHA256:c", "Carol").await;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let recorder = Recorder::start(
            store.clone(),
            Journal::new(&path),
            RecorderOptions {
                queue: 1,
                batch: 1,
                retry: Duration::from_millis(50),
                ..RecorderOptions::default()
            },
        );
        let games = alice_wins(&a.id, &c.id, 40);
        // All submitted without awaiting anything in between.
        let answers: Vec<_> = games.iter().map(|g| recorder.submit(g.clone())).collect();
        // An invalid record is refused at once, not queued.
        let mut bad = games[0].clone();
        bad.id = "not-a-uuid".into();
        assert!(matches!(
            recorder.submit(bad).await.unwrap(),
            Recorded::Failed(_)
        ));
        recorder.shutdown().await;
        let mut journaled = 0;
        for answer in answers {
            match answer.await.unwrap() {
                Recorded::Journaled => journaled += 1,
                Recorded::Stored(Stored::New(Some(_))) => {}
                other => panic!("{}: {other:?}", b.name),
            }
        }
        assert!(
            journaled > 0,
            "{}: a queue of one must have spilled",
            b.name
        );
        // The writer replayed the spilled games before it stopped.
        assert_eq!(
            std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0),
            0,
            "{}",
            b.name
        );
        let r = store.ratings(&a.id, NOW).await.unwrap();
        assert_eq!((r[0].games, r[0].wins), (40, 40), "{}", b.name);
        assert_eq!(store.history(&c.id, 100).await.unwrap().len(), 40);
    })
    .await;
}

/// Over SSH: the host's PostgreSQL cut off while games are on. The games
/// that end meanwhile are shown as over at once (journaled), and all of
/// them reach the store once it is back, each exactly once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn store_cut_off_under_a_running_host_loses_and_duplicates_no_game() {
    use crate::util::TestClient;
    use crate::util::http::{get, parse_metrics};
    use crate::util::ssh::{Client, Login, new_key, start_host_with};

    async fn start_game(addr: std::net::SocketAddr, name: &str) -> Client {
        let mut c = Client::connect(addr, name, Login::Key(new_key())).await;
        c.against_the_computer().await;
        c
    }
    async fn leave(c: &mut Client) {
        c.walk(&[(b"q", "Leave the game?"), (b"y", "wins by forfeit")])
            .await;
    }

    on_postgres(|b, store| async move {
        let schema = b.schema.clone().unwrap();
        let proxy = proxy_in_front_of(&b.url).await;
        let url = proxied_url(&proxy, &b.url);
        let joiner = if url.contains('?') { '&' } else { '?' };
        let proxied = format!("{url}{joiner}options[search_path]={schema}");
        let dir = tempfile::tempdir().unwrap();
        let journal = dir.path().join("journal.jsonl");
        let mut t = start_host_with(&format!(
            "[store]\nurl = \"{proxied}\"\njournal = \"{}\"\n\n[http]\nenabled = true\nlisten = \"127.0.0.1:0\"\n",
            journal.display()
        ))
        .await;
        let http = t.host.as_ref().unwrap().http_addr.unwrap();
        let metric = |name: &'static str| async move {
            parse_metrics(&get(http, "/metrics").await.1)[name]
        };
        assert_eq!(get(http, "/readyz").await.0, 200);

        let mut ann = start_game(t.addr, "ann").await;
        leave(&mut ann).await;
        let mut bea = start_game(t.addr, "bea").await;
        let mut cid = start_game(t.addr, "cid").await;
        proxy.cut();
        leave(&mut bea).await;
        leave(&mut cid).await;
        assert!(
            std::fs::metadata(&journal).map(|m| m.len()).unwrap_or(0) > 0,
            "the games that ended while the store was cut off are journaled"
        );
        let all = inarow::store::ExportFilter {
            limit: 100,
            ..Default::default()
        };
        assert_eq!(store.export(&all).await.unwrap().len(), 1);
        // Operators see it: not ready, two games waiting in the journal.
        assert_eq!(
            get(http, "/readyz").await,
            (503, "store unreachable\n".to_string())
        );
        assert_eq!(metric("inarow_store_journal_games").await, 2.0);

        proxy.restore();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        loop {
            let n = store.export(&all).await.unwrap().len();
            if n >= 3 {
                break;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "{n} of 3 games stored"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        // Nothing more arrives later (no game twice).
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let games = store.export(&all).await.unwrap();
        let mut names: Vec<String> = games
            .iter()
            .map(|g| {
                assert_eq!(g.reason, Reason::ForfeitLeft);
                g.players
                    .iter()
                    .find(|p| p.computer.is_none())
                    .unwrap()
                    .name
                    .clone()
            })
            .collect();
        names.sort();
        assert_eq!(names, ["ann", "bea", "cid"]);
        assert_eq!(get(http, "/readyz").await.0, 200);
        assert_eq!(metric("inarow_store_journal_games").await, 0.0);
        drop((ann, bea, cid));
        t.shutdown().await;
    })
    .await;
}

/// `[store] schema`: the tables go into that PostgreSQL schema, created
/// when missing, for the host and for the commands on the store.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn store_postgres_schema_from_the_config_is_created_and_used() {
    // Not for SQLite, and only a plain name.
    let sqlite = crate::util::ssh::merge(
        &crate::util::ssh::test_config_text(std::path::Path::new("/tmp"), ""),
        "[store]\nschema = \"inarow\"\n",
    );
    let e = inarow::config::Config::parse(&sqlite, "t")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("store.schema") && e.contains("PostgreSQL"),
        "{e}"
    );
    let bad = crate::util::ssh::merge(
        &crate::util::ssh::test_config_text(std::path::Path::new("/tmp"), ""),
        &format!("[store]\nurl = \"{}\"\nschema = \"x; DROP\"\n", pg_url()),
    );
    let e = inarow::config::Config::parse(&bad, "t")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("store.schema") && e.contains("not a schema name"),
        "{e}"
    );

    let url = pg_url();
    let admin = pg_admin().await;
    drop_stale_schemas(&admin).await;
    let schema = scratch_schema_name();
    let extra = format!("[store]\nurl = \"{url}\"\nschema = \"{schema}\"\n");
    let body = {
        let (admin, schema) = (admin.clone(), schema.clone());
        async move {
            let exists = || async {
                sqlx::query_scalar::<_, bool>(
                    "SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1)",
                )
                .bind(&schema)
                .fetch_one(&admin)
                .await
                .unwrap()
            };
            assert!(!exists().await);
            let mut t = crate::util::ssh::start_host_with(&extra).await;
            assert!(exists().await, "the schema is created");
            let tables: Vec<String> = sqlx::query_scalar(
                "SELECT table_name::TEXT FROM information_schema.tables WHERE table_schema = $1",
            )
            .bind(&schema)
            .fetch_all(&admin)
            .await
            .unwrap();
            for table in ["accounts", "keys", "games", "bans", "_sqlx_migrations"] {
                assert!(tables.iter().any(|t| t == table), "{table}: {tables:?}");
            }
            let key = crate::util::ssh::new_key();
            let mut c = crate::util::ssh::Client::connect(
                t.addr,
                "Schemer",
                crate::util::ssh::Login::Key(key),
            )
            .await;
            c.wait_for("you are Schemer").await;
            let names: Vec<String> =
                sqlx::query_scalar(AssertSqlSafe(format!("SELECT name FROM {schema}.accounts")))
                    .fetch_all(&admin)
                    .await
                    .unwrap();
            assert_eq!(names, ["Schemer"]);
            // The commands read the same schema.
            let config = t.dir.path().join("inarow.toml");
            std::fs::write(
                &config,
                crate::util::ssh::merge(
                    &crate::util::ssh::test_config_text(t.dir.path(), ""),
                    &extra,
                ),
            )
            .unwrap();
            let users = crate::accounts::inarow_with(&config, &["admin", "users"]);
            assert!(users.contains("Schemer"), "{users}");
            drop(c);
            t.shutdown().await;
        }
    };
    let result = tokio::spawn(body).await;
    admin
        .execute(AssertSqlSafe(format!(
            "DROP SCHEMA IF EXISTS {schema} CASCADE"
        )))
        .await
        .unwrap();
    if let Err(e) = result {
        std::panic::resume_unwind(e.into_panic());
    }
}

/// The stones setting (`[t]`) over SSH on both backends: chosen in the
/// lobby, it reaches the store; the same key connecting again sees the
/// stones it chose, and a change back is kept too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn store_an_accounts_stones_are_kept_between_visits() {
    use crate::util::ssh::{Client, Login, new_key, start_host_with};
    use russh::keys::HashAlg;

    on_both(|b, store| async move {
        let extra = match &b.schema {
            None => format!("[store]\nurl = \"{}\"\n", b.url),
            Some(schema) => format!("[store]\nurl = \"{}\"\nschema = \"{schema}\"\n", b.url),
        };
        let mut t = start_host_with(&extra).await;
        let key = new_key();
        let fp = key.public_key().fingerprint(HashAlg::Sha256).to_string();
        // The store has it once the host has written it (in the background).
        let kept = |want: &'static str| {
            let (store, fp) = (store.clone(), fp.clone());
            async move {
                let id = store.account_by_key(&fp).await.unwrap().unwrap().id;
                for _ in 0..100 {
                    if store.stones(&id).await.unwrap().as_deref() == Some(want) {
                        return;
                    }
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                panic!("the store never had {want}");
            }
        };
        let mut c = Client::connect(t.addr, "Stoney", Login::Key(key.clone())).await;
        // An xterm: emoji until chosen otherwise.
        c.wait_for("(now emoji)").await;
        c.send(b"t").await;
        c.wait_for("(now ascii)").await;
        kept("ascii").await;
        drop(c);
        let mut c = Client::connect(t.addr, "Stoney", Login::Key(key.clone())).await;
        let s = c.wait_for("(now ascii)").await;
        assert!(s.contains("you are Stoney"), "{}: {s}", b.name);
        // Back to emoji: kept as well.
        c.send(b"t").await;
        c.wait_for("(now emoji)").await;
        kept("emoji").await;
        drop(c);
        let mut c = Client::connect(t.addr, "Stoney", Login::Key(key)).await;
        c.wait_for("(now emoji)").await;
        // Another key is not affected.
        let mut other = Client::connect(t.addr, "Pebble", Login::Key(new_key())).await;
        other.wait_for("(now emoji)").await;
        drop((c, other));
        t.shutdown().await;
    })
    .await;
}

/// A game's analysis is kept with its record once: read back as it was
/// written, never for a game the store does not hold, replaced only by a
/// newer format, gone with its game's row never left dangling, bounded.
#[tokio::test]
async fn store_keeps_a_games_analysis_with_its_record() {
    use inarow::store::KeptAnalysis;
    on_both(|b, store| async move {
        let g = game(
            [person("Alice", None, "red"), person("Bob", None, "yellow")],
            Some(0),
            false,
            NOW,
        );
        store.record_game(&g).await.unwrap();
        assert_eq!(store.analysis(&g.id).await.unwrap(), None, "{}", b.name);
        let first = KeptAnalysis {
            version: 1,
            budget_ms: 1000,
            moves: r#"[{"move":"4"}]"#.into(),
        };
        assert!(store.keep_analysis(&g.id, &first, NOW).await.unwrap());
        assert_eq!(store.analysis(&g.id).await.unwrap(), Some(first.clone()));
        // Kept once: a second host's analysis of the same format is not
        // written over it; a newer format's is.
        let again = KeptAnalysis {
            moves: "[]".into(),
            ..first.clone()
        };
        assert!(!store.keep_analysis(&g.id, &again, NOW).await.unwrap());
        assert_eq!(store.analysis(&g.id).await.unwrap(), Some(first.clone()));
        let newer = KeptAnalysis {
            version: 2,
            ..again.clone()
        };
        assert!(store.keep_analysis(&g.id, &newer, NOW).await.unwrap());
        assert_eq!(store.analysis(&g.id).await.unwrap(), Some(newer));
        // No game, no analysis.
        assert!(
            !store
                .keep_analysis("no-such-game", &first, NOW)
                .await
                .unwrap()
        );
        assert_eq!(store.analysis("no-such-game").await.unwrap(), None);
        assert_eq!(store.analysis(&"x".repeat(100)).await.unwrap(), None);
        // Bounded.
        let huge = KeptAnalysis {
            moves: "x".repeat(inarow::store::MAX_ANALYSIS_LEN + 1),
            ..first.clone()
        };
        assert!(matches!(
            store.keep_analysis(&g.id, &huge, NOW).await,
            Err(StoreError::Invalid(_))
        ));
        // A reopened store still has it.
        let reopened = b.open().await.unwrap();
        assert!(reopened.analysis(&g.id).await.unwrap().is_some());
        reopened.close().await;
    })
    .await;
}

/// The host's analyst: a recorded game is analysed off the caller's task,
/// kept in the store, and read back from there the next time (on any
/// host, in a cluster); a game asked for by two people at once is
/// analysed once; switched off, it says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analyst_keeps_what_it_made_and_makes_it_once() {
    use inarow::analyst::{Analyst, Unanalysed};
    use inarow::config::AnalysisConfig;
    use inarow::game::{Move, Rules};
    on_both(|b, store| async move {
        let mut g = game(
            [person("Alice", None, "red"), person("Bob", None, "yellow")],
            Some(0),
            false,
            NOW,
        );
        // Alice plays the middle column four times, Bob beside it.
        g.moves = [(3, 0), (4, 0), (3, 1), (4, 1), (3, 2), (4, 2), (3, 3)]
            .iter()
            .map(|&(x, y)| MoveRecord { x, y, ms: 100 })
            .collect();
        store.record_game(&g).await.unwrap();
        let config = AnalysisConfig {
            enabled: true,
            max_parallel: 1,
            budget: std::time::Duration::from_millis(3000),
        };
        let analyst = Analyst::new(config.clone(), Some(store.clone()));
        let moves: Vec<Move> = g.moves.iter().map(|m| Move::Column(m.x)).collect();
        let rules = Rules::connect_four();
        let (one, two) = tokio::join!(
            analyst.of_game(Some(g.id.clone()), rules, moves.clone()),
            analyst.of_game(Some(g.id.clone()), rules, moves.clone()),
        );
        let one = one.expect("analysed");
        assert_eq!(one, two.expect("analysed"), "{}", b.name);
        assert_eq!(one.len(), 7);
        // The last move is the win itself, proven.
        assert_eq!(one[6].before, one[6].after);
        assert!(one[6].exact && one[6].before.is_some_and(|v| v > 0));
        let kept = store.analysis(&g.id).await.unwrap().expect("kept");
        let json: serde_json::Value = serde_json::from_str(&kept.moves).unwrap();
        assert_eq!(json.as_array().map(Vec::len), Some(7));
        // A second host (a second analyst on the same store) reads it
        // back: the kept analysis, even when it is not what this host
        // would make (here: written over by hand).
        let marked = kept.moves.replacen("\"exact\":true", "\"exact\":false", 1);
        assert_ne!(marked, kept.moves);
        b.raw(
            &format!("UPDATE game_analyses SET moves = '{marked}'"),
            &format!("UPDATE game_analyses SET moves = '{marked}'"),
        )
        .await;
        let other = Analyst::new(config.clone(), Some(store.clone()));
        let read = other
            .of_game(Some(g.id.clone()), rules, moves.clone())
            .await
            .unwrap();
        assert_eq!(
            read.iter().filter(|m| !m.exact).count(),
            one.iter().filter(|m| !m.exact).count() + 1
        );
        // Off: said, nothing made.
        let off = Analyst::new(
            AnalysisConfig {
                enabled: false,
                ..config
            },
            None,
        );
        assert_eq!(off.of_game(None, rules, moves).await, Err(Unanalysed::Off));
    })
    .await;
}

/// Puzzles are kept once per position (the mirror image's key is the
/// same key), read back whole by id and in order, and bounded.
#[tokio::test]
async fn store_keeps_each_puzzle_once_and_reads_it_back() {
    use inarow::store::NewPuzzle;
    on_both(|b, store| async move {
        let p = NewPuzzle {
            game: "connect4".into(),
            kind: "win".into(),
            position: "641354636633611".into(),
            line: "11212".into(),
            win_in: Some(3),
            key: "c4:1234abcd".into(),
            source: "self-play".into(),
        };
        let id = store.add_puzzle(&p, NOW).await.unwrap().expect("new");
        // The same position again (from another game): not kept twice.
        let again = NewPuzzle {
            source: "another-game".into(),
            ..p.clone()
        };
        assert_eq!(
            store.add_puzzle(&again, NOW + 1).await.unwrap(),
            None,
            "{}",
            b.name
        );
        let hold = NewPuzzle {
            kind: "hold".into(),
            position: "5355".into(),
            line: "3".into(),
            win_in: None,
            key: "c4:99".into(),
            ..p.clone()
        };
        let second = store
            .add_puzzle(&hold, NOW + 2)
            .await
            .unwrap()
            .expect("new");
        let got = store.puzzle(&id).await.unwrap().expect("kept");
        assert_eq!(got.puzzle, p);
        assert_eq!(
            (
                got.rating.rating,
                got.rating.deviation,
                got.attempts,
                got.created_ms
            ),
            (1500.0, 350.0, 0, NOW)
        );
        let all = store.puzzles(10).await.unwrap();
        assert_eq!(
            all.iter().map(|p| p.id.clone()).collect::<Vec<_>>(),
            vec![id, second]
        );
        assert_eq!(store.puzzles(1).await.unwrap().len(), 1);
        assert_eq!(store.puzzle("no-such-id").await.unwrap(), None);
        assert_eq!(store.puzzle(&"x".repeat(100)).await.unwrap(), None);
        let huge = NewPuzzle {
            line: "1".repeat(5000),
            key: "c4:big".into(),
            ..p.clone()
        };
        assert!(matches!(
            store.add_puzzle(&huge, NOW).await,
            Err(StoreError::Invalid(_))
        ));
    })
    .await;
}

/// Puzzle ratings, both ways (Glicko-2: the player against the puzzle):
/// an account's first try of a puzzle rates both once, a second try
/// (from this host or another at the same moment) changes nothing; the
/// next puzzle is an untried one near the player's rating; the day's
/// puzzle is the same all day, one made before the day.
#[tokio::test]
async fn puzzle_attempts_rate_player_and_puzzle_once_and_the_next_is_near() {
    use inarow::store::{Attempt, NewPuzzle, Rating, day_start};
    on_both(|b, store| async move {
        let puzzle = |i: usize| NewPuzzle {
            game: "connect4".into(),
            kind: "win".into(),
            position: "2233".into(),
            line: "415".into(),
            win_in: Some(2),
            key: format!("test:{i}"),
            source: "self-play".into(),
        };
        let mut ids = Vec::new();
        for i in 0..5 {
            let at = NOW + i as i64 * 1000;
            ids.push(store.add_puzzle(&puzzle(i), at).await.unwrap().unwrap());
        }
        // Spread the puzzles' ratings: 1300, 1400, ... 1700.
        for (i, id) in ids.iter().enumerate() {
            let r = 1300 + 100 * i;
            b.raw(
                &format!("UPDATE puzzles SET rating = {r} WHERE id = '{id}'"),
                &format!("UPDATE puzzles SET rating = {r} WHERE id = '{id}'"),
            )
            .await;
        }
        let ann = account(&store, "SHA256:ann", "Ann").await;
        assert_eq!(store.puzzle_standing(&ann.id, NOW).await.unwrap(), None);
        // Ann solves the 1700 puzzle: both rated as a game she won.
        let got = store
            .record_attempt(&ann.id, &ids[4], true, NOW + 10_000)
            .await
            .unwrap();
        let Attempt::Rated {
            before,
            after,
            puzzle_before,
            puzzle_after,
        } = got
        else {
            panic!("{}: the first try is rated: {got:?}", b.name);
        };
        assert_eq!(before, Rating::default());
        assert!(close(puzzle_before.rating, 1700.0));
        let expected = glicko2(
            &Glicko2Rating::new(),
            &Glicko2Rating {
                rating: 1700.0,
                deviation: 350.0,
                volatility: 0.06,
            },
            &Outcomes::WIN,
            &Glicko2Config::new(),
        );
        assert!(close(after.rating, expected.0.rating), "{after:?}");
        assert!(
            close(puzzle_after.rating, expected.1.rating),
            "{puzzle_after:?}"
        );
        assert!(after.rating > 1500.0 && puzzle_after.rating < 1700.0);
        // Again, from two stores at once (two hosts sharing PostgreSQL;
        // SQLite has one host, and its one writer): nothing changes.
        let other = match b.schema {
            Some(_) => b.open().await.unwrap(),
            None => store.clone(),
        };
        let (x, y) = tokio::join!(
            store.record_attempt(&ann.id, &ids[4], false, NOW + 20_000),
            other.record_attempt(&ann.id, &ids[4], false, NOW + 20_000)
        );
        assert_eq!(x.unwrap(), Attempt::Repeat);
        assert_eq!(y.unwrap(), Attempt::Repeat);
        let standing = store
            .puzzle_standing(&ann.id, NOW + 20_000)
            .await
            .unwrap()
            .unwrap();
        assert!(close(standing.rating.rating, after.rating));
        assert_eq!((standing.attempts, standing.solved), (1, 1));
        let p = store.puzzle(&ids[4]).await.unwrap().unwrap();
        assert!(close(p.rating.rating, puzzle_after.rating));
        assert_eq!((p.attempts, p.solved), (1, 1));
        // Ben tries a new puzzle on both hosts at once: one rated try.
        let ben = account(&store, "SHA256:ben", "Ben").await;
        let (x, y) = tokio::join!(
            store.record_attempt(&ben.id, &ids[0], false, NOW),
            other.record_attempt(&ben.id, &ids[0], false, NOW)
        );
        let results = [x.unwrap(), y.unwrap()];
        assert_eq!(
            results
                .iter()
                .filter(|r| matches!(r, Attempt::Rated { .. }))
                .count(),
            1,
            "{}: {results:?}",
            b.name
        );
        assert_eq!(results.iter().filter(|r| **r == Attempt::Repeat).count(), 1);
        let p = store.puzzle(&ids[0]).await.unwrap().unwrap();
        assert_eq!((p.attempts, p.solved), (1, 0));
        assert!(p.rating.rating > 1300.0, "a failed try raises the puzzle");
        if b.schema.is_some() {
            other.close().await;
        }
        // Unknown puzzles and accounts are said so, not errors.
        assert_eq!(
            store
                .record_attempt(&ann.id, "no-such", true, NOW)
                .await
                .unwrap(),
            Attempt::Unknown
        );
        assert_eq!(
            store
                .record_attempt("nobody", &ids[1], true, NOW)
                .await
                .unwrap(),
            Attempt::Unknown
        );
        // The next puzzle for Ann: untried, the nearest to her rating
        // among the few nearest (never the one she solved).
        for pick in 0..20 {
            let next = store
                .next_puzzle(Some(&ann.id), standing.rating.rating, &[], pick)
                .await
                .unwrap()
                .unwrap();
            assert_ne!(next.id, ids[4]);
        }
        assert!(store.puzzle_tried(&ann.id, &ids[4]).await.unwrap());
        assert!(!store.puzzle_tried(&ann.id, &ids[3]).await.unwrap());
        // A guest skips what they saw; when all was seen, repeats.
        let seen: Vec<String> = ids[..4].to_vec();
        let next = store
            .next_puzzle(None, 1300.0, &seen, 0)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(next.id, ids[4]);
        let all: Vec<String> = ids.clone();
        assert!(
            store
                .next_puzzle(None, 1500.0, &all, 3)
                .await
                .unwrap()
                .is_some()
        );
        // Tried them all: none left.
        for id in &ids[..4] {
            store
                .record_attempt(&ann.id, id, true, NOW + 30_000)
                .await
                .unwrap();
        }
        assert_eq!(
            store
                .next_puzzle(Some(&ann.id), 1500.0, &[], 0)
                .await
                .unwrap(),
            None
        );
        assert_eq!(
            store
                .puzzle_standing(&ann.id, NOW + 30_000)
                .await
                .unwrap()
                .unwrap()
                .attempts,
            5
        );
        // The day's puzzle: one of those made before the day, the same
        // all day; with only puzzles from today: the oldest.
        let day = day_start(NOW + 86_400_000);
        let daily = store.daily_puzzle(day).await.unwrap().unwrap();
        assert!(ids.contains(&daily.id));
        assert_eq!(store.daily_puzzle(day).await.unwrap().unwrap().id, daily.id);
        let today = store.daily_puzzle(day_start(NOW)).await.unwrap().unwrap();
        assert_eq!(today.id, ids[0]);
        let mut days = std::collections::HashSet::new();
        for d in 1..30 {
            let daily = store
                .daily_puzzle(day + d * 86_400_000)
                .await
                .unwrap()
                .unwrap();
            days.insert(daily.id);
        }
        assert!(
            days.len() >= 3,
            "the day's puzzle changes from day to day: {days:?}"
        );
    })
    .await;
}
