//! The sequence of play (4.0 A–E): procedures run by themselves until a player must decide.
use crate::action::Action;
use crate::event::Event;
use crate::geom::{Facing, FacingExt as _, Formation};
use crate::scenario::{LeaderIx, Scenario, UnitIx};
use crate::state::Hexes;
use crate::state::{
    ArmyState, BrigadeState, Job, LeaderState, LeaderStatus, Phase, State, UnitState,
};
use crate::{activation, army_morale, initiative, leaders, rally, retreat};
use hexmap::{Dir, Vertex};

/// The starting state, run to the first decision.
pub fn start(sc: &Scenario, seed: u64, ev: &mut Vec<Event>) -> State {
    let mut units = Vec::with_capacity(sc.units.len());
    let mut order = 0u16;
    let mut placed: Vec<(usize, UnitState)> = Vec::new();
    for (i, _) in sc.units.iter().enumerate() {
        let ui = i as UnitIx;
        let arrival = sc.reinforcements.iter().find(|r| r.units.contains(&ui));
        let s = match sc.setup.get(&ui) {
            Some(p) => UnitState {
                hexes: Hexes::from(&p.hexes[..]),
                facing: p.facing,
                formation: p.formation,
                lost: p.lost,
                disordered: p.disordered,
                shaken: p.shaken,
                routed: p.routed,
                eliminated: false,
                activated: false,
                ooc: false,
                recovered: false,
                order: 0,
                arrives: None,
                entry: None,
            },
            None => UnitState {
                hexes: Hexes::new(),
                facing: Facing::Side(Dir::NE),
                formation: crate::geom::Formation::MarchColumn,
                lost: 0,
                disordered: false,
                shaken: false,
                routed: false,
                eliminated: false,
                activated: false,
                ooc: false,
                recovered: false,
                order: 0,
                arrives: arrival.and_then(|r| std::num::NonZeroU16::new(r.turn.max(1))),
                entry: arrival.map(|r| r.hex),
            },
        };
        placed.push((i, s));
    }
    // Stacking order: the order of the set-up file's lines (10.6).
    let mut by_setup: Vec<usize> = (0..placed.len()).collect();
    by_setup.sort_by_key(|&i| {
        sc.setup_order
            .get(&(i as UnitIx))
            .copied()
            .unwrap_or(u16::MAX)
    });
    for i in by_setup {
        placed[i].1.order = order;
        order += 1;
    }
    for (_, s) in placed {
        units.push(s);
    }
    let leaders = sc
        .leaders
        .iter()
        .enumerate()
        .map(|(i, _)| {
            let hex = sc.leader_setup.get(&(i as LeaderIx)).copied();
            LeaderState {
                hex,
                status: if hex.is_some() {
                    LeaderStatus::Present
                } else {
                    LeaderStatus::Waiting
                },
                finished: false,
                wounded_once: false,
                ooc: false,
                to_place: false,
                deputy: None,
            }
        })
        .collect();
    let mut st = State {
        turn: 1,
        end_box: 0,
        units: units.into(),
        leaders,
        brigades: vec![BrigadeState::default(); sc.brigades.len()],
        armies: [ArmyState::default(), ArmyState::default()],
        activation: None,
        phase: Phase::BeginTurn,
        stack: Vec::new(),
        jobs: Vec::new(),
        next_order: order,
        isr: 0,
        decisions: 0,
        dice: engine::Dice::new(seed),
        loaded: Vec::new(),
        rerouted: Vec::new(),
        // pursuit (16) / opportunity charge (17)
        routes: Vec::new(),
        holders: sc.objectives.iter().map(|o| o.holder).collect(),
    };
    advance(sc, &mut st, ev);
    st
}

