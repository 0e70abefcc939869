//! Game records and ratings: storing a finished game (idempotently, by id;
//! a new rated game moves both Glicko-2 ratings in the same transaction),
//! and reading them back: one game, an account's history, its profile, the
//! leaderboard with one's own rank, and the export.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::rating::rate_game;
use super::{
    GameRecord, PlayerRecord, RATING_PERIOD_MS, Rating, RatingChange, RatingInfo, Store,
    StoreError, with_pool,
};
use crate::game::GameKind;

/// How long a copy of the qualified ratings serves rank lookups.
pub const RANK_CACHE_TTL: Duration = Duration::from_secs(30);

/// One game's qualified ratings, highest first, as read at `read` for `now`.
#[derive(Debug)]
pub(crate) struct RankCache {
    read: Instant,
    now: i64,
    ratings: Arc<Vec<f64>>,
}

/// Rated games before a player appears on the leaderboard.
pub const LEADERBOARD_MIN_GAMES: i64 = 5;
/// Deviation (after inactivity decay) a player must be under to appear.
pub const LEADERBOARD_MAX_DEVIATION: f64 = 110.0;
/// Rows on the leaderboard.
pub const LEADERBOARD_SIZE: i64 = 20;
/// The longest board [`Store::board`] returns.
pub const LEADERBOARD_MAX: i64 = 100;
/// Games a profile lists.
pub const PROFILE_GAMES: i64 = 20;
/// Most rows one history or export call returns.
pub const MAX_PAGE: i64 = 1000;
/// Attempts at a batch that another writer got in the way of.
const VERSION_RETRIES: usize = 5;
/// Glicko-2's scale factor (rating points per internal unit).
const SCALE: f64 = 173.7178;

/// What storing one record did.
#[derive(Debug, Clone, PartialEq)]
pub enum Stored {
    /// Stored now; with the rating change when it was rated.
    New(Option<RatingChange>),
    /// A game with this id was stored before: nothing changed.
    Duplicate,
}

/// One leaderboard row.
#[derive(Debug, Clone, PartialEq)]
pub struct LeaderEntry {
    pub rank: i64,
    pub account: String,
    pub name: String,
    pub rating: f64,
    pub deviation: f64,
    pub games: i64,
}

/// The top players of one game and where the asking player stands.
#[derive(Debug, Clone, PartialEq)]
pub struct Leaderboard {
    pub game: GameKind,
    pub top: Vec<LeaderEntry>,
    /// The asking player's row: `rank` is 0 when they do not qualify (yet);
    /// outside the top 20 it is counted against the qualified ratings as of
    /// at most 30 s ago;
    /// `None` when they have no rating in this game.
    pub me: Option<LeaderEntry>,
}

/// An account's page: name, ratings, recent games.
#[derive(Debug, Clone, PartialEq)]
pub struct Profile {
    pub account: String,
    pub name: String,
    pub created_ms: i64,
    pub ratings: Vec<RatingInfo>,
    /// Most recent first.
    pub recent: Vec<GameRecord>,
}

/// Which games `export` returns (all conditions together), oldest first.
#[derive(Debug, Clone, Default)]
pub struct ExportFilter {
    /// A player's name (as shown at the table), any case.
    pub player: Option<String>,
    pub game: Option<GameKind>,
    /// Games started at or after this time (ms).
    pub since_ms: Option<i64>,
    /// Resume after this game (its `started_ms` and `id`), for paging.
    pub after: Option<(i64, String)>,
    /// At most this many (capped at [`MAX_PAGE`]).
    pub limit: i64,
}

/// The games insert up to its VALUES rows (`GAME_FIELDS` values each).
const INSERT_GAMES: &str = "INSERT INTO games (id, game, width, height, k, rule, rated, started_ms, ended_ms, \
     first, result, winner, reason, line, moves, \
     p0_name, p0_account, p0_computer, p0_colour, p0_rating_before, p0_rating_after, \
     p1_name, p1_account, p1_computer, p1_colour, p1_rating_before, p1_rating_after) VALUES";
const GAME_FIELDS: usize = 27;
const RATING_FIELDS: usize = 10;
/// Rows per multi-row insert.
const INSERT_CHUNK: usize = 64;
/// Values per `IN (...)` list.
const IN_CHUNK: usize = 100;

