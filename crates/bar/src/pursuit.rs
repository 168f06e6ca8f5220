//! Cavalry pursuit (16.0–16.3) and the end of pursuit (10.6g, 10.8b, 10.13b): package 4 (issue 17).
//!
//! Cavalry that advanced after combat into a hex vacated by a routed enemy follows that enemy's
//! rout retreat path (16.1a, 16.2a). The close combat phase queues [`crate::close_combat::Step`]
//! `Pursue` once the advance of a combat is over; it parks itself on the phase stack and the
//! pursuit runs as `Phase::Pursuit` (a decision of the pursuing player at each step), then returns
//! to the combat with `Phase::Idle`.
//!
//! The path is what the routed stack crossed (16.2b): rout retreats begun while a close combat is
//! parked record it in `State::routes` (`note_start`, `note_step`).
//!
//! Per stack (16.1c, in the owner's order): the PP roll (16.2a: d10, halved if disordered, a
//! natural 0 read on T19), the line reduced to one hex and faced toward the path, pursuit movement
//! hex by hex at the SCM cost (16.2b) with −1 SP to the prey per path hex and its elimination when
//! entered (21.4e for its leaders), the end conditions 1–3, one voluntary recall (16.3a), the
//! automatic recall DC (F), exploitation (16.2b: ≤ 2 facing changes at 1 PP, moves into a front
//! hex), then the end of pursuit (16.2c): disorder for a failed recall, separation of an SP excess
//! in rear, flank, front priority (10.8b, 10.13b) and a voluntary reordering (10.6g).
use crate::action::Action;
use crate::checks::{self, Spec, d10};
use crate::close_combat::Combat;
use crate::data::Arm;
use crate::event::Event;
use crate::geom::{Facing, FacingExt as _, Formation, arcs_of};
use crate::scenario::{Scenario, UnitIx};
use crate::state::Hexes;
use crate::state::{LeaderStatus, Phase, State};
use hexmap::{HexId, Vertex};
use serde::{Deserialize, Serialize};

/// A rout retreat's path (16.2b: the string of hexes crossed, including the one it occupies).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Route {
    /// The routed stack.
    pub units: Vec<UnitIx>,
    /// The hex it routed from.
    pub start: HexId,
    /// The hexes it entered, in order.
    pub path: Vec<HexId>,
}

/// Where the one recall attempt of a stack stands (16.3a).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Recall {
    /// None made yet.
    NotYet,
    /// A voluntary attempt passed: pursuit movement ends, no exploitation (16.2b, A46).
    Passed,
    /// A voluntary attempt failed: pursuit goes on, disorder at the end (16.3b).
    Failed,
    /// The automatic check at the end of pursuit movement passed.
    AutoPassed,
    /// The automatic check failed: disorder at the end (16.2c).
    AutoFailed,
    /// Recalled at once by the pursuit special results (T19, 16.2a): no check is made.
    AtOnce,
}

/// The step of a pursuit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// Several stacks may pursue: which goes first (16.1c).
    Order,
    /// Pursuit movement (16.2b): enter the next path hex, or attempt the recall.
    Move,
    /// Exploitation (16.2b).
    Exploit,
    /// End of pursuit: separation of an SP excess (16.2c, 10.8b).
    Separate,
    /// End of pursuit: reordering the stack (10.6g).
    Reorder,
}

/// One pursuing stack.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Chase {
    /// The pursuing units.
    pub units: Vec<UnitIx>,
    /// The routed stack it follows (16.2a).
    pub prey: Vec<UnitIx>,
    /// The retreat path hexes not yet entered.
    pub path: Vec<HexId>,
    /// Pursuit points left.
    pub pp: u8,
    /// PPs spent on pursuit movement.
    pub spent: u8,
    /// The recall (16.3).
    pub recall: Recall,
    /// Exploitation facing changes made (at most 2).
    pub turns: u8,
    /// The PP roll is made and the line reduced (16.2a).
    pub started: bool,
}

/// The pursuits after one close combat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pursuit {
    /// The pursuing side.
    pub side: u8,
    /// Stacks still to pursue; the first is under way once started.
    pub chases: Vec<Chase>,
    /// Where the first stands.
    pub stage: Stage,
}

/// Log a step.
fn log(ev: &mut Vec<Event>, rule: &str, text: String) {
    ev.push(Event::Pursuit {
        rule: rule.to_string(),
        text,
    });
}

fn names(sc: &Scenario, us: &[UnitIx]) -> String {
    crate::close_combat::names(sc, us)
}

fn label(sc: &Scenario, h: HexId) -> String {
    sc.board.label(h)
}

/// Whether rout retreats are recorded now: a close combat is parked on the phase stack.
fn recording(st: &State) -> bool {
    st.stack.iter().any(|p| matches!(p, Phase::CloseCombat(_)))
}

