//! Rout retreat (20.2) of single-hex units and stacks, the losses on the way (19.7d, 20.2d) and
//! the morale checks (F) of the friends passed through (20.2b, 19.1c).
use crate::checks::{self, Spec, current_sp};
use crate::command::ezoc_set;
use crate::data::Arm;
use crate::event::Event;
use crate::scenario::{Scenario, Skirmish, UnitIx};
use crate::state::Hexes;
use crate::state::{Job, LeaderStatus, Phase, State};
use hexmap::HexId;

/// A unit loses SP; eliminated at 0 (21.7 is checked by the caller's procedure).
pub fn lose(
    sc: &Scenario,
    st: &mut State,
    u: UnitIx,
    sp: u8,
    why: &str,
    rule: &'static str,
    ev: &mut Vec<Event>,
) {
    let cur = current_sp(sc, st, u);
    let take = sp.min(cur);
    st.units[usize::from(u)].lost += take;
    ev.push(Event::Loss {
        unit: sc.units[usize::from(u)].name.clone(),
        sp: take,
        why: why.to_string(),
        rule,
    });
    if current_sp(sc, st, u) == 0 {
        eliminate(sc, st, u, "no SP left", ev);
    }
}

/// A unit leaves the game.
pub fn eliminate(sc: &Scenario, st: &mut State, u: UnitIx, why: &str, ev: &mut Vec<Event>) {
    let s = &mut st.units[usize::from(u)];
    s.eliminated = true;
    s.lost = sc.units[usize::from(u)].sp;
    s.hexes.clear();
    ev.push(Event::Eliminated {
        unit: sc.units[usize::from(u)].name.clone(),
        why: why.to_string(),
    });
    crate::leaders::without_command(sc, st, ev);
}

/// The hexes of the non-routed enemy units nearest to a unit: what a rout retreat without an
/// attacker moves away from (20.2g, A56).
pub fn nearest_enemies(sc: &Scenario, st: &State, u: UnitIx) -> Vec<HexId> {
    let side = sc.units[usize::from(u)].side;
    let Some(&here) = st.units[usize::from(u)].hexes.first() else {
        return Vec::new();
    };
    let mut best = u32::MAX;
    let mut out = Vec::new();
    for (i, x) in st.units.iter().enumerate() {
        if sc.units[i].side == side || x.eliminated || x.routed {
            continue;
        }
        for h in &x.hexes {
            let d = here.distance(*h);
            if d < best {
                best = d;
                out.clear();
            }
            if d == best && !out.contains(h) {
                out.push(*h);
            }
        }
    }
    out
}

/// 19.7e: before a multi-hex stack routs, the hex it keeps. Its owner chooses among its hexes
/// (`Phase::RoutHex`), unless it stands illegally (then its first hex, at once), or the rout "involves a potential pursuit": a stack routed in close
/// combat by attackers with cavalry keeps a hex in the front of an attacking cavalry unit (into
/// which a pursuer can advance), chosen here — the first such hex of the stack. `None`: nothing
/// to choose (one hex, or only artillery, which never retreats, 20.2e).
pub fn keep_which(
    sc: &Scenario,
    st: &mut State,
    units: &[UnitIx],
    from: &[HexId],
    ev: &mut Vec<Event>,
) -> Option<Phase> {
    let troops: Vec<UnitIx> = units
        .iter()
        .copied()
        .filter(|&u| st.on_map(u) && sc.units[usize::from(u)].arm != Arm::Artillery)
        .collect();
    let &u0 = troops.first()?;
    let hexes = st.units[usize::from(u0)].hexes;
    if hexes.len() < 2 {
        return None;
    }
    // A stack routed for standing illegally (10.13b) or in a shape it may not keep at rest (a
    // bent column, 9.4) routs at once from its first hex: it would stand so at the decision.
    if crate::movement::footprint_problem(st, u0).is_some()
        || hexes
            .iter()
            .any(|&h| crate::stacking::legal_at(sc, st, h).is_err())
    {
        return None;
    }
    // The close combat parked under the rout, and its cavalry attackers (15.1, 16.1).
    let cavalry_fronts: Vec<HexId> = st
        .stack
        .iter()
        .rev()
        .find_map(|p| match p {
            Phase::CloseCombat(cc) | Phase::CcDecision(cc) => Some(cc),
            _ => None,
        })
        .and_then(|cc| cc.cur.and_then(|i| cc.combats.get(i)))
        .filter(|c| c.defenders.iter().flatten().any(|u| troops.contains(u)))
        .map(|c| {
            c.attackers
                .iter()
                .flatten()
                .filter(|&&a| st.on_map(a) && sc.units[usize::from(a)].arm == Arm::Cavalry)
                .flat_map(|&a| crate::close_combat::front_of(st, a))
                .collect()
        })
        .unwrap_or_default();
    if let Some(&h) = hexes.iter().find(|h| cavalry_fronts.contains(h)) {
        crate::voluntary_rout::keep_hex(sc, st, units.to_vec(), from.to_vec(), h, ev);
        return Some(Phase::Idle);
    }
    Some(Phase::RoutHex {
        units: units.to_vec(),
        from: from.to_vec(),
    })
}

