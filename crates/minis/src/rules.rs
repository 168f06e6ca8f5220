//! The procedures of the rule text: the turn and its pips, rally, artillery, musketry, melees,
//! saving throws, morale, retreats and victory.
use crate::Minis;
use crate::data::{Kind, Order, Quality, Sector, TerrainKind};
use crate::geom::{Rect, heading};
use crate::state::{Action, Event, PendingRetreat, PhaseFlags, State, Step, Veer};
use glam::DVec2;

/// Paragraph names of the rule text, as events and tests cite them.
pub(crate) mod para {
    pub const SEQUENCE: &str = "Sequence 1 (pips)";
    pub const RALLY: &str = "Morale (rally)";
    pub const ARTILLERY: &str = "Artillery";
    pub const MOVEMENT: &str = "Movement";
    pub const VARIATION: &str = "The Variation";
    pub const MUSKETRY: &str = "Musketry";
    pub const MELEES: &str = "Melees";
    pub const SAVES: &str = "Saving throws";
    pub const MORALE: &str = "Morale";
    pub const RETREAT: &str = "Morale (retreat)";
    pub const VICTORY: &str = "Victory";
}

impl Minis {
    /// Run the procedures until a player must decide or the game is over.
    pub(crate) fn run(&self, st: &mut State, ev: &mut Vec<Event>) {
        // Each pass either stops or moves the step on; the bound guards against a bug looping.
        for _ in 0..10_000 {
            if st.over.is_some() {
                return;
            }
            self.check_victory(st, ev);
            if st.over.is_some() || !st.retreats.is_empty() {
                return;
            }
            match st.step {
                Step::TurnStart => {
                    let c = st.dice.die(10);
                    let r = st.dice.d6();
                    let l = st.dice.d6();
                    st.pips = [c, r, l];
                    st.sectors_done = [false; 3];
                    ev.push(Event::Roll {
                        rule: para::SEQUENCE.into(),
                        what: format!(
                            "turn {}, {}: d10 centre, green d6 right, red d6 left",
                            st.turn,
                            self.sc.file.scenario.sides[usize::from(st.active & 1)]
                        ),
                        dice: vec![c, r, l],
                        mods: Vec::new(),
                        result: format!("centre {c} pips, right {r}, left {l}"),
                    });
                    st.step = Step::ChooseSector;
                }
                Step::ChooseSector => {
                    let left: Vec<Sector> = Sector::ALL
                        .into_iter()
                        .filter(|s| !st.sectors_done[s.index()])
                        .collect();
                    match left.as_slice() {
                        [] => {
                            st.active ^= 1;
                            if st.active == self.sc.file.scenario.first {
                                st.turn = st.turn.saturating_add(1);
                                if st.turn > self.sc.file.scenario.max_turns {
                                    self.turn_limit(st, ev);
                                    return;
                                }
                            }
                            st.step = Step::TurnStart;
                        }
                        [only] => self.begin_sector(st, *only, ev),
                        _ => return,
                    }
                }
                Step::Rally => {
                    self.rally(st, ev);
                    st.step = Step::Guns;
                }
                Step::Guns => {
                    if self.guns_ready(st).is_empty() {
                        self.end_fire_phase(st, ev);
                        st.step = Step::Move;
                    } else {
                        return;
                    }
                }
                Step::Move => return,
                Step::Musketry => {
                    self.musketry(st, ev);
                    self.end_fire_phase(st, ev);
                    st.step = Step::Melee;
                }
                Step::Melee => {
                    self.melees(st, ev);
                    st.step = Step::SectorEnd;
                }
                Step::SectorEnd => {
                    if let Some(s) = st.sector.take() {
                        st.sectors_done[s.index()] = true;
                    }
                    st.step = Step::ChooseSector;
                }
            }
        }
    }

    /// Start playing a sector (Sequence 1).
    pub(crate) fn begin_sector(&self, st: &mut State, s: Sector, ev: &mut Vec<Event>) {
        st.sector = Some(s);
        for i in 0..st.units.len() {
            if self.def(i).sector == s {
                st.units[i].ph = PhaseFlags::default();
            }
        }
        for g in st.generals.iter_mut() {
            g.moved = false;
        }
        ev.push(Event::rule(
            para::SEQUENCE,
            format!(
                "the {} is played with {} pip(s)",
                s.id(),
                st.pips[s.index()]
            ),
        ));
        st.step = Step::Rally;
    }

    /// Apply one action (already checked).
    pub(crate) fn perform(&self, st: &mut State, a: &Action, ev: &mut Vec<Event>) {
        match a {
            Action::Sector(s) => self.begin_sector(st, *s, ev),
            Action::Fire(g, t) => self.fire_gun(st, *g, *t, ev),
            Action::GunsDone => {
                self.end_fire_phase(st, ev);
                st.step = Step::Move;
            }
            Action::MovesDone => st.step = Step::Musketry,
            Action::Retreat(u, v) => self.retreat(st, *u, *v, ev),
            Action::Move(..)
            | Action::Wheel(..)
            | Action::Pivot(..)
            | Action::AboutFace(..)
            | Action::Formation(..)
            | Action::Mount(..)
            | Action::Limber(..)
            | Action::Unlimber(..)
            | Action::Attach(..) => self.execute(st, a, ev),
        }
    }