/// A rout retreat begins (20.2): record its start while a close combat is under way.
pub(crate) fn note_start(st: &mut State, units: &[UnitIx]) {
    if !recording(st) {
        return;
    }
    let Some(&h) = units
        .first()
        .and_then(|&u| st.units[usize::from(u)].hexes.first())
    else {
        return;
    };
    st.routes.retain(|r| r.units != units);
    st.routes.push(Route {
        units: units.to_vec(),
        start: h,
        path: Vec::new(),
    });
}

/// A routing stack entered a hex.
pub(crate) fn note_step(st: &mut State, units: &[UnitIx], h: HexId) {
    if let Some(r) = st.routes.iter_mut().find(|r| r.units == units) {
        r.path.push(h);
    }
}

/// The units of a list still on the map, in stacking order.
fn on_map(st: &State, us: &[UnitIx]) -> Vec<UnitIx> {
    let mut v: Vec<UnitIx> = us.iter().copied().filter(|&u| st.on_map(u)).collect();
    v.sort_by_key(|&u| (st.units[usize::from(u)].order, u));
    v
}

/// The SCM cost (11.10, 16.2b) for cavalry to enter `to` from `from`: hex plus hexside, whole
/// points (a half rounds up); `None` if prohibited.
pub(crate) fn scm_cost(sc: &Scenario, from: HexId, to: HexId) -> Option<u8> {
    let info = sc.board.hexes.get(&to)?;
    let t = sc.charts.tec.terrain.get(&info.terrain)?;
    if t.prohibited.contains(&Arm::Cavalry) {
        return None;
    }
    let mut halves = t.scm.points()?.halves();
    if let Some(k) = sc.board.hexside(from, to)
        && let Some(r) = sc.charts.tec.hexside.get(k)
    {
        if r.prohibited.contains(&Arm::Cavalry) {
            return None;
        }
        halves += r.scm.points()?.halves();
    }
    u8::try_from(halves.div_ceil(2)).ok()
}

/// Whether cavalry of this formation may stand in the hex (8.0: formations the terrain forbids).
fn formation_ok(sc: &Scenario, h: HexId, f: Formation) -> bool {
    let Some(info) = sc.board.hexes.get(&h) else {
        return false;
    };
    sc.charts.tec.terrain.get(&info.terrain).is_none_or(|t| {
        !t.no_formation
            .iter()
            .any(|x| x == crate::geom::chart_key(f))
    })
}

/// The pursuits after combat `c` (16.1): each stack of cavalry that advanced into a hex vacated by
/// a stack that routed from it, unless shaken, with a non-routed enemy in its ZOC, or the enemy
/// eliminated or retreated before combat (16.1b). The routes of the combat are used up.
pub fn chases(sc: &Scenario, st: &mut State, c: &Combat, ev: &mut Vec<Event>) -> Option<Pursuit> {
    let routes = std::mem::take(&mut st.routes);
    let mut out: Vec<Chase> = Vec::new();
    let mut side = 0;
    for att in [true, false] {
        let (mine, origin, vacated) = if att {
            (&c.attackers, &c.att_hexes, &c.def_hexes)
        } else {
            (&c.defenders, &c.def_hexes, &c.att_hexes)
        };
        let vacated: Vec<HexId> = vacated.iter().flatten().copied().collect();
        for (s, from) in mine.iter().zip(origin) {
            let advanced: Vec<UnitIx> = on_map(st, s)
                .into_iter()
                .filter(|&u| {
                    let us = &st.units[usize::from(u)];
                    sc.units[usize::from(u)].arm == Arm::Cavalry
                        && !us.routed
                        && us.hexes != *from
                        && us.hexes.iter().any(|h| vacated.contains(h))
                })
                .collect();
            for stack in crate::rally::stacks(st, &advanced) {
                let stack = on_map(st, &stack);
                let Some(&top) = stack.first() else { continue };
                side = sc.units[usize::from(top)].side;
                let hexes = st.units[usize::from(top)].hexes;
                let who = names(sc, &stack);
                if stack.iter().any(|&u| st.units[usize::from(u)].shaken) {
                    log(ev, "16.1b", format!("{who}: shaken, no pursuit"));
                    continue;
                }
                let route = routes
                    .iter()
                    .find(|r| hexes.contains(&r.start) && r.units.iter().any(|&u| st.on_map(u)));
                let Some(route) = route else {
                    log(
                        ev,
                        "16.1b",
                        format!(
                            "{who}: no pursuit: {}",
                            if c.withdrew {
                                "the enemy retreated before close combat (13.9a)"
                            } else {
                                "no enemy routed from the hex it advanced into survives"
                            }
                        ),
                    );
                    continue;
                };
                let front = crate::close_combat::front_of(st, top);
                if front
                    .iter()
                    .any(|h| checks::enemy_in(sc, st, side, *h, false))
                {
                    log(
                        ev,
                        "16.1b",
                        format!("{who}: a non-routed enemy in its ZOC, no pursuit"),
                    );
                    continue;
                }
                if route.path.is_empty() {
                    log(
                        ev,
                        "16.1b",
                        format!("{who}: the enemy did not move, no pursuit"),
                    );
                    continue;
                }
                out.push(Chase {
                    units: stack,
                    prey: route.units.clone(),
                    path: route.path.clone(),
                    pp: 0,
                    spent: 0,
                    recall: Recall::NotYet,
                    turns: 0,
                    started: false,
                });
            }
        }
    }
    if out.is_empty() {
        return None;
    }
    Some(Pursuit {
        side,
        stage: if out.len() > 1 {
            Stage::Order
        } else {
            Stage::Move
        },
        chases: out,
    })
}

