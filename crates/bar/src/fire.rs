//! Fire (12.0): the fire phase of an activation (12.1–12.7, 12.9–12.11), return fire (12.10),
//! opportunity fire at the movement triggers (12.8) and the resolution every fire shares —
//! defensive fire in close combat (13.10) calls [`resolve`] too.
//!
//! A fire is a set of firing [`Group`]s (the SPs of one type in one hex, 12.2f) aimed at one
//! target stack (12.5a: targets are whole units or stacks). [`resolve`] computes each group's
//! firing SPs (T5/T6, 12.3–12.4), its range, line of sight (12.6) and multiplier (T4, 12.7), the
//! ratio against the target's defence (12.1), the roll with its modifiers (T7, 12.5), the result
//! (T2, or T3 on a natural 00–09, 12.11), the losses (12.9), and the checks that follow (12.9d–e),
//! and logs every factor with its rule.
use crate::action::Action;
use crate::charts::fire::{FireCharts, FireResult, WeaponRow};
use crate::checks::{self, Spec, current_sp};
use crate::data::Arm;
use crate::event::Event;
use crate::geom::Formation;
use crate::scenario::{Scenario, UnitIx};
use crate::state::Hexes;
use crate::state::{Job, Phase, State};
use engine::round_half_up;
use hexmap::{Arc, HexId, LosStep};
use serde::{Deserialize, Serialize};

/// Which fire (12.0): it picks the Fire Results Table's column of results (12.1: regular on the
/// left, opportunity and defensive on the right), the special results table (12.11) and the
/// checks that follow (12.9d–e).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FireKind {
    /// Fire phase (12.1).
    Regular,
    /// Return fire after an 'R' (12.10): as regular fire, but an 'R' is no effect.
    Return,
    /// Opportunity fire in the movement phase (12.8).
    Opportunity,
    /// Defensive fire in close combat (13.10): infantry and artillery combine.
    Defensive,
}

impl FireKind {
    fn name(self) -> &'static str {
        match self {
            FireKind::Regular => "Fire (12.1)",
            FireKind::Return => "Return fire (12.10)",
            FireKind::Opportunity => "Opportunity fire (12.8)",
            FireKind::Defensive => "Defensive fire (13.10)",
        }
    }
    /// Reads the right-hand results of T2 (12.1, 12.8b, 13.10b).
    fn right_side(self) -> bool {
        matches!(self, FireKind::Opportunity | FireKind::Defensive)
    }
}

/// Units of one side firing together from one hex (12.2f: all the SPs of one type in a hex fire at
/// one target; in defensive fire the hex's infantry and artillery fire together, 13.10b).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Group {
    /// The hex fired from.
    pub hex: HexId,
    /// The units of that hex that fire.
    pub units: Vec<UnitIx>,
    /// The SPs fired, when a square or a 2-hex line splits its fire (12.2g, 12.3c); `None`: all
    /// that may fire from the hex.
    pub sp: Option<u8>,
}

/// What a fire did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    /// SPs the target lost.
    pub lost: u8,
    /// An 'R' result: the target may return fire (12.9i, 12.10).
    pub return_fire: bool,
    /// The target failed the disorder check (C or E) that follows an opportunity or defensive
    /// fire (12.9e): a moving unit stops (18.2d).
    pub failed_dc: bool,
    /// Target units that routed (their rout retreat is a job on the state).
    pub routed: Vec<UnitIx>,
    /// The fire could not be made (below 1:3, nothing in range or sight).
    pub void: bool,
}

/// The fire phase in progress (12.1–12.2).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FirePhase {
    /// Units that have fired and the hexes they fired from (12.2c: once a phase; a 2-hex line
    /// once per hex, a square up to three times at different hexes, 12.2g–h).
    pub fired: Vec<(UnitIx, HexId)>,
    /// Targets fired on, and whether by artillery (12.2c: once by infantry, once by artillery).
    pub targeted: Vec<(UnitIx, bool)>,
    /// The fire being declared: its target, its type and the groups added so far.
    pub decl: Option<Declared>,
    /// A return fire the target's owner may make (12.10): the returning stack and the hexes of
    /// the original firers.
    pub ret: Option<(Vec<UnitIx>, Vec<HexId>)>,
    /// The SPs each unit has fired this phase, so that a 2-hex line or a square firing again
    /// fires only what its limit leaves (12.3c, 12.4c).
    #[serde(default)]
    pub spent: Vec<(UnitIx, u8)>,
}

/// A fire being declared (12.1 first step).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Declared {
    /// A unit of the target stack.
    pub target: UnitIx,
    /// Artillery fire (else infantry, 12.2e).
    pub artillery: bool,
    /// Groups added.
    pub groups: Vec<Group>,
}

fn charts(sc: &Scenario) -> Option<&FireCharts> {
    sc.charts.fire.as_ref()
}

fn arm(sc: &Scenario, u: UnitIx) -> Arm {
    sc.units[usize::from(u)].arm
}

/// The weapon row (T4) of a unit: its army's nation, its sub-type.
pub fn weapon(sc: &Scenario, u: UnitIx) -> Option<&WeaponRow> {
    let unit = &sc.units[usize::from(u)];
    charts(sc)?
        .weapon
        .get(&sc.armies[usize::from(unit.side)].id)?
        .get(&unit.sub)
}

/// Whether the unit may fire at all (12.2a): infantry in a firing formation or unlimbered
/// artillery, on the map, not routed.
pub fn may_fire(sc: &Scenario, st: &State, u: UnitIx) -> bool {
    firing_weapon(sc, st, u).is_some()
}

/// The weapon of a unit that may fire ([`may_fire`]), found once.
fn firing_weapon<'a>(sc: &'a Scenario, st: &State, u: UnitIx) -> Option<&'a WeaponRow> {
    let s = &st.units[usize::from(u)];
    if !st.on_map(u) || s.routed || arm(sc, u) == Arm::Cavalry {
        return None;
    }
    // The formation first: most units that may not fire are in one that does not (12.2a).
    let fires = charts(sc)
        .and_then(|c| c.formation.get(crate::geom::chart_key(s.formation)))
        .is_some_and(|r| r.fires);
    if fires { weapon(sc, u) } else { None }
}

/// The stack a unit is in: the units of its side with the same hexes, top first (10.6).
pub fn stack(sc: &Scenario, st: &State, u: UnitIx) -> Vec<UnitIx> {
    let me = &st.units[usize::from(u)];
    let side = sc.units[usize::from(u)].side;
    let mut v: Vec<UnitIx> = (0..st.units.len() as UnitIx)
        .filter(|&x| {
            sc.units[usize::from(x)].side == side
                && st.on_map(x)
                && st.units[usize::from(x)].hexes == me.hexes
        })
        .collect();
    v.sort_by_key(|&x| st.units[usize::from(x)].order);
    v
}

/// Whether a combat unit (either side) stands in the hex (12.6a: leaders alone do not block).
fn occupied(st: &State, h: HexId, except: &[UnitIx]) -> Option<UnitIx> {
    st.units
        .iter()
        .enumerate()
        .find(|(i, s)| !s.eliminated && s.hexes.contains(&h) && !except.contains(&(*i as UnitIx)))
        .map(|(i, _)| i as UnitIx)
}

fn level(sc: &Scenario, h: HexId) -> u8 {
    sc.board.level(h)
}

fn terrain(sc: &Scenario, h: HexId) -> Option<&crate::charts::tec::TerrainRow> {
    sc.board.tec_row(h)
}

/// A line of sight (12.6): clear, partial (along the side of one obstacle, 12.6f), or blocked;
/// with the hexes it passes into or through for 12.7a and enfilade.
#[derive(Clone, Debug, PartialEq)]
pub struct Sight {
    /// Along the side of a blocking hex: the SPs firing along it are halved (12.6f).
    pub partial: bool,
    /// A howitzer fires over friendly units (12.6d): its SPs are halved.
    pub overhead: bool,
    /// The intermediate hexes passed (both hexes of an 'along' step).
    pub through: Vec<HexId>,
}

/// The line of sight from `from` to `to` (12.6a–d, 12.6f; A31, A32), `None` if blocked. `firers`
/// and `targets` are the units at the ends (not obstacles); `howitzer` lets friendly units of
/// `side` nearer the firer than the target be fired over (12.6d).
pub fn sight(
    sc: &Scenario,
    st: &State,
    from: HexId,
    to: HexId,
    side: u8,
    howitzer: bool,
) -> Option<Sight> {
    sight_in(sc, st, from, to, side, howitzer, None)
}

