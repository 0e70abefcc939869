//! Puzzles on a host: the puzzle a session asks for (the day's, or the
//! next near the person's puzzle rating), the attempt recorded and rated
//! in the shared store (an account's first try of a puzzle counts once,
//! whichever host records it), the refutation of a wrong move from the
//! host's analyst, and the day's puzzle in words for the lobby's header
//! (asked of the store once a day and host, not once a session).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::analyst::Analyst;
use crate::session::puzzle::{PuzzleAsk, PuzzleAttempt, PuzzleOutcome, PuzzleView, Task};
use crate::session::words::DailyWords;
use crate::store::{Attempt, MAX_SKIPPED, Store, StoredPuzzle, day_start, now_ms};

/// How long a person waits for the store's answer about a puzzle.
const STORE_WAIT: Duration = Duration::from_secs(5);
/// What a person reads when the store does not answer.
/// The message said when the store does not answer.
const STORE_AWAY: &str = "puzzles-away";
/// The lobby's header asks the store again after this long when it could
/// not tell the day's puzzle.
const DAILY_RETRY_MS: i64 = 60_000;

fn round(x: f64) -> i64 {
    x.round() as i64
}

/// The day's puzzle as this host last read it: the day it was read for
/// (its start), its id and its words for the header.
#[derive(Debug, Default)]
pub struct Daily {
    seen: Mutex<Option<DailyRead>>,
}

/// One read of the day's puzzle: the day's start, when it was read, and
/// the puzzle's id and words (`None`: none, or the read failed).
type DailyRead = (i64, i64, Option<(String, DailyWords)>);

impl Daily {
    /// The day's puzzle: `(id, words)`, read from the store once a day
    /// (again a minute after a failed read); `None` when there are no
    /// puzzles.
    pub async fn get(&self, store: &Store) -> Option<(String, DailyWords)> {
        let now = now_ms();
        let day = day_start(now);
        {
            let seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((d, read_at, found)) = &*seen
                && *d == day
                && (found.is_some() || now - read_at < DAILY_RETRY_MS)
            {
                return found.clone();
            }
        }
        let found = match tokio::time::timeout(STORE_WAIT, store.daily_puzzle(day)).await {
            Ok(Ok(p)) => p.map(|p| (p.id.clone(), daily_words(&p))),
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "store error: the day's puzzle not read");
                None
            }
            Err(_) => None,
        };
        *self.seen.lock().unwrap_or_else(|e| e.into_inner()) = Some((day, now, found.clone()));
        found
    }
}

/// The day's puzzle in words: its game and task ("Connect Four, win in
/// 2"), for the lobby's header and the front page.
fn daily_words(p: &StoredPuzzle) -> DailyWords {
    DailyWords {
        kind: p.rules().map(|r| r.kind()),
        win: match (p.puzzle.kind.as_str(), p.puzzle.win_in) {
            ("hold", _) => None,
            (_, n) => Some(n),
        },
    }
}

/// The puzzles a session was shown last (at most [`MAX_SKIPPED`]): not
/// shown again soon, and for a guest, who keeps no attempts, whether the
/// day's puzzle was tried.
#[derive(Debug, Default)]
pub struct Seen {
    recent: Vec<String>,
}

impl Seen {
    fn add(&mut self, id: &str) {
        self.recent.retain(|r| r != id);
        self.recent.push(id.to_string());
        if self.recent.len() > MAX_SKIPPED {
            self.recent.remove(0);
        }
    }

    fn has(&self, id: &str) -> bool {
        self.recent.iter().any(|r| r == id)
    }
}