/// Whether a phase waits for a player.
pub fn is_decision(p: &Phase) -> bool {
    matches!(
        p,
        Phase::ArmyMoraleSpend { .. }
            | Phase::InitiativeChoice { .. }
            | Phase::ChooseBrigade { .. }
            | Phase::WingBrigades { .. }
            | Phase::PlaceLeader { .. }
            | Phase::CommandControl
            | Phase::RoutStep { .. }
            | Phase::AllocateLoss { .. }
            | Phase::RallyFacing { .. }
            | Phase::LineFacing { .. }
            | Phase::Reintegrate { .. }
            | Phase::Fire(_)
            | Phase::Movement
            | Phase::LeaderMoving { .. }
            | Phase::Moving(_)
            | Phase::Reaction { .. }
            // close combat (13–15)
            | Phase::CcDecision(_)
            // pursuit (16) / opportunity charge (17)
            | Phase::Pursuit(_)
            | Phase::OppCharge(_)
            | Phase::Over
            // movement (issue 15)
            | Phase::RoutHex { .. }
    )
}

/// Run automatic steps until a decision or the end.
pub fn advance(sc: &Scenario, st: &mut State, ev: &mut Vec<Event>) {
    // A bound on automatic steps between decisions: each step of the procedure makes progress, so
    // this is never reached in a game; it guards against a bug turning into a hang.
    for _ in 0..100_000 {
        // Jobs a movement left behind (a square reduced below 3 SP by a disorder check's special
        // result, 8.4g and 12.9j: its owner picks the line's facing, 19.5e) are done before the
        // movement phase goes on, as every other phase does them before its next decision.
        if matches!(st.phase, Phase::Movement | Phase::Moving(_)) && !st.jobs.is_empty() {
            let p = std::mem::replace(&mut st.phase, Phase::Idle);
            st.stack.push(p);
        }
        if st.phase == Phase::Movement {
            let (units, leaders) = crate::movement::movable(sc, st);
            if units.is_empty() && leaders.is_empty() {
                st.phase = Phase::AfterMovement;
            }
        }
        if is_decision(&st.phase) {
            return;
        }
        let phase = std::mem::replace(&mut st.phase, Phase::Idle);
        st.phase = match phase {
            Phase::BeginTurn => begin_turn(sc, st, ev),
            Phase::ArmyMoraleRoll => {
                army_morale::roll(sc, st, ev);
                Phase::Initiative
            }
            Phase::Initiative => initiative::roll(sc, st, ev),
            Phase::ActivationSteps => activation::steps(sc, st, ev),
            Phase::AfterMovement => activation::after_movement(sc, st, ev),
            // close combat (13–15)
            Phase::CloseCombat(cc) => crate::close_combat::resume(sc, st, *cc, ev),
            Phase::RallyStart => Phase::Rally {
                order: rally::order(sc, st, ev),
            },
            Phase::Rally { order } => match order.split_first() {
                Some((&side, rest)) => {
                    rally::rally_side(sc, st, side, ev);
                    st.stack.push(Phase::Rally {
                        order: rest.to_vec(),
                    });
                    Phase::Idle
                }
                None => Phase::Maintenance,
            },
            Phase::Maintenance => maintenance(sc, st, ev),
            Phase::Idle => {
                if st.jobs.is_empty() {
                    st.rerouted.clear();
                    match st.stack.pop() {
                        Some(p) => p,
                        None => Phase::Initiative,
                    }
                } else {
                    let job = st.jobs.remove(0);
                    run_job(sc, st, job, ev)
                }
            }
            Phase::RoutStep { .. } => retreat::step(sc, st, phase, None, ev),
            other => other,
        };
    }
}