/// [`sight`], with the hexes that hold units (`occ`, [`crate::command::occupied_set`]) found
/// once for many lines; `None`: look at the units for each hex.
fn sight_in(
    sc: &Scenario,
    st: &State,
    from: HexId,
    to: HexId,
    side: u8,
    howitzer: bool,
    occ: Option<&crate::command::HexSet<'_>>,
) -> Option<Sight> {
    let mut out = Sight {
        partial: false,
        overhead: false,
        through: Vec::new(),
    };
    if from.distance(to) <= 1 {
        return Some(out); // 12.6b: an adjacent hex is always seen
    }
    let (ea, eb) = (level(sc, from), level(sc, to));
    let high = ea.max(eb);
    // Whether hex x blocks (12.6a, 12.6c), and whether only friendly units a howitzer may fire
    // over make it so (12.6d).
    let blocks = |x: HexId, overhead: &mut bool| -> bool {
        let lx = level(sc, x);
        // A31: an intervening hex as high as the higher end (or, ends level, higher than both)
        // is an obstacle wherever it is.
        if (ea != eb && lx >= high) || (ea == eb && lx > high) {
            return true;
        }
        let t = terrain(sc, x);
        let terrain_blocks = t.is_some_and(|t| t.blocks_los && lx + t.height >= ea.min(eb));
        // A unit matters only where the terrain does not block.
        let unit = !terrain_blocks
            && occ.map_or_else(|| occupied(st, x, &[]).is_some(), |o| o.contains(&x));
        if !terrain_blocks && !unit {
            return false;
        }
        // 12.6c: with ends at different levels, an obstacle nearer the higher end does not block.
        if ea != eb {
            let (dl, dh) = if ea < eb {
                (from.distance(x), to.distance(x))
            } else {
                (to.distance(x), from.distance(x))
            };
            if dl > dh {
                return false;
            }
        }
        if !terrain_blocks && howitzer && unit {
            let friendly_only =
                st.units.iter().enumerate().all(|(i, s)| {
                    s.eliminated || !s.hexes.contains(&x) || sc.units[i].side == side
                });
            if friendly_only && from.distance(x) < to.distance(x) {
                *overhead = true;
                return false;
            }
        }
        true
    };
    let mut overhead = false;
    for step in hexmap::los_path(from, to) {
        match step {
            LosStep::Hex(x) => {
                if blocks(x, &mut overhead) {
                    return None;
                }
                out.through.push(x);
            }
            LosStep::Along(x, y) => {
                let (bx, by) = (blocks(x, &mut overhead), blocks(y, &mut overhead));
                if bx && by {
                    return None; // A32: both sides block
                }
                out.partial |= bx || by;
                out.through.push(x);
                out.through.push(y);
            }
        }
    }
    out.overhead = overhead;
    Some(out)
}

/// How hex `t` lies for a unit firing from `h` (12.2b: into or through its front hexes; a square
/// fires all round, 12.2g): `Some(false)` in its front arc, `Some(true)` only through a hook's
/// extra front hex (8.1b: the arm of the hooked end, [`crate::geom::through_hook`]; its fire is
/// capped by the hook diagram, 12.3d, [`hook_cap`]), `None` out of its arc. 12.4f: guns stacked
/// with a hook fire through its arm only if the diagram does not mark the hook hex 'NA'. 12.4d:
/// artillery stacked with a square fires as if alone in the hex, and the square's SPs allotted to
/// a hex shared with the artillery's front hex cannot fire — read as: the square's infantry does
/// not fire at a hex in the front arc of a gun of its hex (docs/bar.md, "Fire decisions").
fn arc_to(sc: &Scenario, st: &State, u: UnitIx, h: HexId, t: HexId) -> Option<bool> {
    let s = &st.units[usize::from(u)];
    if s.formation == Formation::Square {
        let blocked = stack(sc, st, u).iter().any(|&x| {
            arm(sc, x) == Arm::Artillery
                && st.units[usize::from(x)].hexes.contains(&h)
                && st.units[usize::from(x)].facing.arc_of(h, t) == Some(Arc::Front)
        });
        return (!blocked).then_some(false);
    }
    if s.facing.arc_of(h, t) == Some(Arc::Front) {
        return Some(false);
    }
    if crate::geom::through_hook(&s.hexes, s.facing, s.formation, h, t) {
        return Some(true);
    }
    let guns_may =
        arm(sc, u) == Arm::Artillery && charts(sc).is_some_and(|c| !c.diagram.hook_artillery_na);
    if guns_may
        && stack(sc, st, u).iter().any(|&x| {
            let y = &st.units[usize::from(x)];
            crate::geom::through_hook(&y.hexes, y.facing, y.formation, h, t)
        })
    {
        return Some(true);
    }
    None
}

/// The SPs a group may fire when it aims through a hook's extra front hex only (12.3d, T8's
/// reconstruction `diagram.hook_hex_fire`); `None` when it aims through its front as a line.
fn hook_cap(sc: &Scenario, a: &Aim) -> Option<u8> {
    if !a.hook {
        return None;
    }
    Some(charts(sc).map_or(0, |c| c.diagram.hook_hex_fire))
}

/// How a group sees one hex of the target: range, sight, enfilade.
#[derive(Clone, Debug)]
struct Aim {
    hex: HexId,
    /// Aimed through a hook's extra front hex only (8.1b, 12.3d).
    hook: bool,
    range: u8,
    sight: Sight,
    enfilade: bool,
}

/// The best hex of the target a group can fire at: in arc, in range, in sight; the nearest
/// (12.1: the hex closest to the firer it can see), ties to the better sight.
fn aim(
    sc: &Scenario,
    st: &State,
    g: &Group,
    target: &[UnitIx],
    max_range: u8,
    howitzer: bool,
    occ: Option<&crate::command::HexSet<'_>>,
) -> Option<Aim> {
    let lead = *g.units.first()?;
    let side = sc.units[usize::from(lead)].side;
    let t0 = *target.first()?;
    let ts = &st.units[usize::from(t0)];
    let (_, flank, _) = crate::geom::arcs_of(&ts.hexes, ts.facing, ts.formation);
    let mut best: Option<Aim> = None;
    for &t in &ts.hexes {
        let d = g.hex.distance(t);
        if d == 0 || d > u32::from(max_range) {
            continue;
        }
        // Every unit of the group must have the hex in its arc; through a hook's arm for one of
        // them, the group's fire is the hook's (12.3d).
        let mut hook = false;
        let mut in_arc = true;
        for &u in &g.units {
            match arc_to(sc, st, u, g.hex, t) {
                None => {
                    in_arc = false;
                    break;
                }
                Some(x) => hook |= x,
            }
        }
        if !in_arc {
            continue;
        }
        let Some(sight) = sight_in(sc, st, g.hex, t, side, howitzer, occ) else {
            continue;
        };
        // 12.6e: the line crosses a flank hex of the target (not only along a flank hexside).
        let square = ts.formation == Formation::Square;
        let enfilade = !square
            && (flank.contains(&g.hex)
                || hexmap::los_path(g.hex, t)
                    .iter()
                    .any(|s| matches!(s, LosStep::Hex(x) if flank.contains(x))));
        let cand = Aim {
            hex: t,
            hook,
            range: d as u8,
            sight,
            enfilade,
        };
        // The nearest (12.1), then the better sight, then a hex in the line's front before one
        // seen only through a hook's arm (whose fire is capped, 12.3d).
        let key = |a: &Aim| (a.range, a.sight.partial, a.hook);
        let better = match &best {
            None => true,
            Some(b) => key(&cand) < key(b),
        };
        if better {
            best = Some(cand);
        }
    }
    best
}

/// The SPs of each unit of a hex group that may fire (12.3–12.4; T5, T6), top of the stack first,
/// disorder applied (12.3a), before halving for partial sight. `skip` are SPs already used this
/// phase.
fn firing_sp(sc: &Scenario, st: &State, g: &Group, skip: &[(UnitIx, u8)]) -> Vec<(UnitIx, u8)> {
    allocate(sc, st, g, skip, true)
}

/// Whether a group fires disordered (12.3a): one of its units is.
fn disordered(st: &State, g: &Group) -> bool {
    g.units.iter().any(|&u| st.units[usize::from(u)].disordered)
}

