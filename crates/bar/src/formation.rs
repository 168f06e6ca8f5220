//! Formation changes (8.2–8.7, 10.12) and the SP layout of footprints (8.1a, 8.1d, 8.1f): which
//! formations a unit or stack may change to now, in which hexes and facing, at what MP cost.
//! The movement phase (`movement`) offers them as actions and spends their cost.
//!
//! What is here and what is not:
//! - every voluntary change of 8.4a–h, 8.4j and 8.6 for one unit or one stack doing the same
//!   (10.12a), infantry and artillery stacks doing compatible changes (10.12c);
//! - not the changes into and out of general order (8.4i: forced by terrain and made by moving, the
//!   movement phase's), rout and rally (8.4k), breakdown and reformation (8.5);
//! - [`square_below_minimum`]: what 8.4g's last paragraph does to a square that falls below 3 SP.
//!
//! The readings the book leaves open are the table of `docs/bar-formations.md`.
use crate::charts::{ChangeCost, Cost};
use crate::checks::{current_sp, in_ezoc};
use crate::data::Arm;
use crate::geom::{Facing, Formation, chart_key};
use crate::scenario::{Scenario, Skirmish, UnitIx};
use crate::stacking::terrain_row as terrain;
use crate::state::{Hexes, State};
use engine::Half;
use hexmap::{Dir, End, Footprint, Grid, HexId, Printed, Vertex};
use std::ops::RangeInclusive;

/// What the unit (or stack) has for a change now (8.2a: costs are based on this phase's MA).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// This phase's MA (halved if disordered or out of command, +50% in a rapid march, 11.0).
    pub ma: Half,
    /// MPs left.
    pub left: Half,
    /// Whether it has spent any MP this phase (8.7, 8.5a–b).
    pub spent: bool,
    /// Whether it fired in this activation's fire phase (8.6a, 9.5).
    pub fired: bool,
}

/// One formation change the unit or stack may make now.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// The new formation of each unit of the stack (infantry and artillery may differ, 10.12c).
    pub formations: Vec<(UnitIx, Formation)>,
    /// The new facing.
    pub facing: Facing,
    /// The new hexes (right end first for a line, head first for a column).
    pub hexes: Hexes,
    /// Its MP cost now, EZOC surcharge included (9.1, 11.9a).
    pub cost: Half,
    /// It ends the movement phase of the units that stay (8.4f–g whole MA, 8.6d, 8.7); units in
    /// `must_leave` go on moving.
    pub ends_movement: bool,
    /// Units that must leave the hex after it (artillery limbering among infantry, 8.6b, 10.4f).
    pub must_leave: Vec<UnitIx>,
    /// The facing of the units in `must_leave` when it is not `facing`: in a stack change where
    /// the infantry forms square and the artillery limbers (10.12c example), the guns face any
    /// hexside (8.6b) while the square keeps `facing`.
    pub leave_facing: Option<Facing>,
    /// What the units in `must_leave` pay when it is not `cost` (their own 2 MP limbering, 8.6b,
    /// while the square pays its whole MA).
    pub leave_cost: Option<Half>,
    /// The rule ("8.4c").
    pub rule: &'static str,
}

/// How a change is paid before the EZOC surcharge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pay {
    /// Points.
    Mp(Half),
    /// The whole MA (8.4f–g, 8.6d): only with nothing spent, ends the movement phase.
    WholeMa,
}

impl Pay {
    fn max(self, other: Pay) -> Pay {
        match (self, other) {
            (Pay::WholeMa, _) | (_, Pay::WholeMa) => Pay::WholeMa,
            (Pay::Mp(a), Pay::Mp(b)) => Pay::Mp(a.max(b)),
        }
    }
}

/// One group's candidate: the formation, facing and hexes it takes, how it pays, whether the
/// change is asterisked (8.7) and its rule.
#[derive(Clone, Debug)]
struct Cand {
    to: Formation,
    facing: Facing,
    hexes: Hexes,
    pay: Pay,
    star: bool,
    rule: &'static str,
}

/// The stack being changed: its combat troops (infantry or cavalry) and its guns.
struct Ctx<'a> {
    sc: &'a Scenario,
    st: &'a State,
    units: Few,
    troops: Few,
    guns: Few,
    side: u8,
    hexes: Hexes,
    budget: Budget,
    disordered: bool,
    ezoc: bool,
    /// The troops' SPs.
    tsp: u16,
    /// The hexes holding an enemy unit, routed or not (10.1b).
    enemy: crate::command::HexSet<'a>,
    /// Candidates are finished at the price they carry (troops or guns alone, not a mixed stack
    /// that pays the dearer of two): one the budget cannot pay need not be generated.
    afford_only: bool,
}

fn arm(sc: &Scenario, u: UnitIx) -> Arm {
    sc.units[usize::from(u)].arm
}

/// The troops' arm: `None` for no troops or cavalry mixed with infantry (never a legal stack).
fn troop_arm(sc: &Scenario, troops: &[UnitIx]) -> Option<Arm> {
    let a = arm(sc, *troops.first()?);
    troops.iter().all(|&u| arm(sc, u) == a).then_some(a)
}

fn sp_sum(sc: &Scenario, st: &State, units: &[UnitIx]) -> u16 {
    units
        .iter()
        .map(|&u| u16::from(current_sp(sc, st, u)))
        .sum()
}

/// A few units, kept inline (a stack rarely holds more than eight).
type Few = tinyvec::TinyVec<[UnitIx; 8]>;

/// A stack's troops and guns, in the order given.
fn split(sc: &Scenario, units: &[UnitIx]) -> (Few, Few) {
    units
        .iter()
        .copied()
        .partition(|&u| arm(sc, u) != Arm::Artillery)
}

/// T5's minimum SPs for a two-hex infantry line or march column for the units' army (8.1a, 8.1d);
/// `None` without a fire chart for its ranks (then only one hex).
pub fn two_hex_min(sc: &Scenario, side: u8) -> Option<u8> {
    let ranks = sc.armies.get(usize::from(side))?.ranks;
    Some(sc.charts.fire.as_ref()?.line_sp_for(ranks)?.two_hex_min)
}

/// The allowed footprint lengths of `formation` for the SPs of `units` (8.1a, 8.1d, 8.1f, 8.1i,
/// 10.4g): an infantry line, hook or march column 1 hex, or 2 with T5's minimum; cavalry 1 to 3
/// hexes with at least 4 SP a hex (A16: a one-hex cavalry line exists, 13.1e); a road column
/// exactly as long as 4 SP a hex needs, an artillery SP counting 4 (so 1 SP a hex); every other
/// formation one hex. Empty when the units cannot take the formation at all (guns in a line,
/// cavalry in a hook or square, a road column of guns and troops).
pub fn lengths(
    sc: &Scenario,
    st: &State,
    units: &[UnitIx],
    formation: Formation,
) -> RangeInclusive<usize> {
    let (troops, guns) = split(sc, units);
    let tsp = sp_sum(sc, st, &troops);
    let gsp = sp_sum(sc, st, &guns);
    lengths_split(sc, units, formation, (&troops, tsp), (&guns, gsp))
}

