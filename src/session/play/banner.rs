//! The line above the board: the swap2 opening's step, an offer and its
//! answer keys, a countdown or a claim, and after the game its verdict.

use super::*;
use crate::session::words;

impl PlayScreen {
    /// The swap2 opening's line above the board: what to do, or who does
    /// what, or the choice just made.
    pub(super) fn swap2_line(&self) -> Option<Line> {
        if self.game.ending.is_some() {
            return None;
        }
        let colour =
            |s: Side| FluentValue::from(words::colour(self.lang, self.game.seat(s).colour));
        let (first, second) = (colour(Side::First), colour(Side::Second));
        // A side just chosen, until the next stone (two more stones: the
        // stage's own line says so).
        if let Some((side, choice)) = self.game.swap2_chosen
            && choice != Swap2Choice::TwoMore
        {
            let name = FluentValue::from(self.game.seat(side).name.as_str());
            let text = self.tw("swap2-chose", &[("name", name), ("colour", colour(side))]);
            return Some(Line::styled(format!(" {text}"), Style::PLAIN.bold()));
        }
        let stage = self.game.swap2?;
        let actor = stage.actor();
        let name = FluentValue::from(self.game.seat(actor).name.as_str());
        let other = FluentValue::from(self.game.seat(actor.other()).name.as_str());
        let mine = self.mine[actor.index()];
        // The colour of the stone placed next (it alternates).
        let next = colour(self.game.position.to_move());
        let text = match (stage, mine) {
            (Swap2Stage::Three, true) => self.tw(
                "swap2-place-three",
                &[("first", first), ("second", second), ("next", next)],
            ),
            (Swap2Stage::Three, false) => self.tw("swap2-places-three", &[("name", name)]),
            (Swap2Stage::Choose, true) => {
                self.tw("swap2-choose", &[("first", first), ("second", second)]) + " "
            }
            (Swap2Stage::Choose, false) => self.tw("swap2-chooses", &[("name", name)]),
            (Swap2Stage::Two, true) => self.tw(
                "swap2-place-two",
                &[("first", first), ("second", second), ("next", next)],
            ),
            (Swap2Stage::Two, false) => self.tw("swap2-places-two", &[("name", name)]),
            (Swap2Stage::ChooseAgain, true) => {
                self.tw(
                    "swap2-choose-again",
                    &[("first", first), ("second", second), ("other", other)],
                ) + " "
            }
            (Swap2Stage::ChooseAgain, false) => self.tw("swap2-chooses-again", &[("name", name)]),
        };
        let style = if mine && stage.is_choice() {
            Style::PLAIN.bold().reverse()
        } else {
            Style::PLAIN.bold()
        };
        Some(Line::styled(format!(" {text}"), style))
    }

    /// The line above the board while an offer waits: what the other
    /// player offered and the keys that answer, or that ours waits.
    pub(super) fn offer_line(&self) -> Option<Line> {
        if let Some(line) = self.swap2_line()
            && self.opponent_away().is_none()
        {
            return Some(line);
        }
        let name_of = |side: Side| FluentValue::from(self.game.seat(side).name.as_str());
        if let Some((side, until)) = self.opponent_away() {
            let left = self
                .now
                .map_or(Duration::ZERO, |n| until.saturating_duration_since(n));
            let secs = whole_seconds(left);
            let text = self.tw(
                "opponent-away",
                &[
                    ("name", name_of(side)),
                    ("seconds", FluentValue::from(secs)),
                ],
            );
            return Some(Line::styled(
                format!(" {text} "),
                Style::PLAIN.bold().reverse(),
            ));
        }
        if self.claim_due() && self.game.offer.is_none() {
            let side = self.game.to_move()?;
            let text = self.tw("claim-due", &[("name", name_of(side))]);
            return Some(Line::styled(
                format!(" {text} "),
                Style::PLAIN.bold().reverse(),
            ));
        }
        if let Some(d) = self.game.declined
            && self.mine[d.from.index()]
            && !self.mine[d.from.other().index()]
        {
            let by = name_of(d.from.other());
            let text = match d.kind {
                OfferKind::Draw => self.tw("declined-draw", &[("name", by)]),
                OfferKind::Takeback => self.tw("declined-takeback", &[("name", by)]),
            };
            return Some(Line::styled(format!(" {text}"), Style::PLAIN.dim()));
        }
        let offer = self.game.offer?;
        let from = name_of(offer.from);
        if let Some(kind) = self.offer_to_me() {
            let text = match kind {
                OfferKind::Draw => self.tw("offer-draw-to-me", &[("name", from)]),
                OfferKind::Takeback => self.tw("offer-takeback-to-me", &[("name", from)]),
            };
            return Some(Line::styled(
                format!(" {text} "),
                Style::PLAIN.bold().reverse(),
            ));
        }
        let to = name_of(offer.from.other());
        let text = if !self.mine[offer.from.index()] {
            // Watching: who offered what.
            match offer.kind {
                OfferKind::Draw => self.tw("offer-draw-watched", &[("from", from), ("to", to)]),
                OfferKind::Takeback => {
                    self.tw("offer-takeback-watched", &[("from", from), ("to", to)])
                }
            }
        } else {
            match offer.kind {
                OfferKind::Draw => self.tw("offer-draw-mine", &[("to", to)]),
                OfferKind::Takeback => self.tw("offer-takeback-mine", &[("to", to)]),
            }
        };
        Some(Line::styled(format!(" {text}"), Style::PLAIN.dim()))
    }