/// `n` parameters for one statement whose parameters all come from here,
/// in order: numbered (`$first, $first+1, ...`) for PostgreSQL, plain `?`
/// for SQLite. SQLite finds a numbered parameter's name by walking the
/// list of names, once per bound value: with hundreds of values in one
/// statement that walk was the bench's largest single cost.
fn placeholders(pg: bool, first: usize, n: usize) -> String {
    if pg {
        (first..first + n)
            .map(|i| format!("${i}"))
            .collect::<Vec<_>>()
            .join(", ")
    } else {
        vec!["?"; n].join(", ")
    }
}

const GAME_COLUMNS: &str = "g.id, g.game, g.width, g.height, g.k, g.rule, g.rated, g.started_ms, g.ended_ms, \
     g.first, g.result, g.winner, g.reason, g.line, g.moves, \
     g.p0_name, g.p0_account, g.p0_computer, g.p0_colour, g.p0_rating_before, g.p0_rating_after, \
     g.p1_name, g.p1_account, g.p1_computer, g.p1_colour, g.p1_rating_before, g.p1_rating_after";

/// `account, game, rating, deviation, volatility, games, wins, losses,
/// draws, updated_ms`; all but the account NULL when it has no ratings.
type CurrentRow = (
    String,
    Option<String>,
    Option<f64>,
    Option<f64>,
    Option<f64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
);

/// A player's rating row in one game, as read and then as updated in memory.
#[derive(Debug, Clone)]
struct Current {
    rating: Rating,
    games: i64,
    wins: i64,
    losses: i64,
    draws: i64,
    updated_ms: i64,
}

impl Current {
    /// A player before a first rated game.
    fn new(now: i64) -> Current {
        Current {
            rating: Rating::default(),
            games: 0,
            wins: 0,
            losses: 0,
            draws: 0,
            updated_ms: now,
        }
    }
}

fn current_of(row: &CurrentRow) -> Option<Current> {
    match *row {
        (
            _,
            Some(_),
            Some(rating),
            Some(deviation),
            Some(volatility),
            Some(games),
            Some(wins),
            Some(losses),
            Some(draws),
            Some(updated_ms),
        ) => Some(Current {
            rating: Rating {
                rating,
                deviation,
                volatility,
            },
            games,
            wins,
            losses,
            draws,
            updated_ms,
        }),
        _ => None,
    }
}

/// The board query's qualification, with the deviation decayed to `$2`
/// (closed form of one `decay_deviation` step per idle period:
/// dev² + periods · (volatility · scale)²). Its first two terms are the
/// partial index's condition (migration 0002) word for word, so the
/// planners use that index; a test holds the two together.
fn qualifies_sql(prefix: &str) -> String {
    format!(
        "{p}games >= {min} AND {p}deviation < {maxi} AND \
         {p}deviation * {p}deviation + \
         CAST((($2 - {p}updated_ms) / {period}) AS DOUBLE PRECISION) * ({p}volatility * {scale}) * ({p}volatility * {scale}) \
         < {max} * {max}",
        p = prefix,
        min = LEADERBOARD_MIN_GAMES,
        period = RATING_PERIOD_MS,
        scale = SCALE,
        max = LEADERBOARD_MAX_DEVIATION,
        maxi = LEADERBOARD_MAX_DEVIATION as i64,
    )
}

/// The top `limit` of the board: `$1` the game, `$2` the time to decay
/// deviations to.
fn board_sql(limit: i64) -> String {
    format!(
        "SELECT r.account, a.name, r.rating, r.deviation, r.volatility, r.games, r.updated_ms \
         FROM ratings r JOIN accounts a ON a.id = r.account \
         WHERE r.game = $1 AND {} ORDER BY r.rating DESC, r.account LIMIT {limit}",
        qualifies_sql("r.")
    )
}

/// Every qualified rating in one game, highest first (`$1`, `$2` as above).
fn ranks_sql() -> String {
    format!(
        "SELECT rating FROM ratings WHERE game = $1 AND {} ORDER BY rating DESC",
        qualifies_sql("")
    )
}

fn data(e: impl std::fmt::Display) -> StoreError {
    StoreError::Data(e.to_string())
}