fn run_job(sc: &Scenario, st: &mut State, job: Job, ev: &mut Vec<Event>) -> Phase {
    match job {
        Job::Face(u) => {
            if st.units[usize::from(u)].eliminated || st.units[usize::from(u)].hexes.is_empty() {
                Phase::Idle
            } else {
                Phase::RallyFacing { unit: u }
            }
        }
        Job::LineFacing(u) => {
            if st.on_map(u) && st.units[usize::from(u)].formation == Formation::Line {
                Phase::LineFacing { unit: u }
            } else {
                Phase::Idle
            }
        }
        Job::Reintegrate { side, detachment } => Phase::Reintegrate { side, detachment },
        Job::MoraleF(units) => {
            retreat::morale_f(sc, st, units, ev);
            Phase::Idle
        }
        Job::Rout { units, from } => {
            // 19.7e: a multi-hex stack keeps one of its hexes, its owner's choice.
            if let Some(p) = retreat::keep_which(sc, st, &units, &from, ev) {
                return p;
            }
            match retreat::begin(sc, st, units, from, ev) {
                Some(p) => retreat::step(sc, st, p, None, ev),
                None => Phase::Idle,
            }
        }
        // movement (issue 15)
        Job::VoluntaryPassed(brigades) => {
            crate::voluntary_rout::passed(sc, st, &brigades);
            Phase::Idle
        }
        Job::MoraleJ => {
            crate::voluntary_rout::morale_j(sc, st, ev);
            Phase::Idle
        }
        Job::RoutHex { units, from } => crate::voluntary_rout::rout_hex(st, units, from),
    }
}

fn begin_turn(sc: &Scenario, st: &mut State, ev: &mut Vec<Event>) -> Phase {
    ev.push(Event::Turn {
        turn: st.turn,
        clock: sc.clock(st.turn),
    });
    st.end_box = 0;
    st.isr = 0;
    for b in st.brigades.iter_mut() {
        *b = BrigadeState::default();
    }
    for u in st.units.iter_mut() {
        u.activated = false;
        u.recovered = false;
        u.ooc = false;
    }
    for l in st.leaders.iter_mut() {
        l.finished = false;
    }
    for a in st.armies.iter_mut() {
        a.last_detachment = None;
    }
    leaders::wounds_heal(st);
    if sc.on_the_hour(st.turn) {
        army_morale::begin(sc, st, ev)
    } else {
        Phase::Initiative
    }
}

/// Objective places change hands when a side's combat unit stands in them alone (invented, C9).
pub fn update_holders(sc: &Scenario, st: &mut State) {
    for (i, o) in sc.objectives.iter().enumerate() {
        let sides: Vec<u8> = st
            .units
            .iter()
            .enumerate()
            .filter(|(_, u)| !u.eliminated && u.hexes.contains(&o.hex))
            .map(|(j, _)| sc.units[j].side)
            .collect();
        if let Some(&s) = sides.first()
            && sides.iter().all(|x| *x == s)
            && let Some(h) = st.holders.get_mut(i)
        {
            *h = s;
        }
    }
}

fn maintenance(sc: &Scenario, st: &mut State, ev: &mut Vec<Event>) -> Phase {
    update_holders(sc, st);
    ev.push(Event::EndOfTurn { turn: st.turn });
    if st.turn >= sc.turns {
        let clt = [
            army_morale::clt_total(sc, st, 0),
            army_morale::clt_total(sc, st, 1),
        ];
        ev.push(Event::GameOver {
            level: crate::outcome_of(sc, st).level,
            clt,
        });
        return Phase::Over;
    }
    st.turn += 1;
    Phase::BeginTurn
}

/// Who decides now.
pub fn decider(sc: &Scenario, st: &State) -> Option<u8> {
    let owner = |u: &UnitIx| sc.units[usize::from(*u)].side;
    match &st.phase {
        Phase::ArmyMoraleSpend { side }
        | Phase::InitiativeChoice { side, .. }
        | Phase::ChooseBrigade { side }
        | Phase::WingBrigades { side, .. }
        | Phase::Reintegrate { side, .. } => Some(*side),
        Phase::PlaceLeader { leader } => Some(sc.leaders[usize::from(*leader)].side),
        Phase::CommandControl => st.activation.as_ref().map(|a| a.side),
        Phase::RoutStep { units, .. } | Phase::AllocateLoss { units, .. } => {
            units.first().map(owner)
        }
        // movement (issue 15)
        Phase::RoutHex { units, .. } => units.first().map(owner),
        Phase::RallyFacing { unit } | Phase::LineFacing { unit } => Some(owner(unit)),
        // fire (12)
        Phase::Fire(f) => Some(crate::fire::decider(st, f)),
        Phase::Movement
        | Phase::LeaderMoving { .. }
        | Phase::Moving(_)
        | Phase::Reaction { .. } => crate::movement::decider(sc, st),
        // close combat (13–15)
        Phase::CcDecision(cc) => crate::close_combat::decider(sc, st, cc),
        // pursuit (16) / opportunity charge (17)
        Phase::Pursuit(p) => Some(crate::pursuit::decider(p)),
        Phase::OppCharge(o) => Some(crate::opportunity_charge::decider(o)),
        _ => None,
    }
}

