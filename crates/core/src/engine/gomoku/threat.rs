//! Threat searches: VCF (victory by continuous fours) and VCT (victory by
//! continuous threats, Allis' threat-space search restricted to fours and
//! open threes), and the defence moves against an open three.
//!
//! Both are AND/OR searches on the real board. The attacker plays only
//! threats; the defender's replies are what the rules force: against a four,
//! the one point that stops the five; against an open three, exactly the
//! points that leave the attacker without any open-four point (each point
//! on the threatening lines checked, see `keep_answers`), plus every four of the
//! defender's own (a counter-threat the attacker must answer first). A win
//! found this way is a real forced win; a failure only means none was found
//! within the depth.

use super::board::{Color, Pos, other};
use super::pattern::{
    B4, C_FIVE, C_FLEX4, C_FOUR, C_FOUR_THREE, C_THREE_THREE, CATS, Cat, F3, Pat, is_four,
    is_threat,
};
use super::search::Search;

/// Distinguishes cached VCF from VCT results and the attacker's colour.
const SALT_VCF: [u64; 3] = [0, 0x51A3_0C2E_9F11_7D01, 0x2B7E_1516_28AE_D2A6];
const SALT_VCT_ATT: [u64; 3] = [0, 0x3243_F6A8_885A_308D, 0x1319_8A2E_0370_7344];
const SALT_VCT_DEF: [u64; 3] = [0, 0xA409_3822_299F_31D0, 0x082E_FA98_EC4E_6C89];