/// [`lengths`] with the units already split into troops and guns, each with its SPs.
fn lengths_split(
    sc: &Scenario,
    units: &[UnitIx],
    formation: Formation,
    (troops, tsp): (&[UnitIx], u16),
    (guns, gsp): (&[UnitIx], u16),
) -> RangeInclusive<usize> {
    #[allow(clippy::reversed_empty_ranges)] // the empty range: no length allowed
    let none = 1..=0;
    if units.is_empty() || (!troops.is_empty() && troop_arm(sc, troops).is_none()) {
        return none;
    }
    let tarm = troop_arm(sc, troops);
    match formation {
        Formation::RoadColumn => {
            if !troops.is_empty() && !guns.is_empty() {
                return none;
            }
            let eff = tsp + 4 * gsp;
            let n = usize::from(eff.div_ceil(4).max(1));
            if n > crate::state::MAX_FOOTPRINT {
                // Longer than tricorne holds (`MAX_FOOTPRINT`, docs/bar-formations.md): no
                // unit of the scenarios comes near it.
                return none;
            }
            n..=n
        }
        Formation::Line | Formation::HookLeft | Formation::HookRight | Formation::MarchColumn => {
            match (tarm, formation) {
                (None, _) | (Some(Arm::Artillery), _) => none,
                (Some(Arm::Cavalry), Formation::HookLeft | Formation::HookRight) => none,
                (Some(Arm::Cavalry), _) => 1..=usize::from((tsp / 4).clamp(1, 3)),
                (Some(Arm::Infantry), _) => {
                    let two = two_hex_min(sc, sc.units[usize::from(units[0])].side)
                        .is_some_and(|m| tsp >= u16::from(m));
                    1..=if two { 2 } else { 1 }
                }
            }
        }
        Formation::Square => match tarm {
            Some(Arm::Infantry) => 1..=1,
            Some(Arm::Cavalry | Arm::Artillery) | None => none,
        },
        Formation::AttackColumn | Formation::Skirmish | Formation::GeneralOrder => {
            if troops.is_empty() { none } else { 1..=1 }
        }
        Formation::Limbered | Formation::Unlimbered => {
            if guns.is_empty() {
                none
            } else {
                1..=1
            }
        }
    }
}

/// The SPs in each hex of a footprint of `formation` and `len` hexes (hex order: right end or
/// head first), or `None` if the units may not take that length.
///
/// 8.1a: a line's SPs as equal as possible, the extra ones from the right (cavalry at least 4 a
/// hex, infantry by T5's two-hex minimum); 8.1d: a march column the same, from the head; 8.1f: a
/// road column 4 SP a hex from the head, the remainder in the last hex; 8.1i, 10.4g: limbered
/// artillery in road column 1 SP a hex. Artillery stacked with infantry stands on no particular hex
/// of the line (10.4d): the layout is the infantry's.
pub fn sp_layout(
    sc: &Scenario,
    st: &State,
    units: &[UnitIx],
    formation: Formation,
    len: usize,
) -> Option<Vec<u8>> {
    let l = layout(sc, st, units, formation, len)?;
    (0..len).map(|i| l.get(i)).collect()
}

/// [`sp_layout`]'s SPs in the footprint's hex `i` alone (hex order as there), without building
/// the whole layout; `None` where `sp_layout` gives none.
pub fn sp_at(
    sc: &Scenario,
    st: &State,
    units: &[UnitIx],
    formation: Formation,
    len: usize,
    i: usize,
) -> Option<u8> {
    let l = layout(sc, st, units, formation, len)?;
    // `sp_layout` gives no layout at all when any hex's SPs exceed a byte.
    (0..len)
        .try_for_each(|j| l.get(j).map(|_| ()))
        .and(l.get(i))
}

/// The shape of an SP layout (see [`sp_layout`]), each hex's SPs read from it.
#[derive(Clone, Copy)]
enum Layout {
    /// Limbered artillery in road column: 1 SP a hex (8.1i, 10.4g).
    Ones,
    /// A road column: 4 SP a hex, the last hex of `len` holding `last` (8.1f).
    Road { len: usize, last: u16 },
    /// As equal as possible, the `extra` ones from the first hex (8.1a, 8.1d).
    Even { base: u16, extra: u16 },
    /// One hex.
    Single(u16),
}

impl Layout {
    /// The SPs of hex `i` (`None` above a byte).
    fn get(self, i: usize) -> Option<u8> {
        let sp = match self {
            Layout::Ones => 1,
            Layout::Road { len, last } => {
                if i + 1 == len {
                    last
                } else {
                    4
                }
            }
            Layout::Even { base, extra } => base + u16::from((i as u16) < extra),
            Layout::Single(sp) => sp,
        };
        u8::try_from(sp).ok()
    }
}

/// The layout of `units` in `formation` over `len` hexes, or `None` if they may not take that
/// length (see [`sp_layout`]).
fn layout(
    sc: &Scenario,
    st: &State,
    units: &[UnitIx],
    formation: Formation,
    len: usize,
) -> Option<Layout> {
    let (troops, guns) = split(sc, units);
    let tsp = sp_sum(sc, st, &troops);
    let gsp = sp_sum(sc, st, &guns);
    if !lengths_split(sc, units, formation, (&troops, tsp), (&guns, gsp)).contains(&len) {
        return None;
    }
    Some(match formation {
        Formation::RoadColumn if troops.is_empty() => Layout::Ones,
        Formation::RoadColumn => Layout::Road {
            len,
            last: tsp.checked_sub(4 * (len as u16 - 1))?,
        },
        Formation::Line | Formation::HookLeft | Formation::HookRight | Formation::MarchColumn => {
            let n = len as u16;
            Layout::Even {
                base: tsp / n,
                extra: tsp % n,
            }
        }
        Formation::Limbered | Formation::Unlimbered => Layout::Single(gsp),
        Formation::AttackColumn
        | Formation::Square
        | Formation::Skirmish
        | Formation::GeneralOrder => Layout::Single(tsp),
    })
}

/// What 8.4g's last paragraph does to a square that has fallen below 3 SP: it becomes a
/// single-hex line in its hex, facing any hexpoint its owner picks, automatically disordered, and
/// shaken as well if it was disordered already.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SquareBreak {
    /// The hex of the new one-hex line.
    pub hex: HexId,
    /// The facings the owner may give it (every hexpoint).
    pub facings: Vec<Facing>,
    /// It becomes disordered (always).
    pub disordered: bool,
    /// It becomes shaken (it was disordered already).
    pub shaken: bool,
}

/// The square `units` (one stack) after a loss, if it has fallen below the 3 infantry SP a square
/// needs (8.1e, 8.4g); `None` if it is not a square or still holds 3 SP.
pub fn square_below_minimum(sc: &Scenario, st: &State, units: &[UnitIx]) -> Option<SquareBreak> {
    let (troops, _) = split(sc, units);
    let live: Vec<UnitIx> = troops
        .into_iter()
        .filter(|&u| !st.units[usize::from(u)].eliminated)
        .collect();
    let first = &st.units[usize::from(*live.first()?)];
    if first.formation != Formation::Square || sp_sum(sc, st, &live) >= 3 {
        return None;
    }
    let was = live.iter().any(|&u| st.units[usize::from(u)].disordered);
    let shaken = live.iter().any(|&u| st.units[usize::from(u)].shaken);
    Some(SquareBreak {
        hex: *first.hexes.first()?,
        facings: Vertex::ALL.into_iter().map(Facing::Point).collect(),
        disordered: true,
        shaken: was || shaken,
    })
}