/// The puzzle `ask` names for `account` (a guest: `None`), as the screen
/// shows it; or why there is none, in words.
pub async fn find(
    store: &Store,
    daily: &Daily,
    account: Option<&str>,
    seen: &mut Seen,
    ask: PuzzleAsk,
    lang: crate::lang::Lang,
) -> Result<PuzzleView, String> {
    let now = now_ms();
    let work = async {
        let today = daily.get(store).await.map(|(id, _)| id);
        let standing = match account {
            Some(a) => store.puzzle_standing(a, now).await?,
            None => None,
        };
        let tried = async |id: &str| -> Result<bool, crate::store::StoreError> {
            Ok(match account {
                Some(a) => store.puzzle_tried(a, id).await?,
                None => seen.has(id),
            })
        };
        let daily_first = match (&today, ask) {
            (Some(id), PuzzleAsk::Daily) => Some(id.clone()),
            (Some(id), PuzzleAsk::Start) if !tried(id).await? => Some(id.clone()),
            _ => None,
        };
        let found = match daily_first {
            Some(id) => store.puzzle(&id).await?,
            None => {
                let rating = standing.as_ref().map_or(1500.0, |s| s.rating.rating);
                let pick = rand::random::<u64>();
                store
                    .next_puzzle(account, rating, &seen.recent, pick)
                    .await?
            }
        };
        let rated = match &found {
            Some(p) => account.is_some() && !tried(&p.id).await?,
            None => false,
        };
        Ok::<_, crate::store::StoreError>((found, standing, rated, today))
    };
    let (found, standing, rated, today) = match tokio::time::timeout(STORE_WAIT, work).await {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => {
            tracing::warn!(error = %e, "store error: no puzzle");
            return Err(lang.text(STORE_AWAY));
        }
        Err(_) => return Err(lang.text(STORE_AWAY)),
    };
    let Some(p) = found else {
        return Err(match account {
            Some(_) => lang.text("puzzles-all-tried"),
            None => lang.text("puzzles-none"),
        });
    };
    seen.add(&p.id);
    view_of(
        &p,
        today.as_deref() == Some(p.id.as_str()),
        rated,
        standing.map(|s| round(s.rating.rating)),
    )
    .ok_or_else(|| lang.text("puzzles-unshown"))
}

/// A stored puzzle as the screen shows it; `None` when it does not read.
pub fn view_of(
    p: &StoredPuzzle,
    daily: bool,
    rated: bool,
    my_rating: Option<i64>,
) -> Option<PuzzleView> {
    let rules = p.rules()?;
    let position = p.position_moves()?;
    let line = p.line_moves()?;
    if line.is_empty() {
        return None;
    }
    // The position and the line are a game (checked, not trusted).
    let mut pos = crate::game::Position::new(rules);
    for m in position.iter().chain(&line) {
        pos.play(*m).ok()?;
    }
    let task = match p.puzzle.kind.as_str() {
        "hold" => Task::Hold,
        _ => Task::Win {
            win_in: p.puzzle.win_in,
        },
    };
    Some(PuzzleView {
        id: p.id.clone(),
        rules,
        task,
        position,
        line,
        rating: round(p.rating.rating),
        daily,
        rated,
        my_rating,
    })
}

/// Records an attempt (an account's; a guest's is not kept) and, for a
/// failed one when `refute`, finds the host's answer to the wrong move.
pub async fn attempt(
    store: &Store,
    analyst: &Arc<Analyst>,
    account: Option<&str>,
    a: PuzzleAttempt,
    refute: bool,
    lang: crate::lang::Lang,
) -> PuzzleOutcome {
    let mut outcome = PuzzleOutcome::default();
    if let Some(account) = account {
        let record = store.record_attempt(account, &a.id, a.solved, now_ms());
        match tokio::time::timeout(STORE_WAIT, record).await {
            Ok(Ok(Attempt::Rated { before, after, .. })) => {
                outcome.rating = Some((round(before.rating), round(after.rating)));
            }
            Ok(Ok(Attempt::Repeat)) => outcome.repeat = true,
            Ok(Ok(Attempt::Unknown)) => {
                outcome.trouble = Some(lang.text("puzzles-gone"));
            }
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "store error: puzzle attempt not recorded");
                outcome.trouble = Some(lang.text("puzzles-not-recorded"));
            }
            Err(_) => outcome.trouble = Some(lang.text("puzzles-not-recorded")),
        }
    }
    if !a.solved && refute {
        let mut moves = a.position;
        moves.extend(a.played);
        outcome.refutation = analyst.reply(a.rules, moves).await;
    }
    outcome
}
