//! Movement (continuous actions validated exactly), the finite menu for agents, and action ids.
use crate::Minis;
use crate::data::{Kind, Order, Sector, TerrainKind};
use crate::geom::{Rect, heading, norm_deg, signed_deg};
use crate::rules::para;
use crate::state::{Action, Event, State, Step, Veer};
use glam::DVec2;

/// What a checked move does.
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    pos: DVec2,
    facing: f64,
    order: Order,
    cost: f64,
    /// The unit's order ends with it (formation changes, contact).
    ends: bool,
    /// A straight move's direction (the variation may apply).
    straight: Option<DVec2>,
    moved: bool,
    about_face: bool,
}

/// The walk of a base along a straight line, a tenth of a centimetre at a time.
struct Walk {
    /// The furthest tenth at which the base overlaps nothing.
    last_clean: u32,
    /// Why it stopped before the end, if it did.
    fail: Option<Stop>,
    /// The tenths at which the base overlapped nothing (bit k of word k / 64), up to where it
    /// stopped.
    clean: Vec<u64>,
}

impl Walk {
    /// Whether the base overlapped nothing at tenth `k` (a walk that stopped sooner: no).
    fn clean_at(&self, k: u32) -> bool {
        let k = k as usize;
        self.clean
            .get(k / 64)
            .is_some_and(|w| w & (1u64 << (k % 64)) != 0)
    }
}

/// Why a path or a turn stops: the reason is written only when someone reads it (the menu only
/// asks whether a move is legal, and formatting is the costliest part of a refusal).
pub(crate) enum Stop {
    /// More movement than is left, at `s` cm.
    Budget { budget: f64, s: f64 },
    /// The base would leave the table at `s` cm.
    OffTable { s: f64 },
    /// The path crosses a friend's base (`true`) or runs into an enemy's, at `s` cm.
    Base { j: usize, friend: bool, s: f64 },
    /// A turn would take the base off the table at `t` degrees.
    TurnOffTable { t: f64 },
    /// A turn sweeps through the base of `j` at `t` degrees.
    TurnSweeps { j: usize, t: f64 },
    /// A turn would end on the base of `j`.
    TurnEnds { j: usize },
    /// A new formation's base would leave the table.
    FormationOffTable,
    /// A new formation's base would overlap the base of `j`.
    FormationOverlaps { j: usize },
}

/// Why a move-step action is refused: a sentence, or a [`Stop`] written when read.
pub(crate) enum Refusal {
    /// Written already.
    Text(String),
    /// To be written.
    Stop(Stop),
}

impl From<String> for Refusal {
    fn from(s: String) -> Self {
        Refusal::Text(s)
    }
}

impl From<&str> for Refusal {
    fn from(s: &str) -> Self {
        Refusal::Text(s.to_string())
    }
}

impl From<Stop> for Refusal {
    fn from(s: Stop) -> Self {
        Refusal::Stop(s)
    }
}

impl Refusal {
    fn text(self, m: &Minis) -> String {
        match self {
            Refusal::Text(s) => s,
            Refusal::Stop(s) => s.text(m),
        }
    }
}

impl Stop {
    fn text(&self, m: &Minis) -> String {
        match *self {
            Stop::Budget { budget, s } => format!(
                "needs more than {budget:.1} cm of movement (difficult going counts double) at {s:.1} cm"
            ),
            Stop::OffTable { s } => format!("the base would leave the table at {s:.1} cm"),
            Stop::Base { j, friend: true, s } => {
                format!("path crosses the base of {} at {s:.1} cm", m.name(j))
            }
            Stop::Base {
                j,
                friend: false,
                s,
            } => format!(
                "path runs into the base of {} at {s:.1} cm (a move into contact stops where the bases touch)",
                m.name(j)
            ),
            Stop::TurnOffTable { t } => format!("the base would leave the table at {t:.0}°"),
            Stop::TurnSweeps { j, t } => format!(
                "the turn sweeps through the base of {} at {t:.0}°",
                m.name(j)
            ),
            Stop::TurnEnds { j } => format!("the turn would end on the base of {}", m.name(j)),
            Stop::FormationOffTable => "the new formation: the base would leave the table".into(),
            Stop::FormationOverlaps { j } => {
                format!("the new formation: the base would overlap {}", m.name(j))
            }
        }
    }
}

fn tenths(v: i64) -> String {
    let s = if v < 0 { "-" } else { "" };
    format!("{s}{}.{}", v.abs() / 10, v.abs() % 10)
}

fn parse_tenths(s: &str) -> Result<i64, String> {
    let x: f64 = s.parse().map_err(|_| format!("{s:?} is not a number"))?;
    let t = (x * 10.0).round();
    if !x.is_finite() || (x * 10.0 - t).abs() > 1e-6 || t.abs() > 1e7 {
        return Err(format!("{s:?}: distances and angles go by tenths"));
    }
    Ok(t as i64)
}

/// Lay a unit where a checked move-step action leaves it (Movement): its place, facing and order,
/// the movement used, whether it moved (Musketry: −1) or may no longer fire, its about-faces, and
/// whether its order for the phase is over.
fn lay(un: &mut crate::state::Unit, a: &Action, p: &Plan) {
    un.ph.no_fire |= p.order != un.order
        || matches!(
            a,
            Action::Formation(..)
                | Action::Mount(..)
                | Action::Limber(..)
                | Action::Unlimber(..)
                | Action::Pivot(..)
        );
    un.x = p.pos.x;
    un.y = p.pos.y;
    un.facing = p.facing;
    un.order = p.order;
    un.ph.used += p.cost;
    if p.moved && !p.about_face {
        un.ph.moved = true;
    }
    if p.about_face {
        un.ph.about_faces = un.ph.about_faces.saturating_add(1);
    }
    if p.ends {
        un.ph.done = true;
    }
}

impl Minis {
    /// The movement allowance of a unit this phase: its rate, halved after a second about-face.
    pub fn allowance(&self, st: &State, u: usize) -> f64 {
        let un = &st.units[u];
        let r = self.rate(u, un.order);
        if un.ph.about_faces >= 2 { r / 2.0 } else { r }
    }