/// Run the pursuit's automatic steps: the next decision, or `Phase::Idle` once every stack has
/// pursued (the close combat waits on the phase stack).
pub fn run(sc: &Scenario, st: &mut State, mut p: Pursuit, ev: &mut Vec<Event>) -> Phase {
    // Each pass makes progress (a PP spent, a stage left, a stack done); the bound guards a bug.
    for _ in 0..1000 {
        let Some(ch) = p.chases.first() else {
            return Phase::Idle;
        };
        if on_map(st, &ch.units).is_empty() {
            next_chase(&mut p);
            continue;
        }
        match p.stage {
            Stage::Order => {
                if p.chases.len() > 1 {
                    return Phase::Pursuit(Box::new(p));
                }
                p.stage = Stage::Move;
            }
            Stage::Move => {
                if !p.chases[0].started {
                    start(sc, st, &mut p.chases[0], ev);
                    continue;
                }
                let ch = &p.chases[0];
                if ch.pp == 0 {
                    end_movement(sc, st, &mut p, false, ev);
                    continue;
                }
                if let Some(why) = blocked(sc, st, ch) {
                    log(
                        ev,
                        "16.2b",
                        format!(
                            "{}: the retreat path is blocked ({why}): pursuit movement ends",
                            names(sc, &on_map(st, &ch.units))
                        ),
                    );
                    end_movement(sc, st, &mut p, true, ev);
                    continue;
                }
                return Phase::Pursuit(Box::new(p));
            }
            Stage::Exploit => {
                let opts = exploit_options(sc, st, &p.chases[0]);
                if p.chases[0].pp == 0 || opts.len() <= 1 {
                    log(
                        ev,
                        "16.2b",
                        format!(
                            "{}: exploitation over ({})",
                            names(sc, &on_map(st, &p.chases[0].units)),
                            if p.chases[0].pp == 0 {
                                "no PP left"
                            } else {
                                "no valid move"
                            }
                        ),
                    );
                    end_pursuit(sc, st, &mut p, ev);
                    continue;
                }
                return Phase::Pursuit(Box::new(p));
            }
            Stage::Separate => {
                let ch = &p.chases[0];
                let us = on_map(st, &ch.units);
                let Some(&h) = us
                    .first()
                    .and_then(|&u| st.units[usize::from(u)].hexes.first())
                else {
                    next_chase(&mut p);
                    continue;
                };
                if crate::stacking::legal_at(sc, st, h).is_ok() {
                    p.stage = Stage::Reorder;
                    continue;
                }
                if separations(sc, st, &us).is_empty() {
                    log(
                        ev,
                        "16.2c",
                        format!(
                            "{}: over the stacking limit in {} but no vacant hex to separate into: the stack stays as it is",
                            names(sc, &us),
                            label(sc, h)
                        ),
                    );
                    p.stage = Stage::Reorder;
                    continue;
                }
                return Phase::Pursuit(Box::new(p));
            }
            Stage::Reorder => {
                let us = stack_here(st, &p.chases[0]);
                if us.len() > 1 {
                    return Phase::Pursuit(Box::new(p));
                }
                next_chase(&mut p);
            }
        }
    }
    Phase::Idle
}

/// The pursuing units still in the hex of the first (the stack, after any separation).
fn stack_here(st: &State, ch: &Chase) -> Vec<UnitIx> {
    let us = on_map(st, &ch.units);
    let Some(&top) = us.first() else {
        return us;
    };
    let hexes = st.units[usize::from(top)].hexes;
    us.into_iter()
        .filter(|&u| st.units[usize::from(u)].hexes == hexes)
        .collect()
}

/// The next stack pursues (16.1c).
fn next_chase(p: &mut Pursuit) {
    if !p.chases.is_empty() {
        p.chases.remove(0);
    }
    p.stage = if p.chases.len() > 1 {
        Stage::Order
    } else {
        Stage::Move
    };
}