/// [`firing_sp`]; `disorder`: whether a disordered group's limits are halved. 12.3a halves "the
/// number of SPs … that can fire from a hex": the hex's limit (what its SPs and T5/T6 let fire) is
/// halved (rounded) before 12.4b fills it, the guns first, so that a disordered multi-hex stack
/// fires at most the sum of its halved hexes, E37's "2 SPs a hex or 4 SPs for the entire stack",
/// however its SPs are split between targets.
fn allocate(
    sc: &Scenario,
    st: &State,
    g: &Group,
    skip: &[(UnitIx, u8)],
    disorder: bool,
) -> Vec<(UnitIx, u8)> {
    let half = |x: u8| -> u8 {
        if disorder && disordered(st, g) {
            round_half_up(u32::from(x), 2) as u8
        } else {
            x
        }
    };
    let Some(fc) = charts(sc) else {
        return Vec::new();
    };
    let lead = match g.units.first() {
        Some(&u) => u,
        None => return Vec::new(),
    };
    // The whole stack in the hex, for the stacking order (12.4b) and the line's layout.
    let all = stack(sc, st, lead);
    let troops: Vec<UnitIx> = all
        .iter()
        .copied()
        .filter(|&u| arm(sc, u) == Arm::Infantry)
        .collect();
    let guns: Vec<UnitIx> = all
        .iter()
        .copied()
        .filter(|&u| arm(sc, u) == Arm::Artillery)
        .collect();
    let used = |u: UnitIx| -> u8 { skip.iter().filter(|(x, _)| *x == u).map(|(_, n)| *n).sum() };
    let avail = |u: UnitIx| current_sp(sc, st, u).saturating_sub(used(u));
    // 12.4b: artillery fires only from the top of an infantry stack.
    let top_order = troops
        .iter()
        .map(|&u| st.units[usize::from(u)].order)
        .min()
        .unwrap_or(u16::MAX);
    let guns_on_top: Vec<UnitIx> = guns
        .iter()
        .copied()
        .filter(|&u| st.units[usize::from(u)].order < top_order && may_fire(sc, st, u))
        .collect();
    let gun_sp: u8 = guns_on_top
        .iter()
        .map(|&u| current_sp(sc, st, u))
        .sum::<u8>()
        .min(4);
    let mut out = Vec::new();
    if troops.is_empty() {
        // Artillery alone: up to 4 SP a hex (12.4c).
        let mut left = half(gun_sp);
        for &u in &guns_on_top {
            if g.units.contains(&u) && left > 0 {
                let n = avail(u).min(left);
                left -= n;
                if n > 0 {
                    out.push((u, n));
                }
            }
        }
        return cap(out, g.sp);
    }
    let st0 = &st.units[usize::from(troops[0])];
    let row = fc.formation.get(crate::geom::chart_key(st0.formation));
    let inf_sp: u8 = troops.iter().map(|&u| current_sp(sc, st, u)).sum();
    // The formation's limit for a hex (T5/T6), artillery SPs counted 1:1 in it (12.4c).
    // 12.3a: the SPs the hex's units and its chart let fire, halved when disordered — the
    // square's third (2 SP a target, 12.2g) and its guns (as if alone, 12.4d) each on its own.
    let hex_limit = |h: HexId| -> u8 {
        match row {
            Some(r) if !r.fires => half(gun_sp),
            Some(r) if r.per_target_hex.is_some() => {
                // 12.2g, A29: a square fires a third of its SPs at each target hex, up to 4.
                let third = round_half_up(u32::from(inf_sp), 3) as u8;
                half(third.min(r.per_target_hex.unwrap_or(4))) + half(gun_sp)
            }
            Some(r) if r.max_per_hex.is_some() => half(
                r.max_per_hex
                    .unwrap_or(0)
                    .min(gun_sp.saturating_add(inf_sp)),
            ),
            Some(_) => {
                let layout =
                    crate::formation::sp_layout(sc, st, &troops, st0.formation, st0.hexes.len())
                        .unwrap_or_else(|| vec![inf_sp]);
                let i = st0.hexes.iter().position(|&x| x == h).unwrap_or(0);
                let here = layout.get(i).copied().unwrap_or(inf_sp);
                let ranks = sc.armies[usize::from(sc.units[usize::from(troops[0])].side)].ranks;
                half(
                    fc.line_sp_for(ranks)
                        .map_or(here.min(4), |t| t.fire_per_hex(here, false)),
                )
            }
            None => 0,
        }
    };
    let limit = hex_limit(g.hex);
    let mut left = limit;
    for &u in &guns_on_top {
        let n = current_sp(sc, st, u).min(left).min(gun_sp);
        left -= n;
        let n = n.min(avail(u));
        if g.units.contains(&u) && n > 0 {
            out.push((u, n));
        }
    }
    if st0.hexes.len() > 1 && row.is_some_and(|r| r.fires && r.per_target_hex.is_none()) {
        // 12.3c, 12.4c (E37): a multi-hex stack fires up to the sum of its hexes' limits; the
        // guns on top count once in that total, wherever they fire from (12.4e), however their
        // SPs are split between two targets, and each hex's infantry fires up to its hex's
        // limit. A 7 + 3 SP line under 2 gun SP fires 2 + 6 (disordered: 2 + 2).
        let total: u8 = st0.hexes.iter().map(|&h| hex_limit(h)).sum();
        let inf_used: u8 = troops.iter().map(|&u| used(u)).sum();
        left = limit.min(total.saturating_sub(gun_sp).saturating_sub(inf_used));
    }
    if row.is_some_and(|r| r.fires) {
        for &u in &troops {
            if left == 0 {
                break;
            }
            let n = avail(u).min(left);
            left -= n;
            if g.units.contains(&u) && n > 0 && may_fire(sc, st, u) {
                out.push((u, n));
            }
        }
    }
    cap(out, g.sp)
}

/// The SPs of a group capped at `sp` (a split fire, 12.2g, 12.3c, 12.4c), top first.
fn cap(mut out: Vec<(UnitIx, u8)>, sp: Option<u8>) -> Vec<(UnitIx, u8)> {
    if let Some(cap) = sp {
        let mut left = cap;
        for x in out.iter_mut() {
            x.1 = x.1.min(left);
            left -= x.1;
        }
        out.retain(|x| x.1 > 0);
    }
    out
}

/// The groups of `side` that may fire now at the target stack under `kind` (12.2a–b: a unit
/// that may fire, the target in its front arc, in range and line of sight, 12.6), one per hex and,
/// except in defensive fire, per type (12.2e).
pub fn groups_at(
    sc: &Scenario,
    st: &State,
    side: u8,
    target: &[UnitIx],
    kind: FireKind,
) -> Vec<Group> {
    if target.is_empty() {
        return Vec::new();
    }
    groups_among(sc, st, &firers(sc, st, side), target, kind)
}

/// The units of `side` that may fire now ([`may_fire`]), in unit order, with their weapons: as
/// [`firing_weapon`] finds them, each formation's T6 row and each kind's T4 row looked up once.
fn firers<'a>(sc: &'a Scenario, st: &State, side: u8) -> Vec<(UnitIx, &'a WeaponRow)> {
    let fc = charts(sc);
    let mut fires: Vec<(crate::geom::Formation, bool)> = Vec::new();
    let mut kinds: Vec<(&'a str, Option<&'a WeaponRow>)> = Vec::new();
    let mut out = Vec::new();
    for (i, s) in st.units.iter().enumerate() {
        let unit = &sc.units[i];
        let u = i as UnitIx;
        if unit.side != side || !st.on_map(u) || s.routed || unit.arm == Arm::Cavalry {
            continue;
        }
        let f = match fires.iter().find(|x| x.0 == s.formation) {
            Some(x) => x.1,
            None => {
                let f = fc
                    .and_then(|c| c.formation.get(crate::geom::chart_key(s.formation)))
                    .is_some_and(|r| r.fires);
                fires.push((s.formation, f));
                f
            }
        };
        if !f {
            continue;
        }
        let w = match kinds.iter().find(|k| k.0 == unit.sub) {
            Some(k) => k.1,
            None => {
                let w = weapon(sc, u);
                kinds.push((unit.sub.as_str(), w));
                w
            }
        };
        if let Some(w) = w {
            out.push((u, w));
        }
    }
    out
}

/// [`groups_at`] among the side's [`firers`], found once for many targets.
fn groups_among(
    sc: &Scenario,
    st: &State,
    firers: &[(UnitIx, &WeaponRow)],
    target: &[UnitIx],
    kind: FireKind,
) -> Vec<Group> {
    let mut out: Vec<Group> = Vec::new();
    let Some(&t0) = target.first() else {
        return out;
    };
    let thexes = &st.units[usize::from(t0)].hexes;
    for &(u, w) in firers {
        // Out of reach of every target hex: no need to trace lines of sight.
        let reach = u32::from(w.max_range());
        if !st.units[usize::from(u)]
            .hexes
            .iter()
            .any(|h| thexes.iter().any(|t| h.distance(*t) <= reach))
        {
            continue;
        }
        for &h in &st.units[usize::from(u)].hexes {
            let key_art = kind != FireKind::Defensive && arm(sc, u) == Arm::Artillery;
            if let Some(g) = out.iter_mut().find(|g| {
                g.hex == h
                    && (kind == FireKind::Defensive
                        || (arm(sc, g.units[0]) == Arm::Artillery) == key_art)
            }) {
                g.units.push(u);
            } else {
                out.push(Group {
                    hex: h,
                    units: vec![u],
                    sp: None,
                });
            }
        }
    }
    if out.is_empty() {
        return out;
    }
    let occ = crate::command::occupied_set(sc, st);
    out.retain_mut(|g| {
        g.units.retain(|&u| {
            // Every unit of a group is one of the firers, with its weapon.
            let w = firers.iter().find(|f| f.0 == u).map(|f| f.1);
            let reach = w.map_or(0, |w| w.max_range());
            let how = w.is_some_and(|w| w.howitzer);
            let one = Group {
                hex: g.hex,
                units: vec![u],
                sp: None,
            };
            aim(sc, st, &one, target, reach, how, Some(&occ)).is_some()
        });
        if g.units.is_empty() {
            return false;
        }
        // 12.3d (T8): a group that sees the target only through a hook's extra front hex fires
        // the SPs the hook diagram gives that hex (only a hook's hooked end may).
        let at_hooked_end = g.units.iter().any(|&u| {
            let s = &st.units[usize::from(u)];
            crate::geom::hook_arm(&s.hexes, s.facing, s.formation)
                .is_some_and(|(end, _)| end == g.hex)
        });
        if !at_hooked_end {
            return !firing_sp(sc, st, g, &[]).is_empty();
        }
        let weapons = || {
            g.units
                .iter()
                .filter_map(|&u| firers.iter().find(|f| f.0 == u).map(|f| f.1))
        };
        let reach = weapons().map(|w| w.max_range()).max().unwrap_or(0);
        let how = weapons().any(|w| w.howitzer);
        if let Some(c) =
            aim(sc, st, g, target, reach, how, Some(&occ)).and_then(|a| hook_cap(sc, &a))
        {
            g.sp = Some(c);
        }
        !firing_sp(sc, st, g, &[]).is_empty()
    });
    out
}

