//! The line above the board: the swap2 opening's step, an offer and its
//! answer keys, a countdown or a claim, and after the game its verdict.

use super::*;

impl PlayScreen {
    /// The swap2 opening's line above the board: what to do, or who does
    /// what, or the choice just made.
    pub(super) fn swap2_line(&self) -> Option<Line> {
        if self.game.ending.is_some() {
            return None;
        }
        let colour = |s: Side| self.game.seat(s).colour.to_string();
        let (first, second) = (colour(Side::First), colour(Side::Second));
        // A side just chosen, until the next stone (two more stones: the
        // stage's own line says so).
        if let Some((side, choice)) = self.game.swap2_chosen
            && choice != Swap2Choice::TwoMore
        {
            let name = &self.game.seat(side).name;
            let text = format!(" Swap2: {name} chose to play {}", colour(side));
            return Some(Line::styled(text, Style::PLAIN.bold()));
        }
        let stage = self.game.swap2?;
        let actor = stage.actor();
        let name = &self.game.seat(actor).name;
        let other = &self.game.seat(actor.other()).name;
        let mine = self.mine[actor.index()];
        // The colour of the stone placed next (it alternates).
        let next = colour(self.game.position.to_move());
        let text = match (stage, mine) {
            (Swap2Stage::Three, true) => {
                format!(" Swap2: place three stones, {first}, {second}, {first} (now {next})")
            }
            (Swap2Stage::Three, false) => format!(" Swap2: {name} places three opening stones"),
            (Swap2Stage::Choose, true) => format!(
                " Swap2: 1 play {first}   2 play {second} and place next   3 place two more "
            ),
            (Swap2Stage::Choose, false) => {
                format!(" Swap2: {name} chooses a colour, or to place two more")
            }
            (Swap2Stage::Two, true) => {
                format!(" Swap2: place two more stones, {second} then {first} (now {next})")
            }
            (Swap2Stage::Two, false) => format!(" Swap2: {name} places two more stones"),
            (Swap2Stage::ChooseAgain, true) => format!(
                " Swap2: 1 play {first} ({other} places next)   2 play {second} and place next "
            ),
            (Swap2Stage::ChooseAgain, false) => format!(" Swap2: {name} chooses a colour"),
        };
        let style = if mine && stage.is_choice() {
            Style::PLAIN.bold().reverse()
        } else {
            Style::PLAIN.bold()
        };
        Some(Line::styled(text, style))
    }

    /// The line above the board while an offer waits: what the other
    /// player offered and the keys that answer, or that ours waits.
    pub(super) fn offer_line(&self) -> Option<Line> {
        if let Some(line) = self.swap2_line()
            && self.opponent_away().is_none()
        {
            return Some(line);
        }
        if let Some((side, until)) = self.opponent_away() {
            let left = self
                .now
                .map_or(Duration::ZERO, |n| until.saturating_duration_since(n));
            let secs = whole_seconds(left);
            let text = format!(
                " {} lost the connection, waiting {secs} s... ",
                self.game.seat(side).name
            );
            return Some(Line::styled(text, Style::PLAIN.bold().reverse()));
        }
        if self.claim_due() && self.game.offer.is_none() {
            let side = self.game.to_move()?;
            let text = format!(
                " {} has not moved for a long while: w claims the win ",
                self.game.seat(side).name
            );
            return Some(Line::styled(text, Style::PLAIN.bold().reverse()));
        }
        if let Some(d) = self.game.declined
            && self.mine[d.from.index()]
            && !self.mine[d.from.other().index()]
        {
            let by = &self.game.seat(d.from.other()).name;
            let text = match d.kind {
                OfferKind::Draw => format!(" {by} declined the draw: play on"),
                OfferKind::Takeback => format!(" {by} refused the takeback: play on"),
            };
            return Some(Line::styled(text, Style::PLAIN.dim()));
        }
        let offer = self.game.offer?;
        let from = &self.game.seat(offer.from).name;
        if let Some(kind) = self.offer_to_me() {
            let text = match kind {
                OfferKind::Draw => format!(" {from} offers a draw: = accept   - decline "),
                OfferKind::Takeback => {
                    format!(" {from} asks to take back a move: = allow   - refuse ")
                }
            };
            return Some(Line::styled(text, Style::PLAIN.bold().reverse()));
        }
        let to = &self.game.seat(offer.from.other()).name;
        let text = if !self.mine[offer.from.index()] {
            // Watching: who offered what.
            match offer.kind {
                OfferKind::Draw => format!(" {from} offers {to} a draw"),
                OfferKind::Takeback => format!(" {from} asks {to} to take back a move"),
            }
        } else {
            match offer.kind {
                OfferKind::Draw => format!(" You offered a draw: waiting for {to}"),
                OfferKind::Takeback => {
                    format!(" You asked to take back a move: waiting for {to}")
                }
            }
        };
        Some(Line::styled(text, Style::PLAIN.dim()))
    }

    pub(super) fn after_game_keys(&self) -> String {
        let self_gone = self.seat_left(true);
        let undo = if self.can_undo() { "[u] undo  " } else { "" };
        if self.remote && (self.partner_gone() || self_gone) {
            "[a] analysis   [l] back to the lobby   [q] quit".to_string()
        } else if self.remote {
            format!("[r] rematch  [a] analysis  {undo}[l] lobby  [q] quit")
        } else {
            format!("[r] play again  [a] analysis  {undo}[m] menu  [q] quit")
        }
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
            Some(Ending::Line { winner, .. }) => (Some(*winner), "a line".to_string()),
            Some(Ending::Draw) => (None, "draw: the board is full".to_string()),
            Some(Ending::Forfeit { leaver, reason }) => (Some(leaver.other()), reason.clone()),
            Some(Ending::Aborted { reason }) => (None, format!("stopped: {reason}")),
            Some(Ending::Resigned { loser }) => (Some(loser.other()), "resigned".to_string()),
            Some(Ending::DrawAgreed) => (None, "draw agreed".to_string()),
            Some(Ending::Flag { loser }) => (Some(loser.other()), "out of time".to_string()),
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
    pub(super) fn verdict(&self) -> Option<&'static str> {
        let mine = Side::BOTH.into_iter().find(|s| self.mine[s.index()])?;
        if self.mine == [true, true] {
            return None;
        }
        match self.game.ending.as_ref()? {
            Ending::Line { winner, .. } if *winner == mine => Some("You win!"),
            Ending::Line { .. } => Some("You lost."),
            Ending::Forfeit { leaver, .. } if *leaver == mine => Some("You lost."),
            Ending::Forfeit { .. } => Some("You win!"),
            Ending::Resigned { loser } | Ending::Flag { loser } if *loser == mine => {
                Some("You lost.")
            }
            Ending::Resigned { .. } | Ending::Flag { .. } => Some("You win!"),
            Ending::Draw | Ending::DrawAgreed => Some("Draw."),
            Ending::Aborted { .. } => None,
        }
    }
}