/// Begin a rout retreat job: artillery is eliminated instead (20.2e); the rest retreat 4 hexes
/// (infantry) or 6 (cavalry), a mixed stack as far as its slowest; a multi-hex unit keeps its
/// first hex (19.7e; `keep_which` has let its owner choose before).
pub fn begin(
    sc: &Scenario,
    st: &mut State,
    units: Vec<UnitIx>,
    from: Vec<HexId>,
    ev: &mut Vec<Event>,
) -> Option<Phase> {
    // 21.2c, 10.8d: friends of a multi-hex stack that do not rout with it stay; once the routers
    // are gone they contract to what their own SPs fill.
    let stayers = left_by_rout(sc, st, &units);
    let mut movers = Vec::new();
    for u in units {
        if st.units[usize::from(u)].eliminated {
            continue;
        }
        if sc.units[usize::from(u)].arm == Arm::Artillery {
            eliminate(sc, st, u, "artillery never rout-retreats (20.2e)", ev);
            continue;
        }
        let s = &mut st.units[usize::from(u)];
        s.routed = true;
        s.shaken = false;
        s.disordered = false;
        s.hexes.truncate(1);
        movers.push(u);
    }
    contract_stayers(sc, st, stayers, ev);
    if movers.is_empty() {
        return None;
    }
    // A routed stack retreats as one (20.2): one hex, one facing and formation, the first unit's
    // (a unit that was moving alone out of its stack when fire routed both may differ, 10.1d).
    let lead = st.units[usize::from(movers[0])].clone();
    for &u in &movers[1..] {
        let s = &mut st.units[usize::from(u)];
        s.hexes = lead.hexes;
        s.facing = lead.facing;
        s.formation = lead.formation;
    }
    // pursuit (16) / opportunity charge (17): the path a pursuer follows (16.2b).
    crate::pursuit::note_start(st, &movers);
    let left = if movers
        .iter()
        .any(|&u| sc.units[usize::from(u)].arm == Arm::Infantry)
    {
        4
    } else {
        6
    };
    Some(Phase::RoutStep {
        units: movers,
        left,
        visited: Vec::new(),
        from,
        passed: Vec::new(),
        losses: 0,
    })
}

/// 21.2c, 10.8d: contract each group [`left_by_rout`] found to what its own SPs fill, once the
/// routers have left its footprint (or kept one of its hexes, 19.7e).
pub(crate) fn contract_stayers(
    sc: &Scenario,
    st: &mut State,
    stayers: Vec<Vec<UnitIx>>,
    ev: &mut Vec<Event>,
) {
    for group in stayers {
        if let Some(short) = crate::stacking::after_separation(sc, st, &group) {
            let was = st.units[usize::from(group[0])].hexes;
            for &u in &group {
                st.units[usize::from(u)].hexes = Hexes::from(&short[..]);
            }
            let label = |hs: &[HexId]| sc.board.labels(hs, "-").to_string();
            ev.push(Event::State {
                units: group
                    .iter()
                    .map(|&u| sc.units[usize::from(u)].name.clone())
                    .collect(),
                state: format!(
                    "left by friends who rout: contract{} at once, free, from {} to {}",
                    if group.len() == 1 { "s" } else { "" },
                    label(&was),
                    label(&short)
                ),
                rule: "21.2c, 10.8d",
            });
        }
    }
}