impl Search<'_> {
    /// Points where `c` makes a four, strongest first.
    pub(super) fn four_moves(&self, c: Color, out: &mut Vec<Pos>) {
        out.clear();
        let b = &self.b;
        // The board counts them, so the scan stops at the last one.
        let n = b.count_at_least(c, C_FOUR) as usize;
        if n == 0 {
            return;
        }
        for &p in b.points() {
            if b.is_empty(p) && is_four(b.cat(p, c)) {
                out.push(p);
                if out.len() == n {
                    break;
                }
            }
        }
        out.sort_by_key(|&p| {
            (
                std::cmp::Reverse(b.cat(p, c)),
                std::cmp::Reverse(b.score(p, c)),
            )
        });
    }

    /// `me`'s answers when `op` threatens an open four: the defences, then
    /// `me`'s own fours (which gain a tempo) not already among them.
    pub(super) fn answers_to_open_three(&mut self, me: Color, op: Color, out: &mut Vec<Pos>) {
        self.defence_moves(op, out);
        let mut fours = Vec::new();
        self.four_moves(me, &mut fours);
        for f in fours {
            if !out.contains(&f) {
                out.push(f);
            }
        }
    }

    /// The moves for the side to move that leave `attacker` (the opponent)
    /// without any point making an open four or double four. Empty if no
    /// single point does. Counter-fours are not included.
    pub(super) fn defence_moves(&mut self, attacker: Color, out: &mut Vec<Pos>) {
        // Every point making an open four or better must lose it; the
        // candidates come from the open-four points.
        let threat = |c: Cat| c >= C_FLEX4;
        let total = self.b.count_at_least(attacker, C_FLEX4) as usize;
        let threats = self.threat_points(attacker, threat, total);
        // More than six separate threats are more than one stone can answer
        // in practice; the candidates of the first six are still tried.
        let flex: Vec<Pos> = threats
            .iter()
            .copied()
            .filter(|&q| self.b.cat(q, attacker) == C_FLEX4)
            .take(6)
            .collect();
        let cand = self.threat_line_points(&flex, attacker, B4);
        self.keep_answers(cand, &threats, attacker, threat, out);
    }

    /// The moves for the side to move that leave `attacker` without any
    /// point making a four-three, a double three or better (a win on its
    /// next move when the defender has no four). Empty if no single point
    /// does, or if there are more such points than one stone can answer.
    pub(super) fn double_threat_defences(&mut self, attacker: Color, out: &mut Vec<Pos>) {
        let threat = |c: Cat| c == C_FOUR_THREE || c == C_THREE_THREE || c >= C_FLEX4;
        let b = &self.b;
        let total = (b.count(attacker, C_FOUR_THREE) + b.count(attacker, C_THREE_THREE)) as usize
            + b.count_at_least(attacker, C_FLEX4) as usize;
        out.clear();
        if total > 4 {
            return;
        }
        let threats = self.threat_points(attacker, threat, total);
        let cand = self.threat_line_points(&threats, attacker, F3);
        self.keep_answers(cand, &threats, attacker, threat, out);
    }

    /// The empty points whose category for `attacker` passes `threat`, in
    /// board order: there are `total` of them (the board's counts say how
    /// many), so the scan stops at the last.
    fn threat_points(
        &self,
        attacker: Color,
        threat: impl Fn(Cat) -> bool,
        total: usize,
    ) -> Vec<Pos> {
        let b = &self.b;
        let mut out = Vec::with_capacity(total);
        if total > 0 {
            for &q in b.points() {
                if b.is_empty(q) && threat(b.cat(q, attacker)) {
                    out.push(q);
                    if out.len() == total {
                        break;
                    }
                }
            }
        }
        debug_assert_eq!(
            out.len(),
            b.points()
                .iter()
                .filter(|&&q| b.is_empty(q) && threat(b.cat(q, attacker)))
                .count()
        );
        out
    }

    /// The empty points that might answer `attacker`'s threat points
    /// `threats`: each such point and the empty points within five steps
    /// of it along the directions where its pattern is at least `min_pat`.
    fn threat_line_points(&self, threats: &[Pos], attacker: Color, min_pat: Pat) -> Vec<Pos> {
        let b = &self.b;
        let mut cand: Vec<Pos> = Vec::with_capacity(32);
        for &q in threats {
            if !cand.contains(&q) {
                cand.push(q);
            }
            for d in 0..4 {
                if b.pat(q, attacker, d) < min_pat {
                    continue;
                }
                for o in (-5..=5).filter(|&o| o != 0) {
                    let r = b.step(q, d, o);
                    if b.is_empty(r) && !cand.contains(&r) {
                        cand.push(r);
                    }
                }
            }
        }
        cand
    }

    /// The candidates after which `attacker` has no point whose category
    /// passes `threat`, into `out` (those the side to move may play).
    ///
    /// A stone only changes the points on its four lines, and a defender's
    /// stone only ever lowers the attacker's shapes, so a candidate answers
    /// when every threat point is the candidate itself or loses its threat
    /// with the candidate's stone on its line ([`Board::cat_if`]): no move
    /// is played. Under renju a white stone can lift a ban on a black point
    /// and so raise it, and black's verdicts reach past its lines, so there
    /// each candidate is played and the board asked.
    fn keep_answers(
        &mut self,
        cand: Vec<Pos>,
        threats: &[Pos],
        attacker: Color,
        threat: impl Fn(Cat) -> bool,
        out: &mut Vec<Pos>,
    ) {
        out.clear();
        let me = self.b.to_move();
        if !self.b.is_renju() {
            let b = &self.b;
            for r in cand {
                if threats
                    .iter()
                    .all(|&q| q == r || !threat(b.cat_if(q, attacker, r, me)))
                {
                    out.push(r);
                }
            }
            return;
        }
        for r in cand {
            if self.b.is_forbidden(r, me) {
                continue;
            }
            self.b.play(r);
            let ok = (0..CATS as Cat)
                .filter(|&k| threat(k))
                .all(|k| self.b.count(attacker, k) == 0);
            self.b.undo();
            if ok {
                out.push(r);
            }
        }
    }

    /// What both threat searches check first: out of time (not won), a
    /// five to complete (won), two fives of the defender's to block (not
    /// won). `Err` holds such a verdict; `Ok` the number of fives the
    /// defender threatens (0 or 1).
    fn threat_prelude(&mut self, root: bool) -> Result<u16, bool> {
        if self.tick() {
            return Err(false);
        }
        let a = self.b.to_move();
        if self.b.count(a, C_FIVE) > 0 {
            if root {
                self.threat_move = self.b.find_five(a);
            }
            return Err(true);
        }
        let dn = self.b.count(other(a), C_FIVE);
        if dn >= 2 {
            return Err(false);
        }
        Ok(dn)
    }

    /// Whether `a` has an open four (a win next move); at the root its
    /// point is left in `self.threat_move`.
    fn open_four(&mut self, a: Color, root: bool) -> bool {
        if self.b.count(a, C_FLEX4) == 0 {
            return false;
        }
        if root {
            self.threat_move = self.find_cat(a, C_FLEX4);
        }
        true
    }

    /// Whether the side to move wins by continuous fours within `depth` of its own moves.
    /// At the top call (`root`), the first move of the win is left in `self.threat_move`.
    pub(super) fn vcf(&mut self, depth: i32, root: bool) -> bool {
        let dn = match self.threat_prelude(root) {
            Ok(dn) => dn,
            Err(decided) => return decided,
        };
        let a = self.b.to_move();
        let d = other(a);
        let forced = if dn == 1 {
            let Some(f) = self.b.find_five(d) else {
                return false;
            };
            if !is_four(self.b.cat(f, a)) {
                return false;
            }
            Some(f)
        } else {
            if self.open_four(a, root) {
                return true;
            }
            None
        };
        if depth <= 0 {
            return false;
        }
        let key = self.b.hash() ^ SALT_VCF[a as usize];
        if !root && let Some(r) = self.cache.probe(key, depth) {
            return r;
        }
        let mut moves = Vec::new();
        match forced {
            Some(f) => moves.push(f),
            None => self.four_moves(a, &mut moves),
        }
        if depth == 1 && self.opts.lean_vcf && !self.b.is_renju() {
            // The last four wins only if, once blocked, it leaves an open
            // four: so it must make a three as well (or a second four).
            // Under renju a block black may not play wins too, so all stay.
            moves.retain(|&m| self.b.cat(m, a) >= C_FOUR_THREE);
        }
        self.attack(moves, key, depth, root, |s, m| {
            s.b.play(m);
            let win = if s.b.count(a, C_FIVE) >= 2 {
                true
            } else if let Some(g) = s.b.five_point_near(m, a) {
                if s.b.is_forbidden(g, d) {
                    // Renju: black may not block there.
                    s.b.undo();
                    return true;
                }
                s.b.play(g);
                let r = s.vcf(depth - 1, false);
                s.b.undo();
                r
            } else {
                false
            };
            s.b.undo();
            win
        })
    }

    /// Tries the attacker's `moves` in order with `wins` (which plays and
    /// takes back the move itself) until one wins; caches the verdict
    /// under `key` unless time ran out.
    fn attack(
        &mut self,
        moves: Vec<Pos>,
        key: u64,
        depth: i32,
        root: bool,
        mut wins: impl FnMut(&mut Self, Pos) -> bool,
    ) -> bool {
        for m in moves {
            if wins(self, m) {
                if root {
                    self.threat_move = Some(m);
                }
                self.cache.store(key, depth, true);
                return true;
            }
            if self.aborted {
                return false;
            }
        }
        self.cache.store(key, depth, false);
        false
    }

    /// Whether the side to move wins by fours and open threes within `depth`
    /// of its own moves. VCF is tried first at every attacker node, to
    /// `vcf_depth`. At the top call the first move is left in `self.threat_move`.
    pub(super) fn vct(&mut self, depth: i32, vcf_depth: i32, root: bool) -> bool {
        let dn = match self.threat_prelude(root) {
            Ok(dn) => dn,
            Err(decided) => return decided,
        };
        let a = self.b.to_move();
        let d = other(a);
        if dn == 1 {
            // Forced to block; the block must itself leave a threat.
            let Some(f) = self.b.find_five(d) else {
                return false;
            };
            if !is_threat(self.b.cat(f, a)) || depth <= 0 {
                return false;
            }
            self.b.play(f);
            let r = self.vct_defend(a, depth - 1, vcf_depth);
            self.b.undo();
            if r && root {
                self.threat_move = Some(f);
            }
            return r;
        }
        if self.open_four(a, root) {
            return true;
        }
        if depth <= 0 {
            return false;
        }
        let key = self.b.hash() ^ SALT_VCT_ATT[a as usize];
        if !root && let Some(r) = self.cache.probe(key, depth) {
            return r;
        }
        if self.vcf(vcf_depth, root) {
            self.cache.store(key, depth, true);
            return true;
        }
        if self.aborted {
            return false;
        }
        let mut moves: Vec<Pos> = Vec::new();
        for &p in self.b.points() {
            if self.b.is_empty(p) && is_threat(self.b.cat(p, a)) {
                moves.push(p);
            }
        }
        {
            let b = &self.b;
            moves.sort_by_key(|&p| {
                (
                    std::cmp::Reverse(b.cat(p, a).min(C_FOUR_THREE)),
                    std::cmp::Reverse(b.score(p, a) + b.score(p, d) / 2),
                )
            });
        }
        self.attack(moves, key, depth, root, |s, m| {
            s.b.play(m);
            let win = s.vct_defend(a, depth - 1, vcf_depth);
            s.b.undo();
            win
        })
    }

    /// The defender's side of [`Self::vct`]: true if every defence loses.
    fn vct_defend(&mut self, a: Color, depth: i32, vcf_depth: i32) -> bool {
        if self.tick() {
            return false;
        }
        let d = self.b.to_move();
        if self.b.count(d, C_FIVE) > 0 {
            return false;
        }
        let an = self.b.count(a, C_FIVE);
        if an >= 2 {
            return true;
        }
        if an == 1 {
            let Some(g) = self.b.find_five(a) else {
                return false;
            };
            if self.b.is_forbidden(g, d) {
                // Renju: black may not block there.
                return true;
            }
            self.b.play(g);
            let r = self.vct(depth, vcf_depth, false);
            self.b.undo();
            return r;
        }
        if self.b.count(d, C_FLEX4) > 0 || self.b.count(a, C_FLEX4) == 0 {
            // The defender has an open four of its own, or is not threatened.
            return false;
        }
        let key = self.b.hash() ^ SALT_VCT_DEF[a as usize];
        if let Some(r) = self.cache.probe(key, depth) {
            return r;
        }
        let mut moves = Vec::new();
        self.defence_moves(a, &mut moves);
        let mut fours = Vec::new();
        self.four_moves(d, &mut fours);
        for f in fours {
            if !moves.contains(&f) {
                moves.push(f);
            }
        }
        for m in moves {
            self.b.play(m);
            let r = self.vct(depth, vcf_depth, false);
            self.b.undo();
            if !r {
                if !self.aborted {
                    self.cache.store(key, depth, false);
                }
                return false;
            }
        }
        if self.aborted {
            return false;
        }
        self.cache.store(key, depth, true);
        true
    }

    /// Some empty point of category `cat` for `c`.
    pub(super) fn find_cat(&self, c: Color, cat: u8) -> Option<Pos> {
        self.b
            .points()
            .iter()
            .copied()
            .find(|&p| self.b.is_empty(p) && self.b.cat(p, c) == cat)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::super::Rule;
    use super::super::board::Board;
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    use super::super::pattern::{C_FIVE, C_FLEX4, C_FOUR_THREE, C_THREE_THREE, is_four};
    use super::super::search::{Options, Search};
    use super::super::tt::{ThreatCache, Tt};

    /// Whether `attacker` has a point that wins on its next move.
    fn has_double_threat(b: &Board, attacker: u8) -> bool {
        b.count(attacker, C_FOUR_THREE) > 0
            || b.count(attacker, C_THREE_THREE) > 0
            || b.count_at_least(attacker, C_FLEX4) > 0
    }

    /// A plain VCF to check the search's against: every four is tried at
    /// every depth (nothing left out, no cache). Counts its nodes.
    fn reference_vcf(b: &mut Board, depth: i32, nodes: &mut u64) -> bool {
        *nodes += 1;
        let a = b.to_move();
        let d = 3 - a;
        if b.count(a, C_FIVE) > 0 {
            return true;
        }
        let moves: Vec<_> = match b.count(d, C_FIVE) {
            0 if b.count(a, C_FLEX4) > 0 => return true,
            0 => b
                .points()
                .iter()
                .copied()
                .filter(|&p| b.is_empty(p) && is_four(b.cat(p, a)))
                .collect(),
            1 => {
                let f = b.find_five(d).unwrap();
                if !is_four(b.cat(f, a)) {
                    return false;
                }
                vec![f]
            }
            _ => return false,
        };
        if depth <= 0 {
            return false;
        }
        for m in moves {
            b.play(m);
            let win = b.count(a, C_FIVE) >= 2
                || b.find_five(a).is_some_and(|g| {
                    b.play(g);
                    let r = reference_vcf(b, depth - 1, nodes);
                    b.undo();
                    r
                });
            b.undo();
            if win {
                return true;
            }
        }
        false
    }

    #[test]
    fn vcf_finds_every_win_the_plain_search_finds_with_fewer_nodes() {
        let stop = AtomicBool::new(false);
        let mut tt = Tt::new(1);
        let mut rng = SmallRng::seed_from_u64(5);
        let (mut ours, mut plain) = (0u64, 0u64);
        let (mut tried, mut wins) = (0, 0);
        while tried < 400 {
            // Random stones in a 9x9 patch: positions rich in fours.
            let mut b = Board::new(15, 15, Rule::Freestyle);
            let stones = 10 + rng.random_range(0..14);
            for _ in 0..stones {
                let p = b.pos(3 + rng.random_range(0..9), 3 + rng.random_range(0..9));
                let p = p.unwrap();
                if b.is_empty(p) && b.count(1, C_FIVE) == 0 && b.count(2, C_FIVE) == 0 {
                    b.play(p);
                }
            }
            let a = b.to_move();
            if b.count(1, C_FIVE) + b.count(2, C_FIVE) > 0
                || b.count_at_least(a, super::C_FOUR) < 2
                || b.count(a, C_FLEX4) > 0
            {
                continue;
            }
            tried += 1;
            for depth in 1..=4 {
                let mut n = 0;
                let want = reference_vcf(&mut b, depth, &mut n);
                plain += n;
                let mut cache = ThreatCache::new(12);
                let mut s = Search::new(b.clone(), &mut tt, &mut cache, &stop, Options::strong());
                let got = s.vcf(depth, true);
                ours += s.nodes();
                if want {
                    assert!(got, "depth {depth}, stones {:?}", b.history());
                    wins += 1;
                }
                if got {
                    // A win it claims is a real one.
                    let mut n = 0;
                    assert!(reference_vcf(&mut b, 8, &mut n), "stones {:?}", b.history());
                }
            }
        }
        assert!(wins >= 40, "{wins} wins");
        // Fours that cannot end in a win are not tried.
        assert!(ours * 10 < plain * 7, "{ours} nodes against {plain}");
    }

    #[test]
    fn the_answers_to_threats_are_exactly_the_moves_that_remove_them() {
        // Against brute force (every empty point played and the board
        // asked), under each rule: the answers to an open three, and to a
        // four-three or double three.
        let stop = AtomicBool::new(false);
        let mut tt = Tt::new(1);
        let mut cache = ThreatCache::new(10);
        let mut seed = 99u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        let open_four = |b: &Board, a: u8| b.count_at_least(a, C_FLEX4) > 0;
        for rule in [Rule::Freestyle, Rule::ExactFive, Rule::Renju] {
            let (mut threes, mut doubles) = (0, 0);
            for _ in 0..3000 {
                // Random stones in a 7x7 patch of a 15x15 board.
                let mut b = Board::new(15, 15, rule);
                let stones = 6 + next() % 10;
                for _ in 0..stones {
                    let p = b.pos(4 + next() % 7, 4 + next() % 7).unwrap();
                    if b.may_play(p, b.to_move()) {
                        b.play(p);
                    }
                }
                let me = b.to_move();
                let op = 3 - me;
                if b.count_at_least(me, super::C_FOUR) > 0
                    || b.count(op, C_FIVE) > 0
                    || !has_double_threat(&b, op)
                {
                    continue;
                }
                let brute = |b: &mut Board, still: &dyn Fn(&Board, u8) -> bool| {
                    let mut want = Vec::new();
                    for p in b.points().to_vec() {
                        if b.may_play(p, me) {
                            b.play(p);
                            if !still(b, op) {
                                want.push(p);
                            }
                            b.undo();
                        }
                    }
                    want
                };
                let mut s = Search::new(b.clone(), &mut tt, &mut cache, &stop, Options::strong());
                let mut got = Vec::new();
                s.double_threat_defences(op, &mut got);
                if !got.is_empty() {
                    doubles += 1;
                    got.sort();
                    assert_eq!(
                        got,
                        brute(&mut b, &has_double_threat),
                        "{rule:?} {:?}",
                        b.history()
                    );
                }
                if b.count(op, C_FLEX4) > 0 && b.count(op, C_FLEX4) <= 6 {
                    threes += 1;
                    s.defence_moves(op, &mut got);
                    got.sort();
                    assert_eq!(got, brute(&mut b, &open_four), "{rule:?} {:?}", b.history());
                }
            }
            assert!(threes > 100, "{rule:?}: {threes}");
            assert!(doubles > 20, "{rule:?}: {doubles}");
        }
    }
}
