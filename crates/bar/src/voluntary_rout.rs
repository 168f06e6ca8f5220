//! Voluntary rout (19.10): in a brigade's movement phase, before any unit has moved, the active
//! player may declare infantry and cavalry stacks that rout instead of moving (19.10a–b). Their
//! rout retreats come first (19.10c, 20.2); then every unit entitled to rout that did not, artillery
//! included, tests MC (J) (19.10c) — at +10 if a router of its brigade passed through it, instead of
//! MC (F) (19.10d, 19.9e); other units passed through test (F) as usual (19.10e).
use crate::action::Action;
use crate::checks::{self, Spec};
use crate::command::{LocField, LocMap, Style, holder, loc_map_for};
use crate::data::Arm;
use crate::event::Event;
use crate::scenario::{BrigadeIx, Scenario, UnitIx};
use crate::state::Hexes;
use crate::state::{Job, Phase, State};
use std::collections::HashSet;

/// The units of the activation entitled to rout voluntarily (19.10a), artillery included (it may
/// not rout but tests MC (J), 19.10c): activated, not routed, on the map, within the command range
/// of an activated brigade leader (a LOC he can trace to them, 7.2), whether he is in command or
/// not (7.6c). Units automatically in command (7.5) have no such LOC. Independent units count only
/// when the leader is in command: under an out-of-command leader they rolled unit initiative
/// (7.4c), which 19.10a excludes.
pub fn entitled(sc: &Scenario, st: &State) -> Vec<UnitIx> {
    let Some(act) = &st.activation else {
        return Vec::new();
    };
    let mut out: Vec<UnitIx> = Vec::new();
    // One field of the board per side for every leader's LOC, each LOC traced only when a unit
    // still asks for it.
    let mut fields: [Option<LocField<'_>>; 2] = [None, None];
    for &b in &act.brigades {
        let Some(bl) = holder(st, sc.brigades[usize::from(b)].leader) else {
            continue;
        };
        if st.leaders[usize::from(bl)].hex.is_none() {
            continue;
        }
        let side = sc.leaders[usize::from(bl)].side;
        let leader_ok = !st.leaders[usize::from(bl)].ooc;
        let candidates = || {
            act.units
                .iter()
                .chain(&act.attached)
                .chain(&act.arriving)
                .map(|&u| (u, true))
                .chain(act.independents.iter().map(|&u| (u, leader_ok)))
        };
        let mut map: Option<LocMap<'_>> = None;
        let mut within = |h: &hexmap::HexId| {
            map.get_or_insert_with(|| {
                let field =
                    fields[usize::from(side)].get_or_insert_with(|| LocField::new(sc, st, side));
                // The map is asked only about the candidates' hexes.
                let targets: Vec<hexmap::HexId> = candidates()
                    .flat_map(|(u, _)| st.units[usize::from(u)].hexes)
                    .collect();
                loc_map_for(
                    sc,
                    st,
                    field,
                    bl,
                    Style::Brigade,
                    sc.leaders[usize::from(bl)].range,
                    &targets,
                )
            })
            .contains_key(h)
        };
        for (u, ok) in candidates() {
            let s = &st.units[usize::from(u)];
            if ok
                && st.on_map(u)
                && !s.routed
                && !out.contains(&u)
                && s.hexes.iter().any(&mut within)
            {
                out.push(u);
            }
        }
    }
    out.sort_by_key(|&u| st.units[usize::from(u)].order);
    out
}

/// Whether declarations are still open: a full activation's movement phase before anything has
/// moved (19.10a). In a limited activation only road columns on the road move (6.8b): the rout
/// "instead of moving" is not offered there.
pub fn open(st: &State) -> bool {
    st.activation.as_ref().is_some_and(|a| {
        !a.limited && !a.voluntary.done && a.moved.is_empty() && a.moved_leaders.is_empty()
    })
}

/// The stack a declaration routs: every non-routed infantry and cavalry unit of the side in the
/// same hexes (19.10b: the stack is not separated); the artillery stays.
fn routing_stack(sc: &Scenario, st: &State, u: UnitIx) -> Vec<UnitIx> {
    let me = &st.units[usize::from(u)];
    let side = sc.units[usize::from(u)].side;
    let mut v: Vec<UnitIx> = (0..st.units.len() as UnitIx)
        .filter(|&x| {
            let s = &st.units[usize::from(x)];
            let d = &sc.units[usize::from(x)];
            d.side == side
                && d.arm != Arm::Artillery
                && !s.eliminated
                && !s.routed
                && s.hexes == me.hexes
        })
        .collect();
    v.sort_by_key(|&x| st.units[usize::from(x)].order);
    v
}

/// The declarations open now: one per stack holding an entitled infantry or cavalry unit (its top
/// such unit), and, once one is declared, the end of the declarations.
pub fn offers(sc: &Scenario, st: &State) -> Vec<Action> {
    let Some(act) = &st.activation else {
        return Vec::new();
    };
    if !open(st) {
        return Vec::new();
    }
    let declared: HashSet<UnitIx> = act
        .voluntary
        .declared
        .iter()
        .flat_map(|&u| routing_stack(sc, st, u))
        .collect();
    let mut seen: Vec<Hexes> = Vec::new();
    let mut out = Vec::new();
    for u in entitled(sc, st) {
        if sc.units[usize::from(u)].arm == Arm::Artillery || declared.contains(&u) {
            continue;
        }
        let hexes = st.units[usize::from(u)].hexes;
        if seen.contains(&hexes) {
            continue;
        }
        seen.push(hexes);
        out.push(Action::VoluntaryRout(u));
    }
    if !act.voluntary.declared.is_empty() {
        out.push(Action::VoluntaryRoutDone);
    }
    out
}

/// Whether declarations have begun (then only declarations and their end are legal).
pub fn declaring(st: &State) -> bool {
    open(st)
        && st
            .activation
            .as_ref()
            .is_some_and(|a| !a.voluntary.declared.is_empty())
}

/// A stack is declared (19.10a–b).
pub fn declare(sc: &Scenario, st: &mut State, u: UnitIx, ev: &mut Vec<Event>) -> Phase {
    let stack = routing_stack(sc, st, u);
    if let Some(act) = st.activation.as_mut() {
        act.voluntary.declared.push(u);
    }
    ev.push(Event::Movement {
        army: sc.armies[usize::from(sc.units[usize::from(u)].side)]
            .name
            .clone(),
        text: format!(
            "declares a voluntary rout of {}",
            stack
                .iter()
                .map(|&x| sc.units[usize::from(x)].name.clone())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        rule: "19.10a–b".into(),
    });
    Phase::Movement
}

/// The declarations are over: the declared stacks rout and retreat, each followed by the check of
/// whom it passed through, then MC (J) for the entitled units left (19.10c–e). Movement goes on
/// afterwards.
pub fn execute(sc: &Scenario, st: &mut State, ev: &mut Vec<Event>) -> Phase {
    let entitled = entitled(sc, st);
    let declared = st
        .activation
        .as_ref()
        .map(|a| a.voluntary.declared.clone())
        .unwrap_or_default();
    let mut routing: Vec<UnitIx> = Vec::new();
    for &u in &declared {
        let stack = routing_stack(sc, st, u);
        if stack.is_empty() {
            continue;
        }
        routing.extend(stack.iter().copied());
        let from = crate::retreat::nearest_enemies(sc, st, stack[0]);
        let mut brigades: Vec<BrigadeIx> = stack
            .iter()
            .filter_map(|&x| sc.units[usize::from(x)].brigade)
            .collect();
        brigades.dedup();
        ev.push(Event::State {
            units: stack
                .iter()
                .map(|&x| sc.units[usize::from(x)].name.clone())
                .collect(),
            state: "routed voluntarily".into(),
            rule: "19.10, 19.3",
        });
        st.jobs.push(Job::RoutHex { units: stack, from });
        st.jobs.push(Job::VoluntaryPassed(brigades));
    }
    if let Some(act) = st.activation.as_mut() {
        act.voluntary.done = true;
        act.voluntary.routing = routing.clone();
        act.voluntary.entitled = entitled
            .into_iter()
            .filter(|u| !routing.contains(u))
            .collect();
    }
    st.jobs.push(Job::MoraleJ);
    st.stack.push(Phase::Movement);
    Phase::Idle
}

/// After one voluntary rout retreat: the entitled units of the routers' brigades it passed through
/// test MC (J) +10 instead of (F) (19.10d, 20.2b exception 2); others keep their (F) (19.10e).
pub fn passed(sc: &Scenario, st: &mut State, brigades: &[BrigadeIx]) {
    let Some(act) = st.activation.as_mut() else {
        return;
    };
    let entitled = act.voluntary.entitled.clone();
    let routing = act.voluntary.routing.clone();
    let mut moved: Vec<UnitIx> = Vec::new();
    for job in st.jobs.iter_mut() {
        if let Job::MoraleF(units) = job {
            // A declared stack whose own retreat is still to come routs anyway: no (F).
            units.retain(|u| !routing.contains(u));
            units.retain(|&u| {
                let same = sc.units[usize::from(u)]
                    .brigade
                    .is_some_and(|b| brigades.contains(&b));
                let take = same && entitled.contains(&u);
                if take {
                    moved.push(u);
                }
                !take
            });
        }
    }
    st.jobs
        .retain(|j| !matches!(j, Job::MoraleF(units) if units.is_empty()));
    for u in moved {
        if !act.voluntary.passed.contains(&u) {
            act.voluntary.passed.push(u);
        }
    }
}

/// MC (J) for every entitled unit that did not rout, a stack testing with its top unit (19.4a):
/// failing, a good unit is shaken, a shaken one routs (artillery is eliminated instead, 19.1c,
/// 20.2e).
pub fn morale_j(sc: &Scenario, st: &mut State, ev: &mut Vec<Event>) {
    let Some(v) = st.activation.as_ref().map(|a| a.voluntary.clone()) else {
        return;
    };
    let units: Vec<UnitIx> = v
        .entitled
        .iter()
        .copied()
        .filter(|&u| st.on_map(u) && !st.units[usize::from(u)].routed)
        .collect();
    for stack in crate::rally::stacks(st, &units) {
        let passed = stack.iter().any(|u| v.passed.contains(u));
        let extra: &[&str] = if passed {
            &["passed_by_voluntary"]
        } else {
            &[]
        };
        let mut o = checks::roll(
            sc,
            st,
            &stack,
            Spec::mc('J', "Voluntary rout", "19.10c").with(extra),
        );
        let shaken = stack.iter().any(|&u| st.units[usize::from(u)].shaken);
        o.event.result = if o.passed {
            "holds".into()
        } else if shaken {
            "already shaken: routs (19.1c)".into()
        } else {
            "shaken (19.1c)".into()
        };
        ev.push(Event::Check(o.event.clone()));
        if o.lose_sp > 0 {
            let top = checks::tester(sc, st, &stack);
            crate::retreat::lose(
                sc,
                st,
                top,
                o.lose_sp,
                "morale check special result",
                "19.1a",
                ev,
            );
            crate::fire::contract(sc, st, &stack, ev);
        }
        if o.leader_check {
            // 21.4a, d: the leaders stacked with it roll on the Leader Loss Table.
            let side = sc.units[usize::from(stack[0])].side;
            let hexes = st.units[usize::from(stack[0])].hexes;
            let ls: Vec<u16> = (0..sc.leaders.len() as u16)
                .filter(|&l| {
                    sc.leaders[usize::from(l)].side == side
                        && st.leaders[usize::from(l)]
                            .hex
                            .is_some_and(|h| hexes.contains(&h))
                })
                .collect();
            for l in ls {
                crate::leaders::loss_check(
                    sc,
                    st,
                    l,
                    crate::leaders::Cause::CloseCombatOrMorale,
                    ev,
                );
            }
        }
        let stack: Vec<UnitIx> = stack.into_iter().filter(|&u| st.on_map(u)).collect();
        if o.passed || stack.is_empty() {
            continue;
        }
        if shaken {
            let from = crate::retreat::nearest_enemies(sc, st, stack[0]);
            st.jobs.push(Job::RoutHex { units: stack, from });
        } else {
            for &u in &stack {
                st.units[usize::from(u)].shaken = true;
            }
        }
    }
}

/// 19.7e: a stack about to rout keeps one of its hexes, its owner's choice when it has several;
/// its rout retreat comes next.
pub fn rout_hex(st: &mut State, units: Vec<UnitIx>, from: Vec<hexmap::HexId>) -> Phase {
    let n = units
        .first()
        .map_or(0, |&u| st.units[usize::from(u)].hexes.len());
    if n > 1 {
        return Phase::RoutHex { units, from };
    }
    st.jobs.insert(0, Job::Rout { units, from });
    Phase::Idle
}

/// The owner's choice of the hex a routing multi-hex stack keeps (19.7e).
pub fn keep_hex(
    sc: &Scenario,
    st: &mut State,
    units: Vec<UnitIx>,
    from: Vec<hexmap::HexId>,
    h: hexmap::HexId,
    ev: &mut Vec<Event>,
) -> Phase {
    let stayers = crate::retreat::left_by_rout(sc, st, &units);
    for &u in &units {
        st.units[usize::from(u)].hexes = Hexes::one(h);
    }
    crate::retreat::contract_stayers(sc, st, stayers, ev);
    if let Some(&u) = units.first() {
        ev.push(Event::Movement {
            army: sc.armies[usize::from(sc.units[usize::from(u)].side)]
                .name
                .clone(),
            text: format!(
                "{} routs from {}",
                units
                    .iter()
                    .map(|&x| sc.units[usize::from(x)].name.clone())
                    .collect::<Vec<_>>()
                    .join(", "),
                sc.board.label(h)
            ),
            rule: "19.7e".into(),
        });
    }
    st.jobs.insert(0, Job::Rout { units, from });
    Phase::Idle
}