/// Target size (12.5a–d): current SPs, artillery ×4, cavalry ×2, divided over the hexes of a
/// multi-hex unit (rounded); artillery never divided (12.5c).
pub fn target_size(sc: &Scenario, st: &State, target: &[UnitIx]) -> u16 {
    let fc = charts(sc);
    let art = fc.map_or(4.0, |c| c.value("artillery_size")) as u32;
    let cav = fc.map_or(2.0, |c| c.value("cavalry_size")) as u32;
    let hexes = target
        .iter()
        .map(|&u| st.units[usize::from(u)].hexes.len())
        .max()
        .unwrap_or(1)
        .max(1) as u32;
    let mut inf = 0u32;
    let mut horse = 0u32;
    let mut guns = 0u32;
    for &u in target {
        let sp = u32::from(current_sp(sc, st, u));
        match arm(sc, u) {
            Arm::Infantry => inf += sp,
            Arm::Cavalry => horse += sp * cav,
            Arm::Artillery => guns += sp * art,
        }
    }
    (round_half_up(inf, hexes) + round_half_up(horse, hexes) + guns) as u16
}

fn names(sc: &Scenario, units: &[UnitIx]) -> String {
    units
        .iter()
        .map(|&u| sc.units[usize::from(u)].name.clone())
        .collect::<Vec<_>>()
        .join(" + ")
}

fn fmt_num(x: f32) -> String {
    if (x - x.round()).abs() < 1e-4 {
        format!("{}", x.round() as i32)
    } else {
        format!("{x:.1}")
    }
}

/// One group's part of a fire: its SPs, multiplier and strength, for the log and the ratio.
struct Part {
    strength: f32,
    text: String,
    aim: Aim,
    artillery_only: bool,
    beyond_min: bool,
    sp: Vec<(UnitIx, u8)>,
}

fn part(
    sc: &Scenario,
    st: &State,
    g: &Group,
    target: &[UnitIx],
    used: &[(UnitIx, u8)],
) -> Option<Part> {
    let fc = charts(sc)?;
    let sps = firing_sp(sc, st, g, used);
    if sps.is_empty() {
        return None;
    }
    let reach = sps
        .iter()
        .filter_map(|&(u, _)| weapon(sc, u).map(|w| w.max_range()))
        .max()
        .unwrap_or(0);
    let how = sps
        .iter()
        .any(|&(u, _)| weapon(sc, u).is_some_and(|w| w.howitzer));
    let a = aim(sc, st, g, target, reach, how, None)?;
    // 12.3a: `firing_sp` has halved a disordered group's limits; the SPs before that, for the
    // log and for A30 (disordered with a partial line of sight: ÷4 once).
    let dis = disordered(st, g);
    let undisordered = if dis {
        allocate(sc, st, g, used, false)
    } else {
        Vec::new()
    };
    let mut strength = 0.0f32;
    let mut bits = Vec::new();
    let mut texts = Vec::new();
    for &(u, n) in &sps {
        let Some(w) = weapon(sc, u) else { continue };
        let Some(mut m) = w.multiplier(a.range) else {
            continue;
        };
        let mut mods = Vec::new();
        if a.enfilade {
            m += fc.value("enfilade");
            mods.push("+1 enfilade 12.7b".to_string());
        }
        if st.units[usize::from(u)].formation == Formation::GeneralOrder {
            m += fc.value("general_order");
            mods.push("−1 general order 12.7c".to_string());
        }
        // 12.7a: terrain the line passes into or through.
        for &x in a.sight.through.iter().chain(std::iter::once(&a.hex)) {
            if let Some(t) = terrain(sc, x)
                && t.los_multiplier != 0.0
            {
                m += t.los_multiplier;
                mods.push(format!("{:+} {} 12.7a", t.los_multiplier, t.name));
            }
        }
        let m = m.max(0.0);
        // 12.3a, A30: disorder halves (done by `firing_sp`), partial sight halves, both ÷4
        // (rounded, once).
        let raw = if dis {
            undisordered
                .iter()
                .find(|x| x.0 == u)
                .map_or(n, |x| x.1.max(n))
        } else {
            n
        };
        let mut n_eff = n;
        let mut halving = Vec::new();
        if dis {
            halving.push("disordered 12.3a");
        }
        if a.sight.partial {
            n_eff = if dis {
                (round_half_up(u32::from(raw), 4) as u8).min(n)
            } else {
                round_half_up(u32::from(n), 2) as u8
            };
            halving.push("partial LOS 12.6f");
        }
        if how && a.sight.overhead {
            n_eff = round_half_up(u32::from(n_eff), 2) as u8;
            halving.push("over friends 12.6d");
        }
        strength += f32::from(n_eff) * m;
        bits.push((u, n_eff));
        let us = &st.units[usize::from(u)];
        let source = if arm(sc, u) == Arm::Artillery {
            "guns, 12.4c".to_string()
        } else if let Some(c) = hook_cap(sc, &a) {
            format!("through the hook hex 8.1b: at most {c} SP, hook diagram 12.3d")
        } else if us.formation.is_line() {
            format!(
                "Infantry Line SP chart, {} ranks",
                sc.armies[usize::from(sc.units[usize::from(u)].side)].ranks
            )
        } else {
            "Formation Fire Table".to_string()
        };
        texts.push(format!(
            "{} {}, {} SP ({source}){} × {}{} ({}, {} hex{})",
            sc.units[usize::from(u)].name,
            us.formation.name(),
            n_eff,
            if halving.is_empty() {
                String::new()
            } else {
                format!(" (of {raw}: {})", halving.join(", "))
            },
            fmt_num(m),
            if mods.is_empty() {
                String::new()
            } else {
                format!(" [{}]", mods.join(", "))
            },
            sc.units[usize::from(u)].sub,
            a.range,
            if a.range == 1 { "" } else { "es" }
        ));
    }
    let artillery_only = sps.iter().all(|&(u, _)| arm(sc, u) == Arm::Artillery);
    let beyond_min = artillery_only
        && sps.iter().all(|&(u, _)| {
            weapon(sc, u)
                .and_then(|w| w.min_range)
                .is_some_and(|m| a.range > m)
        });
    Some(Part {
        strength,
        text: format!(
            "from {}: {} = {}",
            sc.board.label(g.hex),
            texts.join(" + "),
            fmt_num(strength)
        ),
        aim: a,
        artillery_only,
        beyond_min,
        sp: sps,
    })
}

/// The target's fire defence (12.1): the terrain of the hex aimed at (the most favourable to the
/// defender among the hexes the firers aim at), or the hexside crossed into it when higher.
fn defence(sc: &Scenario, parts: &[Part], from: &[HexId]) -> (u8, String) {
    let mut best = (1u8, "clear".to_string());
    for (p, &f) in parts.iter().zip(from) {
        let t = p.aim.hex;
        if let Some(row) = terrain(sc, t)
            && row.fire_defence > best.0
        {
            best = (row.fire_defence, row.name.clone());
        }
        // The hexside the line enters the target hex by.
        let prev = p.aim.sight.through.last().copied().unwrap_or(f);
        if let Some(side) = sc.board.hexside(prev, t)
            && let Some(row) = sc.charts.tec.hexside.get(side)
            && row.fire_defence > best.0
        {
            best = (row.fire_defence, row.name.clone());
        }
    }
    (best.0.max(1), best.1)
}

/// The strength ratio a fire would have (12.1), `None` if nothing could fire.
pub fn ratio(sc: &Scenario, st: &State, groups: &[Group], target: &[UnitIx]) -> Option<f64> {
    let mut used = Vec::new();
    let mut parts = Vec::new();
    let mut from = Vec::new();
    for g in groups {
        if let Some(p) = part(sc, st, g, target, &used) {
            used.extend(p.sp.iter().copied());
            parts.push(p);
            from.push(g.hex);
        }
    }
    if parts.is_empty() {
        return None;
    }
    let strength: f32 = parts.iter().map(|p| p.strength).sum();
    let (def, _) = defence(sc, &parts, &from);
    Some(f64::from(strength) / f64::from(def))
}

/// Resolve one fire (12.1) of `groups` at the target stack: strength, ratio, the roll and its
/// modifiers, the result, losses (12.9), the checks that follow (12.9d–e), a rout's retreat as a
/// job on the state. Every step is logged with its rule. In opportunity fire the target's first
/// units are the movers: they take the losses first (12.9c).
pub fn resolve(
    sc: &Scenario,
    st: &mut State,
    kind: FireKind,
    groups: &[Group],
    target: &[UnitIx],
    ev: &mut Vec<Event>,
) -> Outcome {
    resolve_inner(sc, st, kind, groups, target, None, ev)
}

/// An opportunity fire (12.8) at a moving stack and the units it shares its hex with: the movers
/// are first in `target` and take the losses first (12.9c); only they make the disorder check (C)
/// and the morale check (A) (19.2b), and if they rout, the others there test (F).
pub fn resolve_opportunity(
    sc: &Scenario,
    st: &mut State,
    groups: &[Group],
    target: &[UnitIx],
    movers: &[UnitIx],
    ev: &mut Vec<Event>,
) -> Outcome {
    let o = resolve_inner(
        sc,
        st,
        FireKind::Opportunity,
        groups,
        target,
        Some(movers),
        ev,
    );
    let others: Vec<UnitIx> = target
        .iter()
        .copied()
        .filter(|u| !movers.contains(u) && st.on_map(*u) && !st.units[usize::from(*u)].routed)
        .collect();
    if !others.is_empty() && movers.iter().any(|u| o.routed.contains(u)) {
        st.jobs.push(Job::MoraleF(others)); // 19.2b
    }
    o
}