/// The facings a rallied unit may take in its formation (19.5e).
pub fn facings(formation: crate::geom::Formation) -> Vec<Facing> {
    if formation.faces_hexside() {
        Dir::ALL.iter().map(|&d| Facing::Side(d)).collect()
    } else {
        Vertex::ALL.iter().map(|&v| Facing::Point(v)).collect()
    }
}

/// A uniformly random entry of [`legal`]'s list, drawn with `pick` (`None`: the list is empty):
/// a moving unit's menu is sampled without being listed (`movement::sample`); any other is
/// listed and one entry drawn.
pub fn sample(sc: &Scenario, st: &State, pick: &mut engine::Dice) -> Option<Action> {
    if let Some(a) = crate::movement::sample(sc, st, pick) {
        return Some(a);
    }
    pick.take(legal(sc, st))
}

/// The legal actions of the decider.
pub fn legal(sc: &Scenario, st: &State) -> Vec<Action> {
    match &st.phase {
        Phase::ArmyMoraleSpend { side } => (0..=army_morale::spendable(sc, st, *side))
            .map(Action::Spend)
            .collect(),
        Phase::InitiativeChoice { side, wing } => {
            let mut v: Vec<Action> = initiative::available_brigades(sc, st, *side)
                .into_iter()
                .map(Action::ActivateOwn)
                .collect();
            if *wing {
                v.extend(
                    initiative::wings_on_offer(sc, st, *side)
                        .into_iter()
                        .map(Action::Wing),
                );
            }
            if !initiative::available_brigades(sc, st, 1 - side).is_empty() {
                v.push(Action::Opponent);
            }
            v
        }
        Phase::ChooseBrigade { side } => initiative::available_brigades(sc, st, *side)
            .into_iter()
            .map(Action::Activate)
            .collect(),
        Phase::WingBrigades { wing, .. } => {
            let joined = st
                .activation
                .as_ref()
                .map(|a| a.brigades.clone())
                .unwrap_or_default();
            let mut v: Vec<Action> = initiative::wing_brigades(sc, st, *wing)
                .into_iter()
                .filter(|b| !joined.contains(b))
                .map(Action::Join)
                .collect();
            if !joined.is_empty() {
                v.push(Action::JoinDone);
            }
            v
        }
        Phase::PlaceLeader { leader } => leaders::placements(sc, st, *leader)
            .into_iter()
            .map(|u| Action::Place(*leader, u))
            .collect(),
        Phase::CommandControl => activation::declarations(sc, st),
        Phase::RoutStep {
            units,
            visited,
            from,
            ..
        } => retreat::candidates(sc, st, units, visited, from)
            .into_iter()
            .map(Action::Retreat)
            .collect(),
        Phase::AllocateLoss { units, .. } => units
            .iter()
            .copied()
            .filter(|&u| !st.units[usize::from(u)].eliminated)
            .map(Action::Lose)
            .collect(),
        Phase::RallyFacing { unit } => rally::choices(sc, st, *unit),
        Phase::LineFacing { .. } => facings(Formation::Line)
            .into_iter()
            .map(Action::Face)
            .collect(),
        Phase::Reintegrate { .. } => vec![Action::Reintegrate, Action::KeepDetached],
        // fire (12)
        Phase::Fire(f) => crate::fire::legal(sc, st, f),
        // movement (issue 15)
        Phase::RoutHex { units, .. } => units
            .first()
            .map(|&u| st.units[usize::from(u)].hexes)
            .unwrap_or_default()
            .into_iter()
            .map(Action::RoutHex)
            .collect(),
        Phase::Movement
        | Phase::LeaderMoving { .. }
        | Phase::Moving(_)
        | Phase::Reaction { .. } => crate::movement::legal(sc, st),
        // close combat (13–15)
        Phase::CcDecision(cc) => crate::close_combat::legal(sc, st, cc),
        // pursuit (16) / opportunity charge (17)
        Phase::Pursuit(p) => crate::pursuit::legal(sc, st, p),
        Phase::OppCharge(o) => crate::opportunity_charge::legal(sc, st, o),
        _ => Vec::new(),
    }
}