    /// The pips of the sector being played.
    pub(crate) fn pips_left(&self, st: &State) -> u8 {
        st.sector.map(|s| st.pips[s.index()]).unwrap_or(0)
    }

    pub(crate) fn spend_pip(&self, st: &mut State) {
        if let Some(s) = st.sector {
            st.pips[s.index()] = st.pips[s.index()].saturating_sub(1);
        }
    }

    /// Whether a general is with unit `i` (Morale: +1).
    pub(crate) fn has_general(&self, st: &State, i: usize) -> bool {
        st.generals.iter().any(|g| !g.gone && g.with == i)
    }

    /// The live enemy nearest to unit `i` (centre to centre).
    pub(crate) fn nearest_enemy(&self, st: &State, i: usize) -> Option<usize> {
        let c = DVec2::new(st.units[i].x, st.units[i].y);
        self.live(st)
            .filter(|&j| self.side(j) != self.side(i))
            .min_by(|&a, &b| {
                let da = c.distance(DVec2::new(st.units[a].x, st.units[a].y));
                let db = c.distance(DVec2::new(st.units[b].x, st.units[b].y));
                da.total_cmp(&db)
            })
    }

    /// Whether unit `i` touches a live enemy base (Melees).
    pub(crate) fn in_contact(&self, st: &State, i: usize) -> bool {
        let r = self.rect(st, i);
        let reach = r.radius() + crate::geom::CONTACT_GAP;
        self.live(st).any(|j| {
            self.side(j) != self.side(i)
                && self.may_reach(st, j, r.c, reach)
                && r.touches(&self.rect(st, j))
        })
    }

    /// The base of every unit, eliminated ones included, by index (built once for a menu or a
    /// check that looks at them all many times).
    pub(crate) fn rects(&self, st: &State) -> Vec<Rect> {
        (0..st.units.len()).map(|i| self.rect(st, i)).collect()
    }

    /// [`Minis::in_contact`] with the bases already built.
    pub(crate) fn in_contact_among(&self, st: &State, rects: &[Rect], i: usize) -> bool {
        let r = rects[i];
        let reach = r.radius() + crate::geom::CONTACT_GAP;
        self.live(st).any(|j| {
            self.side(j) != self.side(i)
                && self.may_reach(st, j, r.c, reach)
                && r.touches(&rects[j])
        })
    }

    /// Whether the base of unit `j` may come within `reach` of the point `p`: false only when
    /// its centre is further than `reach` plus the circumscribed radius of the largest base of
    /// the tables, so that a test of the circles or of the rectangles that follows could only
    /// fail (a broad phase that builds no rectangle).
    pub(crate) fn may_reach(&self, st: &State, j: usize, p: DVec2, reach: f64) -> bool {
        let u = &st.units[j];
        DVec2::new(u.x, u.y).distance(p) <= reach + self.sc.max_radius + 1e-6
    }