/// The friends sharing a multi-hex footprint with some of `routers` who do not rout with them
/// (part of a stack routs, the rest stays: 21.2c), one group per footprint, in stacking order.
pub(crate) fn left_by_rout(sc: &Scenario, st: &State, routers: &[UnitIx]) -> Vec<Vec<UnitIx>> {
    let mut groups: Vec<Vec<UnitIx>> = Vec::new();
    let mut seen: Vec<Hexes> = Vec::new();
    for &r in routers {
        let s = &st.units[usize::from(r)];
        if s.eliminated || s.hexes.len() < 2 || seen.contains(&s.hexes) {
            continue;
        }
        seen.push(s.hexes);
        let side = sc.units[usize::from(r)].side;
        let mut rest: Vec<UnitIx> = (0..st.units.len() as UnitIx)
            .filter(|&u| {
                let o = &st.units[usize::from(u)];
                !o.eliminated
                    && !o.routed
                    && o.hexes == s.hexes
                    && sc.units[usize::from(u)].side == side
                    && !routers.contains(&u)
            })
            .collect();
        rest.sort_by_key(|&u| st.units[usize::from(u)].order);
        if !rest.is_empty() {
            groups.push(rest);
        }
    }
    groups
}

/// The hexes a routing stack may enter next under 20.2a–b and 20.2g (A56): on the map, not entered
/// before, not enemy-occupied, not prohibited to its arms; those that increase the distance to the
/// enemy it flees if any, else those that keep it, else the farthest; among them the ones most
/// toward its army's rear.
pub fn candidates(
    sc: &Scenario,
    st: &State,
    units: &[UnitIx],
    visited: &[HexId],
    from: &[HexId],
) -> Vec<HexId> {
    let Some(&here) = units
        .first()
        .and_then(|&u| st.units[usize::from(u)].hexes.first())
    else {
        return Vec::new();
    };
    let side = sc.units[usize::from(units[0])].side;
    let prohibits = |p: &[Arm]| {
        units
            .iter()
            .any(|&u| p.contains(&sc.units[usize::from(u)].arm))
    };
    // A hex's distance to the nearest hex fled.
    let dist = |h: HexId| from.iter().map(|f| h.distance(*f)).min().unwrap_or(0);
    // The hexes beside it that hold an enemy, routed or not ([`checks::enemy_in`]), in one look
    // at the units.
    let mut enemies: tinyvec::TinyVec<[HexId; 8]> = tinyvec::TinyVec::new();
    for (i, x) in st.units.iter().enumerate() {
        if sc.units[i].side != side && !x.eliminated {
            enemies.extend(x.hexes.iter().copied().filter(|h| h.is_adjacent(here)));
        }
    }
    // The neighbours that may be entered, each with its distance: at most six (a hex has six
    // neighbours), kept inline.
    let mut ok: tinyvec::ArrayVec<[(HexId, u32); 6]> = tinyvec::ArrayVec::new();
    for (_, h) in here.neighbours() {
        if !sc.board.contains(h) || visited.contains(&h) || h == here {
            continue;
        }
        // The hex's TEC row by the board's dense index.
        let prohibited = sc
            .board
            .tec_row(h)
            .is_some_and(|t| prohibits(&t.prohibited))
            || sc
                .board
                .hexside(here, h)
                .and_then(|k| sc.charts.tec.hexside.get(k))
                .is_some_and(|t| prohibits(&t.prohibited));
        if prohibited {
            continue;
        }
        if !enemies.contains(&h) {
            ok.push((h, dist(h)));
        }
    }
    if ok.is_empty() {
        return Vec::new();
    }
    // Away from the enemy if it can, else keeping the distance, else the farthest it can get.
    let d0 = dist(here);
    let want = if ok.iter().any(|x| x.1 > d0) {
        None
    } else if ok.iter().any(|x| x.1 == d0) {
        Some(d0)
    } else {
        ok.iter().map(|x| x.1).max()
    };
    let pool = ok
        .iter()
        .filter(|x| want.map_or(x.1 > d0, |w| x.1 == w))
        .map(|x| x.0);
    // Toward the rear: the neighbours whose bearing is nearest the army's rear (to the nearest
    // 30°, so that a rear between two hexsides leaves both to the owner).
    let rear = f64::from(sc.armies[usize::from(side)].rear);
    let score = |h: HexId| -> i32 {
        let d = (here.bearing_to(h) - rear + 540.0).rem_euclid(360.0) - 180.0;
        -((d.abs() / 30.0).round() as i32)
    };
    let scored: tinyvec::ArrayVec<[(HexId, i32); 6]> = pool.map(|h| (h, score(h))).collect();
    let best = scored.iter().map(|x| x.1).max().unwrap_or(0);
    scored.iter().filter(|x| x.1 == best).map(|x| x.0).collect()
}