fn resolve_inner(
    sc: &Scenario,
    st: &mut State,
    kind: FireKind,
    groups: &[Group],
    target: &[UnitIx],
    movers: Option<&[UnitIx]>,
    ev: &mut Vec<Event>,
) -> Outcome {
    let mut out = Outcome::default();
    let (Some(fc), Some(&t0), Some(g0)) = (charts(sc), target.first(), groups.first()) else {
        out.void = true;
        return out;
    };
    let fc = fc.clone();
    let firer_side = sc.units[usize::from(g0.units[0])].side;
    let army = sc.armies[usize::from(firer_side)].name.clone();
    let mut used: Vec<(UnitIx, u8)> = Vec::new();
    let mut parts = Vec::new();
    let mut from = Vec::new();
    for g in groups {
        if let Some(p) = part(sc, st, g, target, &used) {
            used.extend(p.sp.iter().copied());
            parts.push(p);
            from.push(g.hex);
        }
    }
    let tname = names(sc, target);
    if parts.is_empty() {
        ev.push(Event::Fire {
            army,
            text: format!("{}: nothing can fire at {tname} (12.2)", kind.name()),
        });
        out.void = true;
        return out;
    }
    let strength: f32 = parts.iter().map(|p| p.strength).sum();
    let (def, def_name) = defence(sc, &parts, &from);
    let ratio = f64::from(strength) / f64::from(def);
    let Some((col, bonus)) = fc
        .results
        .column_for(ratio, fc.value("ratio_above_5") as i16)
    else {
        ev.push(Event::Fire {
            army,
            text: format!(
                "{} at {tname}: {} = {} ÷ defence {def} ({def_name}) — below 1:3, no fire (12.1)",
                kind.name(),
                parts
                    .iter()
                    .map(|p| p.text.clone())
                    .collect::<Vec<_>>()
                    .join("; "),
                fmt_num(strength)
            ),
        });
        out.void = true;
        return out;
    };
    // Die modifiers (T7).
    let mut mods: Vec<(i16, String)> = Vec::new();
    if bonus != 0 {
        mods.push((bonus, "above 5:1, 12.1".into()));
    }
    let skirm = target
        .iter()
        .all(|&u| st.units[usize::from(u)].formation == Formation::Skirmish);
    if skirm {
        mods.push((
            fc.value("skirmisher_target") as i16,
            "skirmishers, 12.5f".into(),
        ));
    } else {
        let size = target_size(sc, st, target);
        let m = fc.size_modifier(size);
        mods.push((m, format!("target size {size}, 12.5")));
    }
    if kind == FireKind::Defensive {
        if target.iter().any(|&u| arm(sc, u) == Arm::Infantry) {
            mods.push((
                fc.value("defensive_vs_infantry") as i16,
                "at infantry, 13.10g".into(),
            ));
        } else if target.iter().any(|&u| arm(sc, u) == Arm::Cavalry) {
            mods.push((
                fc.value("defensive_vs_cavalry") as i16,
                "at cavalry, 13.10g".into(),
            ));
        }
    }
    let modsum: i16 = mods.iter().map(|m| m.0).sum();
    let mut roll = checks::percentile(st);
    let natural = roll.value();
    let mut col_name = fc.results.columns.get(col).cloned().unwrap_or_default();
    if bonus != 0 {
        // 12.1: the ratio itself, then the column it is read on.
        col_name = format!("{}:1, read on the {col_name} column", ratio.floor());
    }
    let mut text = format!(
        "{} at {tname}: {} — total {} ÷ defence {def} ({def_name}) = {col_name}; d100 {:02}",
        kind.name(),
        parts
            .iter()
            .map(|p| p.text.clone())
            .collect::<Vec<_>>()
            .join("; "),
        fmt_num(strength),
        natural
    );
    let artillery_only = parts.iter().all(|p| p.artillery_only);
    let mut result = FireResult::NoEffect;
    let mut special_sp = 0u8;
    let mut special_disorder = false;
    let mut firer_disorder = false;
    let mut leader_check = false;
    let mut read_table = true;
    if roll.tens == 0 {
        // 12.11: a natural 00–09 reads the special results.
        let table = if kind == FireKind::Defensive {
            "defensive"
        } else if artillery_only {
            "artillery"
        } else {
            "infantry"
        };
        if let Some(row) = fc.special.get(table).and_then(|rows| {
            rows.iter()
                .find(|r| crate::charts::in_range(r.roll, roll.units))
        }) {
            text.push_str(&format!(" — special result ({table}, 12.11): {}", row.text));
            leader_check = row.leader_check;
            special_sp = row.target_sp;
            special_disorder = row.target_disorder;
            firer_disorder = row.firer_disorder;
            if row.reroll {
                roll = checks::percentile(st);
                text.push_str(&format!("; again d100 {:02}", roll.value()));
            } else {
                read_table = false;
            }
        }
    }
    if read_table {
        let modified = i16::from(roll.value()) + modsum;
        let shown: Vec<String> = mods
            .iter()
            .map(|(v, why)| format!("{v:+} ({why})"))
            .collect();
        result = fc.results.result(col, modified, kind.right_side());
        text.push_str(&format!(
            " {} = {modified} → {} (FRT, {})",
            shown.join(" "),
            match result {
                FireResult::NoEffect => "no effect".to_string(),
                FireResult::Return => "R".to_string(),
                FireResult::Disorder => "D".to_string(),
                FireResult::Loss(n) => format!("{n} SP"),
            },
            if kind.right_side() {
                "opportunity/defensive"
            } else {
                "regular"
            }
        ));
        if kind == FireKind::Return && result == FireResult::Return {
            text.push_str(" — an 'R' in return fire is no effect (12.10)");
            result = FireResult::NoEffect;
        }
    }
    ev.push(Event::Fire {
        army: army.clone(),
        text,
    });
    // 12.11: the leader check comes first.
    if leader_check {
        let hexes = st.units[usize::from(t0)].hexes;
        let tside = sc.units[usize::from(t0)].side;
        let ls: Vec<u16> = (0..sc.leaders.len() as u16)
            .filter(|&l| {
                sc.leaders[usize::from(l)].side == tside
                    && st.leaders[usize::from(l)].status == crate::state::LeaderStatus::Present
                    && st.leaders[usize::from(l)]
                        .hex
                        .is_some_and(|h| hexes.contains(&h))
            })
            .collect();
        for l in ls {
            crate::leaders::loss_check(sc, st, l, crate::leaders::Cause::Fire, ev);
        }
    }
    if firer_disorder {
        let fs: Vec<UnitIx> = parts
            .iter()
            .flat_map(|p| p.sp.iter().map(|x| x.0))
            .collect();
        crate::movement::disorder(sc, st, &fs, "12.11", ev);
    }
    let mut losses = match result {
        FireResult::Loss(n) => n,
        _ => special_sp,
    };
    // 12.9h i: ×1.5 (rounded) against columns and squares.
    let tform = st.units[usize::from(t0)].formation;
    if losses > 0
        && matches!(
            tform,
            Formation::MarchColumn
                | Formation::RoadColumn
                | Formation::AttackColumn
                | Formation::Square
        )
    {
        let n = round_half_up(u32::from(losses) * 3, 2) as u8;
        ev.push(Event::Fire {
            army: army.clone(),
            text: format!("{losses} SP × 1.5 against a {} = {n} (12.9h)", tform.name()),
        });
        losses = n;
    }
    // 12.9f: unlimbered artillery fired on only by artillery beyond its minimum range.
    let halve_guns = parts.iter().all(|p| p.beyond_min);
    let lost = distribute(sc, st, target, losses, halve_guns, ev);
    out.lost = lost;
    out.return_fire = result == FireResult::Return && kind == FireKind::Regular;
    let firer_hexes: Vec<HexId> = from.clone();
    let alive: Vec<UnitIx> = target.iter().copied().filter(|&u| st.on_map(u)).collect();
    if alive.is_empty() {
        return out;
    }
    // 12.9h ii–iii: a road column hit routs; a routed unit hit rout-retreats.
    if lost > 0 {
        let road: Vec<UnitIx> = alive
            .iter()
            .copied()
            .filter(|&u| {
                st.units[usize::from(u)].formation == Formation::RoadColumn
                    && !st.units[usize::from(u)].routed
            })
            .collect();
        if !road.is_empty() {
            ev.push(Event::State {
                units: road
                    .iter()
                    .map(|&u| sc.units[usize::from(u)].name.clone())
                    .collect(),
                state: "routed: a road column under fire".into(),
                rule: "12.9h",
            });
            rout(sc, st, &road, &firer_hexes, &mut out);
        }
        let routed: Vec<UnitIx> = alive
            .iter()
            .copied()
            .filter(|&u| st.units[usize::from(u)].routed && !out.routed.contains(&u))
            .collect();
        if !routed.is_empty() {
            st.jobs.push(Job::Rout {
                units: routed,
                from: firer_hexes.clone(),
            });
        }
    }
    let alive: Vec<UnitIx> = alive
        .into_iter()
        .filter(|&u| st.on_map(u) && !st.units[usize::from(u)].routed)
        .filter(|u| movers.is_none_or(|m| m.contains(u)))
        .collect();
    if alive.is_empty() {
        return out;
    }
    // 12.9e, 12.9i: after an opportunity or defensive fire, a loss or a 'D' ⇒ DC (C or E).
    let dc_due = kind.right_side() && (lost > 0 || result == FireResult::Disorder);
    if special_disorder {
        crate::movement::disorder(sc, st, &alive, "12.11", ev);
    }
    if dc_due {
        let (case, what, rule) = if kind == FireKind::Defensive {
            ('E', "Defensive fire", "12.9e, 13.10e")
        } else {
            ('C', "Opportunity fire", "12.9e, 18.2d")
        };
        let o = checks::roll(sc, st, &alive, Spec::dc(case, what, rule));
        let mut e = o.event;
        e.result = if o.passed {
            String::new()
        } else {
            "disordered".into()
        };
        ev.push(Event::Check(e));
        if o.lose_sp > 0 {
            let top = checks::tester(sc, st, &alive);
            crate::retreat::lose(
                sc,
                st,
                top,
                o.lose_sp,
                "disorder check special result",
                "18.1a",
                ev,
            );
            contract(sc, st, &alive, ev);
        }
        if !o.passed {
            out.failed_dc = true;
            crate::movement::disorder(sc, st, &alive, "12.9e", ev);
        }
    }
    // 12.9d, A27: a natural even roll with at least one SP lost ⇒ MC (A).
    let alive: Vec<UnitIx> = alive.into_iter().filter(|&u| st.on_map(u)).collect();
    if lost > 0 && natural.is_multiple_of(2) && !alive.is_empty() {
        let extra: &[&str] = match lost {
            0 | 1 => &[],
            2 | 3 => &["fire_2_3_sp"],
            _ => &["fire_4_sp"],
        };
        let flank = firer_hexes.iter().any(|&h| {
            let s = &st.units[usize::from(alive[0])];
            let (_, fl, re) = crate::geom::arcs_of(&s.hexes, s.facing, s.formation);
            s.formation != Formation::Square && (fl.contains(&h) || re.contains(&h))
        });
        let mut keys: Vec<&str> = extra.to_vec();
        if flank {
            keys.push("fire_flank");
        }
        let o = checks::roll(sc, st, &alive, Spec::mc('A', "Fire", "12.9d").with(&keys));
        morale_result(sc, st, &alive, o, &firer_hexes, &mut out, ev);
    }
    out
}