/// 16.2a: the PP roll, the line reduced to the hex it advanced into, the facing toward the first
/// hex of the path.
fn start(sc: &Scenario, st: &mut State, ch: &mut Chase, ev: &mut Vec<Event>) {
    ch.started = true;
    let us = on_map(st, &ch.units);
    let Some(&top) = us.first() else { return };
    let side = sc.units[usize::from(top)].side;
    let who = names(sc, &us);
    let die = d10(st);
    let mut text = format!("{who}: pursuit points d10 {die}");
    let mut pp = die;
    if die != 0
        && let Some((l, m)) = leader_modifier(sc, st, side, &st.units[usize::from(top)].hexes)
    {
        pp = u8::try_from((i16::from(die) + i16::from(m)).max(0)).unwrap_or(0);
        text += &format!(" {m:+} {} (leader, 16.2a)", sc.leaders[usize::from(l)].name);
    }
    if die == 0 {
        let again = d10(st);
        let row = sc
            .charts
            .combat
            .as_ref()
            .and_then(|c| c.pursuit_for(again))
            .cloned();
        pp = row
            .as_ref()
            .and_then(|r| r.pp)
            .unwrap_or(again)
            .saturating_add(row.as_ref().map_or(0, |r| r.pp_bonus));
        text += &format!(
            ", a natural 0: re-roll {again} on the pursuit special results (T19): {}",
            row.as_ref().map_or("the re-roll", |r| r.text.as_str())
        );
        if row.as_ref().is_some_and(|r| r.disorder) {
            for &u in &us {
                st.units[usize::from(u)].disordered = true;
            }
            text += "; disordered at once";
        }
        if row.as_ref().is_some_and(|r| r.recalled) {
            // T19: the recall is the table's, not an attempt: no check now or at the end.
            ch.recall = Recall::AtOnce;
            text += "; recalled at once, no recall check (16.3)";
        }
        if row.as_ref().is_some_and(|r| r.leader_check) {
            let hexes = st.units[usize::from(top)].hexes;
            for l in crate::close_combat::leaders_in(sc, st, side, &hexes) {
                crate::leaders::loss_check(
                    sc,
                    st,
                    l,
                    crate::leaders::Cause::CloseCombatOrMorale,
                    ev,
                );
            }
        }
    }
    if us.iter().any(|&u| st.units[usize::from(u)].disordered) {
        let half = pp.div_ceil(2);
        text += &format!(" = {pp}, disordered: halved (rounded) to {half}");
        pp = half;
    } else {
        text += &format!(" = {pp} PP");
    }
    ch.pp = pp;
    log(ev, "16.2a", text);
    // The line shrinks to one of its hexes: the one the prey vacated (A-decision in
    // docs/bar-pursuit.md); stacking is waived until the end of the pursuit.
    let hexes = st.units[usize::from(top)].hexes;
    if hexes.len() > 1 {
        let keep = hexes
            .iter()
            .copied()
            .find(|h| ch.path.first().is_some_and(|p| p.is_adjacent(*h)))
            .unwrap_or(hexes[0]);
        for &u in &us {
            st.units[usize::from(u)].hexes = Hexes::one(keep);
        }
        move_leaders(sc, st, side, &hexes, keep);
        log(
            ev,
            "16.2a",
            format!("{who}: the line is reduced to {}", label(sc, keep)),
        );
    }
    let Some(&first) = ch.path.first() else {
        return;
    };
    if !crate::close_combat::front_of(st, top).contains(&first) {
        let here = st.units[usize::from(top)].hexes;
        if let Some(f) = facings_toward(&here, first).first() {
            for &u in &us {
                st.units[usize::from(u)].facing = *f;
            }
            log(
                ev,
                "16.2a",
                format!(
                    "{who} face {} toward {}, the first hex of the retreat path",
                    f.name(),
                    label(sc, first)
                ),
            );
        }
    }
}

/// The leader modifier to the PP roll (16.2a): of the pursuing side's leaders stacked with the
/// cavalry, the one with the largest modifier (his own `pp_modifier`, else the charts'
/// `pursuit_leader` for his kind); none when that is 0 or below (the book says a leader *may*
/// modify the roll: the pursuing player would not take a worse one).
fn leader_modifier(
    sc: &Scenario,
    st: &State,
    side: u8,
    hexes: &[HexId],
) -> Option<(crate::scenario::LeaderIx, i8)> {
    let chart = sc.charts.combat.as_ref()?.pursuit_leader.as_ref();
    crate::close_combat::leaders_in(sc, st, side, hexes)
        .into_iter()
        .map(|l| {
            let x = &sc.leaders[usize::from(l)];
            (
                l,
                x.pp_modifier.or(chart.map(|c| c.of(x.kind))).unwrap_or(0),
            )
        })
        .filter(|&(_, m)| m > 0)
        .max_by_key(|&(l, m)| (m, std::cmp::Reverse(l)))
}

/// The hexpoint facings of a one-hex unit with `to` in its front (a pursuer is cavalry, never a
/// hook, 8.1b: its front is a line's).
fn facings_toward(here: &[HexId], to: HexId) -> Vec<Facing> {
    Vertex::ALL
        .iter()
        .map(|&v| Facing::Point(v))
        .filter(|&f| crate::geom::in_front_of(here, f, Formation::Line, to))
        .collect()
}