/// Advance a rout retreat: step while one hex is possible, stop for the owner's choice when several
/// are; at the end take the losses and queue the morale checks (F). The next phase.
pub fn step(
    sc: &Scenario,
    st: &mut State,
    phase: Phase,
    choice: Option<HexId>,
    ev: &mut Vec<Event>,
) -> Phase {
    let Phase::RoutStep {
        units,
        mut left,
        mut visited,
        from,
        mut passed,
        mut losses,
    } = phase
    else {
        return Phase::Idle;
    };
    let mut choice = choice;
    // The EZOC of the retreating side (9.1): only its own units move here, so it stays the same
    // step after step; found at the first step.
    let mut zoc: Option<crate::command::HexSet<'_>> = None;
    loop {
        let Some(&here) = units
            .first()
            .and_then(|&u| st.units[usize::from(u)].hexes.first())
        else {
            return Phase::Idle;
        };
        let others_here = st.units.iter().enumerate().any(|(i, x)| {
            !x.eliminated && x.hexes.contains(&here) && !units.contains(&(i as UnitIx))
        });
        if left == 0 && !others_here {
            break;
        }
        let c = candidates(sc, st, &units, &visited, &from);
        let next = match (choice.take(), c.len()) {
            (Some(h), _) if c.contains(&h) => h,
            (_, 0) => {
                if left > 0 {
                    // 20.2d: one SP for each hex not retreated.
                    losses += left;
                    if !others_here {
                        break;
                    }
                }
                // It cannot leave a friendly-occupied hex: it cannot end its retreat (20.2c).
                for &u in &units {
                    eliminate(sc, st, u, "cannot complete its rout retreat (20.2c–d)", ev);
                }
                ev.push(Event::Rout {
                    units: units
                        .iter()
                        .map(|&u| sc.units[usize::from(u)].name.clone())
                        .collect(),
                    path: visited.iter().map(|h| sc.board.label(*h)).collect(),
                    losses: 0,
                    note: "no free hex".into(),
                });
                return Phase::Idle;
            }
            (_, 1) => c[0],
            _ => {
                return Phase::RoutStep {
                    units,
                    left,
                    visited,
                    from,
                    passed,
                    losses,
                };
            }
        };
        // Enter `next`: leaders in the hex go along (21.2c).
        let side = sc.units[usize::from(units[0])].side;
        for (i, l) in st.leaders.iter_mut().enumerate() {
            if sc.leaders[i].side == side
                && l.status == LeaderStatus::Present
                && l.hex == Some(here)
            {
                l.hex = Some(next);
            }
        }
        for &u in &units {
            st.units[usize::from(u)].hexes = Hexes::one(next);
        }
        visited.push(next);
        // pursuit (16) / opportunity charge (17)
        crate::pursuit::note_step(st, &units, next);
        left = left.saturating_sub(1);
        if zoc
            .get_or_insert_with(|| ezoc_set(sc, st, side))
            .contains(&next)
        {
            losses += 1; // 20.2b, 19.7d
        }
        for (i, x) in st.units.iter().enumerate() {
            let ui = i as UnitIx;
            if !x.eliminated
                && x.hexes.contains(&next)
                && !units.contains(&ui)
                && !passed.contains(&ui)
            {
                passed.push(ui);
            }
        }
    }
    ev.push(Event::Rout {
        units: units
            .iter()
            .map(|&u| sc.units[usize::from(u)].name.clone())
            .collect(),
        path: visited.iter().map(|h| sc.board.label(*h)).collect(),
        losses,
        note: String::new(),
    });
    // 20.2b exception 1: routed skirmishers cause no MC (F) to non-routed friends.
    let skirmishers = units
        .iter()
        .all(|&u| sc.units[usize::from(u)].skirmish == Skirmish::Only);
    let (routed_passed, steady): (Vec<UnitIx>, Vec<UnitIx>) = passed
        .into_iter()
        .partition(|&u| st.units[usize::from(u)].routed);
    if !steady.is_empty() && !skirmishers {
        st.jobs.push(Job::MoraleF(steady));
    }
    let routed_passed: Vec<UnitIx> = routed_passed
        .into_iter()
        .filter(|u| !st.rerouted.contains(u))
        .collect();
    st.rerouted.extend(routed_passed.iter().copied());
    for r in crate::rally::stacks(st, &routed_passed) {
        st.jobs.push(Job::Rout {
            units: r,
            from: from.clone(),
        });
    }
    let alive: Vec<UnitIx> = units
        .into_iter()
        .filter(|&u| !st.units[usize::from(u)].eliminated)
        .collect();
    if losses > 0 && !alive.is_empty() {
        if alive.len() == 1 {
            lose(
                sc,
                st,
                alive[0],
                losses,
                "rout retreat through an EZOC or short of its distance",
                "19.7d, 20.2b, 20.2d",
                ev,
            );
        } else {
            return Phase::AllocateLoss {
                units: alive,
                losses,
            };
        }
    }
    Phase::Idle
}