/// One game as the store returns it: the [`GAME_COLUMNS`], in order, as
/// one JSON array per game ([`game_json`]). Decoding one text value costs
/// much less than 27 columns through the driver, and a list of games comes
/// back as one value ([`games_json`]).
#[derive(serde::Deserialize)]
struct GameRow {
    id: String,
    game: String,
    width: i64,
    height: i64,
    k: i64,
    rule: String,
    rated: i64,
    started_ms: i64,
    ended_ms: i64,
    first: i64,
    result: String,
    winner: Option<i64>,
    reason: String,
    line: Option<String>,
    moves: String,
    p0_name: String,
    p0_account: Option<String>,
    p0_computer: Option<String>,
    p0_colour: String,
    p0_rating_before: Option<f64>,
    p0_rating_after: Option<f64>,
    p1_name: String,
    p1_account: Option<String>,
    p1_computer: Option<String>,
    p1_colour: String,
    p1_rating_before: Option<f64>,
    p1_rating_after: Option<f64>,
}

impl GameRow {
    fn parse(text: &str) -> Result<GameRecord, StoreError> {
        serde_json::from_str::<GameRow>(text)
            .map_err(data)?
            .into_record()
    }

    fn into_record(self) -> Result<GameRecord, StoreError> {
        let small = |v: i64| u8::try_from(v).map_err(data);
        Ok(GameRecord {
            id: self.id,
            game: self.game.parse().map_err(data)?,
            width: small(self.width)?,
            height: small(self.height)?,
            k: small(self.k)?,
            rule: self.rule,
            rated: self.rated != 0,
            started_ms: self.started_ms,
            ended_ms: self.ended_ms,
            first: small(self.first)?,
            result: self.result.parse().map_err(data)?,
            winner: self.winner.map(small).transpose()?,
            reason: self.reason.parse().map_err(data)?,
            line: GameRecord::parse_line(self.line.as_deref()).map_err(data)?,
            moves: GameRecord::parse_moves(&self.moves).map_err(data)?,
            players: [
                PlayerRecord {
                    name: self.p0_name,
                    account: self.p0_account,
                    computer: self.p0_computer,
                    colour: self.p0_colour,
                    rating_before: self.p0_rating_before,
                    rating_after: self.p0_rating_after,
                },
                PlayerRecord {
                    name: self.p1_name,
                    account: self.p1_account,
                    computer: self.p1_computer,
                    colour: self.p1_colour,
                    rating_before: self.p1_rating_before,
                    rating_after: self.p1_rating_after,
                },
            ],
        })
    }
}

/// The SQL expression for one game row `g` as a JSON array (text).
fn game_json(pg: bool) -> String {
    if pg {
        format!("json_build_array({GAME_COLUMNS})::text")
    } else {
        format!("json_array({GAME_COLUMNS})")
    }
}

/// The SQL aggregate of the rows `g` as one JSON array of game arrays (text).
fn games_json(pg: bool) -> String {
    if pg {
        format!("COALESCE(json_agg(json_build_array({GAME_COLUMNS})), '[]')::text")
    } else {
        format!("json_group_array(json_array({GAME_COLUMNS}))")
    }
}

/// Reads the games of a [`games_json`] value.
fn games_from_json(text: &str) -> Result<Vec<GameRecord>, StoreError> {
    let rows: Vec<GameRow> = serde_json::from_str(text).map_err(data)?;
    rows.into_iter().map(GameRow::into_record).collect()
}

impl Store {
    /// Stores one finished game; see [`Store::record_games`]. Returns the
    /// rating change when this call stored a new rated game.
    pub async fn record_game(&self, game: &GameRecord) -> Result<Option<RatingChange>, StoreError> {
        let stored = self.record_games(std::slice::from_ref(game)).await?;
        Ok(match stored.into_iter().next() {
            Some(Stored::New(change)) => change,
            _ => None,
        })
    }