    /// The most move-step actions one unit can take in a phase (docs/minis.md M9): two
    /// about-faces (Movement, M4), one action that ends its order (a change of formation, a pivot,
    /// a move into contact), and moves and wheels until the fastest rate of the tables is used —
    /// each uses at least the least movement an action id can name: a tenth of a centimetre
    /// straight, or a tenth of a degree of wheel of the narrowest base, as the state keeps it
    /// (rounded to 1/1024 cm, G3; bases are at least 1 cm wide, so that is never nothing).
    pub fn max_unit_actions_per_phase(&self) -> usize {
        let narrowest = self
            .sc
            .rules
            .bases
            .all()
            .iter()
            .map(|s| s[0])
            .fold(f64::INFINITY, f64::min);
        let m = &self.sc.rules.moves;
        let fastest = [
            m.foot_firing,
            m.foot_other,
            m.guns_limbered,
            m.heavy_horse,
            m.light_horse,
        ]
        .into_iter()
        .fold(0.0, f64::max);
        // A wheel of θ costs the outer flank's arc, width × θ (M3).
        let wheel = (narrowest * 0.1f64.to_radians() * 1024.0).round() / 1024.0;
        let least = wheel.clamp(1.0 / 1024.0, 0.1);
        // Validated in data::parse: rates and bases are finite and positive, so this is finite.
        (fastest / least).ceil() as usize + 1 + 2 + 1
    }