/// Apply a morale check's outcome (19.1c): good morale becomes shaken; shaken infantry or cavalry
/// routs (a rout retreat job), shaken artillery is eliminated.
pub fn morale_result(
    sc: &Scenario,
    st: &mut State,
    stack: &[UnitIx],
    o: checks::Outcome,
    from: &[HexId],
    out: &mut Outcome,
    ev: &mut Vec<Event>,
) {
    let shaken = stack.iter().any(|&u| st.units[usize::from(u)].shaken);
    let mut e = o.event;
    e.result = if o.passed {
        "holds".into()
    } else if shaken {
        "already shaken: routs (19.1c)".into()
    } else {
        "shaken (19.1c)".into()
    };
    ev.push(Event::Check(e));
    if o.lose_sp > 0 {
        let top = checks::tester(sc, st, stack);
        crate::retreat::lose(
            sc,
            st,
            top,
            o.lose_sp,
            "morale check special result",
            "19.1a",
            ev,
        );
        contract(sc, st, stack, ev);
    }
    if o.leader_check
        && let Some(&u) = stack.iter().find(|&&u| st.on_map(u))
    {
        let hexes = st.units[usize::from(u)].hexes;
        let side = sc.units[usize::from(u)].side;
        let ls: Vec<u16> = (0..sc.leaders.len() as u16)
            .filter(|&l| {
                sc.leaders[usize::from(l)].side == side
                    && st.leaders[usize::from(l)]
                        .hex
                        .is_some_and(|h| hexes.contains(&h))
            })
            .collect();
        for l in ls {
            crate::leaders::loss_check(sc, st, l, crate::leaders::Cause::CloseCombatOrMorale, ev);
        }
    }
    let stack: Vec<UnitIx> = stack.iter().copied().filter(|&u| st.on_map(u)).collect();
    if o.passed || stack.is_empty() {
        return;
    }
    if shaken {
        ev.push(Event::State {
            units: stack
                .iter()
                .map(|&u| sc.units[usize::from(u)].name.clone())
                .collect(),
            state: "routed".into(),
            rule: "19.1c",
        });
        rout(sc, st, &stack, from, out);
    } else {
        for &u in &stack {
            st.units[usize::from(u)].shaken = true;
        }
        ev.push(Event::State {
            units: stack
                .iter()
                .map(|&u| sc.units[usize::from(u)].name.clone())
                .collect(),
            state: "shaken".into(),
            rule: "19.1c",
        });
    }
}

/// Rout units: a rout retreat job away from `from` (artillery is eliminated by it, 20.2e).
fn rout(sc: &Scenario, st: &mut State, units: &[UnitIx], from: &[HexId], out: &mut Outcome) {
    let _ = sc;
    for &u in units {
        st.units[usize::from(u)].routed = true;
        out.routed.push(u);
    }
    st.jobs.push(Job::Rout {
        units: units.to_vec(),
        from: from.to_vec(),
    });
}

/// Apply `n` SP of fire losses to the target stack (12.9b: from the top unit down; 12.9c: the
/// movers are first; 12.9g: artillery on infantry — the infantry takes the 1st, 3rd… loss, the
/// artillery the 2nd, 4th…, halved after distribution when 12.9f applies). Returns the SPs
/// actually lost.
fn distribute(
    sc: &Scenario,
    st: &mut State,
    target: &[UnitIx],
    n: u8,
    halve_guns: bool,
    ev: &mut Vec<Event>,
) -> u8 {
    if n == 0 {
        return 0;
    }
    let order: Vec<UnitIx> = target.to_vec();
    let guns: Vec<UnitIx> = order
        .iter()
        .copied()
        .filter(|&u| arm(sc, u) == Arm::Artillery)
        .collect();
    let troops: Vec<UnitIx> = order
        .iter()
        .copied()
        .filter(|&u| arm(sc, u) != Arm::Artillery)
        .collect();
    let guns_on_top = !guns.is_empty()
        && !troops.is_empty()
        && order.first().is_some_and(|&u| arm(sc, u) == Arm::Artillery);
    let mut plan: Vec<(UnitIx, u8)> = Vec::new();
    let take = |pool: &[UnitIx], k: u8, plan: &mut Vec<(UnitIx, u8)>| {
        let mut k = k;
        for &u in pool {
            if k == 0 {
                break;
            }
            let had: u8 = plan.iter().filter(|x| x.0 == u).map(|x| x.1).sum();
            let cap = current_sp(sc, st, u).saturating_sub(had);
            let m = cap.min(k);
            if m > 0 {
                plan.push((u, m));
                k -= m;
            }
        }
    };
    let halve = |k: u8| if halve_guns { k / 2 } else { k };
    if guns_on_top {
        let inf = n.div_ceil(2);
        let art = halve(n / 2);
        take(&troops, inf, &mut plan);
        take(&guns, art, &mut plan);
    } else if troops.is_empty() {
        take(&guns, halve(n), &mut plan);
    } else {
        take(&order, n, &mut plan);
    }
    if halve_guns && !guns.is_empty() {
        ev.push(Event::Fire {
            army: String::new(),
            text: "artillery fired on only by artillery beyond its minimum range: its losses halved, fractions dropped (12.9f)".into(),
        });
    }
    let mut lost = 0u8;
    for (u, k) in plan {
        let before = current_sp(sc, st, u);
        crate::retreat::lose(sc, st, u, k, "fire", "12.9", ev);
        lost += before - current_sp(sc, st, u);
    }
    // 12.9j: a line too weak for its length contracts; a square below 3 SP becomes a line (8.4g).
    contract(sc, st, target, ev);
    lost
}

/// 12.9j, 11.5i: involuntary contraction of a multi-hex formation that its SPs no longer fill;
/// 8.4g: a square below 3 SP becomes a disordered line whose owner then picks its facing. Also
/// after the SP a morale check's special result takes (19.1a): a formation its SPs no longer fill
/// cannot stand (8.1a, 8.1d; docs/bar-formations.md).
/// The whole stack contracts, also friends in its hexes that were not part of `target` (a unit
/// of a stack that tested alone, 19.10d).
pub(crate) fn contract(sc: &Scenario, st: &mut State, target: &[UnitIx], ev: &mut Vec<Event>) {
    let mut alive: Vec<UnitIx> = target.iter().copied().filter(|&u| st.on_map(u)).collect();
    let Some(&u0) = alive.first() else { return };
    let s0 = st.units[usize::from(u0)].clone();
    let side = sc.units[usize::from(u0)].side;
    for (i, o) in st.units.iter().enumerate() {
        let u = i as UnitIx;
        if !alive.contains(&u)
            && !o.eliminated
            && o.routed == s0.routed
            && o.hexes == s0.hexes
            && sc.units[i].side == side
        {
            alive.push(u);
        }
    }
    if s0.formation == Formation::Square
        && let Some(b) = crate::formation::square_below_minimum(sc, st, &alive)
    {
        for &u in &alive {
            let s = &mut st.units[usize::from(u)];
            if arm(sc, u) == Arm::Infantry {
                s.formation = Formation::Line;
            }
            s.disordered = true;
            s.shaken |= b.shaken;
        }
        ev.push(Event::State {
            units: alive
                .iter()
                .map(|&u| sc.units[usize::from(u)].name.clone())
                .collect(),
            state: "below 3 SP: the square becomes a disordered line".into(),
            rule: "8.4g, 12.9j",
        });
        if let Some(&t) = alive.iter().find(|&&u| arm(sc, u) == Arm::Infantry) {
            st.jobs.insert(0, Job::LineFacing(t));
        }
        return;
    }
    if s0.hexes.len() > 1 {
        let lens = crate::formation::lengths(sc, st, &alive, s0.formation);
        if !lens.contains(&s0.hexes.len())
            && let Some(len) = (1..s0.hexes.len()).rev().find(|l| lens.contains(l))
        {
            for &u in &alive {
                st.units[usize::from(u)].hexes.truncate(len);
            }
            ev.push(Event::State {
                units: alive
                    .iter()
                    .map(|&u| sc.units[usize::from(u)].name.clone())
                    .collect(),
                state: format!(
                    "contracts to {len} hex{} (too few SP)",
                    if len == 1 { "" } else { "es" }
                ),
                rule: "12.9j, 11.5i",
            });
        }
    }
}