/// Morale checks (F) of units passed through by a rout retreat (20.2b, 19.1c exception 2), a stack
/// testing with its top unit (19.4a); a routed unit routs again instead (19.7f).
pub fn morale_f(sc: &Scenario, st: &mut State, units: Vec<UnitIx>, ev: &mut Vec<Event>) {
    let units: Vec<UnitIx> = units
        .into_iter()
        .filter(|&u| !st.units[usize::from(u)].eliminated)
        .collect();
    for stack in crate::rally::stacks(st, &units) {
        if st.units[usize::from(stack[0])].routed {
            let stack: Vec<UnitIx> = stack
                .into_iter()
                .filter(|u| !st.rerouted.contains(u))
                .collect();
            if !stack.is_empty() {
                st.rerouted.extend(stack.iter().copied());
                let from = nearest_enemies(sc, st, stack[0]);
                st.jobs.push(Job::Rout { units: stack, from });
            }
            continue;
        }
        let mut o = checks::roll(
            sc,
            st,
            &stack,
            Spec::mc('F', "Friendly unit retreats through", "20.2b"),
        );
        let shaken = st.units[usize::from(stack[0])].shaken;
        o.event.result = if o.passed {
            "holds".into()
        } else if shaken {
            "already shaken: routs (19.1c)".into()
        } else {
            "shaken and disordered (19.1c, 18.3)".into()
        };
        ev.push(Event::Check(o.event.clone()));
        if o.lose_sp > 0 {
            lose(
                sc,
                st,
                stack[0],
                o.lose_sp,
                "morale check special result",
                "19.1a",
                ev,
            );
            crate::fire::contract(sc, st, &stack, ev);
        }
        if o.leader_check {
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
        let stack: Vec<UnitIx> = stack
            .into_iter()
            .filter(|&u| !st.units[usize::from(u)].eliminated)
            .collect();
        if o.passed || stack.is_empty() {
            continue;
        }
        if shaken {
            let from = nearest_enemies(sc, st, stack[0]);
            st.jobs.push(Job::Rout { units: stack, from });
        } else {
            for &u in &stack {
                let s = &mut st.units[usize::from(u)];
                s.shaken = true;
                if sc.units[usize::from(u)].skirmish != Skirmish::Only {
                    s.disordered = true; // 18.3, 19.1c exception 2; skirmishers only shaken (18.4)
                }
            }
        }
    }
}
