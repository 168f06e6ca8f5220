//! What agents may ask beyond the rules (issue 20): an evaluation by the Victory paragraph (points
//! left against half the start, effectiveness and retreats weighed), and action scores that read
//! the rule text — melee odds from the table with its bonuses (Melees), fire at the best target
//! (Musketry, Artillery), the morale tests that follow (Morale), the enemy's answer in its next
//! move, support from behind and the pips each order costs (Sequence 1). docs/ai.md, "Command &
//! Control".
use crate::Minis;
use crate::data::{Kind, Quality};
use crate::geom::Rect;
use crate::state::{Action, State, Step, Veer};
use engine::{AgentHooks, Dice, Seat, Viewer};
use glam::DVec2;

/// What a pip is worth when nothing better is done with it (Sequence 1: one pip orders a unit).
const PIP: f64 = 0.03;
/// The share of the enemy's possible attacks counted against a position (he has pips too, but
/// not for every unit).
const THREAT: f64 = 0.5;
/// The share of one's own possible attacks next move counted for a position.
const CHANCE: f64 = 0.15;
/// A centimetre nearer the nearest enemy (the battle is won by closing).
const CLOSING: f64 = 0.004;

/// The chance that a d6 scores `need` or more after `minus` is taken off it.
fn p_score(need: i32, minus: i32) -> f64 {
    f64::from((7 - need - minus).clamp(0, 6)) / 6.0
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl Minis {
    /// The share of hits on `t` that stand after its saving throws (Saving throws: cover 4+,
    /// cuirassiers 6, the better one).
    fn standing_share(&self, st: &State, t: usize) -> f64 {
        if self.in_cover(st, t) {
            0.5
        } else if self.def(t).cuirassiers {
            5.0 / 6.0
        } else {
            1.0
        }
    }

    /// What a quarter of `t`'s effectiveness is worth, in victory points: a unit counts whole until
    /// eliminated (Victory), so each hit is worth its share of the quarters left, a general with
    /// it (3 points, lost with the unit: Morale) included.
    fn quarter_value(&self, st: &State, t: usize) -> f64 {
        let mut pts = f64::from(self.unit_points(t));
        if self.has_general(st, t) {
            pts += 3.0;
        }
        pts / f64::from(st.units[t].eff.max(1))
    }

    /// The chance that `u` fails a morale test now (Morale: 3+, 4+ or 5+ by quality, +1 with a
    /// general, +1 supported).
    fn morale_failure(&self, st: &State, u: usize) -> f64 {
        let need = match self.def(u).quality {
            Quality::Elite => 3,
            Quality::Regular => 4,
            Quality::Poor => 5,
        };
        let plus = i32::from(self.has_general(st, u)) + i32::from(self.supported(st, u).is_some());
        1.0 - p_score(need, -plus)
    }

    /// The expected value to `a`'s side of a melee between `a` and `d` as they stand (Melees: dice
    /// per 25% from the table with the bonuses, 4+ hits, saves; the loser tests morale and
    /// retreats: Morale). `a_defends`: `a` is the unit contacted.
    pub(crate) fn melee_outlook(&self, st: &State, a: usize, d: usize, a_defends: bool) -> f64 {
        let (ra, _) = self.melee_rate(st, a, d, a_defends);
        let (rd, _) = self.melee_rate(st, d, a, !a_defends);
        let (ea, ed) = (f64::from(st.units[a].eff), f64::from(st.units[d].eff));
        let dealt = (ra * ea * 0.5 * self.standing_share(st, d)).min(ed);
        let taken = (rd * ed * 0.5 * self.standing_share(st, a)).min(ea);
        let win = sigmoid(1.6 * (dealt - taken));
        let lose = sigmoid(1.6 * (taken - dealt));
        // The loser may lose a further 25% and retreats: out of the fight until rallied (5+), or
        // eliminated if the first move is obstructed (Morale).
        let pa = DVec2::new(st.units[a].x, st.units[a].y);
        let pd = DVec2::new(st.units[d].x, st.units[d].y);
        let loser_cost = |u: usize, from: DVec2| {
            self.morale_failure(st, u) * self.quarter_value(st, u) + self.retreat_cost(st, u, from)
        };
        dealt * self.quarter_value(st, d) - taken * self.quarter_value(st, a)
            + win * loser_cost(d, pa)
            - lose * loser_cost(a, pd)
    }

    /// What a retreat away from `from` costs `u` (Morale): out of the fight until it rallies, or
    /// the whole unit (and a general with it) if the first move, straight back, is obstructed by
    /// foot or horse or leaves the table.
    fn retreat_cost(&self, st: &State, u: usize, from: DVec2) -> f64 {
        let whole =
            f64::from(self.unit_points(u)) + if self.has_general(st, u) { 3.0 } else { 0.0 };
        if self.first_retreat_blocked(st, u, from, Veer::Straight) {
            whole
        } else {
            0.6 * self.quarter_value(st, u)
        }
    }

    /// Whether a retreat of `u` away from `from`, veering by `veer`, would be obstructed in its
    /// first move (a base of foot or horse it does not already touch) or leave the table.
    fn first_retreat_blocked(&self, st: &State, u: usize, from: DVec2, veer: Veer) -> bool {
        let un = &st.units[u];
        let c = DVec2::new(un.x, un.y);
        let mut away = (c - from).normalize_or_zero();
        if away == DVec2::ZERO {
            away = -crate::geom::heading(un.facing);
        }
        let dir = away.rotate(crate::geom::heading(veer.deg()));
        let facing = dir.to_angle().to_degrees();
        // Foot lose firing order as they retreat: the column's base.
        let order = if self.def(u).kind == Kind::Foot {
            crate::data::Order::Column
        } else {
            un.order
        };
        let full = self.rate(u, order);
        let reach = full + self.sc.max_radius * 2.0;
        let near: Vec<Rect> = self
            .live(st)
            .filter(|&j| {
                j != u
                    && (self.def(j).kind == Kind::Foot || self.is_mounted(st, j))
                    && DVec2::new(st.units[j].x, st.units[j].y).distance(c) <= reach
                    && !self.touches_now(st, u, j)
            })
            .map(|j| self.rect(st, j))
            .collect();
        let mut s = 0.5;
        while s <= full + 1e-9 {
            let r = self.rect_at(u, c + dir * s, facing, order);
            if !self.on_table(&r) || near.iter().any(|rj| r.overlaps(rj)) {
                return true;
            }
            s += 0.5;
        }
        false
    }

    /// The musketry `u` will fire at the end of its sector's moves, valued (Musketry: the nearest
    /// enemy in arc and range, −1 if it moved; the target tests morale after losses).
    fn musketry_outlook(&self, st: &State, u: usize) -> f64 {
        let Some((range, need, dice, _)) = self.musketry_profile(st, u) else {
            return 0.0;
        };
        if self.in_contact(st, u) {
            return 0.0;
        }
        let Some(&t) = self.targets(st, u, range).first() else {
            return 0.0;
        };
        let hits = f64::from(dice)
            * p_score(need, i32::from(st.units[u].ph.moved))
            * self.standing_share(st, t);
        let from = DVec2::new(st.units[u].x, st.units[u].y);
        self.fire_value(st, t, hits, from)
    }

    /// Expected `hits` on `t` from a firer at `from`, valued: the quarters lost, and the morale
    /// test that follows a loss — a further 25% and a retreat on a failure (Morale).
    fn fire_value(&self, st: &State, t: usize, hits: f64, from: DVec2) -> f64 {
        let struck = 1.0 - (-hits).exp();
        let fail = self.morale_failure(st, t);
        hits * self.quarter_value(st, t)
            + struck * fail * (self.quarter_value(st, t) + self.retreat_cost(st, t, from))
    }

    /// Expected hits of a gun's fire at `t` (Artillery: canister d6/2 within 6 cm, roundshot d6/4,
    /// halved at 50% or under; 4+ a hit, 6 on a gun).
    fn gun_hits(&self, st: &State, g: usize, t: usize) -> f64 {
        let dist = self.rect(st, g).distance(&self.rect(st, t));
        let mut potential = if dist <= self.sc.rules.ranges.canister + 1e-9 {
            1.75
        } else {
            0.875
        };
        if st.units[g].eff <= 2 {
            potential /= 2.0;
        }
        let need = if self.def(t).kind == Kind::Gun { 6 } else { 4 };
        potential * p_score(need, 0) * self.standing_share(st, t)
    }

    /// What the enemy can do to `u` in his next move: the best melee an enemy within a move can
    /// start against it (and a share of the others), and the fire of enemy foot and guns that have
    /// it in arc and range.
    fn threat_to(&self, st: &State, u: usize) -> f64 {
        let ru = self.rect(st, u);
        let mut best = 0.0f64;
        let mut rest = 0.0;
        let mut fire = 0.0;
        for j in self.live(st) {
            if self.side(j) == self.side(u) || st.units[j].retreating {
                continue;
            }
            let rj = self.rect(st, j);
            let d = rj.distance(&ru);
            let reach = self.rate(j, st.units[j].order) + 1.0;
            if d <= reach && self.contact_allowed(st, j, u).is_ok() {
                let v = self.melee_outlook(st, j, u, false).max(0.0);
                rest += best.min(v);
                best = best.max(v);
            }
            if d <= self.sc.rules.ranges.roundshot + 1e-9 && rj.sees_in_arc(&ru, self.half_arc()) {
                let hits = match self.def(j).kind {
                    Kind::Gun => self.gun_hits(st, j, u),
                    Kind::Foot | Kind::LightFoot if d <= self.sc.rules.ranges.musket => {
                        let need = match (self.def(j).kind, st.units[j].order) {
                            (Kind::Foot, crate::data::Order::Firing) => 4,
                            (Kind::Foot, _) => 6,
                            _ => 5,
                        };
                        f64::from(st.units[j].eff) * p_score(need, 0) * self.standing_share(st, u)
                    }
                    _ => 0.0,
                };
                if hits > 0.0 {
                    fire += self.fire_value(st, u, hits, rj.c);
                }
            }
        }
        best + 0.3 * rest + 0.5 * fire
    }

    /// The best melee `u` could start in its side's next move, and how far it is from the nearest
    /// enemy.
    fn chance_for(&self, st: &State, u: usize) -> (f64, f64) {
        let ru = self.rect(st, u);
        let reach = self.rate(u, st.units[u].order) + 1.0;
        let mut best = 0.0f64;
        let mut nearest = f64::INFINITY;
        for j in self.live(st) {
            if self.side(j) == self.side(u) {
                continue;
            }
            let d = self.rect(st, j).distance(&ru);
            nearest = nearest.min(d);
            if d <= reach && self.contact_allowed(st, u, j).is_ok() {
                best = best.max(self.melee_outlook(st, u, j, false));
            }
        }
        (best, nearest)
    }

    /// What unit `u` standing as in `st` is worth to its side during its own sector's phase: the
    /// melees it is in (fought at the end of this phase), its musketry, the enemy's next move
    /// against it, its own next chances, and closing with the enemy.
    pub(crate) fn unit_outlook(&self, st: &State, u: usize) -> f64 {
        if st.units[u].gone {
            return 0.0;
        }
        let ru = self.rect(st, u);
        let mut v = 0.0;
        let mut in_melee = false;
        for j in self.live(st) {
            if self.side(j) == self.side(u) || !ru.touches(&self.rect(st, j)) {
                continue;
            }
            in_melee = true;
            if self.def(j).kind == Kind::Gun {
                // Guns so contacted are automatically eliminated (Melees).
                v += f64::from(self.unit_points(j)) + 0.5;
            } else {
                let u_defends = st.contacts.contains(&(j, u));
                v += self.melee_outlook(st, u, j, u_defends);
            }
        }
        if !in_melee {
            v += self.musketry_outlook(st, u);
        }
        v -= THREAT * self.threat_to(st, u);
        let (chance, nearest) = self.chance_for(st, u);
        v += CHANCE * chance.max(0.0);
        if nearest.is_finite() && !matches!(self.def(u).kind, Kind::Gun) {
            v -= CLOSING * nearest;
        }
        if self.supported(st, u).is_some() {
            v += 0.05 * self.quarter_value(st, u);
        }
        v
    }

    /// A retreat direction (Morale): the first move must not be obstructed by foot or horse (the
    /// unit would be eliminated) nor leave the table; then as far from the enemy as may be.
    fn retreat_score(&self, st: &State, u: usize, veer: Veer) -> f64 {
        let Some(pr) = st.retreats.iter().find(|r| r.unit == u) else {
            return 0.0;
        };
        let from = DVec2::new(pr.from[0], pr.from[1]);
        if self.first_retreat_blocked(st, u, from, veer) {
            return if pr.first { -5.0 } else { -1.0 };
        }
        let un = &st.units[u];
        let c = DVec2::new(un.x, un.y);
        let mut away = (c - from).normalize_or_zero();
        if away == DVec2::ZERO {
            away = -crate::geom::heading(un.facing);
        }
        let end = c + away.rotate(crate::geom::heading(veer.deg())) * self.rate(u, un.order);
        let nearest = self
            .live(st)
            .filter(|&j| self.side(j) != self.side(u))
            .map(|j| DVec2::new(st.units[j].x, st.units[j].y).distance(end))
            .fold(f64::INFINITY, f64::min);
        0.01 * nearest.min(60.0) + if veer == Veer::Straight { 0.001 } else { 0.0 }
    }

    fn touches_now(&self, st: &State, u: usize, j: usize) -> bool {
        self.rect(st, u).touches(&self.rect(st, j))
    }

    /// The score of each legal action for the decider.
    fn scores(&self, st: &State, actions: &[Action]) -> Vec<f64> {
        let rects: Vec<Rect> = if st.step == Step::Move {
            self.rects(st)
        } else {
            Vec::new()
        };
        let mut now: Vec<Option<f64>> = vec![None; st.units.len()];
        actions
            .iter()
            .map(|a| match a {
                Action::Sector(s) => {
                    // Sectors with a melee to fight, or many pips, first.
                    let contacts = self
                        .live(st)
                        .filter(|&u| {
                            self.side(u) == st.active
                                && self.def(u).sector == *s
                                && self.in_contact(st, u)
                        })
                        .count();
                    0.01 * f64::from(st.pips[s.index()]) + 0.1 * contacts as f64
                }
                Action::Fire(g, t) => {
                    let pip = if self.opts.free_gun_fire { 0.0 } else { PIP };
                    let from = DVec2::new(st.units[*g].x, st.units[*g].y);
                    self.fire_value(st, *t, self.gun_hits(st, *g, *t), from) - pip
                }
                Action::GunsDone | Action::MovesDone => 0.0,
                Action::Retreat(u, v) => self.retreat_score(st, *u, *v),
                Action::Attach(g, w) => {
                    // A general adds one to morale and rally, and is lost with his unit: keep him
                    // with a unit the enemy cannot reach.
                    let with = st.generals[*g].with;
                    let risk = |u: usize| {
                        self.threat_to(st, u)
                            + if self.in_contact(st, u) { 1.0 } else { 0.0 }
                            // Unlimbered guns cannot retreat: abandoned, the general with them.
                            + if self.def(u).kind == Kind::Gun { 1.0 } else { 0.0 }
                    };
                    0.5 * (risk(with) - risk(*w)) - PIP
                }
                Action::Move(..)
                | Action::Wheel(..)
                | Action::Pivot(..)
                | Action::AboutFace(..)
                | Action::Formation(..)
                | Action::Mount(..)
                | Action::Limber(..)
                | Action::Unlimber(..) => {
                    let Some(u) = a.moving_unit() else {
                        return 0.0;
                    };
                    let Some(after) = self.pose_after(st, &rects, a) else {
                        return -1.0;
                    };
                    let before = *now[u].get_or_insert_with(|| self.unit_outlook(st, u));
                    let pip = if st.units[u].ph.acted { 0.0 } else { PIP };
                    self.unit_outlook(&after, u) - before - pip
                }
            })
            .collect()
    }

    /// An army's standing toward the Victory paragraph: points left (a unit weighed by its
    /// effectiveness and whether it is retreating, since it counts whole until eliminated but is
    /// nearer elimination) over its starting total.
    fn standing(&self, st: &State, side: usize) -> f64 {
        let mut p = 0.0;
        for i in self.live(st) {
            if usize::from(self.side(i) & 1) != side {
                continue;
            }
            let u = &st.units[i];
            let mut w = 0.55 + 0.1125 * f64::from(u.eff);
            if u.retreating {
                w *= 0.85;
            }
            p += f64::from(self.unit_points(i)) * w;
        }
        for (gi, g) in st.generals.iter().enumerate() {
            if !g.gone && usize::from(self.sc.file.generals[gi].side & 1) == side {
                p += 3.0;
            }
        }
        let start = self.start_points();
        p / f64::from(start[side].max(1))
    }
}

impl AgentHooks for Minis {
    /// Victory: an army is defeated below half its starting points; the chance of winning is a
    /// logistic of the two armies' distances from that line.
    fn evaluate(&self, st: &State, seat: Seat) -> f64 {
        if let Some((w, ..)) = &st.over {
            return match w {
                Some(w) if *w == seat.0 => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
        }
        let me = usize::from(seat.0 & 1);
        // What the enemy can take next (the side to move first takes first) counts against the
        // points standing: a search's horizon ends between the blows.
        let start = self.start_points();
        let mut danger = [0.0f64; 2];
        for u in self.live(st) {
            if !st.units[u].retreating {
                danger[usize::from(self.side(u) & 1)] += self.threat_to(st, u);
            }
        }
        let margin =
            |s: usize| self.standing(st, s) - 0.5 - 0.25 * danger[s] / f64::from(start[s].max(1));
        sigmoid(10.0 * (margin(me) - margin(1 - me)))
    }

    /// A search is worth it where a charge is on offer (Melees): a unit of the sector can end a
    /// move touching an enemy.
    fn worth_searching(&self, st: &State, actions: &[Action]) -> bool {
        if actions.len() < 2 || st.step != Step::Move || !st.retreats.is_empty() {
            return false;
        }
        let rects = self.rects(st);
        actions.iter().any(|a| {
            let Some(u) = a.moving_unit() else {
                return false;
            };
            if !matches!(a, Action::Move(..) | Action::Wheel(..)) {
                return false;
            }
            self.pose_after(st, &rects, a).is_some_and(|after| {
                let r = self.rect(&after, u);
                self.live(&after)
                    .any(|j| self.side(j) != self.side(u) && r.touches(&self.rect(&after, j)))
            })
        })
    }

    fn action_scores(&self, st: &State, actions: &[Action]) -> Vec<f64> {
        self.scores(st, actions)
    }

    /// The dice re-seeded: a search must not read the rolls to come (there is nothing hidden on
    /// the table).
    fn determinize(&self, st: &State, _seat: Seat, seed: u64) -> State {
        let mut t = st.clone();
        t.dice = Dice::new(seed);
        t
    }

    /// A sector's phase at a time (Sequence 1): a search looks ahead to the end of the sector
    /// being played, its musketry and melees fought.
    fn progress(&self, st: &State) -> u32 {
        let done = st.sectors_done.iter().filter(|&&d| d).count() as u32;
        (st.turn * 2 + u32::from(st.active)) * 4 + done
    }

    /// A unit's first order of the phase, a gun's fire, a general's move and the choice of a
    /// sector, in words (nothing on the table is hidden, so every viewer reads the same); a charge
    /// names the enemy it contacts (Melees).
    fn intent(&self, st: &State, a: &Action, _viewer: Viewer) -> Option<String> {
        match a {
            Action::Sector(_) | Action::Fire(..) | Action::Attach(..) => Some(self.label_of(st, a)),
            Action::Move(..)
            | Action::Wheel(..)
            | Action::Pivot(..)
            | Action::AboutFace(..)
            | Action::Formation(..)
            | Action::Mount(..)
            | Action::Limber(..)
            | Action::Unlimber(..) => {
                let u = a.moving_unit()?;
                if st.units.get(u)?.ph.acted {
                    return None;
                }
                let label = self.label_of(st, a);
                let after = self.pose_after(st, &self.rects(st), a)?;
                let r = self.rect(&after, u);
                match self
                    .live(&after)
                    .find(|&j| self.side(j) != self.side(u) && r.touches(&self.rect(&after, j)))
                {
                    Some(j) => Some(format!("{label}: charges {}", self.name(j))),
                    None => Some(label),
                }
            }
            Action::GunsDone | Action::MovesDone | Action::Retreat(..) => None,
        }
    }
}