/// Leaders of `side` in `from` go to `to` (21.2c).
fn move_leaders(sc: &Scenario, st: &mut State, side: u8, from: &[HexId], to: HexId) {
    for (i, l) in st.leaders.iter_mut().enumerate() {
        if sc.leaders[i].side == side
            && l.status == LeaderStatus::Present
            && l.hex.is_some_and(|h| from.contains(&h))
        {
            l.hex = Some(to);
        }
    }
}

/// Why the next path hex may not be entered (16.2b condition 3), if so.
fn blocked(sc: &Scenario, st: &State, ch: &Chase) -> Option<&'static str> {
    let us = on_map(st, &ch.units);
    let &top = us.first()?;
    let here = *st.units[usize::from(top)].hexes.first()?;
    let Some(&next) = ch.path.first() else {
        return Some("no path left");
    };
    let side = sc.units[usize::from(top)].side;
    if crate::close_combat::front_of(st, top)
        .iter()
        .any(|h| checks::enemy_in(sc, st, side, *h, false))
    {
        return Some("a non-routed enemy in its ZOC");
    }
    match scm_cost(sc, here, next) {
        None => return Some("prohibited to special cavalry movement"),
        Some(c) if c > ch.pp => return Some("not enough PP"),
        _ => {}
    }
    if crate::stacking::units_at(st, next)
        .iter()
        .any(|u| !ch.prey.contains(u))
    {
        return Some("another unit in the hex");
    }
    None
}

/// The facings on offer for entering the next path hex (16.2b: toward a front hex on the hex
/// after it; the last hex keeps the facing of entry).
fn pursue_options(sc: &Scenario, st: &State, ch: &Chase) -> Vec<Facing> {
    if ch.pp == 0 || blocked(sc, st, ch).is_some() {
        return Vec::new();
    }
    let us = on_map(st, &ch.units);
    let Some(&top) = us.first() else {
        return Vec::new();
    };
    let prey_at = on_map(st, &ch.prey)
        .first()
        .and_then(|&u| st.units[usize::from(u)].hexes.first().copied());
    match (ch.path.first(), ch.path.get(1)) {
        (Some(&next), Some(&after)) if prey_at != Some(next) => facings_toward(&[next], after),
        _ => vec![st.units[usize::from(top)].facing],
    }
}

/// Pursuit movement is over (16.2b): the recall DC (F) if none was attempted; exploitation if
/// it ended by condition 2 or 3 with ≥ 1 PP spent and ≥ 1 left, and no successful voluntary
/// recall (A46).
fn end_movement(
    sc: &Scenario,
    st: &mut State,
    p: &mut Pursuit,
    may_exploit: bool,
    ev: &mut Vec<Event>,
) {
    let ch = &mut p.chases[0];
    if ch.recall == Recall::NotYet {
        let passed = recall_check(sc, st, ch, "Recall at the end of pursuit movement", ev);
        ch.recall = if passed {
            Recall::AutoPassed
        } else {
            Recall::AutoFailed
        };
    }
    if matches!(
        ch.recall,
        Recall::Passed | Recall::AutoPassed | Recall::AtOnce
    ) && ch.spent == 0
    {
        // 17.3e: a mover of an opportunity charge's combat recalled before any PP.
        crate::opportunity_charge::note_recall(st, &ch.units);
    }
    let exploit = may_exploit && ch.spent >= 1 && ch.pp >= 1 && ch.recall != Recall::Passed;
    if exploit {
        log(
            ev,
            "16.2b",
            format!(
                "{}: {} PP left for exploitation",
                names(sc, &on_map(st, &ch.units)),
                ch.pp
            ),
        );
        p.stage = Stage::Exploit;
    } else {
        end_pursuit(sc, st, p, ev);
    }
}

/// The recall disorder check (F) of a pursuing stack (16.3c); whether it passed.
fn recall_check(
    sc: &Scenario,
    st: &mut State,
    ch: &Chase,
    what: &str,
    ev: &mut Vec<Event>,
) -> bool {
    let us = on_map(st, &ch.units);
    if us.is_empty() {
        return true;
    }
    let mut o = checks::roll(sc, st, &us, Spec::dc('F', what, "16.3").with(&["recall"]));
    o.event.result = if o.passed {
        "recalled".into()
    } else {
        "not recalled: disordered at the end of the pursuit (16.3b)".into()
    };
    ev.push(Event::Check(o.event.clone()));
    crate::close_combat::special_effects(sc, st, &us, &o, ev);
    o.passed
}

/// 16.2c: the disorder of a failed recall, then the separation and reordering steps.
fn end_pursuit(sc: &Scenario, st: &mut State, p: &mut Pursuit, ev: &mut Vec<Event>) {
    let ch = &p.chases[0];
    let us = on_map(st, &ch.units);
    if matches!(ch.recall, Recall::Failed | Recall::AutoFailed) && !us.is_empty() {
        let already = us.iter().any(|&u| st.units[usize::from(u)].disordered);
        for &u in &us {
            let s = &mut st.units[usize::from(u)];
            if s.disordered {
                s.shaken = true;
            }
            s.disordered = true;
        }
        log(
            ev,
            "16.2c",
            format!(
                "{}: the failed recall check: {}",
                names(sc, &us),
                if already {
                    "already disordered, now shaken and disordered (16.3b)"
                } else {
                    "disordered"
                }
            ),
        );
    }
    log(ev, "16.2c", format!("{}: end of pursuit", names(sc, &us)));
    p.stage = Stage::Separate;
}