/// The T10 link `from → to` of the units' army, with the march column ↔ line diagram (8.4c) of
/// their arm (infantry's own where the chart gives one, E47); without a movement chart, the
/// costs 8.4 and 8.6 print (no diagram).
fn link<'a>(
    sc: &'a Scenario,
    side: u8,
    infantry: bool,
    from: &str,
    to: &str,
) -> Option<(ChangeCost, &'a [Cost])> {
    let army = &sc.armies.get(usize::from(side))?.id;
    if let Some(m) = sc.charts.movement.as_ref()
        && m.change.contains_key(army)
    {
        let r = m.change(army, from, to)?;
        let diagram = if infantry { r.infantry() } else { &r.diagram };
        return Some((r.cost, diagram));
    }
    let (_, _, c, _) = crate::charts::movement::PRINTED
        .iter()
        .find(|(f, t, _, _)| *f == from && *t == to)?;
    Some((ChangeCost::parse(c).ok()?, &[]))
}

/// `base + per_hex × diff` of a link, or the whole MA.
fn pay_of(cost: ChangeCost, diff: usize) -> Pay {
    match cost {
        ChangeCost::Mp { base, per_hex } => Pay::Mp(base + Half(per_hex.0 * diff as u16)),
        ChangeCost::WholeMa | ChangeCost::RemainingMa => Pay::WholeMa,
    }
}

/// The march column ↔ line diagram's cost for a turn between a hexside and a hexpoint facing
/// (8.4c): entry 0 for the two hexpoints beside the hexside, 1 turning right or left, 2 about.
fn diagram_cost(diagram: &[Cost], from: Facing, to: Facing) -> Option<Half> {
    let t = from.turn_to(to).unsigned_abs() as usize;
    if t.is_multiple_of(2) {
        return None;
    }
    diagram.get((t - 1) / 2)?.points()
}

/// Whether a hexside between two adjacent hexes is non-clear for 8.7: it carries a feature that
/// costs MPs, is prohibited or triggers a DC (A).
fn hexside_non_clear(sc: &Scenario, a: HexId, b: HexId) -> bool {
    sc.board
        .hexside(a, b)
        .and_then(|k| sc.charts.tec.hexside.get(k))
        .is_some_and(|r| {
            r.dc_a
                || r.mp_line != Cost::Points(Half::ZERO)
                || r.mp_column != Cost::Points(Half::ZERO)
        })
}

impl<'a> Ctx<'a> {
    fn new(
        sc: &'a Scenario,
        st: &'a State,
        units: &[UnitIx],
        budget: &Budget,
        in_z: Option<bool>,
    ) -> Option<Self> {
        let first = *units.first()?;
        let s0 = st.units.get(usize::from(first))?;
        let side = sc.units.get(usize::from(first))?.side;
        let mut seen = Few::new();
        for &u in units {
            let us = st.units.get(usize::from(u))?;
            if seen.contains(&u)
                || sc.units[usize::from(u)].side != side
                || us.eliminated
                || us.routed
                || us.hexes.is_empty()
                || us.hexes != s0.hexes
            {
                return None;
            }
            seen.push(u);
        }
        let (troops, guns) = split(sc, units);
        if !troops.is_empty() && troop_arm(sc, &troops) != Some(Arm::Infantry) && !guns.is_empty() {
            return None;
        }
        // 10.1d–e: the troops share formation and facing, the guns their formation.
        let same = |g: &[UnitIx], facing: bool| {
            g.iter().all(|&u| {
                let a = &st.units[usize::from(u)];
                let b = &st.units[usize::from(g[0])];
                a.formation == b.formation && (!facing || a.facing == b.facing)
            })
        };
        if !same(&troops, true) || !same(&guns, troops.is_empty()) {
            return None;
        }
        if !troops.is_empty() && troop_arm(sc, &troops).is_none() {
            return None;
        }
        let mut enemy = crate::command::HexSet::new(&sc.board.dense);
        for (i, x) in st.units.iter().enumerate() {
            if sc.units[i].side != side && !x.eliminated {
                for &h in &x.hexes {
                    enemy.insert(h);
                }
            }
        }
        Some(Ctx {
            sc,
            st,
            enemy,
            units: units.iter().copied().collect(),
            disordered: units.iter().any(|&u| st.units[usize::from(u)].disordered),
            ezoc: in_z.unwrap_or_else(|| units.iter().any(|&u| in_ezoc(sc, st, u))),
            tsp: sp_sum(sc, st, &troops),
            afford_only: troops.is_empty() || guns.is_empty(),
            troops,
            guns,
            side,
            hexes: s0.hexes,
            budget: *budget,
        })
    }

    /// Whether an enemy unit, routed or not, is in `h` (`checks::enemy_in` with the routed).
    fn enemy_in(&self, h: HexId) -> bool {
        self.enemy.contains(&h)
    }

    fn us(&self, u: UnitIx) -> &crate::state::UnitState {
        &self.st.units[usize::from(u)]
    }

    /// The troops' [`lengths`] for `f`.
    fn lengths(&self, f: Formation) -> RangeInclusive<usize> {
        lengths_split(self.sc, &self.troops, f, (&self.troops, self.tsp), (&[], 0))
    }

    fn link(&self, from: Formation, to: Formation) -> Option<(ChangeCost, &'a [Cost])> {
        let infantry = troop_arm(self.sc, &self.troops) == Some(Arm::Infantry);
        link(self.sc, self.side, infantry, chart_key(from), chart_key(to))
    }

    fn skirmish_capable(&self) -> bool {
        self.troops
            .iter()
            .all(|&u| self.sc.units[usize::from(u)].skirmish == Skirmish::Capable)
    }