    pub(super) fn after_game_keys(&self) -> String {
        let self_gone = self.seat_left(true);
        let undo = self.can_undo();
        self.t(if self.remote && (self.partner_gone() || self_gone) {
            "after-keys-gone"
        } else if self.remote && undo {
            "after-keys-remote-undo"
        } else if self.remote {
            "after-keys-remote"
        } else if undo {
            "after-keys-local-undo"
        } else {
            "after-keys-local"
        })
    }

    /// The game on this screen as a replay (for `[a]`): who played, the
    /// moves, how it ended.
    pub(super) fn replay_view(&self) -> super::super::records::ReplayView {
        use crate::session::records::{ReplayPlayer, ReplayView};
        let g = &self.game;
        let player = |side: Side| ReplayPlayer {
            name: g.seat(side).name.clone(),
            colour: g.seat(side).colour,
        };
        let (winner, reason) = match g.ending.as_ref() {
            Some(Ending::Line { winner, .. }) => (Some(*winner), self.t("reason-line")),
            Some(Ending::Draw) => (None, self.t("reason-full")),
            Some(Ending::Forfeit { leaver, reason }) => {
                (Some(leaver.other()), words::why(self.lang, reason))
            }
            Some(Ending::Aborted { reason }) => {
                let reason = words::aborted(self.lang, g, reason);
                (
                    None,
                    self.tw("reason-stopped", &[("reason", reason.into())]),
                )
            }
            Some(Ending::Resigned { loser }) => (Some(loser.other()), self.t("reason-resigned")),
            Some(Ending::DrawAgreed) => (None, self.t("reason-agreed")),
            Some(Ending::Flag { loser }) => (Some(loser.other()), self.t("reason-flag")),
            None => (None, String::new()),
        };
        let mut pos = crate::game::Position::new(*g.position.rules());
        let moves = g
            .position
            .history()
            .iter()
            .map(|&p| match self.kind() {
                GameKind::ConnectFour => Move::Column(p.x),
                GameKind::Gomoku | GameKind::Renju => Move::Point(p),
            })
            .take_while(|m| pos.play(*m).is_ok())
            .collect();
        ReplayView {
            rules: *g.position.rules(),
            players: [player(Side::First), player(Side::Second)],
            moves,
            winner,
            reason,
            date: String::new(),
            game_id: g.record.clone(),
        }
    }

    /// What the ending means for the person at this terminal, when it
    /// plays one side: "You win", "You lost" or "Draw".
    pub(super) fn verdict(&self) -> Option<String> {
        self.verdict_id().map(|id| self.t(id))
    }

    fn verdict_id(&self) -> Option<&'static str> {
        let mine = Side::BOTH.into_iter().find(|s| self.mine[s.index()])?;
        if self.mine == [true, true] {
            return None;
        }
        match self.game.ending.as_ref()? {
            Ending::Line { winner, .. } if *winner == mine => Some("verdict-win"),
            Ending::Line { .. } => Some("verdict-lost"),
            Ending::Forfeit { leaver, .. } if *leaver == mine => Some("verdict-lost"),
            Ending::Forfeit { .. } => Some("verdict-win"),
            Ending::Resigned { loser } | Ending::Flag { loser } if *loser == mine => {
                Some("verdict-lost")
            }
            Ending::Resigned { .. } | Ending::Flag { .. } => Some("verdict-win"),
            Ending::Draw | Ending::DrawAgreed => Some("verdict-draw"),
            Ending::Aborted { .. } => None,
        }
    }
}