/// Exploitation choices (16.2b): facing changes (≤ 2, 1 PP each), moves into a front hex at the
/// SCM cost (none while an enemy unit is in a front hex; not into a hex prohibited to cavalry or
/// to its formation, nor an occupied one), and the end.
fn exploit_options(sc: &Scenario, st: &State, ch: &Chase) -> Vec<Action> {
    let mut v = Vec::new();
    let us = on_map(st, &ch.units);
    let Some(&top) = us.first() else {
        return vec![Action::ExploitDone];
    };
    let me = &st.units[usize::from(top)];
    let Some(&here) = me.hexes.first() else {
        return vec![Action::ExploitDone];
    };
    let side = sc.units[usize::from(top)].side;
    if ch.pp >= 1 && ch.turns < 2 {
        for v2 in Vertex::ALL {
            let f = Facing::Point(v2);
            if f != me.facing {
                v.push(Action::ExploitTurn(f));
            }
        }
    }
    let front = crate::geom::front_of(&me.hexes, me.facing, me.formation);
    let enemy_front = front
        .iter()
        .any(|h| checks::enemy_in(sc, st, side, *h, true));
    if ch.pp >= 1 && !enemy_front {
        for &h in &front {
            if !crate::stacking::units_at(st, h).is_empty() || !formation_ok(sc, h, me.formation) {
                continue;
            }
            if scm_cost(sc, here, h).is_some_and(|c| c <= ch.pp) {
                v.push(Action::Exploit(h));
            }
        }
    }
    v.push(Action::ExploitDone);
    v
}

/// The separations on offer at the end of pursuit (16.2c, 10.8b): a part of the stack into a
/// vacant adjacent hex, rear hexes first, then flank, then front; no EZOC, no prohibited terrain
/// or hexside; both stacks legal.
fn separations(sc: &Scenario, st: &State, us: &[UnitIx]) -> Vec<(Vec<UnitIx>, HexId)> {
    let Some(&top) = us.first() else {
        return Vec::new();
    };
    let me = &st.units[usize::from(top)];
    let Some(&here) = me.hexes.first() else {
        return Vec::new();
    };
    let side = sc.units[usize::from(top)].side;
    let (front, flank, rear) = arcs_of(&me.hexes, me.facing, me.formation);
    let n = us.len().min(8);
    for class in [rear, flank, front] {
        let mut out = Vec::new();
        for h in class {
            if !crate::stacking::units_at(st, h).is_empty()
                || crate::command::ezoc(sc, st, side, h)
                || scm_cost(sc, here, h).is_none()
                || !formation_ok(sc, h, me.formation)
            {
                continue;
            }
            for mask in 1..(1u32 << n) - 1 {
                let part: Vec<UnitIx> = (0..n)
                    .filter(|i| mask & (1 << i) != 0)
                    .map(|i| us[i])
                    .collect();
                let mut tmp = st.clone();
                for &u in &part {
                    tmp.units[usize::from(u)].hexes = Hexes::one(h);
                }
                if crate::stacking::legal_at(sc, &tmp, h).is_ok()
                    && crate::stacking::legal_at(sc, &tmp, here).is_ok()
                {
                    out.push((part, h));
                }
            }
        }
        if !out.is_empty() {
            return out;
        }
    }
    Vec::new()
}

/// Who decides: the pursuing player.
pub fn decider(p: &Pursuit) -> u8 {
    p.side
}

/// The legal actions of the pursuing player.
pub fn legal(sc: &Scenario, st: &State, p: &Pursuit) -> Vec<Action> {
    let Some(ch) = p.chases.first() else {
        return Vec::new();
    };
    match p.stage {
        Stage::Order => p
            .chases
            .iter()
            .filter_map(|c| on_map(st, &c.units).first().copied())
            .map(Action::PursueFirst)
            .collect(),
        Stage::Move => {
            let mut v: Vec<Action> = pursue_options(sc, st, ch)
                .into_iter()
                .map(Action::Pursue)
                .collect();
            if ch.recall == Recall::NotYet {
                v.push(Action::Recall);
            }
            v
        }
        Stage::Exploit => exploit_options(sc, st, ch),
        Stage::Separate => separations(sc, st, &stack_here(st, ch))
            .into_iter()
            .map(|(us, h)| Action::Separate(us, h))
            .collect(),
        Stage::Reorder => {
            let us = stack_here(st, ch);
            let mut v: Vec<Action> = us.iter().skip(1).map(|&u| Action::PursuitTop(u)).collect();
            v.push(Action::PursuitDone);
            v
        }
    }
}