    /// The troops' candidates: every change 8.4a–h, j allows from their formation now.
    fn troop_cands(&self) -> Vec<Cand> {
        let mut out = Vec::new();
        let Some(&t0) = self.troops.first() else {
            return out;
        };
        let s = self.us(t0);
        let from = s.formation;
        let n = self.hexes.len();
        let head = self.hexes[0];
        let Some(tarm) = troop_arm(self.sc, &self.troops) else {
            return out;
        };
        let inf = tarm == Arm::Infantry;
        let tsp = self.tsp;
        if self
            .troops
            .iter()
            .any(|&u| self.sc.units[usize::from(u)].skirmish == Skirmish::Only)
        {
            // 8.1g, 8.4h: skirmish-only units never change formation (but to rout).
            return out;
        }
        match (from, s.facing) {
            (Formation::RoadColumn, Facing::Side(d)) => {
                // 8.4a: a straight march column in the road column's own first hexes.
                if let Some((ChangeCost::Mp { base, per_hex }, _)) =
                    self.link(Formation::RoadColumn, Formation::MarchColumn)
                {
                    for len in self.lengths(Formation::MarchColumn) {
                        if let Some(pay) = road_to_march(&self.hexes, d, len, base, per_hex) {
                            out.push(cand(
                                Formation::MarchColumn,
                                Facing::Side(d),
                                &self.hexes[..len],
                                pay,
                                true,
                                "8.4a",
                            ));
                        }
                    }
                }
            }
            (Formation::MarchColumn, Facing::Side(d)) => {
                // 8.4b: the road column extends straight back from the march column's tail.
                let road = self.lengths(Formation::RoadColumn);
                if let Some((cost, _)) = self.link(Formation::MarchColumn, Formation::RoadColumn)
                    && !road.is_empty()
                    && let Some(hexes) = resized_column(&self.hexes, d, *road.start())
                {
                    let len = hexes.len();
                    let pay = pay_of(cost, len.abs_diff(n));
                    if self.road_stack_ok(len, pay) {
                        out.push(cand(
                            Formation::RoadColumn,
                            Facing::Side(d),
                            hexes,
                            pay,
                            true,
                            "8.4b",
                        ));
                    }
                }
                // 8.4c: a line containing the head hex, facing any hexpoint.
                out.extend(self.deploy(
                    Formation::Line,
                    Vertex::ALL.into_iter().map(Facing::Point).collect(),
                    |f, len| match f {
                        Facing::Point(v) => lines_through(head, v, len),
                        Facing::Side(_) => Vec::new(),
                    },
                ));
                // 8.4d: an attack column in the head hex facing a hexpoint of the front hexside.
                if let Some((cost, _)) = self.link(Formation::MarchColumn, Formation::AttackColumn)
                {
                    for v in d.vertices() {
                        out.push(cand(
                            Formation::AttackColumn,
                            Facing::Point(v),
                            [head],
                            pay_of(cost, n - 1),
                            true,
                            "8.4d",
                        ));
                    }
                }
                // 8.4f: a square in the head hex.
                if inf && let Some(c) = self.square_from(Facing::Point(d.vertices()[0]), head) {
                    out.push(c);
                }
            }
            (Formation::Line, Facing::Point(v)) => {
                // 8.4c: a march column headed in a hex of the line, facing any hexside.
                out.extend(self.deploy(
                    Formation::MarchColumn,
                    Dir::ALL.into_iter().map(Facing::Side).collect(),
                    |f, len| {
                        match f {
                            Facing::Side(d) => self
                                .hexes
                                .iter()
                                .filter_map(|&h| Footprint::march_column(&Printed, h, d, len).ok())
                                .map(|fp| Hexes::from(fp.hexes()))
                                .collect(),
                            Facing::Point(_) => Vec::new(),
                        }
                    },
                ));
                // 8.4f: a square in either hex of the line.
                if inf {
                    for &h in &self.hexes {
                        if let Some(c) = self.square_from(Facing::Point(v), h) {
                            out.push(c);
                        }
                    }
                }
                // 8.4j: a hook at either end, same hexes and length.
                if inf {
                    for to in [Formation::HookLeft, Formation::HookRight] {
                        if let Some((cost, _)) = self.link(Formation::Line, to) {
                            out.push(cand(
                                to,
                                Facing::Point(v),
                                self.hexes,
                                pay_of(cost, 0),
                                false,
                                "8.4j",
                            ));
                        }
                    }
                }
            }
            (Formation::HookLeft | Formation::HookRight, Facing::Point(v)) => {
                // 8.4j: back to line only.
                if let Some((cost, _)) = self.link(from, Formation::Line) {
                    out.push(cand(
                        Formation::Line,
                        Facing::Point(v),
                        self.hexes,
                        pay_of(cost, 0),
                        false,
                        "8.4j",
                    ));
                }
            }
            (Formation::AttackColumn, Facing::Point(v)) => {
                // 8.4e: a march column headed in the attack column's hex, facing a hexside of
                // its front hexpoint.
                if let Some((cost, _)) = self.link(Formation::AttackColumn, Formation::MarchColumn)
                {
                    for d in v.sides() {
                        for len in self.lengths(Formation::MarchColumn) {
                            if self.unpaid(pay_of(cost, len - 1)) {
                                continue;
                            }
                            if let Ok(fp) = Footprint::march_column(&Printed, head, d, len) {
                                out.push(cand(
                                    Formation::MarchColumn,
                                    Facing::Side(d),
                                    fp.hexes(),
                                    pay_of(cost, len - 1),
                                    true,
                                    "8.4e",
                                ));
                            }
                        }
                    }
                }
            }
            (Formation::Square, Facing::Point(_)) if !self.disordered => {
                // 8.4g (8.1e: not disordered, A17): a march column headed in the square's hex or a
                // line through it, any direction, for the whole MA.
                if let Some((cost, _)) = self.link(Formation::Square, Formation::MarchColumn)
                    && !self.unpaid(pay_of(cost, 0))
                {
                    for d in Dir::ALL {
                        for len in self.lengths(Formation::MarchColumn) {
                            if let Ok(fp) = Footprint::march_column(&Printed, head, d, len) {
                                out.push(cand(
                                    Formation::MarchColumn,
                                    Facing::Side(d),
                                    fp.hexes(),
                                    pay_of(cost, 0),
                                    false,
                                    "8.4g",
                                ));
                            }
                        }
                    }
                }
                if let Some((cost, _)) = self.link(Formation::Square, Formation::Line)
                    && !self.unpaid(pay_of(cost, 0))
                {
                    for v in Vertex::ALL {
                        for len in self.lengths(Formation::Line) {
                            for hexes in lines_through(head, v, len) {
                                out.push(cand(
                                    Formation::Line,
                                    Facing::Point(v),
                                    hexes,
                                    pay_of(cost, 0),
                                    false,
                                    "8.4g",
                                ));
                            }
                        }
                    }
                }
            }
            (Formation::Skirmish, Facing::Point(_)) if self.skirmish_capable() => {
                // 8.4h: to any other single-hex formation valid for the arm, any direction.
                let pay = self.skirmish_pay(Formation::Skirmish, Formation::Line);
                let mut to: Vec<Formation> = vec![Formation::Line, Formation::AttackColumn];
                if inf && tsp >= 3 {
                    to.push(Formation::Square);
                }
                for f in to {
                    let facings: Vec<Facing> = if f == Formation::Square {
                        vec![s.facing]
                    } else {
                        Vertex::ALL.into_iter().map(Facing::Point).collect()
                    };
                    for facing in facings {
                        out.push(cand(f, facing, [head], pay, false, "8.4h"));
                    }
                }
                for f in [Formation::MarchColumn, Formation::RoadColumn] {
                    if self.lengths(f).contains(&1) {
                        for d in Dir::ALL {
                            out.push(cand(f, Facing::Side(d), [head], pay, false, "8.4h"));
                        }
                    }
                }
            }
            _ => {}
        }
        // 8.4h: skirmish order from any single-hex formation (not hook, 8.4j; not general
        // order, 8.4i), any direction.
        let single = matches!(
            from,
            Formation::Line
                | Formation::AttackColumn
                | Formation::MarchColumn
                | Formation::Square
                | Formation::RoadColumn
        );
        if single && n == 1 && self.skirmish_capable() {
            let pay = self.skirmish_pay(from, Formation::Skirmish);
            for v in Vertex::ALL {
                out.push(cand(
                    Formation::Skirmish,
                    Facing::Point(v),
                    [head],
                    pay,
                    false,
                    "8.4h",
                ));
            }
        }
        out
    }