/// Apply a legal action and run on to the next decision.
pub fn apply(sc: &Scenario, st: &mut State, a: &Action, ev: &mut Vec<Event>) {
    st.decisions += 1;
    let phase = std::mem::replace(&mut st.phase, Phase::Idle);
    st.phase = match (phase, a) {
        (Phase::ArmyMoraleSpend { side }, Action::Spend(n)) => {
            st.armies[usize::from(side)].pending_spend = Some(*n);
            army_morale::next_spend(sc, st, side + 1)
        }
        (Phase::InitiativeChoice { side, .. }, Action::ActivateOwn(b)) => {
            ev.push(Event::Choice {
                army: sc.armies[usize::from(side)].name.clone(),
                text: "activates a brigade of its own".into(),
            });
            activation::begin(sc, st, side, vec![*b], None, ev)
        }
        (Phase::InitiativeChoice { side, .. }, Action::Opponent) => {
            ev.push(Event::Choice {
                army: sc.armies[usize::from(side)].name.clone(),
                text: format!(
                    "makes {} activate a brigade",
                    sc.armies[usize::from(1 - side)].name
                ),
            });
            Phase::ChooseBrigade { side: 1 - side }
        }
        (Phase::InitiativeChoice { side, .. }, Action::Wing(w)) => wing(sc, st, side, *w, ev),
        (Phase::ChooseBrigade { side }, Action::Activate(b)) => {
            activation::begin(sc, st, side, vec![*b], None, ev)
        }
        (Phase::WingBrigades { side, wing }, Action::Join(b)) => {
            if let Some(act) = st.activation.as_mut() {
                act.brigades.push(*b);
            }
            Phase::WingBrigades { side, wing }
        }
        (Phase::WingBrigades { side, wing }, Action::JoinDone) => {
            let brigades = st.activation.take().map(|a| a.brigades).unwrap_or_default();
            activation::begin(sc, st, side, brigades, Some(wing), ev)
        }
        (Phase::PlaceLeader { .. }, Action::Place(l, u)) => {
            leaders::place(sc, st, *l, *u, ev);
            leaders::next_placement(sc, st).unwrap_or(Phase::CommandControl)
        }
        (Phase::CommandControl, Action::CommandDone) => Phase::ActivationSteps,
        (Phase::CommandControl, d) => {
            activation::declare(sc, st, d, ev);
            Phase::CommandControl
        }
        (p @ Phase::RoutStep { .. }, Action::Retreat(h)) => retreat::step(sc, st, p, Some(*h), ev),
        (Phase::AllocateLoss { units, losses }, Action::Lose(u)) => {
            retreat::lose(
                sc,
                st,
                *u,
                1,
                "rout retreat losses, allocated by the owner",
                "19.7d",
                ev,
            );
            let left = losses - 1;
            let alive: Vec<UnitIx> = units
                .into_iter()
                .filter(|&x| !st.units[usize::from(x)].eliminated)
                .collect();
            if left > 0 && !alive.is_empty() {
                Phase::AllocateLoss {
                    units: alive,
                    losses: left,
                }
            } else {
                Phase::Idle
            }
        }
        (Phase::RallyFacing { unit }, Action::Face(f)) => {
            let formation = st.units[usize::from(unit)].formation;
            rally::adopt(sc, st, unit, formation, *f, ev);
            Phase::Idle
        }
        (Phase::LineFacing { unit }, Action::Face(f)) => {
            line_facing(sc, st, unit, *f, ev);
            Phase::Idle
        }
        (Phase::RallyFacing { unit }, Action::Adopt(formation, f)) => {
            rally::adopt(sc, st, unit, *formation, *f, ev);
            Phase::Idle
        }
        (Phase::Reintegrate { side, detachment }, Action::Reintegrate) => {
            st.armies[usize::from(side)].reintegrated.push(detachment);
            ev.push(Event::Reintegrated {
                detachment: sc.detachments[usize::from(detachment)].name.clone(),
            });
            Phase::Idle
        }
        (Phase::Reintegrate { .. }, Action::KeepDetached) => Phase::Idle,
        // fire (12)
        (Phase::Fire(f), a) => crate::fire::apply(sc, st, *f, a, ev),
        // movement (issue 15)
        (Phase::RoutHex { units, from }, Action::RoutHex(h)) => {
            crate::voluntary_rout::keep_hex(sc, st, units, from, *h, ev)
        }
        (
            p @ (Phase::Movement
            | Phase::LeaderMoving { .. }
            | Phase::Moving(_)
            | Phase::Reaction { .. }),
            a,
        ) => crate::movement::apply(sc, st, p, a, ev),
        // close combat (13–15)
        (Phase::CcDecision(cc), a) => crate::close_combat::apply(sc, st, *cc, a, ev),
        // pursuit (16) / opportunity charge (17)
        (Phase::Pursuit(p), a) => crate::pursuit::apply(sc, st, *p, a, ev),
        (Phase::OppCharge(o), a) => crate::opportunity_charge::apply(sc, st, *o, a, ev),
        (p, _) => p,
    };
    advance(sc, st, ev);
}