/// Apply the pursuing player's choice and run on.
pub fn apply(
    sc: &Scenario,
    st: &mut State,
    mut p: Pursuit,
    a: &Action,
    ev: &mut Vec<Event>,
) -> Phase {
    match (p.stage, a) {
        (Stage::Order, Action::PursueFirst(u)) => {
            if let Some(i) = p
                .chases
                .iter()
                .position(|c| on_map(st, &c.units).first() == Some(u))
            {
                let c = p.chases.remove(i);
                p.chases.insert(0, c);
            }
            p.stage = Stage::Move;
        }
        (Stage::Move, Action::Recall) => {
            let passed = recall_check(sc, st, &p.chases[0], "Recall during the pursuit", ev);
            let ch = &mut p.chases[0];
            if passed {
                ch.recall = Recall::Passed;
                log(
                    ev,
                    "16.3a",
                    format!(
                        "{}: recalled, pursuit movement ends{}",
                        names(sc, &on_map(st, &ch.units)),
                        if ch.spent == 0 {
                            " before any pursuit (16.1b)"
                        } else {
                            ""
                        }
                    ),
                );
                end_movement(sc, st, &mut p, false, ev);
            } else {
                ch.recall = Recall::Failed;
                log(
                    ev,
                    "16.3b",
                    format!(
                        "{}: the recall fails, the pursuit goes on",
                        names(sc, &on_map(st, &ch.units))
                    ),
                );
            }
        }
        (Stage::Move, Action::Pursue(f)) => enter(sc, st, &mut p, *f, ev),
        (Stage::Exploit, Action::ExploitTurn(f)) => {
            let ch = &mut p.chases[0];
            let us = on_map(st, &ch.units);
            for &u in &us {
                st.units[usize::from(u)].facing = *f;
            }
            ch.pp = ch.pp.saturating_sub(1);
            ch.turns += 1;
            log(
                ev,
                "16.2b",
                format!(
                    "{} exploit: face {} for 1 PP ({} left)",
                    names(sc, &us),
                    f.name(),
                    ch.pp
                ),
            );
        }
        (Stage::Exploit, Action::Exploit(h)) => {
            let ch = &mut p.chases[0];
            let us = on_map(st, &ch.units);
            let Some(&top) = us.first() else {
                return run(sc, st, p, ev);
            };
            let side = sc.units[usize::from(top)].side;
            let from = st.units[usize::from(top)].hexes;
            let cost = from.first().and_then(|&f| scm_cost(sc, f, *h)).unwrap_or(1);
            for &u in &us {
                st.units[usize::from(u)].hexes = Hexes::one(*h);
            }
            move_leaders(sc, st, side, &from, *h);
            ch.pp = ch.pp.saturating_sub(cost);
            let ezoc = crate::command::ezoc(sc, st, side, *h);
            log(
                ev,
                "16.2b",
                format!(
                    "{} exploit into {} for {cost} PP ({} left){}",
                    names(sc, &us),
                    label(sc, *h),
                    ch.pp,
                    if ezoc { "; in an enemy ZOC" } else { "" }
                ),
            );
            if ezoc {
                log(
                    ev,
                    "16.2b",
                    format!("{}: exploitation over (an enemy ZOC)", names(sc, &us)),
                );
                end_pursuit(sc, st, &mut p, ev);
            }
        }
        (Stage::Exploit, Action::ExploitDone) => {
            log(
                ev,
                "16.2b",
                format!(
                    "{}: the player ends the exploitation",
                    names(sc, &on_map(st, &p.chases[0].units))
                ),
            );
            end_pursuit(sc, st, &mut p, ev);
        }
        (Stage::Separate, Action::Separate(part, h)) => {
            let us = stack_here(st, &p.chases[0]);
            for &u in part {
                st.units[usize::from(u)].hexes = Hexes::one(*h);
            }
            log(
                ev,
                "16.2c, 10.8b",
                format!(
                    "{} over the stacking limit: {} separate{} into {}",
                    names(sc, &us),
                    names(sc, part),
                    if part.len() == 1 { "s" } else { "" },
                    label(sc, *h)
                ),
            );
        }
        (Stage::Reorder, Action::PursuitTop(u)) => {
            let us = stack_here(st, &p.chases[0]);
            let numbers: Vec<u16> = us.iter().map(|&x| st.units[usize::from(x)].order).collect();
            let mut new = vec![*u];
            new.extend(us.iter().copied().filter(|x| x != u));
            for (x, n) in new.into_iter().zip(numbers) {
                st.units[usize::from(x)].order = n;
            }
            log(
                ev,
                "10.6g",
                format!(
                    "{} goes on top of the pursuing stack",
                    sc.units[usize::from(*u)].name
                ),
            );
            next_chase(&mut p);
        }
        (Stage::Reorder, Action::PursuitDone) => next_chase(&mut p),
        _ => {}
    }
    run(sc, st, p, ev)
}