    /// 8.4c: march column ↔ line: each new facing, length and placement at the diagram's cost for
    /// the turn plus the chart's cost per hex of length difference.
    fn deploy(
        &self,
        to: Formation,
        facings: Vec<Facing>,
        place: impl Fn(Facing, usize) -> Vec<Hexes>,
    ) -> Vec<Cand> {
        let s = self.us(self.troops[0]);
        let Some((cost, diagram)) = self.link(s.formation, to) else {
            return Vec::new();
        };
        let n = self.hexes.len();
        let mut out = Vec::new();
        for f in facings {
            let Some(turn) = diagram_cost(diagram, s.facing, f) else {
                continue;
            };
            for len in self.lengths(to) {
                let pay = add(pay_of(cost, len.abs_diff(n)), turn);
                if self.unpaid(pay) {
                    continue;
                }
                for hexes in place(f, len) {
                    out.push(cand(to, f, hexes, pay, true, "8.4c"));
                }
            }
        }
        out
    }

    /// 8.4h: the chart's link if it has one for this pair, else its line ↔ skirmish link, else
    /// the printed 1 MP.
    fn skirmish_pay(&self, from: Formation, to: Formation) -> Pay {
        self.link(from, to)
            .or_else(|| {
                if to == Formation::Skirmish {
                    self.link(Formation::Line, Formation::Skirmish)
                } else {
                    self.link(Formation::Skirmish, Formation::Line)
                }
            })
            .map_or(Pay::Mp(Half::ONE), |(c, _)| pay_of(c, 0))
    }

    /// 8.4f: a square in `h` (at least 3 SP, 8.1e; not disordered); a square faces every way, so
    /// it keeps one facing (`docs/bar-formations.md`).
    fn square_from(&self, facing: Facing, h: HexId) -> Option<Cand> {
        let from = self.us(self.troops[0]).formation;
        if self.disordered || sp_sum(self.sc, self.st, &self.troops) < 3 {
            return None;
        }
        let (cost, _) = self.link(from, Formation::Square)?;
        Some(cand(
            Formation::Square,
            facing,
            [h],
            pay_of(cost, 0),
            false,
            "8.4f",
        ))
    }

    /// 10.11a: several units in a multi-hex road column only if one regiment, and not if the
    /// change costs more than their printed MA.
    fn road_stack_ok(&self, len: usize, pay: Pay) -> bool {
        let group = if self.troops.is_empty() {
            &self.guns
        } else {
            &self.troops
        };
        if group.len() < 2 || len < 2 {
            return true;
        }
        let reg = self.sc.units[usize::from(group[0])].regiment.as_deref();
        let one = reg.is_some()
            && group
                .iter()
                .all(|&u| self.sc.units[usize::from(u)].regiment.as_deref() == reg);
        let ma = group
            .iter()
            .map(|&u| self.sc.units[usize::from(u)].ma)
            .min()
            .unwrap_or(0);
        one && match pay {
            Pay::Mp(c) => c <= Half::whole(u16::from(ma)),
            Pay::WholeMa => false,
        }
    }

    /// The guns' candidates (8.6): limber, unlimber, to and from road column.
    fn gun_cands(&self) -> Vec<Cand> {
        let mut out = Vec::new();
        let Some(&g0) = self.guns.first() else {
            return out;
        };
        let s = self.us(g0);
        let head = self.hexes[0];
        let n = self.hexes.len();
        match (s.formation, s.facing) {
            (Formation::Limbered, Facing::Side(d)) => {
                if let Some((cost, _)) = self.link(Formation::Limbered, Formation::Unlimbered) {
                    for v in Vertex::ALL {
                        out.push(cand(
                            Formation::Unlimbered,
                            Facing::Point(v),
                            [head],
                            pay_of(cost, 0),
                            true,
                            "8.6b",
                        ));
                    }
                }
                // 8.6c as 8.4b; 8.6d: too long for the MA, it costs every MP.
                if self.troops.is_empty()
                    && let Some((cost, _)) =
                        self.link(Formation::MarchColumn, Formation::RoadColumn)
                {
                    let len = *lengths(self.sc, self.st, &self.guns, Formation::RoadColumn).start();
                    if let Some(hexes) = resized_column(&self.hexes, d, len) {
                        let mut pay = pay_of(cost, len.abs_diff(n));
                        let rule = match pay {
                            Pay::Mp(c) if c + self.surcharge() > self.budget.ma => {
                                pay = Pay::WholeMa;
                                "8.6d"
                            }
                            Pay::Mp(_) | Pay::WholeMa => "8.6c",
                        };
                        let oversize = rule == "8.6d";
                        if (!oversize || !self.disordered) && self.road_stack_ok(len, pay) {
                            // 8.6d: allowed in non-clear terrain (not starred).
                            out.push(cand(
                                Formation::RoadColumn,
                                Facing::Side(d),
                                hexes,
                                pay,
                                !oversize,
                                rule,
                            ));
                        }
                    }
                }
            }
            (Formation::Unlimbered, Facing::Point(_)) if !self.budget.fired => {
                // 8.6a: a battery that fired may not limber in this movement phase.
                if let Some((cost, _)) = self.link(Formation::Unlimbered, Formation::Limbered) {
                    for d in Dir::ALL {
                        out.push(cand(
                            Formation::Limbered,
                            Facing::Side(d),
                            [head],
                            pay_of(cost, 0),
                            true,
                            "8.6b",
                        ));
                    }
                }
            }
            (Formation::RoadColumn, Facing::Side(d)) if self.troops.is_empty() => {
                // 8.6c as 8.4a: limbered in the head hex.
                if let Some((ChangeCost::Mp { base, per_hex }, _)) =
                    self.link(Formation::RoadColumn, Formation::MarchColumn)
                    && let Some(pay) = road_to_march(&self.hexes, d, 1, base, per_hex)
                {
                    out.push(cand(
                        Formation::Limbered,
                        Facing::Side(d),
                        [head],
                        pay,
                        true,
                        "8.6c",
                    ));
                }
            }
            _ => {}
        }
        out
    }

    /// Friendly units in the stack's hexes that are not changing.
    fn others(&self) -> Vec<UnitIx> {
        (0..self.st.units.len() as UnitIx)
            .filter(|u| {
                let s = self.us(*u);
                !self.units.contains(u)
                    && !s.eliminated
                    && s.hexes.iter().any(|h| self.hexes.contains(h))
            })
            .collect()
    }

    /// Whether a candidate paying `pay` is one [`changes_to`] would drop unfinished (only when
    /// candidates are paid as they are: troops or guns alone, [`Ctx::afford_only`]).
    fn unpaid(&self, pay: Pay) -> bool {
        self.afford_only && !self.affordable(pay)
    }

    /// Whether the budget can pay `pay` as [`Ctx::finish`] prices it (EZOC surcharge included,
    /// a whole-MA change only with nothing spent).
    fn affordable(&self, pay: Pay) -> bool {
        let b = &self.budget;
        match pay {
            Pay::WholeMa => !b.spent && b.ma <= b.left,
            Pay::Mp(c) => c + self.surcharge() <= b.left,
        }
    }