    /// Stores finished games, in order, in one transaction. A game whose id
    /// is already stored changes nothing (so a replay never counts a game
    /// twice); a new one that [moves ratings](GameRecord::moves_ratings)
    /// updates both players' Glicko-2 ratings and records them before and
    /// after. A game marked rated that does not qualify is stored unrated.
    pub async fn record_games(&self, games: &[GameRecord]) -> Result<Vec<Stored>, StoreError> {
        for g in games {
            g.validate().map_err(|e| {
                StoreError::Invalid(format!(
                    "game {}: {e}",
                    crate::text::sanitize_quote(&g.id, 40)
                ))
            })?;
        }
        let mut attempt = 0;
        loop {
            attempt += 1;
            match self.try_record_games(games).await {
                Ok(Some(stored)) => return Ok(stored),
                // A rating row changed under us (another host): again.
                Ok(None) if attempt < VERSION_RETRIES => continue,
                Ok(None) => {
                    return Err(StoreError::Data(
                        "ratings kept changing during the update; try again".into(),
                    ));
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// One attempt at a batch, in one transaction and a handful of
    /// statements whatever its size: which ids are stored already; the
    /// current ratings of every account in a new rated game (on PostgreSQL
    /// with those accounts' rows locked, so hosts sharing the database rate
    /// one at a time; SQLite has a single writer, and a stale snapshot cannot
    /// write); the new ratings computed in order in memory; the games inserted
    /// with their ratings before and after; the rating rows upserted.
    /// `Ok(None)`: another writer got in between (a game id stored meanwhile,
    /// a rating row changed); the caller tries again.
    async fn try_record_games(
        &self,
        games: &[GameRecord],
    ) -> Result<Option<Vec<Stored>>, StoreError> {
        let pg = self.is_postgres();
        with_pool!(&self.write, p => {
            let mut tx = p.begin().await?;

            // 1. Ids stored before (and repeats within the batch).
            let mut existing: HashSet<String> = HashSet::new();
            for chunk in games.chunks(IN_CHUNK) {
                let sql = format!("SELECT id FROM games WHERE id IN ({})", placeholders(pg, 1, chunk.len()));
                let mut q = sqlx::query_scalar::<_, String>(sqlx::AssertSqlSafe(sql));
                for g in chunk {
                    q = q.bind(&g.id);
                }
                existing.extend(q.fetch_all(&mut *tx).await?);
            }
            let mut fresh: Vec<GameRecord> = Vec::new();
            let mut out = Vec::with_capacity(games.len());
            for g in games {
                if existing.insert(g.id.clone()) {
                    let mut g = g.clone();
                    for pl in &mut g.players {
                        pl.rating_before = None;
                        pl.rating_after = None;
                    }
                    fresh.push(g);
                    out.push(None);
                } else {
                    out.push(Some(Stored::Duplicate));
                }
            }

            // 2. Current ratings of the accounts in new rated games.
            let mut accounts: Vec<&str> = fresh
                .iter()
                .filter(|g| g.moves_ratings())
                .flat_map(|g| g.players.iter().filter_map(|p| p.account.as_deref()))
                .collect();
            accounts.sort_unstable();
            accounts.dedup();
            let mut known: HashSet<String> = HashSet::new();
            let mut current: HashMap<(String, String), Current> = HashMap::new();
            for chunk in accounts.chunks(IN_CHUNK) {
                // One value back, not a row per account: SQLite's driver
                // hands each row over between threads.
                const CURRENT: &str = "s.id, s.game, s.rating, s.deviation, s.volatility, s.games, s.wins, s.losses, s.draws, s.updated_ms";
                let agg = if pg {
                    format!("COALESCE(json_agg(json_build_array({CURRENT})), '[]')::text")
                } else {
                    format!("json_group_array(json_array({CURRENT}))")
                };
                // PostgreSQL: each account's ratings through its primary key
                // (a lateral subquery the planner cannot flatten), never a
                // scan of the whole table, however stale its statistics.
                let join = if pg {
                    "LEFT JOIN LATERAL (SELECT * FROM ratings x WHERE x.account = a.id OFFSET 0) r ON true"
                } else {
                    "LEFT JOIN ratings r ON r.account = a.id"
                };
                let sql = format!(
                    "SELECT {agg} FROM (SELECT a.id, r.game, r.rating, r.deviation, r.volatility, r.games, r.wins, r.losses, r.draws, r.updated_ms \
                     FROM accounts a {join} WHERE a.id IN ({}) ORDER BY a.id{}) s",
                    placeholders(pg, 1, chunk.len()),
                    if pg { " FOR UPDATE OF a" } else { "" }
                );
                let mut q = sqlx::query_scalar::<_, Option<String>>(sqlx::AssertSqlSafe(sql));
                for a in chunk {
                    q = q.bind(*a);
                }
                let text = q.fetch_one(&mut *tx).await?.unwrap_or_else(|| "[]".into());
                let rows: Vec<CurrentRow> = serde_json::from_str(&text).map_err(data)?;
                for row in rows {
                    known.insert(row.0.clone());
                    if let Some(c) = current_of(&row) {
                        current.insert((row.0.clone(), row.1.clone().unwrap_or_default()), c);
                    }
                }
            }

            // 3. Ratings, game after game.
            let mut changed: Vec<(String, String)> = Vec::new();
            let mut changes: Vec<Option<RatingChange>> = Vec::with_capacity(fresh.len());
            for g in &mut fresh {
                let mut change = None;
                if let (true, Some(a), Some(b), Some(score)) = (
                    g.moves_ratings(),
                    g.players[0].account.clone(),
                    g.players[1].account.clone(),
                    g.score(),
                ) && known.contains(&a)
                    && known.contains(&b)
                {
                    let kind = g.game.id().to_string();
                    let keys = [(a.clone(), kind.clone()), (b.clone(), kind)];
                    let start = |k: &(String, String)| current.get(k).cloned().unwrap_or_else(|| Current::new(g.ended_ms));
                    let cur = [start(&keys[0]), start(&keys[1])];
                    let before = [
                        cur[0].rating.decayed(cur[0].updated_ms, g.ended_ms),
                        cur[1].rating.decayed(cur[1].updated_ms, g.ended_ms),
                    ];
                    let (na, nb) = rate_game(before[0], before[1], score);
                    let after = [na, nb];
                    for (i, (key, c)) in keys.into_iter().zip(cur).enumerate() {
                        let s = if i == 0 { score } else { 1.0 - score };
                        g.players[i].rating_before = Some(before[i].rating);
                        g.players[i].rating_after = Some(after[i].rating);
                        let next = Current {
                            rating: after[i],
                            games: c.games + 1,
                            wins: c.wins + i64::from(s > 0.75),
                            losses: c.losses + i64::from(s < 0.25),
                            draws: c.draws + i64::from((0.25..=0.75).contains(&s)),
                            updated_ms: g.ended_ms.max(c.updated_ms),
                        };
                        if !changed.contains(&key) {
                            changed.push(key.clone());
                        }
                        current.insert(key, next);
                    }
                    change = Some(RatingChange { game: g.game, accounts: [a, b], before, after });
                }
                g.rated = change.is_some();
                changes.push(change);
            }

            // 4. The games.
            for chunk in fresh.chunks(INSERT_CHUNK) {
                let rows: Vec<String> = (0..chunk.len())
                    .map(|i| format!("({})", placeholders(pg, i * GAME_FIELDS + 1, GAME_FIELDS)))
                    .collect();
                let sql = format!("{INSERT_GAMES} {} ON CONFLICT (id) DO NOTHING", rows.join(", "));
                let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
                for g in chunk {
                    q = q
                        .bind(&g.id)
                        .bind(g.game.id())
                        .bind(i64::from(g.width))
                        .bind(i64::from(g.height))
                        .bind(i64::from(g.k))
                        .bind(&g.rule)
                        .bind(i64::from(g.rated))
                        .bind(g.started_ms)
                        .bind(g.ended_ms)
                        .bind(i64::from(g.first))
                        .bind(g.result.as_str())
                        .bind(g.winner.map(i64::from))
                        .bind(g.reason.as_str())
                        .bind(g.line_text())
                        .bind(g.moves_text());
                    for pl in &g.players {
                        q = q
                            .bind(&pl.name)
                            .bind(&pl.account)
                            .bind(&pl.computer)
                            .bind(&pl.colour)
                            .bind(pl.rating_before)
                            .bind(pl.rating_after);
                    }
                }
                if q.execute(&mut *tx).await?.rows_affected() != chunk.len() as u64 {
                    return Ok(None); // stored meanwhile by another writer
                }
            }

            // 5. The rating rows.
            for chunk in changed.chunks(INSERT_CHUNK) {
                let rows: Vec<String> = (0..chunk.len())
                    .map(|i| format!("({})", placeholders(pg, i * RATING_FIELDS + 1, RATING_FIELDS)))
                    .collect();
                let sql = format!(
                    "INSERT INTO ratings (account, game, rating, deviation, volatility, games, wins, losses, draws, updated_ms) \
                     VALUES {} ON CONFLICT (account, game) DO UPDATE SET rating = excluded.rating, \
                     deviation = excluded.deviation, volatility = excluded.volatility, \
                     games = excluded.games, wins = excluded.wins, losses = excluded.losses, \
                     draws = excluded.draws, updated_ms = excluded.updated_ms",
                    rows.join(", ")
                );
                let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
                for key in chunk {
                    let Some(c) = current.get(key) else { continue };
                    q = q
                        .bind(&key.0)
                        .bind(&key.1)
                        .bind(c.rating.rating)
                        .bind(c.rating.deviation)
                        .bind(c.rating.volatility)
                        .bind(c.games)
                        .bind(c.wins)
                        .bind(c.losses)
                        .bind(c.draws)
                        .bind(c.updated_ms);
                }
                if q.execute(&mut *tx).await?.rows_affected() != chunk.len() as u64 {
                    return Ok(None);
                }
            }
            tx.commit().await?;
            let mut changes = changes.into_iter();
            Ok(Some(
                out.into_iter()
                    .map(|o| o.unwrap_or_else(|| Stored::New(changes.next().flatten())))
                    .collect(),
            ))
        })
    }

    /// An account's ratings, one per game played rated, the deviation
    /// decayed to `now`.
    pub async fn ratings(&self, account: &str, now: i64) -> Result<Vec<RatingInfo>, StoreError> {
        type RatingRow = (String, f64, f64, f64, i64, i64, i64, i64, i64);
        let rows: Vec<RatingRow> = with_pool!(&self.read, p => {
            sqlx::query_as(
                "SELECT game, rating, deviation, volatility, games, wins, losses, draws, updated_ms \
                 FROM ratings WHERE account = $1 ORDER BY game",
            )
            .bind(account)
            .fetch_all(p)
            .await?
        });
        rows.into_iter()
            .map(
                |(game, rating, deviation, volatility, games, wins, losses, draws, updated_ms)| {
                    Ok(RatingInfo {
                        game: game.parse().map_err(data)?,
                        rating: Rating {
                            rating,
                            deviation,
                            volatility,
                        }
                        .decayed(updated_ms, now),
                        games,
                        wins,
                        losses,
                        draws,
                        updated_ms,
                    })
                },
            )
            .collect()
    }

    /// One game by id.
    pub async fn game(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        if id.len() > 64 {
            return Ok(None);
        }
        let sql = format!(
            "SELECT {} FROM games g WHERE g.id = $1",
            game_json(self.is_postgres())
        );
        let row: Option<String> = with_pool!(&self.read, p => {
            sqlx::query_scalar(sqlx::AssertSqlSafe(sql)).bind(id).fetch_optional(p).await?
        });
        row.as_deref().map(GameRow::parse).transpose()
    }

    /// An account's games, most recent first, at most `limit` (capped at [`MAX_PAGE`]).
    pub async fn history(&self, account: &str, limit: i64) -> Result<Vec<GameRecord>, StoreError> {
        // One index scan per seat, merged (an account may sit on either
        // side), the games as one value. SQLite reads the two indexes
        // alone (they hold the row ids) and then only the rows kept.
        let sql = if self.is_postgres() {
            format!(
                "SELECT {} FROM (\
                 SELECT * FROM (SELECT * FROM games g WHERE g.p0_account = $1 \
                 ORDER BY g.ended_ms DESC, g.id DESC LIMIT $2) AS s0 \
                 UNION ALL \
                 SELECT * FROM (SELECT * FROM games g WHERE g.p1_account = $1 \
                 AND (g.p0_account IS NULL OR g.p0_account <> $1) \
                 ORDER BY g.ended_ms DESC, g.id DESC LIMIT $2) AS s1 \
                 ORDER BY ended_ms DESC, id DESC LIMIT $2) AS g",
                games_json(true)
            )
        } else {
            format!(
                "SELECT {} FROM games g WHERE g.rowid IN (SELECT r FROM (\
                 SELECT r, e, i FROM (SELECT rowid r, ended_ms e, id i FROM games \
                 WHERE p0_account = $1 ORDER BY ended_ms DESC, id DESC LIMIT $2) \
                 UNION ALL \
                 SELECT r, e, i FROM (SELECT rowid r, ended_ms e, id i FROM games \
                 WHERE p1_account = $1 ORDER BY ended_ms DESC, id DESC LIMIT $2) \
                 ORDER BY 2 DESC, 3 DESC LIMIT $2))",
                games_json(false)
            )
        };
        let text: Option<String> = with_pool!(&self.read, p => {
            sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
                .bind(account)
                .bind(limit.clamp(0, MAX_PAGE))
                .fetch_one(p)
                .await?
        });
        let mut games = games_from_json(text.as_deref().unwrap_or("[]"))?;
        // Aggregates need not keep the rows' order.
        games.sort_by(|a, b| b.ended_ms.cmp(&a.ended_ms).then_with(|| b.id.cmp(&a.id)));
        Ok(games)
    }

    /// An account's profile: name, ratings, last 20 games. `None` when there is no such account.
    pub async fn profile(&self, account: &str, now: i64) -> Result<Option<Profile>, StoreError> {
        // Three reads at once, each on its own connection.
        let (acc, ratings, recent) = tokio::try_join!(
            self.account(account),
            self.ratings(account, now),
            self.history(account, PROFILE_GAMES)
        )?;
        let Some(acc) = acc else {
            return Ok(None);
        };
        Ok(Some(Profile {
            account: acc.id,
            name: acc.name,
            created_ms: acc.created_ms,
            ratings,
            recent,
        }))
    }

    /// The top 20 of a game among qualified players (at least 5 rated games,
    /// deviation under 110 after inactivity decay to `now`) and the asking
    /// account's own row, wherever it ranks.
    pub async fn leaderboard(
        &self,
        game: GameKind,
        me: Option<&str>,
        now: i64,
    ) -> Result<Leaderboard, StoreError> {
        self.board(game, me, now, LEADERBOARD_SIZE).await
    }

    /// The top `size` of a game's board (at most [`LEADERBOARD_MAX`];
    /// the web's is longer than the terminal's) and the asking account's
    /// row, as [`Store::leaderboard`].
    pub async fn board(
        &self,
        game: GameKind,
        me: Option<&str>,
        now: i64,
        size: i64,
    ) -> Result<Leaderboard, StoreError> {
        let top_sql = board_sql(size.clamp(1, LEADERBOARD_MAX));

        type Top = (String, String, f64, f64, f64, i64, i64);
        let entry =
            |rank: i64, (account, name, rating, deviation, volatility, games, updated): Top| {
                LeaderEntry {
                    rank,
                    account,
                    name,
                    rating,
                    deviation: Rating {
                        rating,
                        deviation,
                        volatility,
                    }
                    .decayed(updated, now)
                    .deviation,
                    games,
                }
            };
        let game_id = game.id();
        with_pool!(&self.read, p => {
            let rows: Vec<Top> = sqlx::query_as(sqlx::AssertSqlSafe(top_sql))
                .bind(game_id)
                .bind(now)
                .fetch_all(p)
                .await?;
            let top: Vec<LeaderEntry> = rows.into_iter().enumerate().map(|(i, r)| entry(i as i64 + 1, r)).collect();
            let mut mine = None;
            if let Some(me) = me {
                let row: Option<Top> = sqlx::query_as(
                    "SELECT r.account, a.name, r.rating, r.deviation, r.volatility, r.games, r.updated_ms \
                     FROM ratings r JOIN accounts a ON a.id = r.account WHERE r.account = $1 AND r.game = $2",
                )
                .bind(me)
                .bind(game_id)
                .fetch_optional(p)
                .await?;
                if let Some(row) = row {
                    let e = entry(0, row);
                    let qualified = e.games >= LEADERBOARD_MIN_GAMES && e.deviation < LEADERBOARD_MAX_DEVIATION;
                    let rank = if let Some(t) = top.iter().find(|t| t.account == e.account) {
                        t.rank
                    } else if qualified {
                        -1 // counted below, from the cached board
                    } else {
                        0
                    };
                    mine = Some(LeaderEntry { rank, ..e });
                }
            }
            let mut board = Leaderboard { game, top, me: mine };
            if let Some(me) = board.me.as_mut().filter(|m| m.rank < 0) {
                let ratings = self.qualified_ratings(game, now).await?;
                me.rank = ratings.partition_point(|r| *r > me.rating) as i64 + 1;
            }
            Ok(board)
        })
    }

    /// Every qualified player's rating in one game, highest first, as of a
    /// recent read (at most [`RANK_CACHE_TTL`] old, and for a `now` within a
    /// minute of this one): counting everyone above a player grows with the
    /// players, so a rank outside the top 20 is looked up in this copy.
    async fn qualified_ratings(
        &self,
        game: GameKind,
        now: i64,
    ) -> Result<Arc<Vec<f64>>, StoreError> {
        {
            let cache = self.rank_cache.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(c) = cache.get(game.id())
                && c.read.elapsed() < RANK_CACHE_TTL
                && (c.now - now).abs() < 60_000
            {
                return Ok(c.ratings.clone());
            }
        }
        let sql = ranks_sql();
        let ratings: Vec<f64> = with_pool!(&self.read, p => {
            sqlx::query_scalar(sqlx::AssertSqlSafe(sql)).bind(game.id()).bind(now).fetch_all(p).await?
        });
        let ratings = Arc::new(ratings);
        let mut cache = self.rank_cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.insert(
            game.id(),
            RankCache {
                read: Instant::now(),
                now,
                ratings: ratings.clone(),
            },
        );
        Ok(ratings)
    }

    /// Games for `inarow games export`, oldest first (by start, then id).
    pub async fn export(&self, filter: &ExportFilter) -> Result<Vec<GameRecord>, StoreError> {
        let player = filter
            .player
            .as_ref()
            .map(|p| crate::text::sanitize(p, crate::text::MAX_NAME_WIDTH * 4).to_lowercase());
        let (after_ms, after_id) = filter.after.clone().unwrap_or((i64::MIN, String::new()));
        let sql = format!(
            "SELECT {} FROM games g \
             WHERE g.started_ms >= $1 AND (g.started_ms > $2 OR (g.started_ms = $2 AND g.id > $3)) \
             AND ($4 = '' OR g.game = $4) \
             AND ($5 = '' OR LOWER(g.p0_name) = $5 OR LOWER(g.p1_name) = $5) \
             ORDER BY g.started_ms, g.id LIMIT $6",
            game_json(self.is_postgres())
        );
        let rows: Vec<String> = with_pool!(&self.read, p => {
            sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
                .bind(filter.since_ms.unwrap_or(i64::MIN))
                .bind(after_ms)
                .bind(after_id)
                .bind(filter.game.map(|g| g.id()).unwrap_or(""))
                .bind(player.unwrap_or_default())
                .bind(filter.limit.clamp(0, MAX_PAGE))
                .fetch_all(p)
                .await?
        });
        rows.iter().map(|r| GameRow::parse(r)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The board query reads the partial index of candidates, and the
    /// index's condition is the one the query repeats.
    #[tokio::test]
    async fn the_board_reads_only_the_candidates_index() {
        let condition = format!(
            "WHERE games >= {LEADERBOARD_MIN_GAMES} AND deviation < {}",
            LEADERBOARD_MAX_DEVIATION as i64
        );
        for dialect in ["sqlite", "postgres"] {
            let path = format!(
                "{}/migrations/{dialect}/0002_board_candidates.sql",
                env!("CARGO_MANIFEST_DIR")
            );
            let sql = std::fs::read_to_string(&path).unwrap();
            assert!(sql.contains(&condition), "{path} must say {condition}");
        }
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&format!("sqlite://{}", dir.path().join("s.db").display()))
            .await
            .unwrap();
        for sql in [board_sql(LEADERBOARD_SIZE), ranks_sql()] {
            let plan: Vec<(i64, i64, i64, String)> = with_pool!(&store.read, p => sqlx::query_as(sqlx::AssertSqlSafe(format!("EXPLAIN QUERY PLAN {sql}")))
                    .bind("connect4")
                    .bind(0i64)
                    .fetch_all(p)
                    .await
                    .unwrap());
            let plan: Vec<&str> = plan.iter().map(|r| r.3.as_str()).collect();
            assert!(
                plan.iter()
                    .any(|l| l.contains("USING COVERING INDEX ratings_board")),
                "{sql}: {plan:?}"
            );
        }
    }
}