    /// The most actions one sector's phase can take (docs/minis.md M9): the choice of the sector,
    /// the ends of the gun and move steps, each general joining a unit once, each gun firing once,
    /// every unit's move-step actions ([`Minis::max_unit_actions_per_phase`]) and up to four
    /// retreat directions a unit (after a failed rally, the gun step, musketry and the melees).
    /// With `max_turns`, two players and three sectors a turn, it bounds a game's length.
    pub fn max_actions_per_sector(&self) -> usize {
        let units = self.sc.file.units.len();
        3 + self.sc.file.generals.len() + units * (self.max_unit_actions_per_phase() + 1 + 4)
    }

    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        st: &State,
        rects: &[Rect],
        u: usize,
        start: DVec2,
        dir: DVec2,
        n: u32,
        budget: f64,
    ) -> Walk {
        let un = &st.units[u];
        let r0 = rects[u];
        let reach = f64::from(n) / 10.0;
        // Broad phase: the bases near the segment swept by the centre, each with the tenths of
        // the walk at which the circles about the two bases may meet (a little wider than the
        // circles, so that outside it `Rect::overlaps` could only answer no by its first test).
        let cands: Vec<(usize, Rect, u32, u32)> = self
            .live(st)
            .filter(|&j| j != u)
            .map(|j| (j, rects[j]))
            .filter_map(|(j, r)| {
                let p = r.c - start;
                let t = p.dot(dir).clamp(0.0, reach);
                if (start + dir * t).distance(r.c) > r.radius() + r0.radius() + 0.5 {
                    return None;
                }
                let along = p.dot(dir);
                let across = (p.length_squared() - along * along).max(0.0);
                let big = r.radius() + r0.radius() + 0.05;
                let half = (big * big - across).max(0.0).sqrt();
                let lo = ((along - half) * 10.0).floor() - 1.0;
                let hi = ((along + half) * 10.0).ceil() + 1.0;
                Some((
                    j,
                    r,
                    lo.max(0.0) as u32,
                    hi.clamp(0.0, f64::from(u32::MAX)) as u32,
                ))
            })
            .collect();
        // Only the difficult going near the path can hold a point of it.
        let rough: Vec<&Rect> = self
            .sc
            .terrain
            .iter()
            .filter(|t| {
                matches!(
                    t.kind,
                    TerrainKind::Woods
                        | TerrainKind::Town
                        | TerrainKind::Redoubt
                        | TerrainKind::River
                ) && {
                    let p = t.rect.c - start;
                    let s = p.dot(dir).clamp(0.0, reach);
                    (start + dir * s).distance(t.rect.c) <= t.rect.radius() + 0.5
                }
            })
            .map(|t| &t.rect)
            .collect();
        // The base moved along the path: the same rectangle, only its centre changes.
        let moved = self.rect_at(u, start, un.facing, un.order);
        let mut cost = 0.0;
        let mut last_clean = 0;
        let mut clean_bits = vec![0u64; n as usize / 64 + 1];
        for k in 1..=n {
            let s = f64::from(k) / 10.0;
            let mid = start + dir * (s - 0.05);
            cost += 0.1
                * if rough.iter().any(|t| t.contains(mid)) {
                    2.0
                } else {
                    1.0
                };
            if cost > budget + 1e-6 {
                return Walk {
                    last_clean,
                    fail: Some(Stop::Budget { budget, s }),
                    clean: clean_bits,
                };
            }
            let r = Rect {
                c: start + dir * s,
                ..moved
            };
            if !self.on_table(&r) {
                return Walk {
                    last_clean,
                    fail: Some(Stop::OffTable { s }),
                    clean: clean_bits,
                };
            }
            let mut clean = true;
            for (j, rj, lo, hi) in &cands {
                if k < *lo || k > *hi || !r.overlaps(rj) {
                    continue;
                }
                let friend = self.side(*j) == self.side(u);
                let through = friend
                    && (self.def(*j).kind == Kind::LightFoot
                        || self.def(u).kind == Kind::LightFoot);
                if through {
                    clean = false;
                } else {
                    return Walk {
                        last_clean,
                        fail: Some(Stop::Base { j: *j, friend, s }),
                        clean: clean_bits,
                    };
                }
            }
            if clean {
                last_clean = k;
                clean_bits[k as usize / 64] |= 1u64 << (k % 64);
            }
        }
        Walk {
            last_clean,
            fail: None,
            clean: clean_bits,
        }
    }

    /// Melees: whether `u` may initiate contact with `j`.
    pub fn contact_allowed(&self, st: &State, u: usize, j: usize) -> Result<(), String> {
        let (mk, jk) = (self.def(u).kind, self.def(j).kind);
        if mk == Kind::Gun {
            return Err("guns never initiate contact".into());
        }
        if mk == Kind::LightFoot {
            return Err("light foot never initiate contact".into());
        }
        if self.is_foot(st, u) && self.is_mounted(st, j) {
            return Err(format!(
                "foot may not initiate contact against horse ({})",
                self.name(j)
            ));
        }
        if jk == Kind::Gun {
            let rj = self.rect(st, j);
            for f in self.live(st) {
                if self.side(f) == self.side(j)
                    && self.def(f).kind == Kind::Foot
                    && rj.distance(&self.rect(st, f)) <= self.sc.rules.ranges.gun_guard + 1e-9
                {
                    return Err(format!(
                        "{} can only be contacted with no close-order foot within 4 cm ({} is {:.1} cm away)",
                        self.name(j),
                        self.name(f),
                        rj.distance(&self.rect(st, f))
                    ));
                }
            }
        }
        Ok(())
    }

    /// Enemies the base `r` of unit `u` would touch.
    fn contacts(&self, st: &State, rects: &[Rect], u: usize, r: &Rect) -> Vec<usize> {
        let reach = r.radius() + crate::geom::CONTACT_GAP;
        self.live(st)
            .filter(|&j| {
                self.side(j) != self.side(u)
                    && self.may_reach(st, j, r.c, reach)
                    && r.touches(&rects[j])
            })
            .collect()
    }

    fn orderable(&self, st: &State, rects: &[Rect], u: usize) -> Result<(), String> {
        if st.step != Step::Move || !st.retreats.is_empty() {
            return Err("units move only in the move step of a sector".into());
        }
        let un = st.units.get(u).ok_or("no such unit")?;
        let d = self.def(u);
        if un.gone {
            return Err(format!("{} is eliminated", d.name));
        }
        if d.side != st.active {
            return Err(format!("{} is the enemy's", d.name));
        }
        if Some(d.sector) != st.sector {
            return Err(format!(
                "{} belongs to the {} sector",
                d.name,
                d.sector.id()
            ));
        }
        if un.retreating {
            return Err(format!("{} is retreating (rally first)", d.name));
        }
        if un.ph.done {
            return Err(format!("{} has finished its move this phase", d.name));
        }
        if un.ph.fired {
            return Err(format!(
                "{} fired: a gun that is fired cannot pivot, limber or otherwise move",
                d.name
            ));
        }
        if !un.ph.acted && self.pips_left(st) == 0 {
            return Err(format!("no pips left in the {} sector", d.sector.id()));
        }
        if self.in_contact_among(st, rects, u) {
            return Err(format!("{} is in contact with the enemy", d.name));
        }
        Ok(())
    }

    fn fresh(&self, st: &State, u: usize, what: &str) -> Result<(), String> {
        if st.units[u].ph.acted {
            return Err(format!(
                "{what} takes the unit's whole phase: {} has already acted",
                self.name(u)
            ));
        }
        Ok(())
    }

    /// Check any action: `Ok` when it is legal now, else the reason.
    pub(crate) fn check(&self, st: &State, a: &Action) -> Result<(), String> {
        if st.over.is_some() {
            return Err("the game is over".into());
        }
        if let Some(r) = st.retreats.first() {
            return match a {
                Action::Retreat(u, _) if *u == r.unit => Ok(()),
                _ => Err(format!("{} must retreat first", self.name(r.unit))),
            };
        }
        match a {
            Action::Sector(s) => {
                if st.step != Step::ChooseSector || st.sectors_done[s.index()] {
                    return Err(format!("the {} sector cannot be chosen now", s.id()));
                }
                Ok(())
            }
            Action::Fire(g, t) => {
                if st.step != Step::Guns {
                    return Err("guns fire in the gun step".into());
                }
                match self.guns_ready(st).into_iter().find(|(x, _)| x == g) {
                    None => Err("this gun cannot fire now".into()),
                    Some((_, ts)) if ts.contains(t) => Ok(()),
                    Some(_) => Err("the target is not in the gun's arc, range and sight".into()),
                }
            }
            Action::GunsDone => (st.step == Step::Guns)
                .then_some(())
                .ok_or_else(|| "not the gun step".into()),
            Action::MovesDone => (st.step == Step::Move)
                .then_some(())
                .ok_or_else(|| "not the move step".into()),
            Action::Retreat(..) => Err("no retreat is pending".into()),
            _ => self.plan(st, &self.rects(st), a).map(|_| ()),
        }
    }

    /// The result of a move-step action, or why it is refused.
    pub(crate) fn plan(&self, st: &State, rects: &[Rect], a: &Action) -> Result<Plan, String> {
        if let Action::Attach(g, w) = a {
            return self.plan_attach(st, *g, *w);
        }
        let Some(u) = a.moving_unit() else {
            return Err("not a move".into());
        };
        if u >= st.units.len() {
            return Err("no such unit".into());
        }
        self.orderable(st, rects, u)?;
        self.plan_ordered(st, rects, u, a).map_err(|e| e.text(self))
    }

    /// [`Minis::plan`] of an action of unit `u`, which may be ordered now.
    fn plan_ordered(
        &self,
        st: &State,
        rects: &[Rect],
        u: usize,
        a: &Action,
    ) -> Result<Plan, Refusal> {
        let un = &st.units[u];
        let c = DVec2::new(un.x, un.y);
        let kind = self.def(u).kind;
        let left = self.allowance(st, u) - un.ph.used;
        let base = Plan {
            pos: c,
            facing: un.facing,
            order: un.order,
            cost: 0.0,
            ends: false,
            straight: None,
            moved: true,
            about_face: false,
        };
        match a {
            Action::Move(_, off, d) => {
                if off.abs() > 450 {
                    return Err("an oblique is at most 45° from the facing".into());
                }
                if *d == 0 {
                    return Err("a move of 0 cm".into());
                }
                if self.rate(u, un.order) <= 0.0 {
                    return Err(Refusal::Text(format!(
                        "{} cannot move unlimbered",
                        self.name(u)
                    )));
                }
                let dir = heading(un.facing + f64::from(*off) / 10.0);
                let w = self.walk(st, rects, u, c, dir, *d, left);
                if let Some(f) = w.fail {
                    return Err(f.into());
                }
                if w.last_clean != *d {
                    return Err(
                        "the base would end on a friend it passes through: it must go beyond"
                            .into(),
                    );
                }
                let pos = c + dir * (f64::from(*d) / 10.0);
                let r = self.rect_at(u, pos, un.facing, un.order);
                let cs = self.contacts(st, rects, u, &r);
                for &j in &cs {
                    self.contact_allowed(st, u, j)?;
                }
                Ok(Plan {
                    pos,
                    cost: f64::from(*d) / 10.0,
                    ends: !cs.is_empty(),
                    straight: Some(dir),
                    ..base
                })
            }
            Action::Wheel(_, ang) => {
                if *ang == 0 || ang.abs() > 1800 {
                    return Err("a wheel turns by more than 0° and at most 180°".into());
                }
                if self.rate(u, un.order) <= 0.0 {
                    return Err(Refusal::Text(format!(
                        "{} cannot wheel unlimbered (pivot)",
                        self.name(u)
                    )));
                }
                let r0 = rects[u];
                let theta = f64::from(*ang) / 10.0;
                let pivot = if theta > 0.0 {
                    r0.front_centre() + r0.left() * r0.hw
                } else {
                    r0.front_centre() - r0.left() * r0.hw
                };
                let cost = 2.0 * r0.hw * theta.to_radians().abs();
                if cost > left + 1e-6 {
                    return Err(Refusal::Text(format!(
                        "the outer flank moves {cost:.1} cm, {left:.1} cm left"
                    )));
                }
                self.sweep_turn(st, rects, u, c, pivot, theta)?;
                let pos = pivot + (c - pivot).rotate(heading(theta));
                let facing = norm_deg(un.facing + theta);
                let r = self.rect_at(u, pos, facing, un.order);
                let cs = self.contacts(st, rects, u, &r);
                for &j in &cs {
                    self.contact_allowed(st, u, j)?;
                }
                Ok(Plan {
                    pos,
                    facing,
                    cost,
                    ends: !cs.is_empty(),
                    ..base
                })
            }
            Action::Pivot(_, ang) => {
                if kind != Kind::Gun || un.order != Order::Unlimbered {
                    return Err("only unlimbered guns pivot in place".into());
                }
                self.fresh(st, u, "a pivot")?;
                let theta = f64::from(*ang) / 10.0;
                if *ang == 0 || theta.abs() > 180.0 {
                    return Err("a pivot turns by more than 0° and at most 180°".into());
                }
                self.sweep_turn(st, rects, u, c, c, theta)?;
                let facing = norm_deg(un.facing + theta);
                let r = self.rect_at(u, c, facing, un.order);
                if !self.contacts(st, rects, u, &r).is_empty() {
                    return Err("a pivot may not make contact".into());
                }
                Ok(Plan {
                    facing,
                    ends: true,
                    ..base
                })
            }
            Action::AboutFace(_) => {
                // Movement: "One about-face of 180 degrees is free, but a second in the same
                // phase reduces movement by half" — two priced, no third (docs/minis.md M4).
                if un.ph.about_faces >= 2 {
                    return Err(
                        "one about-face is free and a second halves the move: a third in the same phase is not allowed"
                            .into(),
                    );
                }
                if un.ph.about_faces >= 1 && un.ph.used > self.rate(u, un.order) / 2.0 + 1e-9 {
                    return Err(
                        "a second about-face halves the move, and more than half is used".into(),
                    );
                }
                Ok(Plan {
                    facing: norm_deg(un.facing + 180.0),
                    about_face: true,
                    ..base
                })
            }
            Action::Formation(_, firing) => {
                if kind != Kind::Foot {
                    return Err("only regular foot adopt firing order".into());
                }
                if (un.order == Order::Firing) == *firing {
                    return Err("already in that order".into());
                }
                self.fresh(st, u, "a change of formation")?;
                let order = if *firing {
                    Order::Firing
                } else {
                    Order::Column
                };
                self.reform(st, rects, u, c, un.facing, order, base)
            }
            Action::Mount(_, mount) => {
                if !kind.is_horse() || !self.def(u).dragoons {
                    return Err("only dragoons mount and dismount".into());
                }
                if (un.order == Order::Mounted) == *mount {
                    return Err("already so".into());
                }
                self.fresh(st, u, "mounting or dismounting")?;
                let order = if *mount {
                    Order::Mounted
                } else {
                    Order::Dismounted
                };
                self.reform(st, rects, u, c, un.facing, order, base)
            }
            Action::Limber(_) => {
                if kind != Kind::Gun || un.order != Order::Unlimbered {
                    return Err("only unlimbered guns limber".into());
                }
                self.fresh(st, u, "limbering")?;
                self.reform(st, rects, u, c, un.facing, Order::Limbered, base)
            }
            Action::Unlimber(_, ang) => {
                if kind != Kind::Gun || un.order != Order::Limbered {
                    return Err("only limbered guns unlimber".into());
                }
                if ang.abs() > 1800 {
                    return Err("the pivot is at most 180°".into());
                }
                self.fresh(st, u, "unlimbering")?;
                let facing = norm_deg(un.facing + f64::from(*ang) / 10.0);
                self.reform(st, rects, u, c, facing, Order::Unlimbered, base)
            }
            Action::Sector(_)
            | Action::Fire(..)
            | Action::GunsDone
            | Action::MovesDone
            | Action::Retreat(..)
            | Action::Attach(..) => Err("not a move".into()),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn reform(
        &self,
        st: &State,
        rects: &[Rect],
        u: usize,
        c: DVec2,
        facing: f64,
        order: Order,
        base: Plan,
    ) -> Result<Plan, Refusal> {
        let r = self.rect_at(u, c, facing, order);
        if !self.on_table(&r) {
            return Err(Stop::FormationOffTable.into());
        }
        if let Some(j) = self
            .live(st)
            .find(|&j| j != u && self.may_reach(st, j, r.c, r.radius()) && r.overlaps(&rects[j]))
        {
            return Err(Stop::FormationOverlaps { j }.into());
        }
        if !self.contacts(st, rects, u, &r).is_empty() {
            return Err("a change of formation may not make contact".into());
        }
        Ok(Plan {
            facing,
            order,
            ends: true,
            moved: false,
            ..base
        })
    }

    /// Check a turn of the base about `pivot` by `theta` degrees, a degree at a time.
    fn sweep_turn(
        &self,
        st: &State,
        rects: &[Rect],
        u: usize,
        c: DVec2,
        pivot: DVec2,
        theta: f64,
    ) -> Result<(), Stop> {
        let un = &st.units[u];
        let steps = (theta.abs().ceil() as u32).max(1);
        // The other bases, each built once, with whether the turning base may pass through it.
        // Every place of the turning base lies within this of the pivot: bases further away
        // cannot be touched (the separating-axes test starts with the same circles).
        let sweep = (c - pivot).length() + rects[u].radius();
        let others: Vec<(usize, Rect, bool)> = self
            .live(st)
            .filter(|&j| j != u && self.may_reach(st, j, pivot, sweep))
            .map(|j| {
                let through = self.side(j) == self.side(u)
                    && (self.def(j).kind == Kind::LightFoot || self.def(u).kind == Kind::LightFoot);
                (j, rects[j], through)
            })
            .collect();
        for k in 1..=steps {
            let t = theta * f64::from(k) / f64::from(steps);
            let pos = pivot + (c - pivot).rotate(heading(t));
            let r = self.rect_at(u, pos, un.facing + t, un.order);
            if !self.on_table(&r) {
                return Err(Stop::TurnOffTable { t });
            }
            for (j, rj, through) in &others {
                if !through && r.overlaps(rj) {
                    return Err(Stop::TurnSweeps { j: *j, t });
                }
            }
        }
        let r = self.rect_at(
            u,
            pivot + (c - pivot).rotate(heading(theta)),
            un.facing + theta,
            un.order,
        );
        for (j, rj, _) in &others {
            if r.overlaps(rj) {
                return Err(Stop::TurnEnds { j: *j });
            }
        }
        Ok(())
    }

    fn plan_attach(&self, st: &State, g: usize, w: usize) -> Result<Plan, String> {
        if st.step != Step::Move {
            return Err("generals move in the move step".into());
        }
        let genl = st.generals.get(g).ok_or("no such general")?;
        let gd = &self.sc.file.generals[g];
        if genl.gone || gd.side != st.active {
            return Err(format!("{} cannot be ordered", gd.name));
        }
        if Some(self.def(genl.with).sector) != st.sector {
            return Err(format!("{} is not in this sector", gd.name));
        }
        if genl.moved {
            return Err(format!("{} has moved this phase", gd.name));
        }
        if self.pips_left(st) == 0 {
            return Err("no pips left".into());
        }
        if w >= st.units.len() || st.units[w].gone || self.side(w) != gd.side || w == genl.with {
            return Err("a general joins another friendly unit".into());
        }
        let d = self.rect(st, genl.with).distance(&self.rect(st, w));
        if d > self.sc.rules.moves.light_horse + 1e-9 {
            return Err(format!(
                "{} is {d:.1} cm away: generals move 12 cm",
                self.name(w)
            ));
        }
        Ok(Plan {
            pos: DVec2::ZERO,
            facing: 0.0,
            order: Order::Column,
            cost: 0.0,
            ends: false,
            straight: None,
            moved: false,
            about_face: false,
        })
    }

    /// The state a move-step action would leave, before its dice (no variation, no gun contacted
    /// eliminated yet): what an agent weighs. `None` when the action is refused.
    pub(crate) fn pose_after(&self, st: &State, rects: &[Rect], a: &Action) -> Option<State> {
        let u = a.moving_unit()?;
        let p = self.plan(st, rects, a).ok()?;
        let mut next = st.clone();
        next.units[u].ph.acted = true;
        lay(&mut next.units[u], a, &p);
        Some(next)
    }

    /// Carry out a checked move-step action (Movement, The Variation).
    pub(crate) fn execute(&self, st: &mut State, a: &Action, ev: &mut Vec<Event>) {
        let Ok(p) = self.plan(st, &self.rects(st), a) else {
            ev.push(Event::rule(
                para::MOVEMENT,
                "refused (a bug: the action was checked)",
            ));
            return;
        };
        if let Action::Attach(g, w) = a {
            self.spend_pip(st);
            st.generals[*g].with = *w;
            st.generals[*g].moved = true;
            ev.push(Event::rule(
                para::MOVEMENT,
                format!(
                    "{} joins {} (a pip)",
                    self.sc.file.generals[*g].name,
                    self.name(*w)
                ),
            ));
            return;
        }
        let Some(u) = a.moving_unit() else {
            return;
        };
        if !st.units[u].ph.acted {
            self.spend_pip(st);
            st.units[u].ph.acted = true;
        }
        let label = self.label_of(st, a);
        lay(&mut st.units[u], a, &p);
        ev.push(Event::rule(para::MOVEMENT, label));
        if let (Some(dir), Action::Move(_, _, d)) = (p.straight, a) {
            self.variation(st, u, dir, *d, ev);
        }
        self.after_contact(st, u, ev);
    }

    /// The Variation: a move of three-quarters or more of the maximum rolls a die: 6 adds 25%,
    /// 1 takes 25% off (docs/minis.md: the straight move that reaches 3/4 rolls, and ends the order).
    fn variation(&self, st: &mut State, u: usize, dir: DVec2, d: u32, ev: &mut Vec<Event>) {
        let max = self.allowance(st, u);
        let un = &st.units[u];
        if un.ph.varied || un.ph.used < 0.75 * max - 1e-9 {
            return;
        }
        let die = st.dice.d6();
        st.units[u].ph.varied = true;
        st.units[u].ph.done = true;
        let q = (0.25 * max * 10.0).round() as u32;
        let c = DVec2::new(st.units[u].x, st.units[u].y);
        let result = match die {
            6 if !self.in_contact(st, u) => {
                let rects = self.rects(st);
                let w = self.walk(st, &rects, u, c, dir, q, f64::from(q) / 10.0 + 1e-6);
                let mut k = w.last_clean;
                // Stop short of a contact the rules forbid.
                while k > 0 {
                    let r = self.rect_at(
                        u,
                        c + dir * (f64::from(k) / 10.0),
                        st.units[u].facing,
                        st.units[u].order,
                    );
                    if self
                        .contacts(st, &rects, u, &r)
                        .iter()
                        .all(|&j| self.contact_allowed(st, u, j).is_ok())
                    {
                        break;
                    }
                    k -= 1;
                }
                let p = c + dir * (f64::from(k) / 10.0);
                st.units[u].x = p.x;
                st.units[u].y = p.y;
                format!("6: adds 25%, {} cm further", tenths(i64::from(k)))
            }
            1 => {
                let back = q.min(d);
                let start = c - dir * (f64::from(d) / 10.0);
                let mut k = d - back;
                // Step back to a place where the base overlaps nothing (light infantry passed through).
                loop {
                    let r = self.rect_at(
                        u,
                        start + dir * (f64::from(k) / 10.0),
                        st.units[u].facing,
                        st.units[u].order,
                    );
                    let clean = self
                        .live(st)
                        .all(|j| j == u || !r.overlaps(&self.rect(st, j)));
                    if clean || k == 0 {
                        break;
                    }
                    k -= 1;
                }
                let p = start + dir * (f64::from(k) / 10.0);
                st.units[u].x = p.x;
                st.units[u].y = p.y;
                format!("1: takes 25% off, stops after {} cm", tenths(i64::from(k)))
            }
            _ => "no variation".to_string(),
        };
        ev.push(Event::Roll {
            rule: para::VARIATION.into(),
            what: format!("{} moves 3/4 of its move or more", self.name(u)),
            dice: vec![die],
            mods: Vec::new(),
            result,
        });
    }

    /// Melees: a move ending in contact ends the unit's order; guns contacted are eliminated.
    fn after_contact(&self, st: &mut State, u: usize, ev: &mut Vec<Event>) {
        let rects = self.rects(st);
        let r = rects[u];
        let cs = self.contacts(st, &rects, u, &r);
        if cs.is_empty() {
            return;
        }
        st.units[u].ph.done = true;
        for j in cs {
            if self.def(j).kind == Kind::Gun {
                ev.push(Event::rule(
                    para::MELEES,
                    format!("{} contacts {}", self.name(u), self.name(j)),
                ));
                self.eliminate(st, j, "guns so contacted are automatically eliminated", ev);
            } else {
                ev.push(Event::rule(
                    para::MELEES,
                    format!(
                        "{} is in contact with {}: a melee",
                        self.name(u),
                        self.name(j)
                    ),
                ));
                st.contacts
                    .retain(|&(x, y)| !((x, y) == (j, u) || (x, y) == (u, j)));
                st.contacts.push((u, j));
            }
        }
    }

    /// The finite menu of sensible actions for the decider.
    pub(crate) fn menu(&self, st: &State) -> Vec<Action> {
        if st.over.is_some() {
            return Vec::new();
        }
        if let Some(r) = st.retreats.first() {
            return [Veer::Straight, Veer::Left, Veer::Right]
                .into_iter()
                .map(|v| Action::Retreat(r.unit, v))
                .collect();
        }
        match st.step {
            Step::ChooseSector => Sector::ALL
                .into_iter()
                .filter(|s| !st.sectors_done[s.index()])
                .map(Action::Sector)
                .collect(),
            Step::Guns => {
                let mut v: Vec<Action> = self
                    .guns_ready(st)
                    .into_iter()
                    .flat_map(|(g, ts)| ts.into_iter().take(2).map(move |t| Action::Fire(g, t)))
                    .collect();
                v.push(Action::GunsDone);
                v
            }
            Step::Move => {
                let mut v = Vec::new();
                // Every base built once for the whole menu and its checks.
                let rects = self.rects(st);
                let mut menu = Vec::new();
                for u in self.live(st) {
                    if self.orderable(st, &rects, u).is_ok() {
                        self.unit_menu(st, &rects, u, &mut menu);
                    }
                }
                for g in 0..st.generals.len() {
                    for w in self.attach_choices(st, g) {
                        menu.push((Action::Attach(g, w), false));
                    }
                }
                v.extend(
                    menu.into_iter()
                        .filter(|(a, checked)| {
                            *checked
                                || match a.moving_unit() {
                                    // The unit was found orderable before its menu was made.
                                    Some(u) => self.plan_ordered(st, &rects, u, a).is_ok(),
                                    None => self.plan(st, &rects, a).is_ok(),
                                }
                        })
                        .map(|(a, _)| a),
                );
                v.push(Action::MovesDone);
                v
            }
            Step::TurnStart | Step::Rally | Step::Musketry | Step::Melee | Step::SectorEnd => {
                Vec::new()
            }
        }
    }

    /// The units general `g` may join in the menu: the friend within his move nearest the enemy
    /// (to lead: +1 to its morale and rally), and the one furthest from it (he is lost with his
    /// unit, 3 points: Victory), each only if 4 cm nearer or further than where he is.
    fn attach_choices(&self, st: &State, g: usize) -> Vec<usize> {
        let genl = &st.generals[g];
        if genl.gone || genl.moved || self.sc.file.generals[g].side != st.active {
            return Vec::new();
        }
        let here = self.rect(st, genl.with);
        // Each unit's distance to its nearest enemy, found once.
        let near: Vec<(f64, usize)> = self
            .live(st)
            .filter(|&w| {
                w != genl.with
                    && self.side(w) == st.active
                    && here.distance(&self.rect(st, w)) <= self.sc.rules.moves.light_horse
            })
            .map(|w| (self.enemy_distance(st, w), w))
            .collect();
        let now = self.enemy_distance(st, genl.with);
        let mut out = Vec::new();
        if let Some((_, w)) = near
            .iter()
            .min_by(|(da, a), (db, b)| da.total_cmp(db).then(a.cmp(b)))
            .filter(|(dw, _)| *dw < now - 4.0)
        {
            out.push(*w);
        }
        if let Some((_, w)) = near
            .iter()
            .max_by(|(da, a), (db, b)| da.total_cmp(db).then(b.cmp(a)))
            .filter(|(dw, _)| *dw > now + 4.0 && dw.is_finite())
        {
            out.push(*w);
        }
        out
    }

    fn enemy_distance(&self, st: &State, u: usize) -> f64 {
        let r = self.rect(st, u);
        self.nearest_enemy(st, u)
            .map(|e| r.distance(&self.rect(st, e)))
            .unwrap_or(f64::INFINITY)
    }

    /// The menu's actions for unit `u`, each with whether it is already checked (a straight move
    /// to the end of a walk: [`Minis::move_end_allowed`] did the rest of [`Minis::plan`]).
    fn unit_menu(&self, st: &State, rects: &[Rect], u: usize, v: &mut Vec<(Action, bool)>) {
        let un = &st.units[u];
        let kind = self.def(u).kind;
        let r = self.rect(st, u);
        let left = self.allowance(st, u) - un.ph.used;
        let enemy = self.nearest_enemy(st, u);
        let bearing = enemy.map(|e| {
            let re = self.rect(st, e);
            (signed_deg(r.dir, re.c - r.c), r.distance(&re))
        });
        if kind == Kind::Gun && un.order == Order::Unlimbered {
            if let Some((b, dist)) = bearing {
                if b.abs() > 10.0 && !un.ph.acted {
                    v.push((Action::Pivot(u, (b.round() as i32) * 10), false));
                }
                if dist > self.sc.rules.ranges.roundshot && !un.ph.acted {
                    v.push((Action::Limber(u), false));
                }
            }
            return;
        }
        if kind == Kind::Gun
            && un.order == Order::Limbered
            && !un.ph.acted
            && let Some((b, dist)) = bearing
            && dist <= self.sc.rules.ranges.roundshot
        {
            v.push((Action::Unlimber(u, (b.round() as i32) * 10), false));
        }
        if let Some((b, dist)) = bearing {
            if kind == Kind::Foot && !un.ph.acted {
                if un.order == Order::Firing && dist > 30.0 {
                    v.push((Action::Formation(u, false), false));
                }
                if un.order == Order::Column && dist <= 20.0 {
                    v.push((Action::Formation(u, true), false));
                }
            }
            if self.def(u).dragoons && !un.ph.acted {
                if un.order == Order::Mounted && dist <= 10.0 && self.in_cover_at(r.c) {
                    v.push((Action::Mount(u, false), false));
                }
                if un.order == Order::Dismounted {
                    v.push((Action::Mount(u, true), false));
                }
            }
            if b.abs() > 100.0 && un.ph.about_faces == 0 {
                v.push((Action::AboutFace(u), false));
            }
            if b.abs() > 5.0 && b.abs() <= 100.0 && left > 0.0 {
                let max_turn = (left / (2.0 * r.hw)).to_degrees();
                let t = b.clamp(-max_turn, max_turn).trunc();
                if t.abs() >= 1.0 {
                    v.push((Action::Wheel(u, t as i32 * 10), false));
                    if t.abs() >= 4.0 {
                        v.push((Action::Wheel(u, (t / 2.0).trunc() as i32 * 10), false));
                    }
                }
            }
            let n = (left * 10.0 + 1e-6).floor() as u32;
            if n > 0 && self.rate(u, un.order) > 0.0 && b.abs() <= 90.0 {
                let c = r.c;
                let w = self.walk(st, rects, u, c, r.dir, n, left);
                let k = w.last_clean;
                if k > 0 {
                    if self.move_end_allowed(st, rects, u, r.dir, k) {
                        v.push((Action::Move(u, 0, k), true));
                    }
                    // Half as far: the walk reached it without stopping; the base must be clean
                    // there (not on a friend it passes through), as a walk to it would find.
                    if k >= 10
                        && w.clean_at(k / 2)
                        && self.move_end_allowed(st, rects, u, r.dir, k / 2)
                    {
                        v.push((Action::Move(u, 0, k / 2), true));
                    }
                }
                if b.abs() > 10.0 {
                    let off = if b > 0.0 { 450 } else { -450 };
                    let dir = heading(un.facing + f64::from(off) / 10.0);
                    let w = self.walk(st, rects, u, c, dir, n / 2, left);
                    if w.last_clean > 0 && self.move_end_allowed(st, rects, u, dir, w.last_clean) {
                        v.push((Action::Move(u, off, w.last_clean), true));
                    }
                }
            }
        }
    }

    /// The end of a straight move of `d` tenths along `dir` that a walk of the menu reached
    /// without failing, every step to it clean (its `last_clean`): what [`Minis::plan`] checks
    /// beyond that walk — the enemies the base then touches may be contacted by it (Melees).
    fn move_end_allowed(&self, st: &State, rects: &[Rect], u: usize, dir: DVec2, d: u32) -> bool {
        let un = &st.units[u];
        let pos = DVec2::new(un.x, un.y) + dir * (f64::from(d) / 10.0);
        let r = self.rect_at(u, pos, un.facing, un.order);
        self.contacts(st, rects, u, &r)
            .into_iter()
            .all(|j| self.contact_allowed(st, u, j).is_ok())
    }

    fn in_cover_at(&self, c: DVec2) -> bool {
        use crate::data::TerrainKind as T;
        self.piece_at(c, &[T::Woods, T::Town, T::Redoubt]).is_some()
    }

    /// The text id of an action.
    pub(crate) fn id_of(&self, a: &Action) -> String {
        let uid = |u: &usize| {
            self.sc
                .file
                .units
                .get(*u)
                .map(|d| d.id.clone())
                .unwrap_or_else(|| format!("#{u}"))
        };
        match a {
            Action::Sector(s) => format!("sector:{}", s.id()),
            Action::Fire(g, t) => format!("fire:{}:{}", uid(g), uid(t)),
            Action::GunsDone => "guns-done".into(),
            Action::Move(u, 0, d) => format!("advance:{}:{}", uid(u), tenths(i64::from(*d))),
            Action::Move(u, o, d) => format!(
                "oblique:{}:{}:{}",
                uid(u),
                tenths(i64::from(*o)),
                tenths(i64::from(*d))
            ),
            Action::Wheel(u, t) => format!("wheel:{}:{}", uid(u), tenths(i64::from(*t))),
            Action::Pivot(u, t) => format!("pivot:{}:{}", uid(u), tenths(i64::from(*t))),
            Action::AboutFace(u) => format!("about-face:{}", uid(u)),
            Action::Formation(u, true) => format!("firing-order:{}", uid(u)),
            Action::Formation(u, false) => format!("column:{}", uid(u)),
            Action::Mount(u, true) => format!("mount:{}", uid(u)),
            Action::Mount(u, false) => format!("dismount:{}", uid(u)),
            Action::Limber(u) => format!("limber:{}", uid(u)),
            Action::Unlimber(u, t) => format!("unlimber:{}:{}", uid(u), tenths(i64::from(*t))),
            Action::Attach(g, u) => format!(
                "attach:{}:{}",
                self.sc
                    .file
                    .generals
                    .get(*g)
                    .map(|d| d.id.clone())
                    .unwrap_or_default(),
                uid(u)
            ),
            Action::MovesDone => "moves-done".into(),
            Action::Retreat(u, v) => format!("retreat:{}:{}", uid(u), v.id()),
        }
    }

    /// Parse a text id (any valid continuous value, not only the menu's).
    pub(crate) fn parse_id(&self, id: &str) -> Result<Action, String> {
        let parts: Vec<&str> = id.split(':').collect();
        let unit = |s: &str| self.unit_index(s).ok_or_else(|| format!("no unit {s:?}"));
        let int = |s: &str, lo: i64, hi: i64| -> Result<i32, String> {
            let t = parse_tenths(s)?;
            if t < lo || t > hi {
                return Err(format!("{s} is out of range"));
            }
            Ok(t as i32)
        };
        match parts.as_slice() {
            ["sector", s] => Sector::ALL
                .into_iter()
                .find(|x| x.id() == *s)
                .map(Action::Sector)
                .ok_or_else(|| format!("no sector {s:?}")),
            ["fire", g, t] => Ok(Action::Fire(unit(g)?, unit(t)?)),
            ["guns-done"] => Ok(Action::GunsDone),
            ["moves-done"] => Ok(Action::MovesDone),
            ["advance", u, d] => Ok(Action::Move(unit(u)?, 0, int(d, 1, 100_000)? as u32)),
            ["oblique", u, o, d] => Ok(Action::Move(
                unit(u)?,
                int(o, -450, 450)?,
                int(d, 1, 100_000)? as u32,
            )),
            ["wheel", u, t] => Ok(Action::Wheel(unit(u)?, int(t, -1800, 1800)?)),
            ["pivot", u, t] => Ok(Action::Pivot(unit(u)?, int(t, -1800, 1800)?)),
            ["about-face", u] => Ok(Action::AboutFace(unit(u)?)),
            ["firing-order", u] => Ok(Action::Formation(unit(u)?, true)),
            ["column", u] => Ok(Action::Formation(unit(u)?, false)),
            ["mount", u] => Ok(Action::Mount(unit(u)?, true)),
            ["dismount", u] => Ok(Action::Mount(unit(u)?, false)),
            ["limber", u] => Ok(Action::Limber(unit(u)?)),
            ["unlimber", u, t] => Ok(Action::Unlimber(unit(u)?, int(t, -1800, 1800)?)),
            ["attach", g, u] => {
                let gi = self
                    .sc
                    .file
                    .generals
                    .iter()
                    .position(|x| x.id == *g)
                    .ok_or_else(|| format!("no general {g:?}"))?;
                Ok(Action::Attach(gi, unit(u)?))
            }
            ["retreat", u, v] => {
                let v = [Veer::Straight, Veer::Left, Veer::Right]
                    .into_iter()
                    .find(|x| x.id() == *v)
                    .ok_or_else(|| format!("no retreat direction {v:?}"))?;
                Ok(Action::Retreat(unit(u)?, v))
            }
            _ => Err("unknown action".into()),
        }
    }

    /// A label a person can read.
    pub(crate) fn label_of(&self, st: &State, a: &Action) -> String {
        let n = |u: &usize| {
            self.sc
                .file
                .units
                .get(*u)
                .map(|d| d.name.as_str())
                .unwrap_or("?")
        };
        let _ = st;
        match a {
            Action::Sector(s) => format!("Play the {} sector", s.id()),
            Action::Fire(g, t) => format!("{} fires at {}", n(g), n(t)),
            Action::GunsDone => "No more gun fire".into(),
            Action::Move(u, 0, d) => format!("{} advances {} cm", n(u), tenths(i64::from(*d))),
            Action::Move(u, o, d) => format!(
                "{} obliques {}° for {} cm",
                n(u),
                tenths(i64::from(*o)),
                tenths(i64::from(*d))
            ),
            Action::Wheel(u, t) => format!("{} wheels {}°", n(u), tenths(i64::from(*t))),
            Action::Pivot(u, t) => format!("{} pivots {}°", n(u), tenths(i64::from(*t))),
            Action::AboutFace(u) => format!("{} about-faces", n(u)),
            Action::Formation(u, true) => format!("{} adopts firing order", n(u)),
            Action::Formation(u, false) => format!("{} leaves firing order", n(u)),
            Action::Mount(u, true) => format!("{} mounts", n(u)),
            Action::Mount(u, false) => format!("{} dismounts", n(u)),
            Action::Limber(u) => format!("{} limbers", n(u)),
            Action::Unlimber(u, t) => {
                format!("{} unlimbers, pivoting {}°", n(u), tenths(i64::from(*t)))
            }
            Action::Attach(g, u) => format!(
                "{} joins {}",
                self.sc
                    .file
                    .generals
                    .get(*g)
                    .map(|x| x.name.as_str())
                    .unwrap_or("?"),
                n(u)
            ),
            Action::MovesDone => "No more moves in this sector".into(),
            Action::Retreat(u, v) => format!("{} retreats {}", n(u), v.id()),
        }
    }
}