    /// The surcharge of 9.1 (11.9a) when any part of the stack is in an EZOC.
    fn surcharge(&self) -> Half {
        if self.ezoc { Half::ONE } else { Half::ZERO }
    }

    /// A finished change, or `None` if its hexes, terrain, prerequisites or cost forbid it.
    #[allow(clippy::too_many_arguments)]
    fn finish(
        &self,
        formations: Vec<(UnitIx, Formation)>,
        facing: Facing,
        hexes: Hexes,
        pay: Pay,
        star: bool,
        rule: &'static str,
        leave: Option<(Vec<UnitIx>, Option<Facing>, Option<Pay>)>,
    ) -> Option<Change> {
        let sc = self.sc;
        // On the map, not enemy-held (10.1b), passable to every arm, the formation allowed (8.0).
        for &h in &hexes {
            if !sc.board.contains(h) || self.enemy_in(h) {
                return None;
            }
            let row = terrain(sc, h)?;
            for &(u, f) in &formations {
                let leaving = leave.as_ref().is_some_and(|l| l.0.contains(&u));
                if row.prohibited.contains(&arm(sc, u))
                    || (!leaving && row.no_formation.iter().any(|k| k == chart_key(f)))
                {
                    return None;
                }
            }
        }
        // 8.7: an asterisked change occupying or crossing non-clear terrain.
        let mut all: tinyvec::TinyVec<[HexId; 16]> = self.hexes.iter().copied().collect();
        all.extend(hexes.iter().copied().filter(|h| !self.hexes.contains(h)));
        let non_clear = star
            && (all
                .iter()
                .any(|&h| terrain(sc, h).is_some_and(|r| r.non_clear))
                || all.iter().enumerate().any(|(i, &a)| {
                    all[i + 1..]
                        .iter()
                        .any(|&b| a.is_adjacent(b) && hexside_non_clear(sc, a, b))
                }));
        if non_clear && (self.budget.spent || self.disordered) {
            return None;
        }
        let b = &self.budget;
        let (cost, whole) = match pay {
            // 9.1: a whole-MA change may always be made in an EZOC, with nothing else done.
            Pay::WholeMa if b.spent => return None,
            Pay::WholeMa => (b.ma, true),
            Pay::Mp(c) => (c + self.surcharge(), false),
        };
        if cost > b.left {
            return None;
        }
        let ends_movement = whole || non_clear;
        let (must_leave, leave_facing, leave_cost) = match leave {
            None => (Vec::new(), None, None),
            Some((units, lf, lp)) => {
                // 10.4f, 8.6b: the guns need the MPs to leave the hex, through their front hex.
                let lc = match lp {
                    Some(Pay::Mp(c)) => Some(c + self.surcharge()),
                    Some(Pay::WholeMa) => return None,
                    None => None,
                };
                let after = b.left.checked_sub(lc.unwrap_or(cost))?;
                let Some(Facing::Side(d)) = lf.or(Some(facing)) else {
                    return None;
                };
                if ends_movement && lc.is_none() {
                    return None;
                }
                if non_clear || !self.can_leave(units[0], hexes[0], d, after) {
                    return None;
                }
                (units, lf, lc)
            }
        };
        Some(Change {
            formations,
            facing,
            hexes,
            cost,
            ends_movement,
            must_leave,
            leave_facing,
            leave_cost,
            rule,
        })
    }

    /// Whether a limbered gun at `h` facing `d` can enter its front hex with `left` MPs.
    fn can_leave(&self, gun: UnitIx, h: HexId, d: Dir, left: Half) -> bool {
        let sc = self.sc;
        let Some(n) = h.neighbour(d) else {
            return false;
        };
        if !sc.board.contains(n) || self.enemy_in(n) {
            return false;
        }
        let Some(row) = terrain(sc, n) else {
            return false;
        };
        if row.prohibited.contains(&arm(sc, gun)) {
            return false;
        }
        let side = match sc.board.hexside(h, n) {
            None => Some(Half::ZERO),
            Some(k) => sc.charts.tec.hexside.get(k).and_then(|r| {
                (!r.prohibited.contains(&arm(sc, gun)))
                    .then(|| r.mp_column.points())
                    .flatten()
            }),
        };
        let ezoc = if crate::command::ezoc(sc, self.st, self.side, n) {
            Half::ONE
        } else {
            Half::ZERO
        };
        match (row.mp_column.points(), side) {
            (Some(a), Some(b)) => a + b + ezoc <= left,
            _ => false,
        }
    }
}

/// A candidate (see [`Cand`]).
fn cand(
    to: Formation,
    facing: Facing,
    hexes: impl Into<Hexes>,
    pay: Pay,
    star: bool,
    rule: &'static str,
) -> Cand {
    Cand {
        to,
        facing,
        hexes: hexes.into(),
        pay,
        star,
        rule,
    }
}

fn add(p: Pay, x: Half) -> Pay {
    match p {
        Pay::Mp(c) => Pay::Mp(c + x),
        Pay::WholeMa => Pay::WholeMa,
    }
}

/// 8.4a: the cost of a march column of `len` hexes formed in the first hexes of a road column
/// facing `d`, or `None` if those hexes are not straight behind the head. Each road column hex
/// dropped costs `per_hex`, twice that if it is not in the head's row; at least 1 MP.
fn road_to_march(road: &[HexId], d: Dir, len: usize, base: Half, per_hex: Half) -> Option<Pay> {
    if len == 0 || len > road.len() {
        return None;
    }
    let row: Vec<HexId> = std::iter::successors(Some(road[0]), |h| h.neighbour(d.opposite()))
        .take(road.len())
        .collect();
    if road[..len] != row[..len.min(row.len())] {
        return None;
    }
    let mut cost = base;
    for h in &road[len..] {
        cost += if row.contains(h) {
            per_hex
        } else {
            per_hex + per_hex
        };
    }
    Some(Pay::Mp(cost.max(Half::ONE)))
}

/// A straight column facing `d` with the head of `hexes`, `len` long: cut at the tail or extended
/// straight back from it (8.4b: the extension counters follow the column).
fn resized_column(hexes: &[HexId], d: Dir, len: usize) -> Option<Hexes> {
    let mut fp = Footprint::road_column(&Printed, d, hexes.to_vec()).ok()?;
    while fp.len() > len {
        fp = fp.contracted(&Printed, End::Tail).ok()?;
    }
    while fp.len() < len {
        fp = fp.extended(&Printed, End::Tail).ok()?;
    }
    Some(Hexes::from(fp.hexes()))
}

/// Every line of `len` hexes facing `v` that contains `h`, from the one whose right end is `h`.
fn lines_through(h: HexId, v: Vertex, len: usize) -> Vec<Hexes> {
    let right = v.flank()[1];
    let mut out = Vec::new();
    let mut end = Some(h);
    for _ in 0..len {
        let Some(e) = end else { break };
        if let Ok(fp) = Footprint::line(&Printed, e, v, len) {
            out.push(Hexes::from(fp.hexes()));
        }
        end = Printed.neighbour(e, right);
    }
    out
}