// ------------------------------------------------------------------ the fire phase (12.1)

/// Begin the fire phase of the activation: a decision if any activated unit can fire, else on
/// to movement.
pub fn begin(sc: &Scenario, st: &mut State, ev: &mut Vec<Event>) -> Phase {
    let f = FirePhase::default();
    if targets_upto(sc, st, &f, 1).is_empty() {
        if let Some(act) = &st.activation {
            ev.push(Event::Fire {
                army: sc.armies[usize::from(act.side)].name.clone(),
                text: "fire phase: no activated unit has an enemy in arc, range and sight (12.1) — on to movement".into(),
            });
        }
        return crate::movement::begin(sc, st, ev);
    }
    Phase::Fire(Box::new(f))
}

fn active_side(st: &State) -> u8 {
    st.activation.as_ref().map_or(0, |a| a.side)
}

/// Whether a unit that has fired from `fired` (its earlier fires' hexes this phase) may fire
/// from `h` once more: a unit fires once, a 2-hex line once from each hex (12.2h, 13.10c), a
/// square at up to three targets (12.2g, 13.10c).
pub fn fires_again(st: &State, u: UnitIx, fired: &[HexId], h: HexId) -> bool {
    let s = &st.units[usize::from(u)];
    match s.formation {
        Formation::Square => fired.len() < 3,
        Formation::Line if s.hexes.len() == 2 => !fired.contains(&h),
        _ => fired.is_empty(),
    }
}

/// Activated units that may still fire from `hex` (12.2c). The guns stacked with a 2-hex line
/// fire with it at two targets when they split their SPs (12.4c, E37: "one fire attack could
/// have 1 artillery SP … and the other 1 artillery SP"), from either hex (12.4e); what they have
/// left is `FirePhase::spent`'s business.
fn unfired(st: &State, f: &FirePhase, u: UnitIx, h: HexId) -> bool {
    let from: Vec<HexId> = f.fired.iter().filter(|x| x.0 == u).map(|x| x.1).collect();
    fires_again(st, u, &from, h) || (split_guns(st, u) && from.len() < 2)
}

/// Unlimbered guns stacked with a 2-hex line (10.4d: on no particular hex of it), which may split
/// their SPs between the line's two targets (12.4c, E37).
fn split_guns(st: &State, u: UnitIx) -> bool {
    let s = &st.units[usize::from(u)];
    s.formation == Formation::Unlimbered && s.hexes.len() == 2
}

/// The activated groups that may fire at a target now, of one type.
fn candidates(
    sc: &Scenario,
    st: &State,
    f: &FirePhase,
    target: UnitIx,
    artillery: bool,
) -> Vec<Group> {
    let side = active_side(st);
    let Some(act) = &st.activation else {
        return Vec::new();
    };
    let tstack = stack(sc, st, target);
    let groups = groups_at(sc, st, side, &tstack, FireKind::Regular);
    candidates_of(sc, st, f, act, groups, artillery)
}

/// [`candidates`] among the groups that can fire at the target's stack.
fn candidates_of(
    sc: &Scenario,
    st: &State,
    f: &FirePhase,
    act: &crate::state::Activation,
    groups: Vec<Group>,
    artillery: bool,
) -> Vec<Group> {
    groups
        .into_iter()
        .filter_map(|mut g| {
            g.units.retain(|&u| {
                act.includes(u)
                    && (arm(sc, u) == Arm::Artillery) == artillery
                    && unfired(st, f, u, g.hex)
            });
            if g.units.is_empty() {
                return None;
            }
            if !f.spent.is_empty() {
                // 12.3c: what this phase's earlier fires left of the stack's limit.
                let left: u8 = firing_sp(sc, st, &g, &f.spent).iter().map(|x| x.1).sum();
                if left == 0 {
                    return None;
                }
                g.sp = Some(left);
            }
            Some(g)
        })
        .collect()
}

/// The targets (one unit per enemy stack) and types that some activated group can fire at.
fn targets(sc: &Scenario, st: &State, f: &FirePhase) -> Vec<(UnitIx, bool)> {
    targets_upto(sc, st, f, usize::MAX)
}

/// [`targets`], stopping once `enough` are found.
fn targets_upto(sc: &Scenario, st: &State, f: &FirePhase, enough: usize) -> Vec<(UnitIx, bool)> {
    let side = active_side(st);
    let Some(act) = &st.activation else {
        return Vec::new();
    };
    let mut seen: Vec<Hexes> = Vec::new();
    let mut out = Vec::new();
    // The activated side's firers, found once for every target stack (none fires before the end).
    let mut shooters: Option<Vec<(UnitIx, &WeaponRow)>> = None;
    // Where the activated firers stand and how far they reach: a stack beyond the reach of all of
    // them is no target (only activated units fire, `candidates_of`).
    let mut reaches: Option<Vec<(Hexes, u32)>> = None;
    for u in 0..st.units.len() as UnitIx {
        if sc.units[usize::from(u)].side == side || !st.on_map(u) {
            continue;
        }
        let hexes = st.units[usize::from(u)].hexes;
        if seen.contains(&hexes) {
            continue;
        }
        seen.push(hexes);
        let reaches = reaches.get_or_insert_with(|| {
            shooters
                .get_or_insert_with(|| firers(sc, st, side))
                .iter()
                .filter(|(x, _)| act.includes(*x))
                .map(|(x, w)| (st.units[usize::from(*x)].hexes, u32::from(w.max_range())))
                .collect()
        });
        if !reaches.iter().any(|(fh, r)| {
            fh.iter()
                .any(|a| hexes.iter().any(|b| a.distance(*b) <= *r))
        }) {
            continue;
        }
        let tstack = stack(sc, st, u);
        let top = tstack[0];
        // The groups within reach of the stack, once for both types of fire.
        let mut groups: Option<Vec<Group>> = None;
        for art in [false, true] {
            let already = tstack.iter().any(|x| f.targeted.contains(&(*x, art)));
            if already {
                continue;
            }
            let g = groups
                .get_or_insert_with(|| {
                    let shooters = shooters.get_or_insert_with(|| firers(sc, st, side));
                    groups_among(sc, st, shooters, &tstack, FireKind::Regular)
                })
                .clone();
            if !candidates_of(sc, st, f, act, g, art).is_empty() {
                out.push((top, art));
                if out.len() >= enough {
                    return out;
                }
            }
        }
    }
    out
}

/// The legal actions of the fire phase.
pub fn legal(sc: &Scenario, st: &State, f: &FirePhase) -> Vec<Action> {
    if let Some((stk, hexes)) = &f.ret {
        // 12.10: the returning stack fires at the nearest original firing hex (ties: its owner).
        let mut out = Vec::new();
        if let Some(&u) = stk.first() {
            let mine = return_groups(sc, st, stk);
            let mut best = u32::MAX;
            let mut near: Vec<HexId> = Vec::new();
            for &h in hexes {
                if let Some(e) = crate::stacking::units_at(st, h).first() {
                    let es = stack(sc, st, *e);
                    if !mine.iter().any(|g| part(sc, st, g, &es, &[]).is_some()) {
                        continue;
                    }
                    let d = st.units[usize::from(u)]
                        .hexes
                        .iter()
                        .map(|&x| x.distance(h))
                        .min()
                        .unwrap_or(u32::MAX);
                    if d < best {
                        best = d;
                        near.clear();
                    }
                    if d == best {
                        near.push(h);
                    }
                }
            }
            for h in near {
                if let Some(&e) = crate::stacking::units_at(st, h).first() {
                    out.push(Action::ReturnFire(stack(sc, st, e)[0]));
                }
            }
        }
        out.push(Action::Pass);
        return out;
    }
    if let Some(d) = &f.decl {
        let mut out: Vec<Action> = candidates(sc, st, f, d.target, d.artillery)
            .into_iter()
            .filter(|g| !d.groups.iter().any(|x| x.hex == g.hex))
            .filter(|g| {
                // 12.2i: artillery in different hexes combine only within minimum range.
                !d.artillery || d.groups.is_empty() || {
                    let tstack = stack(sc, st, d.target);
                    let mut all = d.groups.clone();
                    all.push(g.clone());
                    all.iter()
                        .all(|x| part(sc, st, x, &tstack, &[]).is_some_and(|p| !p.beyond_min))
                }
            })
            .flat_map(|g| {
                let mut v = vec![Action::FireWith(g.hex)];
                // 12.4c (E37): guns with a 2-hex line that have not fired may give part of their
                // SPs (1 up to all but one) to this fire and keep the rest for another target.
                if d.artillery
                    && g.units
                        .iter()
                        .all(|&u| split_guns(st, u) && !f.fired.iter().any(|x| x.0 == u))
                {
                    let all: u8 = firing_sp(sc, st, &g, &f.spent).iter().map(|x| x.1).sum();
                    v.extend((1..all).map(|n| Action::FireGuns(g.hex, n)));
                }
                v
            })
            .collect();
        // 12.1: no fire below 1:3 (the player may add firers first).
        let tstack = stack(sc, st, d.target);
        let lowest = charts(sc)
            .and_then(|c| c.results.columns.first())
            .and_then(|h| crate::charts::fire::ratio_value(h))
            .unwrap_or(1.0 / 3.0);
        if ratio(sc, st, &d.groups, &tstack).is_some_and(|r| r + 1e-9 >= lowest) {
            out.push(Action::FireResolve);
        }
        out.push(Action::FireCancel);
        return out;
    }
    let mut out: Vec<Action> = targets(sc, st, f)
        .into_iter()
        .map(|(u, a)| Action::FireAt(u, a))
        .collect();
    out.push(Action::FireDone);
    out
}