/// Enter the next retreat path hex (16.2b): pay its SCM cost, face as chosen; the prey loses 1 SP,
/// or is eliminated when the hex is its own; then the end conditions.
fn enter(sc: &Scenario, st: &mut State, p: &mut Pursuit, f: Facing, ev: &mut Vec<Event>) {
    let ch = &mut p.chases[0];
    let us = on_map(st, &ch.units);
    let (Some(&top), Some(&next)) = (us.first(), ch.path.first()) else {
        return;
    };
    let side = sc.units[usize::from(top)].side;
    let from = st.units[usize::from(top)].hexes;
    let cost = from
        .first()
        .and_then(|&h| scm_cost(sc, h, next))
        .unwrap_or(1);
    ch.path.remove(0);
    ch.pp = ch.pp.saturating_sub(cost);
    ch.spent = ch.spent.saturating_add(cost);
    for &u in &us {
        st.units[usize::from(u)].hexes = Hexes::one(next);
        st.units[usize::from(u)].facing = f;
    }
    move_leaders(sc, st, side, &from, next);
    log(
        ev,
        "16.2b",
        format!(
            "{} pursue into {} for {cost} PP ({} left), facing {}",
            names(sc, &us),
            label(sc, next),
            ch.pp,
            f.name()
        ),
    );
    let prey = on_map(st, &ch.prey);
    let prey_hex = prey
        .first()
        .and_then(|&u| st.units[usize::from(u)].hexes.first().copied());
    let mut eliminated = prey.is_empty();
    if let Some(ph) = prey_hex {
        let prey_side = sc.units[usize::from(prey[0])].side;
        if ph == next {
            for &u in &prey {
                crate::retreat::eliminate(sc, st, u, "caught by the pursuing cavalry (16.2b)", ev);
            }
            eliminated = true;
        } else {
            // 14.2b by analogy: the largest unit of the stack.
            let u = prey
                .iter()
                .copied()
                .max_by_key(|&u| (checks::current_sp(sc, st, u), std::cmp::Reverse(u)))
                .unwrap_or(prey[0]);
            crate::retreat::lose(
                sc,
                st,
                u,
                1,
                "pursued, a retreat path hex entered",
                "16.2b",
                ev,
            );
            eliminated = on_map(st, &ch.prey).is_empty();
        }
        if eliminated {
            // 21.4e: the leaders who retreated with it.
            crate::close_combat::leaders_left_alone(sc, st, &[ph], prey_side, ev);
            log(
                ev,
                "16.2b",
                format!("{} eliminated: pursuit movement ends", names(sc, &ch.prey)),
            );
        }
    }
    let ezoc = crate::command::ezoc(sc, st, side, next);
    if ch.pp == 0 || ezoc {
        log(
            ev,
            "16.2b",
            format!(
                "{}: {}: pursuit movement ends, no free movement",
                names(sc, &us),
                if ezoc {
                    "in an enemy ZOC"
                } else {
                    "no PP left"
                }
            ),
        );
        end_movement(sc, st, p, false, ev);
    } else if eliminated {
        end_movement(sc, st, p, true, ev);
    }
}

/// The label of a pursuit action, for people.
pub fn label_of(sc: &Scenario, a: &Action) -> Option<String> {
    let u = |x: &UnitIx| sc.units[usize::from(*x)].name.clone();
    Some(match a {
        Action::PursueFirst(x) => format!("The stack of {} pursues first (16.1c)", u(x)),
        Action::Pursue(f) => format!(
            "Pursue into the next hex of the retreat path, facing {} (16.2b)",
            f.name()
        ),
        Action::Recall => "Attempt to recall the pursuing cavalry (16.3)".into(),
        Action::ExploitTurn(f) => format!("Exploitation: face {} for 1 PP (16.2b)", f.name()),
        Action::Exploit(h) => format!("Exploitation: move into {} (16.2b)", sc.board.label(*h)),
        Action::ExploitDone => "End the exploitation (16.2b)".into(),
        Action::Separate(us, h) => format!(
            "{} separate into {} (16.2c, 10.8b)",
            names(sc, us),
            sc.board.label(*h)
        ),
        Action::PursuitTop(x) => format!("{} on top of the stack (10.6g)", u(x)),
        Action::PursuitDone => "Keep the stacking order (10.6g)".into(),
        _ => return None,
    })
}

/// What the pursuing player decides, for people.
pub fn decision_text(p: &Pursuit) -> &'static str {
    match p.stage {
        Stage::Order => "pursuit — which stack pursues first (16.1c)",
        Stage::Move => "pursuit — follow the retreat path or attempt a recall (16.2b, 16.3)",
        Stage::Exploit => "pursuit — exploitation (16.2b)",
        Stage::Separate => "pursuit — separate the stack over the limit (16.2c)",
        Stage::Reorder => "pursuit — reorder the stack (10.6g)",
    }
}