/// The formation changes `units` (one stack, all activated) may make now with `budget`: each
/// with its formations, hexes, facing and cost, in a fixed order (troops' changes first, by
/// rule, facing, length and placement).
pub fn changes(sc: &Scenario, st: &State, units: &[UnitIx], budget: &Budget) -> Vec<Change> {
    changes_to(sc, st, units, budget, None)
}

/// [`changes`], only those taking the facing and hexes `to` (if given): the same changes in the
/// same order, the others never finished (a change's facing and hexes are its candidate's).
pub fn changes_to(
    sc: &Scenario,
    st: &State,
    units: &[UnitIx],
    budget: &Budget,
    to: Option<(Facing, &[HexId])>,
) -> Vec<Change> {
    changes_where(sc, st, units, budget, to, None)
}

/// [`changes_to`], told whether the stack stands in an enemy ZOC (9.1) when its caller knows.
pub(crate) fn changes_where(
    sc: &Scenario,
    st: &State,
    units: &[UnitIx],
    budget: &Budget,
    to: Option<(Facing, &[HexId])>,
    in_z: Option<bool>,
) -> Vec<Change> {
    let Some(ctx) = Ctx::new(sc, st, units, budget, in_z) else {
        return Vec::new();
    };
    let keep = |c: &Cand| to.is_none_or(|(f, h)| c.facing == f && c.hexes == *h);
    // A candidate paid as it is (troops or guns alone) that the budget cannot pay is one `finish`
    // refuses: it is not finished at all.
    let affordable = |c: &Cand| ctx.affordable(c.pay);
    let mut out = Vec::new();
    let all = |f: Formation, g: &[UnitIx]| g.iter().map(|&u| (u, f)).collect::<Vec<_>>();
    match (ctx.troops.is_empty(), ctx.guns.is_empty()) {
        (true, true) => {}
        (false, true) => {
            for c in ctx
                .troop_cands()
                .into_iter()
                .filter(|c| affordable(c) && keep(c))
            {
                out.extend(ctx.finish(
                    all(c.to, &ctx.troops),
                    c.facing,
                    c.hexes,
                    c.pay,
                    c.star,
                    c.rule,
                    None,
                ));
            }
        }
        (true, false) => {
            let others = ctx.others();
            for c in ctx
                .gun_cands()
                .into_iter()
                .filter(|c| affordable(c) && keep(c))
            {
                out.extend(gun_alone(&ctx, &others, c));
            }
        }
        (false, false) => mixed(&ctx, &keep, &mut out),
    }
    out
}

/// A change of guns alone (8.6b): facing free in an empty hex; unlimbering among others conforms
/// to them (any facing with a square; not among columns, where no legal stack results); limbering
/// among infantry means leaving; among limbered guns, staying with their facing or leaving.
fn gun_alone(ctx: &Ctx, others: &[UnitIx], c: Cand) -> Vec<Change> {
    let formations: Vec<(UnitIx, Formation)> = ctx.guns.iter().map(|&u| (u, c.to)).collect();
    let fin = |leave: Option<(Vec<UnitIx>, Option<Facing>, Option<Pay>)>| {
        ctx.finish(
            formations.clone(),
            c.facing,
            c.hexes,
            c.pay,
            c.star,
            c.rule,
            leave,
        )
    };
    if others.is_empty() || c.to == Formation::RoadColumn {
        return fin(None).into_iter().collect();
    }
    let o = ctx.us(others[0]);
    let o_inf = others.iter().any(|&u| arm(ctx.sc, u) == Arm::Infantry);
    match c.to {
        Formation::Unlimbered => {
            let ok = match o.formation {
                Formation::Square => true,
                Formation::Line
                | Formation::HookLeft
                | Formation::HookRight
                | Formation::AttackColumn
                | Formation::Unlimbered => o.facing == c.facing,
                _ => false,
            };
            if ok {
                fin(None).into_iter().collect()
            } else {
                Vec::new()
            }
        }
        Formation::Limbered => {
            let mut out: Vec<Change> = fin(Some((ctx.guns.to_vec(), None, None)))
                .into_iter()
                .collect();
            if !o_inf && o.formation == Formation::Limbered && o.facing == c.facing {
                out.extend(fin(None));
            }
            out
        }
        _ => Vec::new(),
    }
}

/// 10.12c: an infantry and artillery stack changes as one when the results are compatible
/// (10.3d–e, 10.4b–c): infantry line, hook, attack column or square with unlimbered guns;
/// infantry march column with limbered guns on the same facing. Guns that limber beside a line or
/// square must leave the hex (10.4f, the 10.12c example). The stack pays the dearer change.
fn mixed(ctx: &Ctx, keep: &dyn Fn(&Cand) -> bool, out: &mut Vec<Change>) {
    let g = ctx.us(ctx.guns[0]);
    // The guns limbering alone beside infantry is a separation: `changes` of the guns alone.
    let mut tc = ctx.troop_cands();
    tc.retain(keep);
    // The guns' change: stay, or the other state (its facing follows the infantry's).
    let toggle = match g.formation {
        Formation::Limbered => Some(Formation::Unlimbered),
        Formation::Unlimbered if !ctx.budget.fired => Some(Formation::Limbered),
        _ => None,
    };
    let gun_pay = ctx
        .link(g.formation, toggle.unwrap_or(g.formation))
        .map(|(c, _)| pay_of(c, 0));
    for c in &tc {
        let pole = |f: Formation| match f {
            Formation::Line
            | Formation::HookLeft
            | Formation::HookRight
            | Formation::AttackColumn
            | Formation::Square => Some(Formation::Unlimbered),
            Formation::MarchColumn => Some(Formation::Limbered),
            _ => None,
        };
        let Some(want) = pole(c.to) else {
            continue;
        };
        for gf in [Some(g.formation), toggle].into_iter().flatten() {
            let gun_changes = gf != g.formation;
            if gun_changes && gun_pay.is_none() {
                continue;
            }
            let gp = if gun_changes {
                gun_pay.unwrap_or(Pay::Mp(Half::ZERO))
            } else {
                Pay::Mp(Half::ZERO)
            };
            let mut formations: Vec<(UnitIx, Formation)> =
                ctx.troops.iter().map(|&u| (u, c.to)).collect();
            formations.extend(ctx.guns.iter().map(|&u| (u, gf)));
            let star = c.star || gun_changes;
            let rule = c.rule;
            if gf == want {
                out.extend(ctx.finish(
                    formations,
                    c.facing,
                    c.hexes,
                    c.pay.max(gp),
                    star,
                    rule,
                    None,
                ));
            } else if gf == Formation::Limbered && gun_changes {
                // Limbering among infantry that does not form march column: the guns leave.
                for d in Dir::ALL {
                    out.extend(ctx.finish(
                        formations.clone(),
                        c.facing,
                        c.hexes,
                        c.pay,
                        star,
                        rule,
                        Some((ctx.guns.to_vec(), Some(Facing::Side(d)), Some(gp))),
                    ));
                }
            }
        }
    }
}