/// A wing activation is attempted (6.5b, 7.4b): the wing leader needs a LOC from the army leader
/// or a successful leader initiative roll; a failure ends the activation at once.
fn wing(sc: &Scenario, st: &mut State, side: u8, w: u16, ev: &mut Vec<Event>) -> Phase {
    let wl = sc.wings[usize::from(w)].leader;
    ev.push(Event::Choice {
        army: sc.armies[usize::from(side)].name.clone(),
        text: format!(
            "attempts a wing activation of {}",
            sc.wings[usize::from(w)].name
        ),
    });
    let in_command = crate::command::wing_loc(sc, st, w).is_some()
        || crate::command::leader_initiative(sc, st, wl, "7.4b", ev);
    if !in_command {
        st.leaders[usize::from(wl)].finished = true;
        ev.push(Event::LeaderRemoved {
            leader: sc.leaders[usize::from(wl)].name.clone(),
            why: "does nothing and is FINISHED; the activation is over (7.4b)".into(),
        });
        return Phase::Initiative;
    }
    st.activation = Some(crate::state::Activation {
        side,
        ..Default::default()
    });
    Phase::WingBrigades { side, wing: w }
}

/// 8.4g: the one-hex line a square below 3 SP became takes the facing its owner picked; so do the
/// friends in its hex (10.1d: a stack has one facing; 10.4c: guns with a line face as it does).
fn line_facing(sc: &Scenario, st: &mut State, unit: UnitIx, f: Facing, ev: &mut Vec<Event>) {
    let Some(&h) = st.units[usize::from(unit)].hexes.first() else {
        return;
    };
    let side = sc.units[usize::from(unit)].side;
    let mut names = Vec::new();
    for (i, s) in st.units.iter_mut().enumerate() {
        if sc.units[i].side == side && !s.eliminated && s.hexes.as_slice() == [h] {
            s.facing = f;
            names.push(sc.units[i].name.clone());
        }
    }
    ev.push(Event::State {
        units: names,
        state: format!("faces {}, a one-hex line", f.name()),
        rule: "8.4g",
    });
}