/// The groups of a target stack that may return fire (12.10): its infantry if it can fire, else
/// its artillery (12.2e: never both in one fire).
fn return_groups(sc: &Scenario, st: &State, stk: &[UnitIx]) -> Vec<Group> {
    let Some(&u) = stk.first() else {
        return Vec::new();
    };
    let hexes = st.units[usize::from(u)].hexes;
    for art in [false, true] {
        let v: Vec<Group> = hexes
            .iter()
            .map(|&h| Group {
                hex: h,
                units: stk
                    .iter()
                    .copied()
                    .filter(|&x| may_fire(sc, st, x) && (arm(sc, x) == Arm::Artillery) == art)
                    .collect(),
                sp: None,
            })
            .filter(|g| !g.units.is_empty())
            .collect();
        if !v.is_empty() {
            return v;
        }
    }
    Vec::new()
}

/// Apply a fire phase action.
pub fn apply(
    sc: &Scenario,
    st: &mut State,
    mut f: FirePhase,
    a: &Action,
    ev: &mut Vec<Event>,
) -> Phase {
    let army = |s: u8| sc.armies[usize::from(s)].name.clone();
    match a {
        Action::FireDone => {
            ev.push(Event::Fire {
                army: army(active_side(st)),
                text: "ends the fire phase (12.1)".into(),
            });
            crate::movement::note_fired(st, &f.fired);
            crate::movement::begin(sc, st, ev)
        }
        Action::FireAt(t, art) => {
            f.decl = Some(Declared {
                target: *t,
                artillery: *art,
                groups: Vec::new(),
            });
            Phase::Fire(Box::new(f))
        }
        Action::FireWith(h) | Action::FireGuns(h, _) => {
            let found = f.decl.as_ref().and_then(|d| {
                candidates(sc, st, &f, d.target, d.artillery)
                    .into_iter()
                    .find(|g| g.hex == *h)
            });
            if let (Some(d), Some(mut g)) = (f.decl.as_mut(), found) {
                if let Action::FireGuns(_, n) = a {
                    // 12.4c: this fire's share of the guns' SPs.
                    g.sp = Some(g.sp.map_or(*n, |x| x.min(*n)));
                }
                d.groups.push(g);
            }
            Phase::Fire(Box::new(f))
        }
        Action::FireCancel => {
            // A fire given up is not offered again this phase (so the phase always ends).
            if let Some(d) = f.decl.take() {
                for u in stack(sc, st, d.target) {
                    f.targeted.push((u, d.artillery));
                }
            }
            Phase::Fire(Box::new(f))
        }
        Action::FireResolve => {
            let Some(d) = f.decl.take() else {
                return Phase::Fire(Box::new(f));
            };
            let tstack = stack(sc, st, d.target);
            for g in &d.groups {
                for &u in &g.units {
                    f.fired.push((u, g.hex));
                }
            }
            for &u in &tstack {
                f.targeted.push((u, d.artillery));
            }
            for g in &d.groups {
                let sps = firing_sp(sc, st, g, &f.spent);
                f.spent.extend(sps);
            }
            let o = resolve(sc, st, FireKind::Regular, &d.groups, &tstack, ev);
            if o.return_fire {
                let alive: Vec<UnitIx> = tstack
                    .iter()
                    .copied()
                    .filter(|&u| st.on_map(u) && !st.units[usize::from(u)].routed)
                    .collect();
                if !return_groups(sc, st, &alive).is_empty() {
                    f.ret = Some((alive, d.groups.iter().map(|g| g.hex).collect()));
                    let p = FirePhase { ..f };
                    if legal(sc, st, &p).len() > 1 {
                        st.stack.push(Phase::Fire(Box::new(p)));
                        return Phase::Idle;
                    }
                    f = FirePhase { ret: None, ..p };
                    ev.push(Event::Fire {
                        army: army(1 - active_side(st)),
                        text: "'R': no original firer in the target's arc, range and sight — no return fire (12.10)".into(),
                    });
                }
            }
            st.stack.push(Phase::Fire(Box::new(f)));
            Phase::Idle
        }
        Action::ReturnFire(e) => {
            let Some((stk, _)) = f.ret.take() else {
                return Phase::Fire(Box::new(f));
            };
            let es = stack(sc, st, *e);
            let gs = return_groups(sc, st, &stk);
            let gs: Vec<Group> = gs
                .into_iter()
                .filter(|g| part(sc, st, g, &es, &[]).is_some())
                .collect();
            resolve(sc, st, FireKind::Return, &gs, &es, ev);
            st.stack.push(Phase::Fire(Box::new(f)));
            Phase::Idle
        }
        Action::Pass if f.ret.is_some() => {
            f.ret = None;
            ev.push(Event::Fire {
                army: army(1 - active_side(st)),
                text: "does not return fire (12.10)".into(),
            });
            Phase::Fire(Box::new(f))
        }
        _ => Phase::Fire(Box::new(f)),
    }
}

/// Who decides in the fire phase: the active player, or the target's owner for a return fire.
pub fn decider(st: &State, f: &FirePhase) -> u8 {
    if f.ret.is_some() {
        1 - active_side(st)
    } else {
        active_side(st)
    }
}

/// The label of a fire action.
pub fn label(sc: &Scenario, st: &State, a: &Action) -> Option<String> {
    let name = |u: &UnitIx| sc.units[usize::from(*u)].name.clone();
    Some(match a {
        Action::FireAt(t, art) => format!(
            "{} fire at {} ({})",
            if *art { "Artillery" } else { "Infantry" },
            names(sc, &stack(sc, st, *t)),
            sc.board.labels(&st.units[usize::from(*t)].hexes[..], "-")
        ),
        Action::FireWith(h) => format!(
            "Fire with {} from {}",
            names(sc, &crate::stacking::units_at(st, *h)),
            sc.board.label(*h)
        ),
        Action::FireGuns(h, n) => format!(
            "Fire {n} SP of {} from {} (12.4c), the rest kept for another target",
            names(sc, &crate::stacking::units_at(st, *h)),
            sc.board.label(*h)
        ),
        Action::FireResolve => "Resolve the fire".into(),
        Action::FireCancel => "Cancel this fire".into(),
        Action::FireDone => "End the fire phase".into(),
        Action::ReturnFire(u) => format!("Return fire at {}", name(u)),
        Action::OppFire(art, old) => format!(
            "Opportunity fire with {}{}",
            if *art { "artillery" } else { "infantry" },
            if *old {
                " at the aspect before the change (12.8c)"
            } else {
                ""
            }
        ),
        _ => return None,
    })
}

// ------------------------------------------------------------------ opportunity fire (12.8)

/// The reactive groups that may fire at the mover now (12.8a: non-routed, with fire capability;
/// infantry in range, artillery within its minimum range), of one type.
pub fn opportunity_groups(
    sc: &Scenario,
    st: &State,
    side: u8,
    target: &[UnitIx],
    artillery: bool,
) -> Vec<Group> {
    groups_at(sc, st, side, target, FireKind::Opportunity)
        .into_iter()
        .filter_map(|mut g| {
            g.units.retain(|&u| {
                (arm(sc, u) == Arm::Artillery) == artillery
                    && (!artillery || in_close_zone(sc, st, g.hex, u, target))
            });
            (!g.units.is_empty()).then_some(g)
        })
        .collect()
}

/// 12.8: artillery `u` in `hex` makes an opportunity fire only at a target within its minimum
/// range zone (in its arc and sight there).
fn in_close_zone(sc: &Scenario, st: &State, hex: HexId, u: UnitIx, target: &[UnitIx]) -> bool {
    let one = Group {
        hex,
        units: vec![u],
        sp: None,
    };
    let min = weapon(sc, u).and_then(|w| w.min_range).unwrap_or(0);
    aim(sc, st, &one, target, min, false, None).is_some()
}

/// The units of the groups of [`opportunity_groups`] of both types, in one search: every unit
/// that may make an opportunity fire at `target` now (12.8a).
pub fn opportunity_firers(sc: &Scenario, st: &State, side: u8, target: &[UnitIx]) -> Vec<UnitIx> {
    let mut out = Vec::new();
    for g in groups_at(sc, st, side, target, FireKind::Opportunity) {
        for &u in &g.units {
            let keep = arm(sc, u) != Arm::Artillery || in_close_zone(sc, st, g.hex, u, target);
            if keep {
                out.push(u);
            }
        }
    }
    out
}