/// Whether a unit meets the prerequisites 8.5a and 8.5b share: on the map, in command, neither
/// disordered nor routed (shaken is allowed), not in an EZOC.
fn fit_for_85(sc: &Scenario, st: &State, u: UnitIx) -> bool {
    let s = &st.units[usize::from(u)];
    st.on_map(u) && !s.ooc && !s.disordered && !s.routed && !in_ezoc(sc, st, u)
}

/// Whether any combat unit but `own` stands in `hexes`.
fn others_in(st: &State, hexes: &[HexId], own: &[UnitIx]) -> bool {
    st.units.iter().enumerate().any(|(i, s)| {
        !s.eliminated && !own.contains(&(i as UnitIx)) && s.hexes.iter().any(|h| hexes.contains(h))
    })
}

/// 8.5a: the breakdown of an activated parent unit into its `components` (the Battle Rules'
/// list), or `None` if not allowed: in command, not disordered or routed, alone, not in an EZOC,
/// in line or march column, no MP spent, more than half its printed SPs left, the components
/// off the map. The answer is each component's SPs: the parent's current SPs spread as equally
/// as possible (the first components take one more, none above its printed SPs); they are placed
/// stacked in the parent's hexes with its facing and formation, and may use their full MPs.
pub fn breakdown(
    sc: &Scenario,
    st: &State,
    parent: UnitIx,
    components: &[UnitIx],
    budget: &Budget,
) -> Option<Vec<(UnitIx, u8)>> {
    let p = st.units.get(usize::from(parent))?;
    let printed = sc.units.get(usize::from(parent))?.sp;
    let sp = current_sp(sc, st, parent);
    if components.len() < 2
        || !fit_for_85(sc, st, parent)
        || others_in(st, &p.hexes, &[parent])
        || !matches!(p.formation, Formation::Line | Formation::MarchColumn)
        || budget.spent
        || u16::from(sp) * 2 <= u16::from(printed)
        || components.iter().any(|&c| st.on_map(c))
    {
        return None;
    }
    let mut share: Vec<(UnitIx, u8)> = components.iter().map(|&c| (c, 0)).collect();
    let mut left = sp;
    while left > 0 {
        let before = left;
        for (c, s) in &mut share {
            if left > 0 && *s < sc.units.get(usize::from(*c))?.sp {
                *s += 1;
                left -= 1;
            }
        }
        if left == before {
            return None;
        }
    }
    share.iter().all(|&(_, s)| s > 0).then_some(share)
}

/// What a reformation attempt (8.5b–c) needs: a d100 roll at least `er` (the worst, highest, ER
/// of the components) re-forms the parent with `sp` SPs (their total); the attempt is free and a
/// failure forbids another this movement phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reformation {
    /// The roll needed (at least this).
    pub er: u8,
    /// The parent's SPs.
    pub sp: u8,
    /// Where the parent may stand (8.5b: the components' hexes; 8.5c: each common hex).
    pub hexes: Vec<Vec<HexId>>,
}

/// 8.5b: whether all the activated `components` of `parent` may try to re-form it now: in
/// command, not disordered or routed, stacked alone in line or march column with one facing, not
/// in an EZOC, no MP spent, more than half the parent's printed SPs, the parent off the map.
pub fn reformation(
    sc: &Scenario,
    st: &State,
    parent: UnitIx,
    components: &[UnitIx],
    budget: &Budget,
) -> Option<Reformation> {
    let c0 = st.units.get(usize::from(*components.first()?))?;
    let (er, sp) = reform_common(sc, st, parent, components, budget)?;
    let same = components.iter().all(|&c| {
        let s = &st.units[usize::from(c)];
        s.hexes == c0.hexes && s.facing == c0.facing && s.formation == c0.formation
    });
    if !same
        || !matches!(c0.formation, Formation::Line | Formation::MarchColumn)
        || others_in(st, &c0.hexes, components)
    {
        return None;
    }
    Some(Reformation {
        er,
        sp,
        hexes: vec![c0.hexes.to_vec()],
    })
}

/// The prerequisites 8.5b and 8.5c share; the roll needed and the parent's SPs.
fn reform_common(
    sc: &Scenario,
    st: &State,
    parent: UnitIx,
    components: &[UnitIx],
    budget: &Budget,
) -> Option<(u8, u8)> {
    let printed = sc.units.get(usize::from(parent))?.sp;
    let sp: u16 = components
        .iter()
        .map(|&c| u16::from(current_sp(sc, st, c)))
        .sum();
    if components.len() < 2
        || budget.spent
        || st.on_map(parent)
        || sp * 2 <= u16::from(printed)
        || components.iter().any(|&c| !fit_for_85(sc, st, c))
    {
        return None;
    }
    let er = components
        .iter()
        .map(|&c| sc.units[usize::from(c)].er)
        .max()?;
    Some((er, u8::try_from(sp).ok()?))
}

/// 8.5c: skirmisher components re-form in a common hex each of them is adjacent to (or one of
/// them holds, alone), not in an EZOC, whose terrain allows line or march column and holds the
/// parent's SPs; each such hex is a place for the parent (in line or march column, any facing).
pub fn skirmish_reformation(
    sc: &Scenario,
    st: &State,
    parent: UnitIx,
    components: &[UnitIx],
    budget: &Budget,
) -> Option<Reformation> {
    let (er, sp) = reform_common(sc, st, parent, components, budget)?;
    // 8.5c (3) replaces only the stacking together of 8.5b: no other unit with any of them.
    let skirmishing = components.iter().all(|&c| {
        let s = &st.units[usize::from(c)];
        s.formation == Formation::Skirmish && !others_in(st, &s.hexes, components)
    });
    let c0 = st.units.get(usize::from(*components.first()?))?;
    let side = sc.units.get(usize::from(parent))?.side;
    let arm_p = sc.units.get(usize::from(parent))?.arm;
    let mut hexes: Vec<HexId> = c0
        .hexes
        .iter()
        .flat_map(|h| std::iter::once(*h).chain(h.neighbours().map(|(_, n)| n)))
        .collect();
    hexes.sort();
    hexes.dedup();
    let places: Vec<Vec<HexId>> = hexes
        .into_iter()
        .filter(|&x| {
            let reach = components.iter().all(|&c| {
                let s = &st.units[usize::from(c)];
                s.hexes.iter().any(|&h| h == x || h.is_adjacent(x))
            });
            let holders: Vec<UnitIx> = (0..st.units.len() as UnitIx)
                .filter(|&u| !st.units[usize::from(u)].eliminated)
                .filter(|&u| st.units[usize::from(u)].hexes.contains(&x))
                .collect();
            let alone = holders.len() <= 1 && holders.iter().all(|u| components.contains(u));
            let ground = terrain(sc, x).is_some_and(|r| {
                let forbids = |k: &str| r.no_formation.iter().any(|x| x == k);
                let formable = !forbids("line") || !forbids("march_column");
                !r.prohibited.contains(&arm_p)
                    && formable
                    && u16::from(r.stacking.of(arm_p)) >= u16::from(sp)
            });
            sc.board.contains(x)
                && reach
                && alone
                && ground
                && !crate::command::ezoc(sc, st, side, x)
        })
        .map(|x| vec![x])
        .collect();
    (skirmishing && !places.is_empty()).then_some(Reformation {
        er,
        sp,
        hexes: places,
    })
}