    /// Line of sight from the front of `a` to the nearest point of `b`: blocked by woods and
    /// built-up areas that hold neither end, and by any other base.
    pub fn line_of_sight(&self, st: &State, a: usize, b: usize) -> bool {
        let ra = self.rect(st, a);
        let rb = self.rect(st, b);
        let p = ra.front_centre();
        let q = ra.nearest_point_of(&rb);
        for t in &self.sc.terrain {
            if matches!(t.kind, TerrainKind::Woods | TerrainKind::Town)
                && !t.rect.contains(p)
                && !t.rect.contains(q)
                && t.rect.hit_by_segment(p, q)
            {
                return false;
            }
        }
        // Broad phase: a base whose centre is further from the segment than the largest base's
        // circumscribed radius cannot be crossed by it.
        let (pq, len2) = (q - p, (q - p).length_squared());
        let far = |j: usize| {
            let c = DVec2::new(st.units[j].x, st.units[j].y);
            let t = if len2 > 0.0 {
                ((c - p).dot(pq) / len2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            (p + pq * t).distance(c) > self.sc.max_radius + 1e-6
        };
        self.live(st)
            .filter(|&j| j != a && j != b && !far(j))
            .all(|j| !self.rect(st, j).hit_by_segment(p, q))
    }

    /// Guns of the sector that may still fire, with their targets (Artillery).
    pub(crate) fn guns_ready(&self, st: &State) -> Vec<(usize, Vec<usize>)> {
        if !self.opts.free_gun_fire && self.pips_left(st) == 0 {
            return Vec::new();
        }
        let Some(s) = st.sector else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for g in self.live(st) {
            let u = &st.units[g];
            let d = self.def(g);
            if d.side != st.active
                || d.sector != s
                || d.kind != Kind::Gun
                || u.order != Order::Unlimbered
                || u.retreating
                || u.ph.fired
                || u.ph.acted
                || self.in_contact(st, g)
            {
                continue;
            }
            let ts = self.targets(st, g, self.sc.rules.ranges.roundshot);
            if !ts.is_empty() {
                out.push((g, ts));
            }
        }
        out
    }

    /// Enemies within `range` of unit `i`'s base, in its arc and sight, nearest first.
    pub(crate) fn targets(&self, st: &State, i: usize, range: f64) -> Vec<usize> {
        let r = self.rect(st, i);
        let mut ts: Vec<(f64, usize)> = self
            .live(st)
            .filter(|&j| self.side(j) != self.side(i))
            .filter_map(|j| {
                let rj = self.rect(st, j);
                let d = r.distance(&rj);
                (d <= range + 1e-9
                    && r.sees_in_arc(&rj, self.half_arc())
                    && self.line_of_sight(st, i, j))
                .then_some((d, j))
            })
            .collect();
        ts.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        ts.into_iter().map(|(_, j)| j).collect()
    }

    /// Round to the nearest whole number, an exact half becoming one more on 4–6 (Artillery,
    /// Melees: "an exact half has a 50:50 chance").
    pub(crate) fn round_half(
        &self,
        st: &mut State,
        v: f64,
        rule: &str,
        ev: &mut Vec<Event>,
    ) -> u32 {
        let f = v.floor();
        if ((v - f) - 0.5).abs() < 1e-9 {
            let d = st.dice.d6();
            let up = d >= 4;
            ev.push(Event::Roll {
                rule: rule.into(),
                what: format!("an exact half ({v}): 50:50"),
                dice: vec![d],
                mods: Vec::new(),
                result: if up {
                    "rounded up".into()
                } else {
                    "rounded down".into()
                },
            });
            f as u32 + u32::from(up)
        } else {
            v.round().max(0.0) as u32
        }
    }

    /// Artillery: a gun fires at a target.
    pub(crate) fn fire_gun(&self, st: &mut State, g: usize, t: usize, ev: &mut Vec<Event>) {
        if !self.opts.free_gun_fire {
            self.spend_pip(st);
        }
        st.units[g].ph.fired = true;
        st.units[g].ph.acted = true;
        let dist = self.rect(st, g).distance(&self.rect(st, t));
        let canister = dist <= self.sc.rules.ranges.canister + 1e-9;
        let die = st.dice.d6();
        let mut v = f64::from(die) / if canister { 2.0 } else { 4.0 };
        let mut mods = Vec::new();
        if st.units[g].eff <= 2 {
            v /= 2.0;
            mods.push(("effectiveness 50% or under: halved".to_string(), 0));
        }
        ev.push(Event::Roll {
            rule: para::ARTILLERY.into(),
            what: format!(
                "{} fires {} at {} ({dist:.1} cm)",
                self.name(g),
                if canister { "canister" } else { "roundshot" },
                self.name(t)
            ),
            dice: vec![die],
            mods,
            result: format!("{v} potential hits"),
        });
        let potential = self.round_half(st, v, para::ARTILLERY, ev);
        let need = if self.def(t).kind == Kind::Gun { 6 } else { 4 };
        let dice: Vec<u8> = (0..potential).map(|_| st.dice.d6()).collect();
        let hits = dice.iter().filter(|&&d| d >= need).count() as u32;
        if potential > 0 {
            ev.push(Event::Roll {
                rule: para::ARTILLERY.into(),
                what: format!("{potential} potential hit(s) on {}, {need}+", self.name(t)),
                dice,
                mods: Vec::new(),
                result: format!("{hits} hit(s)"),
            });
        }
        let from = [st.units[g].x, st.units[g].y];
        self.take_fire_hits(st, t, hits, from, ev);
    }

    /// Saving throws, losses, and the morale test to come.
    fn take_fire_hits(
        &self,
        st: &mut State,
        t: usize,
        hits: u32,
        from: [f64; 2],
        ev: &mut Vec<Event>,
    ) {
        let hits = self.saves(st, t, hits, ev);
        // Morale tests a unit that "has lost effectiveness": a quarter, not a hit carried towards
        // one (option `two-hits-a-quarter`, docs/minis.md F4).
        let lost = self.lose(st, t, hits, ev);
        if lost > 0 && !st.units[t].gone && !st.shaken.iter().any(|(u, _)| *u == t) {
            st.shaken.push((t, from));
        }
    }

    /// Saving throws: behind cover 4+ cancels a hit, cuirassiers 6; the better one applies.
    pub(crate) fn saves(&self, st: &mut State, t: usize, hits: u32, ev: &mut Vec<Event>) -> u32 {
        if hits == 0 {
            return 0;
        }
        let need = if self.in_cover(st, t) {
            Some((4, "behind cover"))
        } else if self.def(t).cuirassiers {
            Some((6, "cuirassiers"))
        } else {
            None
        };
        let Some((need, why)) = need else {
            return hits;
        };
        let dice: Vec<u8> = (0..hits).map(|_| st.dice.d6()).collect();
        let saved = dice.iter().filter(|&&d| d >= need).count() as u32;
        ev.push(Event::Roll {
            rule: para::SAVES.into(),
            what: format!("{} saves, {why}: {need}+ cancels a hit", self.name(t)),
            dice,
            mods: Vec::new(),
            result: format!("{saved} saved, {} hit(s) stand", hits - saved),
        });
        hits - saved
    }

    /// Hits become lost quarters of effectiveness (one a hit, or two a quarter with the option,
    /// an odd hit carried to the next: docs/minis.md F4). The quarters lost.
    pub(crate) fn lose(&self, st: &mut State, t: usize, hits: u32, ev: &mut Vec<Event>) -> u8 {
        let u = &mut st.units[t];
        let quarters = if self.opts.two_hits {
            let total = u32::from(u.hits) + hits;
            u.hits = (total % 2) as u8;
            total / 2
        } else {
            hits
        };
        let q = quarters.min(u32::from(u.eff)) as u8;
        u.eff -= q;
        let eff = u.eff;
        if q > 0 {
            ev.push(Event::rule(
                para::MORALE,
                format!(
                    "{} loses {}%: {}% left",
                    self.name(t),
                    25 * u32::from(q),
                    25 * u32::from(eff)
                ),
            ));
        }
        if self.opts.two_hits && hits > 0 && st.units[t].hits > 0 && eff > 0 {
            ev.push(Event::rule(
                para::MORALE,
                format!(
                    "{} carries 1 hit towards its next 25% (two hits a quarter)",
                    self.name(t)
                ),
            ));
        }
        if eff == 0 {
            self.eliminate(st, t, "its effectiveness is gone", ev);
        }
        q
    }

    /// A unit leaves the table; a general with it is lost (Morale).
    pub(crate) fn eliminate(&self, st: &mut State, t: usize, why: &str, ev: &mut Vec<Event>) {
        let u = &mut st.units[t];
        if u.gone {
            return;
        }
        u.gone = true;
        u.eff = 0;
        u.retreating = false;
        ev.push(Event::rule(
            para::MORALE,
            format!("{} is eliminated: {why}", self.name(t)),
        ));
        for (gi, g) in st.generals.iter_mut().enumerate() {
            if !g.gone && g.with == t {
                g.gone = true;
                ev.push(Event::rule(
                    para::MORALE,
                    format!("{} is lost with the unit", self.sc.file.generals[gi].name),
                ));
            }
        }
        st.retreats.retain(|r| r.unit != t);
        st.shaken.retain(|(u, _)| *u != t);
    }

    /// The morale tests of the units that lost effectiveness to firing this phase.
    pub(crate) fn end_fire_phase(&self, st: &mut State, ev: &mut Vec<Event>) {
        let shaken = std::mem::take(&mut st.shaken);
        for (u, from) in shaken {
            if !st.units[u].gone {
                self.morale_test(st, u, from, ev);
            }
        }
    }

    /// Whether a friendly unit (not light infantry or guns) is to the rear of `i` and could reach
    /// it in two moves (Morale: +1).
    pub fn supported(&self, st: &State, i: usize) -> Option<usize> {
        let r = self.rect(st, i);
        self.live(st).find(|&j| {
            let d = self.def(j);
            if j == i || d.side != self.side(i) || matches!(d.kind, Kind::LightFoot | Kind::Gun) {
                return false;
            }
            let u = &st.units[j];
            let rj = self.rect(st, j);
            // To the rear: its centre behind the unit's rear edge (docs/minis.md R1). A margin, not
            // 0: a neighbour alongside in the same line must not count by rounding.
            let behind = (rj.c - r.c).dot(r.dir) < -(r.hd + 1e-6);
            behind && r.distance(&rj) <= 2.0 * self.rate(j, u.order) + 1e-9
        })
    }

    /// Morale: the test after losses; a failure loses a further 25% and retreats. Returns whether
    /// it passed.
    pub(crate) fn morale_test(
        &self,
        st: &mut State,
        u: usize,
        from: [f64; 2],
        ev: &mut Vec<Event>,
    ) -> bool {
        let need: i32 = match self.def(u).quality {
            Quality::Elite => 3,
            Quality::Regular => 4,
            Quality::Poor => 5,
        };
        let mut mods = Vec::new();
        if self.has_general(st, u) {
            mods.push(("general attached".to_string(), 1));
        }
        if let Some(j) = self.supported(st, u) {
            mods.push((format!("supported by {}", self.name(j)), 1));
        }
        let die = st.dice.d6();
        let total = i32::from(die) + mods.iter().map(|m| m.1).sum::<i32>();
        let pass = total >= need;
        ev.push(Event::Roll {
            rule: para::MORALE.into(),
            what: format!("{} tests morale, {need}+", self.name(u)),
            dice: vec![die],
            mods,
            result: if pass {
                format!("{total}: passed")
            } else {
                format!("{total}: failed, loses 25% and retreats")
            },
        });
        if !pass {
            self.lose_quarter(st, u, ev);
            self.push_retreat(st, u, from, true);
        }
        pass
    }

    fn lose_quarter(&self, st: &mut State, u: usize, ev: &mut Vec<Event>) {
        let un = &mut st.units[u];
        un.eff = un.eff.saturating_sub(1);
        let eff = un.eff;
        ev.push(Event::rule(
            para::MORALE,
            format!(
                "{} loses a further 25%: {}% left",
                self.name(u),
                25 * u32::from(eff)
            ),
        ));
        if eff == 0 {
            self.eliminate(st, u, "its effectiveness is gone", ev);
        }
    }

    pub(crate) fn push_retreat(&self, st: &mut State, u: usize, from: [f64; 2], first: bool) {
        if !st.units[u].gone && !st.retreats.iter().any(|r| r.unit == u) {
            st.retreats.push(PendingRetreat {
                unit: u,
                from,
                first,
            });
        }
    }

    /// Rally (Morale): retreating units of the sector halt on 5+ (+1 with a general); the others
    /// retreat another move.
    pub(crate) fn rally(&self, st: &mut State, ev: &mut Vec<Event>) {
        let Some(s) = st.sector else { return };
        for u in self.live(st).collect::<Vec<_>>() {
            if self.side(u) != st.active || self.def(u).sector != s || !st.units[u].retreating {
                continue;
            }
            let mut mods = Vec::new();
            if self.has_general(st, u) {
                mods.push(("general with the unit".to_string(), 1));
            }
            let die = st.dice.d6();
            let total = i32::from(die) + mods.iter().map(|m| m.1).sum::<i32>();
            let ok = total >= 5;
            ev.push(Event::Roll {
                rule: para::RALLY.into(),
                what: format!("rally {}, 5+", self.name(u)),
                dice: vec![die],
                mods,
                result: if ok {
                    format!("{total}: halts")
                } else {
                    format!("{total}: retreats another move")
                },
            });
            if ok {
                st.units[u].retreating = false;
            } else {
                let from = match self.nearest_enemy(st, u) {
                    Some(e) => [st.units[e].x, st.units[e].y],
                    None => {
                        let r = self.rect(st, u);
                        let p = r.c + r.dir;
                        [p.x, p.y]
                    }
                };
                self.push_retreat(st, u, from, false);
            }
        }
    }

    /// Musketry: every unit of the sector able to fire shoots at the nearest enemy in its arc.
    pub(crate) fn musketry(&self, st: &mut State, ev: &mut Vec<Event>) {
        let Some(s) = st.sector else { return };
        for i in self.live(st).collect::<Vec<_>>() {
            if st.units[i].gone || self.side(i) != st.active || self.def(i).sector != s {
                continue;
            }
            let Some((range, need, dice_n, what)) = self.musketry_profile(st, i) else {
                continue;
            };
            if self.in_contact(st, i) {
                continue;
            }
            let Some(&t) = self.targets(st, i, range).first() else {
                continue;
            };
            let moved = st.units[i].ph.moved;
            let dice: Vec<u8> = (0..dice_n).map(|_| st.dice.d6()).collect();
            let m = i32::from(moved);
            let hits = dice.iter().filter(|&&d| i32::from(d) - m >= need).count() as u32;
            let mut mods = Vec::new();
            if moved {
                mods.push(("moved this phase".to_string(), -1));
            }
            ev.push(Event::Roll {
                rule: para::MUSKETRY.into(),
                what: format!(
                    "{} ({what}) fires at {}, {need}+",
                    self.name(i),
                    self.name(t)
                ),
                dice,
                mods,
                result: format!("{hits} hit(s)"),
            });
            let from = [st.units[i].x, st.units[i].y];
            self.take_fire_hits(st, t, hits, from, ev);
        }
    }

    /// Musketry: range, minimum score, dice and a description of a unit that can fire now.
    pub fn musketry_profile(&self, st: &State, i: usize) -> Option<(f64, i32, u8, &'static str)> {
        let u = &st.units[i];
        if u.gone || u.retreating || u.ph.no_fire {
            return None;
        }
        let r = &self.sc.rules.ranges;
        match (self.def(i).kind, u.order) {
            (Kind::Foot, Order::Firing) => {
                Some((r.musket, 4, u.eff, "regular foot in firing order"))
            }
            (Kind::Foot, _) => Some((r.musket, 6, u.eff.div_ceil(2), "foot not in firing order")),
            (Kind::LightFoot, _) => Some((r.musket, 5, u.eff, "light foot")),
            (Kind::HeavyHorse | Kind::Lancers | Kind::LightHorse, Order::Dismounted) => {
                Some((r.carbine, 6, u.eff, "dismounted horse, carbines"))
            }
            (Kind::HeavyHorse | Kind::Lancers | Kind::LightHorse, _) | (Kind::Gun, _) => None,
        }
    }

    /// Melees: every contact of a unit of the sector is fought.
    pub(crate) fn melees(&self, st: &mut State, ev: &mut Vec<Event>) {
        let Some(s) = st.sector else { return };
        // Contacts since broken (a retreat, an elimination) are forgotten.
        let held: Vec<(usize, usize)> = st
            .contacts
            .iter()
            .copied()
            .filter(|&(x, y)| {
                !st.units[x].gone
                    && !st.units[y].gone
                    && self.rect(st, x).touches(&self.rect(st, y))
            })
            .collect();
        st.contacts = held;
        let mut pairs = Vec::new();
        for a in self.live(st) {
            if self.side(a) != st.active || self.def(a).sector != s {
                continue;
            }
            let ra = self.rect(st, a);
            for b in self.live(st) {
                if self.side(b) != st.active && ra.touches(&self.rect(st, b)) {
                    pairs.push((a, b));
                }
            }
        }
        let mut losers = Vec::new();
        for (a, b) in pairs {
            if st.units[a].gone || st.units[b].gone {
                continue;
            }
            if let Some(l) = self.melee(st, a, b, ev) {
                losers.push(l);
            }
        }
        for (l, from) in losers {
            if st.units[l].gone {
                continue;
            }
            self.morale_test(st, l, from, ev);
            self.push_retreat(st, l, from, true);
        }
    }

    /// Melee dice per 25% of `me` against `en`, with the bonuses (Melees table).
    pub fn melee_rate(
        &self,
        st: &State,
        me: usize,
        en: usize,
        defending: bool,
    ) -> (f64, Vec<(String, i32)>) {
        let t = &self.sc.rules.melee;
        let u = &st.units[me];
        let rm = self.rect(st, me);
        let re = self.rect(st, en);
        let in_bua = |c: DVec2| {
            self.piece_at(
                c,
                &[TerrainKind::Woods, TerrainKind::Town, TerrainKind::Redoubt],
            )
            .is_some()
        };
        let row = match (self.def(me).kind, u.order) {
            (Kind::Foot, _) => Some(&t.infantry),
            (Kind::LightFoot, _) if in_bua(rm.c) => Some(&t.infantry),
            (Kind::LightFoot, _) | (Kind::Gun, _) => None,
            (Kind::HeavyHorse | Kind::Lancers | Kind::LightHorse, Order::Dismounted) => {
                Some(&t.infantry)
            }
            (Kind::HeavyHorse, _) => Some(&t.heavy_cavalry),
            (Kind::Lancers, _) => Some(&t.lancers),
            (Kind::LightHorse, _) => Some(&t.light_cavalry),
        };
        let Some(row) = row else {
            return (0.0, Vec::new());
        };
        // "Attacked frontally" (docs C2): the attacker's centre or front in the defender's
        // frontal zone, 45° either side of its facing from the nearest point of its front edge.
        let frontal = re.in_front_zone(rm.c, 45.0) || re.in_front_zone(rm.front_centre(), 45.0);
        let col = match (self.def(en).kind, st.units[en].order) {
            (Kind::HeavyHorse | Kind::Lancers | Kind::LightHorse, Order::Dismounted) => 4,
            (Kind::HeavyHorse, _) => 0,
            (Kind::Lancers, _) => 1,
            (Kind::LightHorse, _) => 2,
            (Kind::Foot, Order::Firing) if frontal => 3,
            (Kind::Foot, _) | (Kind::Gun, _) => 4,
            (Kind::LightFoot, _) => 5,
        };
        let mut mods = Vec::new();
        if !frontal {
            mods.push(("attacking in flank or rear".to_string(), 1));
        }
        let hill = |c: DVec2| self.piece_at(c, &[TerrainKind::Hill]);
        if hill(rm.c).is_some() && hill(re.c).is_none() {
            mods.push(("on higher ground".to_string(), 1));
        }
        if defending {
            let river = |c: DVec2| self.piece_at(c, &[TerrainKind::River]).is_some();
            if river(re.c) && !river(rm.c) {
                mods.push(("defending a river bank".to_string(), 1));
            }
            if let Some(p) = self.piece_at(rm.c, &[TerrainKind::Town, TerrainKind::Redoubt])
                && !self.sc.terrain[p].rect.contains(re.c)
            {
                mods.push((
                    "defending a built-up area from outside troops".to_string(),
                    1,
                ));
            }
        }
        let total = row[col] + f64::from(mods.iter().map(|m| m.1).sum::<i32>());
        (total, mods)
    }

    /// One melee between `a` (the active player's) and `b`; the loser and where its enemy stands.
    fn melee(
        &self,
        st: &mut State,
        a: usize,
        b: usize,
        ev: &mut Vec<Event>,
    ) -> Option<(usize, [f64; 2])> {
        let mut hits = [0u32; 2];
        // The defender is the unit contacted, in every round of the melee; with no contact
        // made by a move (a retreat that ended touching), the inactive player's unit (docs C3).
        let a_defends = st.contacts.contains(&(b, a));
        for (k, (me, en, defending)) in [(a, b, a_defends), (b, a, !a_defends)]
            .into_iter()
            .enumerate()
        {
            let (rate, mods) = self.melee_rate(st, me, en, defending);
            let n = rate * f64::from(st.units[me].eff);
            let dice_n = self.round_half(st, n, para::MELEES, ev);
            let dice: Vec<u8> = (0..dice_n).map(|_| st.dice.d6()).collect();
            let h = dice.iter().filter(|&&d| d >= 4).count() as u32;
            ev.push(Event::Roll {
                rule: para::MELEES.into(),
                what: format!(
                    "{} against {}: {rate} dice per 25% × {}",
                    self.name(me),
                    self.name(en),
                    st.units[me].eff
                ),
                dice,
                mods,
                result: format!("{h} hit(s) on 4+"),
            });
            hits[k] = h;
        }
        // Saves after both have rolled: the blows are simultaneous.
        let hb = self.saves(st, b, hits[0], ev);
        let ha = self.saves(st, a, hits[1], ev);
        let pa = [st.units[a].x, st.units[a].y];
        let pb = [st.units[b].x, st.units[b].y];
        self.lose(st, b, hb, ev);
        self.lose(st, a, ha, ev);
        use std::cmp::Ordering;
        let loser = match hb.cmp(&ha) {
            Ordering::Greater => Some((b, pa)),
            Ordering::Less => Some((a, pb)),
            Ordering::Equal => None,
        };
        ev.push(Event::rule(
            para::MELEES,
            match loser {
                Some((l, _)) => format!(
                    "{} loses the melee ({hb} to {ha}) and retreats",
                    self.name(l)
                ),
                None => format!("the melee is drawn ({hb} to {ha}); the bases stay in contact"),
            },
        ));
        loser.filter(|(l, _)| !st.units[*l].gone)
    }

    /// A retreat (Morale): a full move with the variation, back to the enemy; obstruction of the
    /// first move by regular foot or horse eliminates, a blocking friend tests its morale.
    pub(crate) fn retreat(&self, st: &mut State, u: usize, veer: Veer, ev: &mut Vec<Event>) {
        let Some(pos) = st.retreats.iter().position(|r| r.unit == u) else {
            return;
        };
        let pr = st.retreats.remove(pos);
        if st.units[u].gone {
            return;
        }
        let kind = self.def(u).kind;
        if kind == Kind::Gun && st.units[u].order == Order::Unlimbered {
            self.eliminate(st, u, "unlimbered guns cannot retreat: abandoned", ev);
            return;
        }
        if kind == Kind::Foot && st.units[u].order == Order::Firing {
            st.units[u].order = Order::Column;
            ev.push(Event::rule(
                para::RETREAT,
                format!("{} loses firing order", self.name(u)),
            ));
        }
        let c = DVec2::new(st.units[u].x, st.units[u].y);
        let from = DVec2::new(pr.from[0], pr.from[1]);
        let mut away = (c - from).normalize_or_zero();
        if away == DVec2::ZERO {
            away = -heading(st.units[u].facing);
        }
        let dir = away.rotate(heading(veer.deg()));
        let facing = crate::geom::norm_deg(dir.to_angle().to_degrees());
        let order = st.units[u].order;
        let full = self.rate(u, order);
        let die = st.dice.d6();
        let dist = match die {
            6 => full * 1.25,
            1 => full * 0.75,
            _ => full,
        };
        ev.push(Event::Roll {
            rule: para::VARIATION.into(),
            what: format!("{} retreats {} ({full} cm)", self.name(u), veer.id()),
            dice: vec![die],
            mods: Vec::new(),
            result: format!("{dist} cm"),
        });
        let [tw, th] = self.sc.file.scenario.table;
        let mut cost = 0.0;
        let mut s = 0.0;
        let mut last_clear: Option<f64> = None;
        let step = 0.1;
        let mut blocked = false;
        while s < 3.0 * full {
            let r = self.rect_at(u, c + dir * s, facing, order);
            if r.corners()
                .iter()
                .any(|p| p.x < 0.0 || p.y < 0.0 || p.x > tw || p.y > th)
            {
                self.eliminate(st, u, "it retreats off the table", ev);
                return;
            }
            let mut clear = true;
            for j in self.live(st).collect::<Vec<_>>() {
                let rj = self.rect(st, j);
                if j == u || !r.overlaps(&rj) {
                    continue;
                }
                clear = false;
                // A base the move takes the unit out of is left behind, not run into: turning about
                // its centre, or deepening into column, can lay the base over the enemy it touched
                // (docs/minis.md R2).
                let further = self.rect_at(u, c + dir * (s + step), facing, order);
                let leaving = further.penetration(&rj) < r.penetration(&rj) - 1e-9;
                let jk = self.def(j).kind;
                let obstructs = matches!(jk, Kind::Foot) || jk.is_horse();
                if leaving || !obstructs {
                    continue;
                }
                if pr.first {
                    ev.push(Event::rule(
                        para::RETREAT,
                        format!(
                            "the retreat of {} is obstructed by {} at {s:.1} cm",
                            self.name(u),
                            self.name(j)
                        ),
                    ));
                    let friend = self.side(j) == self.side(u);
                    // "Unless its horse retreated into by foot": guns are not foot (docs R2).
                    let horse_by_foot = self.is_mounted(st, j) && self.is_foot(st, u);
                    self.eliminate(st, u, "its retreat is obstructed", ev);
                    if friend && !horse_by_foot {
                        self.morale_test(st, j, pr.from, ev);
                    }
                    return;
                }
                blocked = true;
            }
            if blocked {
                break;
            }
            if clear {
                last_clear = Some(s);
                if cost >= dist - 1e-9 {
                    break;
                }
            }
            let mid = c + dir * (s + step / 2.0);
            cost += step * if self.rough(mid) { 2.0 } else { 1.0 };
            s += step;
        }
        let Some(end) = last_clear else {
            self.eliminate(st, u, "no room to retreat", ev);
            return;
        };
        let p = c + dir * end;
        let un = &mut st.units[u];
        un.x = p.x;
        un.y = p.y;
        un.facing = facing;
        un.retreating = true;
        ev.push(Event::rule(
            para::RETREAT,
            format!(
                "{} retreats {end:.1} cm, its back to the enemy",
                self.name(u)
            ),
        ));
    }

    /// Victory: an army is defeated when its points fall below half its starting total.
    pub(crate) fn check_victory(&self, st: &mut State, ev: &mut Vec<Event>) {
        if st.over.is_some() {
            return;
        }
        let start = self.start_points();
        let now = self.points(st);
        let beaten = |s: usize| now[s] * 2 < start[s];
        let loser = match (beaten(0), beaten(1)) {
            (false, false) => return,
            (true, false) => 0,
            (false, true) => 1,
            (true, true) => {
                // Both at once: the one with the smaller share left; equal, the side not moving.
                let l0 = u64::from(now[0]) * u64::from(start[1]);
                let l1 = u64::from(now[1]) * u64::from(start[0]);
                match l0.cmp(&l1) {
                    std::cmp::Ordering::Less => 0,
                    std::cmp::Ordering::Greater => 1,
                    std::cmp::Ordering::Equal => usize::from(st.active ^ 1),
                }
            }
        };
        let s = &self.sc.file.scenario.sides;
        let w = 1 - loser;
        let level = format!("{} victory: the {} army defeated", s[w], s[loser]);
        ev.push(Event::rule(
            para::VICTORY,
            format!(
                "{level} ({} of {} points left, below half)",
                now[loser], start[loser]
            ),
        ));
        st.over = Some((Some(w as u8), level, "Victory".into()));
        st.retreats.clear();
    }

    fn turn_limit(&self, st: &mut State, ev: &mut Vec<Event>) {
        let start = self.start_points();
        let now = self.points(st);
        let l0 = u64::from(now[0]) * u64::from(start[1]);
        let l1 = u64::from(now[1]) * u64::from(start[0]);
        let s = &self.sc.file.scenario.sides;
        let (w, level) = match l0.cmp(&l1) {
            std::cmp::Ordering::Greater => (
                Some(0u8),
                format!("{} victory on points at the turn limit", s[0]),
            ),
            std::cmp::Ordering::Less => (
                Some(1u8),
                format!("{} victory on points at the turn limit", s[1]),
            ),
            std::cmp::Ordering::Equal => (None, "Draw at the turn limit".to_string()),
        };
        ev.push(Event::rule(
            para::VICTORY,
            format!(
                "{level}: points left {} / {} and {} / {}",
                now[0], start[0], now[1], start[1]
            ),
        ));
        st.over = Some((w, level, "Victory (turn limit)".into()));
    }

    /// The base of `u` if it stood at `c` facing `facing` in `order`, with the table's bounds.
    pub(crate) fn on_table(&self, r: &Rect) -> bool {
        let [tw, th] = self.sc.file.scenario.table;
        r.corners()
            .iter()
            .all(|p| p.x >= -1e-9 && p.y >= -1e-9 && p.x <= tw + 1e-9 && p.y <= th + 1e-9)
    }
}
