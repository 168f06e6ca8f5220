//! The step machine of the close combat phase: designation (13.1–13.2, 13.6), the order of the
//! combats, defender morale and retreat before combat (13.7, 13.9, 20.1), defensive fire (13.10),
//! leaders (21.2b); the decisions each step may wait for.
use super::resolve;
use crate::state::Hexes;
// charges (13.3–13.5, 13.8)
use super::{Cc, Combat, Step, alive, enemies_in_zoc, is_light, living, log, name, names};
use super::{charge, defence_option};
use crate::action::Action;
use crate::checks::{self, Spec};
use crate::data::Arm;
use crate::event::Event;
use crate::fire::{self, FireKind};
use crate::geom::{Formation, chart_key};
use crate::scenario::{Scenario, Skirmish, UnitIx};
use crate::state::{Job, LeaderStatus, Phase, State};
use hexmap::HexId;

/// Whether the step at the head waits for a player.
fn waits(sc: &Scenario, st: &State, cc: &Cc) -> bool {
    match cc.steps.first() {
        Some(Step::Designate) => true,
        Some(Step::Choose) => open(cc).len() > 1,
        Some(Step::Withdraw(_)) => true,
        Some(Step::DefensiveFire(ix)) => !fire_groups(sc, st, cc, *ix).is_empty(),
        Some(Step::Leader { att, ix }) => !leader_options(sc, st, cc, *att, *ix).is_empty(),
        Some(Step::Losses { .. }) => resolve::loss_choice(sc, st, cc).len() > 1,
        Some(Step::Advance { .. }) => !resolve::advance_options(sc, st, cc).is_empty(),
        Some(Step::AdvanceFace { .. }) => true,
        Some(Step::TestG {
            order,
            pos,
            ers,
            picked: false,
            ..
        }) => tie_choice(cc, order, ers, *pos).len() > 1,
        // charges (13.3–13.5, 13.8)
        Some(Step::ChargeHex) => !charge::hex_options(sc, st, cc).is_empty(),
        Some(Step::React(s)) => !charge::react_options(sc, st, s).is_empty(),
        Some(Step::Countercharge(s)) => !charge::countercharge_options(sc, st, cc, s).is_empty(),
        Some(Step::CounterchargeOrder) => charge::order_options(sc, st, cc).len() > 1,
        Some(Step::DefenceOption(..)) => true,
        _ => false,
    }
}

/// The top units of the owner's stacks tied at `pos` of a special result ranking (14.8b), still
/// standing.
fn tie_choice(cc: &Cc, order: &[(bool, usize)], ers: &[i32], pos: usize) -> Vec<UnitIx> {
    let Some(c) = cc.cur.map(|i| &cc.combats[i]) else {
        return Vec::new();
    };
    resolve::tied(order, ers, pos)
        .into_iter()
        .filter_map(|j| {
            let (att, ix) = order[j];
            let s = if att {
                &c.attackers[ix]
            } else {
                &c.defenders[ix]
            };
            s.first().copied()
        })
        .collect()
}

/// Combats not yet resolved.
fn open(cc: &Cc) -> Vec<usize> {
    (0..cc.combats.len())
        .filter(|&i| !cc.combats[i].done)
        .collect()
}

/// The current combat.
pub(super) fn cur(cc: &Cc) -> &Combat {
    // An invariant: steps of a combat run only while `cur` is set.
    &cc.combats[cc.cur.unwrap_or(0)]
}

/// The current combat, mutable.
pub(super) fn cur_mut(cc: &mut Cc) -> &mut Combat {
    let i = cc.cur.unwrap_or(0);
    &mut cc.combats[i]
}

/// Run automatic steps until a decision, rout retreats to run, or the end of the phase.
pub(super) fn run(sc: &Scenario, st: &mut State, mut cc: Cc, ev: &mut Vec<Event>) -> Phase {
    // A bound on automatic steps: each makes progress, so it is never reached in a game; it
    // guards against a bug turning into a hang (as `flow::advance`).
    for _ in 0..100_000 {
        if !st.jobs.is_empty() {
            // 21.2c: the leaders with a routing stack go with it; note them for 21.4e.
            for j in &st.jobs {
                if let Job::Rout { units, .. } = j
                    && let Some(&u) = units.first()
                {
                    let side = sc.units[usize::from(u)].side;
                    let hexes = st.units[usize::from(u)].hexes;
                    for l in super::leaders_in(sc, st, side, &hexes) {
                        if !cc.escorts.iter().any(|e| e.0 == l) {
                            cc.escorts.push((l, units.clone()));
                        }
                    }
                }
            }
            st.stack.push(Phase::CloseCombat(Box::new(cc)));
            return Phase::Idle;
        }
        escorts_lost(sc, st, &mut cc, ev);
        if waits(sc, st, &cc) {
            return Phase::CcDecision(Box::new(cc));
        }
        if cc.steps.is_empty() {
            cc.steps.push(Step::Finish);
        }
        let step = cc.steps.remove(0);
        match step {
            // pursuit (16) / opportunity charge (17)
            Step::Pursue => {
                if let Some(p) = crate::pursuit::chases(sc, st, cur(&cc), ev) {
                    st.stack.push(Phase::CloseCombat(Box::new(cc)));
                    return crate::pursuit::run(sc, st, p, ev);
                }
            }
            Step::OppChargeOver => return crate::opportunity_charge::after(sc, st, cc, ev),
            Step::Finish => {
                st.routes.clear();
                log(ev, "13.0", "the close combat phase is over".into());
                crate::activation::end(sc, st, ev);
                return Phase::Initiative;
            }
            s => auto(sc, st, &mut cc, s, ev),
        }
    }
    crate::activation::end(sc, st, ev);
    Phase::Initiative
}

/// 21.4e: a leader who retreated with units routed by close combat, all of them eliminated on
/// the way (the inability to complete the retreat, or its losses), is eliminated.
fn escorts_lost(sc: &Scenario, st: &mut State, cc: &mut Cc, ev: &mut Vec<Event>) {
    for (l, units) in std::mem::take(&mut cc.escorts) {
        let ls = &st.leaders[usize::from(l)];
        let Some(h) = ls.hex else { continue };
        if ls.status != LeaderStatus::Present || units.iter().any(|&u| st.on_map(u)) {
            continue;
        }
        let side = sc.leaders[usize::from(l)].side;
        if !super::units_in(sc, st, side, &[h]).is_empty() {
            continue;
        }
        crate::leaders::kill(sc, st, l);
        ev.push(Event::LeaderLoss {
            leader: sc.leaders[usize::from(l)].name.clone(),
            die: 0,
            result: "the units he retreated with were eliminated: eliminated (21.4e)".into(),
        });
    }
}

/// An automatic step (or a decision step that turned out to have a single course).
fn auto(sc: &Scenario, st: &mut State, cc: &mut Cc, step: Step, ev: &mut Vec<Event>) {
    match step {
        Step::Designate | Step::Finish | Step::Pursue | Step::OppChargeOver => {}
        Step::AttackerMorale => attacker_morale(sc, st, cc, ev),
        Step::Define => define(sc, st, cc, ev),
        Step::Choose => {
            if let Some(&i) = open(cc).first() {
                start(sc, st, cc, i, ev);
            }
        }
        Step::DefenderMorale(ix) => defender_morale(sc, st, cc, ix, ev),
        Step::Withdraw(_) => {}
        Step::AdvanceFace { .. } => {}
        Step::DefensiveFire(_) => {}
        Step::PreRound => pre_round(sc, st, cc, ev),
        Step::Leader { .. } => {}
        Step::Round => resolve::round(sc, st, cc, ev),
        s @ Step::Losses { .. } => resolve::losses(sc, st, cc, s, None, ev),
        Step::Effects { cell, special } => {
            let cell = crate::charts::CcCell::parse(&cell).unwrap_or_default();
            resolve::effects(sc, st, cc, cell, special, ev)
        }
        Step::TestG {
            order,
            pos,
            special,
            ers,
            ..
        } => resolve::test_g(sc, st, cc, order, pos, special, &ers, ev),
        Step::Rout { att, ix } => resolve::rout(sc, st, cc, att, ix, ev),
        Step::EndCombat => resolve::end_combat(sc, st, cc, ev),
        Step::Advance { .. } => {
            // No (more) advance possible.
            resolve::disorder_left_behind(sc, st, cc, ev);
            let c = cur_mut(cc);
            c.done = true;
            // pursuit (16) / opportunity charge (17)
            cc.steps.insert(0, Step::Pursue);
        }
        // charges (13.3–13.5, 13.8)
        Step::Charges => charge::begin(sc, st, cc, ev),
        Step::ChargeHex => charge::no_choice(sc, st, cc, ev),
        Step::React(_) | Step::Countercharge(_) | Step::CounterchargeOrder => {}
        Step::ChargeEnter => charge::enter(sc, st, cc, ev),
        Step::ChargeAfter => charge::after(sc, st, cc, ev),
        Step::DefenceOption(i, _) => start(sc, st, cc, i, ev),
    }
}

/// 13.2: a morale check (B) per designated stack, with its top non-artillery unit's ER (13.2c);
/// a failure shakes it and it does not attack (13.2a, 19.1d).
fn attacker_morale(sc: &Scenario, st: &mut State, cc: &mut Cc, ev: &mut Vec<Event>) {
    let mut kept = Vec::new();
    for stack in std::mem::take(&mut cc.designated) {
        let mut o = checks::roll(
            sc,
            st,
            &stack,
            Spec::mc('B', "Attacker morale (close combat)", "13.2"),
        );
        o.event.result = if o.passed {
            "attacks".into()
        } else if charge::is_charger(sc, st, &stack) {
            // charges (13.3–13.5, 13.8)
            "shaken, does not charge: does not move (13.2b)".into()
        } else {
            "shaken, does not attack (13.2a)".into()
        };
        ev.push(Event::Check(o.event.clone()));
        super::special_effects(sc, st, &stack, &o, ev);
        let stack = living(st, &stack);
        if o.passed {
            if !stack.is_empty() {
                kept.push(stack);
            }
        } else {
            for &u in &stack {
                st.units[usize::from(u)].shaken = true;
            }
        }
    }
    cc.designated = kept;
}

/// 13.6 (A38): each designated stack attacks every enemy unit in its ZOC; stacks that share a
/// defending stack fight in one combat, and a stack adjacent to several defending hexes attacks
/// them all in one combat (13.6b). A unit is attacked at most once (13.6d).
fn define(sc: &Scenario, st: &mut State, cc: &mut Cc, ev: &mut Vec<Event>) {
    let stacks = std::mem::take(&mut cc.designated);
    // Defending stacks of each attacker.
    let mut targets: Vec<Vec<Vec<UnitIx>>> = Vec::new();
    for s in &stacks {
        let mut enemies: Vec<UnitIx> = Vec::new();
        for &u in s {
            for e in enemies_in_zoc(sc, st, u) {
                if !enemies.contains(&e) && !cc.engaged.contains(&e) {
                    enemies.push(e);
                }
            }
        }
        // charges (13.3–13.5, 13.8): the cavalry that countercharged it (13.6a exception).
        for e in charge::forced_targets(st, cc, s) {
            if !enemies.contains(&e) && !cc.engaged.contains(&e) {
                enemies.push(e);
            }
        }
        // Whole stacks of the hexes attacked.
        let hexes: Vec<HexId> = enemies
            .iter()
            .flat_map(|&e| st.units[usize::from(e)].hexes)
            .collect();
        let side = sc.units[usize::from(s[0])].side;
        let all = super::units_in(sc, st, 1 - side, &hexes);
        targets.push(crate::rally::stacks(st, &all));
    }
    // Connected groups.
    let n = stacks.len();
    let mut group: Vec<usize> = (0..n).collect();
    fn root(g: &mut [usize], i: usize) -> usize {
        let mut r = i;
        while g[r] != r {
            r = g[r];
        }
        g[i] = r;
        r
    }
    for i in 0..n {
        for j in i + 1..n {
            let share = targets[i].iter().any(|t| targets[j].contains(t));
            if share {
                let (a, b) = (root(&mut group, i), root(&mut group, j));
                group[b] = a;
            }
        }
    }
    let mut roots: Vec<usize> = Vec::new();
    for i in 0..n {
        let r = root(&mut group, i);
        if !roots.contains(&r) {
            roots.push(r);
        }
    }
    for r in roots {
        let mut c = Combat::default();
        for i in 0..n {
            if root(&mut group, i) != r {
                continue;
            }
            c.att_hexes
                .push(st.units[usize::from(stacks[i][0])].hexes.to_vec());
            c.attackers.push(stacks[i].clone());
            for t in &targets[i] {
                if !c.defenders.contains(t) {
                    c.def_hexes.push(st.units[usize::from(t[0])].hexes.to_vec());
                    c.defenders.push(t.clone());
                }
            }
        }
        if c.defenders.is_empty() {
            continue;
        }
        // charges (13.3–13.5, 13.8)
        c.charge_hexes = cc.charge_hexes.clone();
        for s in c.attackers.iter().chain(c.defenders.iter()) {
            cc.engaged.extend(s.iter().copied());
        }
        log(
            ev,
            "13.6",
            format!(
                "combat {}: {} attack{} {}",
                cc.combats.len() + 1,
                c.attackers
                    .iter()
                    .map(|s| names(sc, s))
                    .collect::<Vec<_>>()
                    .join(" and "),
                if c.attackers.len() == 1 && c.attackers[0].len() == 1 {
                    "s"
                } else {
                    ""
                },
                c.defenders
                    .iter()
                    .zip(&c.def_hexes)
                    .map(|(s, h)| format!(
                        "{} in {}",
                        names(sc, s),
                        h.iter()
                            .map(|x| sc.board.label(*x))
                            .collect::<Vec<_>>()
                            .join("-")
                    ))
                    .collect::<Vec<_>>()
                    .join(" and ")
            ),
        );
        cc.combats.push(c);
    }
}

/// Start combat `i`: defender morale for each defending stack, defensive fire at each attacking
/// stack, then the rounds (13.0 5a–c).
fn start(sc: &Scenario, st: &mut State, cc: &mut Cc, i: usize, ev: &mut Vec<Event>) {
    cc.cur = Some(i);
    // charges (13.3–13.5, 13.8): the cavalry defence option comes before any defender's MC (B).
    if let Some(s) = defence_option::candidates(sc, st, cc, i).into_iter().next() {
        cc.steps.insert(0, Step::DefenceOption(i, s));
        return;
    }
    let c = &cc.combats[i];
    log(
        ev,
        "13.0",
        format!(
            "combat {} is resolved: {} against {}",
            i + 1,
            c.attackers
                .iter()
                .map(|s| names(sc, s))
                .collect::<Vec<_>>()
                .join(" and "),
            c.defenders
                .iter()
                .map(|s| names(sc, s))
                .collect::<Vec<_>>()
                .join(" and ")
        ),
    );
    let mut next: Vec<Step> = (0..c.defenders.len()).map(Step::DefenderMorale).collect();
    next.extend((0..c.attackers.len()).map(Step::DefensiveFire));
    next.push(Step::PreRound);
    next.push(Step::Choose);
    let rest = std::mem::take(&mut cc.steps);
    cc.steps = next;
    cc.steps.extend(rest);
}

/// The units attacking a defending stack: those of the combat's attacking stacks with one of
/// its hexes in their ZOC (all the combat's attackers if none, 13.6a exception).
fn attackers_of(st: &State, c: &Combat, ix: usize) -> Vec<UnitIx> {
    let hexes = &c.def_hexes[ix];
    let mut v: Vec<UnitIx> = c
        .attackers
        .iter()
        .flatten()
        .copied()
        .filter(|&u| alive(st, u) && super::front_of(st, u).iter().any(|h| hexes.contains(h)))
        .collect();
    if v.is_empty() {
        v = c
            .attackers
            .iter()
            .flatten()
            .copied()
            .filter(|&u| alive(st, u))
            .collect();
    }
    v
}

/// 20.1: whether a defending stack may retreat before close combat from these attackers (A55:
/// the series list; light = sub-type "light" or hussar).
pub(super) fn may_withdraw(
    sc: &Scenario,
    st: &State,
    stack: &[UnitIx],
    attackers: &[UnitIx],
) -> bool {
    if stack.is_empty() || attackers.is_empty() {
        return false;
    }
    let all_inf = attackers
        .iter()
        .all(|&a| sc.units[usize::from(a)].arm == Arm::Infantry);
    let all_nonlight_inf = all_inf && !attackers.iter().any(|&a| is_light(sc, a));
    let light_cav_attacker = attackers
        .iter()
        .any(|&a| sc.units[usize::from(a)].arm == Arm::Cavalry && is_light(sc, a));
    stack.iter().all(|&u| {
        let unit = &sc.units[usize::from(u)];
        let s = &st.units[usize::from(u)];
        let skirm = s.formation == Formation::Skirmish || unit.skirmish == Skirmish::Only;
        // 13.9b, 20.1e: a disordered non-skirmisher may not.
        if s.disordered && !skirm {
            return false;
        }
        if s.routed || s.hexes.len() != 1 {
            return false;
        }
        match unit.arm {
            Arm::Infantry => (is_light(sc, u) && all_nonlight_inf) || (skirm && all_inf),
            Arm::Cavalry => skirm || all_inf || (is_light(sc, u) && !light_cav_attacker),
            Arm::Artillery => false,
        }
    })
}

/// 20.1a–e: the hexes a single-hex stack may end a retreat before close combat in, each with its
/// path: one or two hexes, each farther from every attacking unit, no enemy, no EZOC, nothing
/// prohibited, no formation change for non-skirmishers; passing friends allowed, ending on them
/// not.
pub(super) fn withdraw_paths(
    sc: &Scenario,
    st: &State,
    stack: &[UnitIx],
    attackers: &[UnitIx],
) -> Vec<Vec<HexId>> {
    let Some(&here) = stack
        .first()
        .and_then(|&u| st.units[usize::from(u)].hexes.first())
    else {
        return Vec::new();
    };
    let side = sc.units[usize::from(stack[0])].side;
    let att_hexes: Vec<HexId> = attackers
        .iter()
        .flat_map(|&a| st.units[usize::from(a)].hexes)
        .collect();
    let dist = |h: HexId| att_hexes.iter().map(|a| h.distance(*a)).min().unwrap_or(0);
    let skirm = stack.iter().all(|&u| {
        st.units[usize::from(u)].formation == Formation::Skirmish
            || sc.units[usize::from(u)].skirmish == Skirmish::Only
    });
    let arms: Vec<Arm> = stack
        .iter()
        .map(|&u| sc.units[usize::from(u)].arm)
        .collect();
    let form = chart_key(st.units[usize::from(stack[0])].formation);
    let ok_step = |from: HexId, to: HexId| -> bool {
        let Some(info) = sc.board.hexes.get(&to) else {
            return false;
        };
        let t = sc.charts.tec.terrain.get(&info.terrain);
        if t.is_some_and(|t| arms.iter().any(|a| t.prohibited.contains(a))) {
            return false;
        }
        if !skirm && t.is_some_and(|t| t.no_formation.iter().any(|f| f == form)) {
            return false;
        }
        if sc
            .board
            .hexside(from, to)
            .and_then(|k| sc.charts.tec.hexside.get(k))
            .is_some_and(|t| arms.iter().any(|a| t.prohibited.contains(a)))
        {
            return false;
        }
        dist(to) > dist(from)
            && !checks::enemy_in(sc, st, side, to, true)
            && !crate::command::ezoc(sc, st, side, to)
    };
    let empty = |h: HexId| crate::stacking::units_at(st, h).is_empty();
    let mut out: Vec<Vec<HexId>> = Vec::new();
    for (_, a) in here.neighbours() {
        if !ok_step(here, a) {
            continue;
        }
        if empty(a) && !out.iter().any(|p| p.last() == Some(&a)) {
            out.push(vec![a]);
        }
        for (_, b) in a.neighbours() {
            if b == here || !ok_step(a, b) || !empty(b) {
                continue;
            }
            match out.iter_mut().find(|p| p.last() == Some(&b)) {
                // Prefer a path through an empty hex (no morale check F for friends).
                Some(p) if p.len() == 2 && !empty(p[0]) && empty(a) => *p = vec![a, b],
                Some(_) => {}
                None => out.push(vec![a, b]),
            }
        }
    }
    out.sort();
    out
}

/// 13.7: a defending stack's morale check (B), or the retreat before combat on offer, or a
/// routed defender's loss and new rout (13.7d).
fn defender_morale(sc: &Scenario, st: &mut State, cc: &mut Cc, ix: usize, ev: &mut Vec<Event>) {
    let c = cur(cc).clone();
    let stack = living(st, &c.defenders[ix]);
    let routed: Vec<UnitIx> = c.defenders[ix]
        .iter()
        .copied()
        .filter(|&u| st.on_map(u) && st.units[usize::from(u)].routed)
        .collect();
    let from: Vec<HexId> = c.att_hexes.iter().flatten().copied().collect();
    if !routed.is_empty() && stack.is_empty() {
        // 13.7d, 19.7c: −1 SP and rout again, no check.
        let top = checks::tester(sc, st, &routed);
        log(
            ev,
            "13.7d",
            format!(
                "{} already routed: loses 1 SP and routs again",
                names(sc, &routed)
            ),
        );
        crate::retreat::lose(
            sc,
            st,
            top,
            1,
            "routed defender in close combat",
            "13.7d, 19.7c",
            ev,
        );
        let routed = routed
            .into_iter()
            .filter(|&u| st.on_map(u))
            .collect::<Vec<_>>();
        if !routed.is_empty() {
            st.jobs.push(Job::Rout {
                units: routed,
                from,
            });
        }
        return;
    }
    if stack.is_empty() {
        return;
    }
    // charges (13.3–13.5, 13.8): a countercharger tested MC (C), which counts as its MC (B);
    // it cannot retreat before combat (13.5c, 13.7a, 13.9a).
    if charge::tested_already(cc, &stack) {
        log(
            ev,
            "13.7a",
            format!(
                "{} countercharged: its morale check (C) was its defender morale check (13.5c)",
                names(sc, &stack)
            ),
        );
        return;
    }
    let attackers = attackers_of(st, &c, ix);
    if may_withdraw(sc, st, &stack, &attackers)
        && !withdraw_paths(sc, st, &stack, &attackers).is_empty()
    {
        cc.steps.insert(0, Step::Withdraw(ix));
        return;
    }
    let by_cav = attackers
        .iter()
        .any(|&a| sc.units[usize::from(a)].arm == Arm::Cavalry);
    let non_cav = stack
        .iter()
        .any(|&u| sc.units[usize::from(u)].arm != Arm::Cavalry);
    let extra: &[&str] = if by_cav && non_cav {
        &["cavalry_attack"]
    } else {
        &[]
    };
    morale_fail(
        sc,
        st,
        &stack,
        Spec::mc('B', "Defender morale (close combat)", "13.7a").with(extra),
        "fights on",
        from,
        ev,
    );
}

/// Roll a morale check; on a failure a good stack is shaken, a shaken one routs (19.1c).
fn morale_fail(
    sc: &Scenario,
    st: &mut State,
    stack: &[UnitIx],
    spec: Spec<'_>,
    pass_text: &str,
    from: Vec<HexId>,
    ev: &mut Vec<Event>,
) {
    let shaken = stack.iter().any(|&u| st.units[usize::from(u)].shaken);
    let mut o = checks::roll(sc, st, stack, spec);
    o.event.result = if o.passed {
        pass_text.into()
    } else if shaken {
        "already shaken: routs (19.1c)".into()
    } else {
        "shaken (19.1c)".into()
    };
    ev.push(Event::Check(o.event.clone()));
    super::special_effects(sc, st, stack, &o, ev);
    let stack: Vec<UnitIx> = stack.iter().copied().filter(|&u| st.on_map(u)).collect();
    if o.passed || stack.is_empty() {
        return;
    }
    if shaken {
        st.jobs.push(Job::Rout { units: stack, from });
    } else {
        for &u in &stack {
            st.units[usize::from(u)].shaken = true;
        }
    }
}

/// The defensive fire groups that may fire at attacking stack `ix` (13.10): the lead's fire
/// module chooses who may; a unit fires once a phase (13.10c).
fn fire_groups(sc: &Scenario, st: &State, cc: &Cc, ix: usize) -> Vec<fire::Group> {
    let c = cur(cc);
    let target = living(st, &c.attackers[ix]);
    if target.is_empty() {
        return Vec::new();
    }
    let side = 1 - cc.side;
    let thexes: Vec<HexId> = target
        .iter()
        .flat_map(|&u| st.units[usize::from(u)].hexes)
        .collect();
    let mine: Vec<UnitIx> = c.defenders.iter().flatten().copied().collect();
    fire::groups_at(sc, st, side, &target, FireKind::Defensive)
        .into_iter()
        .filter_map(|mut g| {
            // 13.10a: the attacker in its ZOC; a unit that is the object of another combat
            // fires only at its own attackers; 13.10c: once a phase.
            g.units.retain(|u| {
                super::front_of(st, *u).iter().any(|h| thexes.contains(h))
                    && (mine.contains(u) || !cc.engaged.contains(u))
                    && may_fire_again(st, cc, *u, g.hex)
                    // charges (13.3–13.5, 13.8): no defensive fire after a reaction (13.10a).
                    && !cc.reacted.contains(u)
            });
            (!g.units.is_empty()).then_some(g)
        })
        .collect()
}

/// 15.1g: units that advanced into a (single) vacated hex may freely change their facing, unless
/// the hex is in an enemy ZOC, or they are cavalry and a defeated enemy survived and retreated
/// (a pursuit is possible: its facing follows the retreat, 16.2a). A multi-hex line advancing
/// whole keeps its facing (its facing change would need a wheel).
fn may_face_after_advance(sc: &Scenario, st: &State, cc: &Cc, us: &[UnitIx]) -> bool {
    let Some(&u0) = us.first() else { return false };
    let s = &st.units[usize::from(u0)];
    if s.hexes.len() != 1 || crate::flow::facings(s.formation).len() < 2 {
        return false;
    }
    let side = sc.units[usize::from(u0)].side;
    if crate::command::ezoc(sc, st, side, s.hexes[0]) {
        return false;
    }
    // Only these units in the hex: a stack keeps one facing (10.1d).
    let here = super::units_in(sc, st, side, &s.hexes);
    if here.iter().any(|u| !us.contains(u)) {
        return false;
    }
    let cavalry = us
        .iter()
        .any(|&u| sc.units[usize::from(u)].arm == Arm::Cavalry);
    let fled = cc.cur.and_then(|i| cc.combats.get(i)).is_some_and(|c| {
        c.defenders.iter().chain(&c.attackers).flatten().any(|&u| {
            sc.units[usize::from(u)].side != side && st.on_map(u) && st.units[usize::from(u)].routed
        })
    });
    !(cavalry && fled)
}

/// 13.10f: a multi-hex attacker that defensive fire reduced to a single hex stays in the hex of
/// its former ones adjacent to the most defending hexes declared at the start (ties: the hex the
/// contraction kept).
fn keep_hex_nearest_defenders(
    sc: &Scenario,
    st: &mut State,
    c: &Combat,
    target: &[UnitIx],
    before: &[HexId],
    ev: &mut Vec<Event>,
) {
    let alive: Vec<UnitIx> = target.iter().copied().filter(|&u| st.on_map(u)).collect();
    let Some(&u0) = alive.first() else { return };
    let now = st.units[usize::from(u0)].hexes;
    if before.len() < 2 || now.len() != 1 {
        return;
    }
    let defending: Vec<HexId> = c.def_hexes.iter().flatten().copied().collect();
    let near = |h: &HexId| defending.iter().filter(|d| d.distance(*h) == 1).count();
    let mut best = now[0];
    for h in before {
        if near(h) > near(&best) {
            best = *h;
        }
    }
    if best != now[0] {
        for &u in &alive {
            st.units[usize::from(u)].hexes = Hexes::one(best);
        }
        log(
            ev,
            "13.10f",
            format!(
                "{} holds {}, the hex of its line beside the most defending hexes",
                names(sc, &alive),
                sc.board.label(best)
            ),
        );
    }
}

/// 13.10c: a unit makes defensive fire once a phase, except a 2-hex line (once from each hex)
/// and a square (at up to three attacking stacks); 13.10d: a defending hex fires at one of the
/// stacks attacking it.
fn may_fire_again(st: &State, cc: &Cc, u: UnitIx, h: HexId) -> bool {
    let from: Vec<HexId> = cc
        .fired_from
        .iter()
        .filter(|x| x.0 == u)
        .map(|x| x.1)
        .collect();
    // A game saved before `fired_from` has only `fired`: once.
    !(from.is_empty() && cc.fired.contains(&u)) && fire::fires_again(st, u, &from, h)
}

/// Leaders who may give their CV bonus to a stack (21.2b).
fn leader_options(sc: &Scenario, st: &State, cc: &Cc, att: bool, ix: usize) -> Vec<u16> {
    let c = cur(cc);
    let stack = if att {
        &c.attackers[ix]
    } else {
        &c.defenders[ix]
    };
    let live = living(st, stack);
    let Some(&u) = live.first() else {
        return Vec::new();
    };
    let side = sc.units[usize::from(u)].side;
    let hexes = st.units[usize::from(u)].hexes;
    super::leaders_in(sc, st, side, &hexes)
}

/// Before the first round: a combat whose defenders all left (13.7e) or whose attackers all
/// routed (13.10e) ends; else the leaders' CV (21.2b) and round 1.
fn pre_round(_sc: &Scenario, st: &mut State, cc: &mut Cc, ev: &mut Vec<Event>) {
    let c = cur(cc).clone();
    let att_alive = c.attackers.iter().any(|s| !living(st, s).is_empty());
    // pursuit (16) / opportunity charge (17): a stack that retreated before combat (13.9a) has
    // left its hex and is out of the combat; all gone, no round is fought (13.7e).
    let def_alive = c.defenders.iter().zip(&c.def_hexes).any(|(s, hx)| {
        living(st, s).iter().any(|&u| {
            st.units[usize::from(u)]
                .hexes
                .iter()
                .any(|h| hx.contains(h))
        })
    });
    if !att_alive || !def_alive {
        log(
            ev,
            if def_alive { "13.10e" } else { "13.7e" },
            if def_alive {
                "no attacker left: the combat ends".into()
            } else {
                "every defending hex is vacated: no combat, advance after combat".into()
            },
        );
        cc.steps.insert(0, Step::EndCombat);
        return;
    }
    let mut next: Vec<Step> = Vec::new();
    for ix in 0..c.attackers.len() {
        next.push(Step::Leader { att: true, ix });
    }
    for ix in 0..c.defenders.len() {
        next.push(Step::Leader { att: false, ix });
    }
    next.push(Step::Round);
    for (i, s) in next.into_iter().enumerate() {
        cc.steps.insert(i, s);
    }
}

/// Who decides the step at the head.
pub fn decider(sc: &Scenario, st: &State, cc: &Cc) -> Option<u8> {
    let c = cc.cur.map(|i| &cc.combats[i]);
    let owner = |s: &[UnitIx]| s.first().map(|&u| sc.units[usize::from(u)].side);
    match cc.steps.first()? {
        Step::Designate | Step::Choose => Some(cc.side),
        Step::Withdraw(_) | Step::DefensiveFire(_) => Some(1 - cc.side),
        Step::Leader { att, ix } => {
            let c = c?;
            owner(if *att {
                &c.attackers[*ix]
            } else {
                &c.defenders[*ix]
            })
        }
        Step::Losses { .. } => resolve::loss_choice(sc, st, cc)
            .first()
            .map(|&u| sc.units[usize::from(u)].side),
        Step::Advance { att, .. } => Some(if *att { cc.side } else { 1 - cc.side }),
        Step::AdvanceFace { att, .. } => Some(if *att { cc.side } else { 1 - cc.side }),
        Step::TestG { order, pos, .. } => order
            .get(*pos)
            .map(|o| if o.0 { cc.side } else { 1 - cc.side }),
        // charges (13.3–13.5, 13.8)
        Step::ChargeHex => Some(cc.side),
        Step::React(_)
        | Step::Countercharge(_)
        | Step::CounterchargeOrder
        | Step::DefenceOption(..) => Some(1 - cc.side),
        _ => None,
    }
}

/// The legal actions at the head step.
pub fn legal(sc: &Scenario, st: &State, cc: &Cc) -> Vec<Action> {
    match cc.steps.first() {
        Some(Step::Designate) => {
            let mut v: Vec<Action> = cc
                .eligible
                .iter()
                .filter(|s| !cc.designated.contains(s))
                .map(|s| {
                    // charges (13.3–13.5, 13.8): a stack that must charge (13.1d).
                    if charge::is_charger(sc, st, s) {
                        Action::Charge(s[0])
                    } else {
                        Action::Attack(s[0])
                    }
                })
                .collect();
            v.push(Action::CcDone);
            v
        }
        Some(Step::Choose) => open(cc)
            .into_iter()
            .filter_map(|i| cc.combats[i].attackers.first().and_then(|s| s.first()))
            .map(|&u| Action::CcFight(u))
            .collect(),
        Some(Step::Withdraw(ix)) => {
            let c = cur(cc);
            let stack = living(st, &c.defenders[*ix]);
            let attackers = attackers_of(st, c, *ix);
            let mut v: Vec<Action> = withdraw_paths(sc, st, &stack, &attackers)
                .into_iter()
                .filter_map(|p| p.last().copied())
                .map(Action::CcWithdraw)
                .collect();
            v.push(Action::CcStand);
            v
        }
        Some(Step::DefensiveFire(ix)) => {
            let mut v = vec![Action::CcFire];
            // 13.10c: with several hexes able to fire, the defender may fire from one and keep
            // the others for another attacking stack.
            let gs = fire_groups(sc, st, cc, *ix);
            if gs.len() > 1 && cur(cc).attackers.len() > *ix + 1 {
                v.extend(gs.iter().map(|g| Action::CcFireFrom(g.hex)));
            }
            v.push(Action::CcHoldFire);
            v
        }
        Some(Step::Leader { att, ix }) => {
            let mut v: Vec<Action> = leader_options(sc, st, cc, *att, *ix)
                .into_iter()
                .map(Action::CcLeader)
                .collect();
            v.push(Action::CcNoLeader);
            v
        }
        Some(Step::Losses { .. }) => resolve::loss_choice(sc, st, cc)
            .into_iter()
            .map(Action::CcLose)
            .collect(),
        Some(Step::TestG {
            order, pos, ers, ..
        }) => tie_choice(cc, order, ers, *pos)
            .into_iter()
            .map(Action::CcFirst)
            .collect(),
        Some(Step::Advance { moved, .. }) => {
            let mut v: Vec<Action> = resolve::advance_options(sc, st, cc)
                .into_iter()
                .map(|(us, hs)| Action::CcAdvance(us, hs))
                .collect();
            if *moved {
                v.push(Action::CcAdvanceDone);
            }
            v
        }
        Some(Step::AdvanceFace { units, .. }) => {
            let now = units.first().map(|&u| st.units[usize::from(u)].clone());
            let mut v: Vec<Action> = now
                .map(|s| {
                    crate::flow::facings(s.formation)
                        .into_iter()
                        .filter(|f| *f != s.facing)
                        .map(Action::CcFace)
                        .collect()
                })
                .unwrap_or_default();
            v.push(Action::CcFaceKeep);
            v
        }
        // charges (13.3–13.5, 13.8)
        Some(Step::ChargeHex) => charge::hex_options(sc, st, cc),
        Some(Step::React(s)) => charge::react_options(sc, st, s),
        Some(Step::Countercharge(s)) => charge::countercharge_options(sc, st, cc, s),
        Some(Step::CounterchargeOrder) => charge::order_options(sc, st, cc)
            .into_iter()
            .map(Action::CounterchargeFirst)
            .collect(),
        Some(Step::DefenceOption(_, s)) => defence_option::options(s),
        _ => Vec::new(),
    }
}

/// Apply a decision and run on.
pub fn apply(sc: &Scenario, st: &mut State, mut cc: Cc, a: &Action, ev: &mut Vec<Event>) -> Phase {
    let Some(step) = cc.steps.first().cloned() else {
        return run(sc, st, cc, ev);
    };
    match (step, a) {
        (Step::Designate, Action::Attack(u) | Action::Charge(u)) => {
            if let Some(s) = cc.eligible.iter().find(|s| s.first() == Some(u)).cloned() {
                log(
                    ev,
                    "13.1",
                    format!("{} designated to attack", names(sc, &s)),
                );
                cc.designated.push(s);
            }
        }
        (Step::Designate, Action::CcDone) => {
            cc.steps.remove(0);
            if cc.designated.is_empty() {
                log(ev, "13.1c", "no close combat attack".into());
            }
        }
        (Step::Choose, Action::CcFight(u)) => {
            cc.steps.remove(0);
            if let Some(i) = open(&cc)
                .into_iter()
                .find(|&i| cc.combats[i].attackers.first().and_then(|s| s.first()) == Some(u))
            {
                start(sc, st, &mut cc, i, ev);
            }
        }
        (Step::Withdraw(ix), Action::CcWithdraw(h)) => {
            cc.steps.remove(0);
            withdraw(sc, st, &mut cc, ix, *h, ev);
        }
        (Step::Withdraw(ix), Action::CcStand) => {
            cc.steps.remove(0);
            // 13.7a: it makes the defender morale check after all.
            let c = cur(&cc).clone();
            let stack = living(st, &c.defenders[ix]);
            let attackers = attackers_of(st, &c, ix);
            let by_cav = attackers
                .iter()
                .any(|&a| sc.units[usize::from(a)].arm == Arm::Cavalry);
            let non_cav = stack
                .iter()
                .any(|&u| sc.units[usize::from(u)].arm != Arm::Cavalry);
            let extra: &[&str] = if by_cav && non_cav {
                &["cavalry_attack"]
            } else {
                &[]
            };
            morale_fail(
                sc,
                st,
                &stack,
                Spec::mc('B', "Defender morale (close combat)", "13.7a").with(extra),
                "fights on",
                c.att_hexes.iter().flatten().copied().collect(),
                ev,
            );
        }
        (Step::DefensiveFire(ix), a @ (Action::CcFire | Action::CcFireFrom(_))) => {
            cc.steps.remove(0);
            let mut groups = fire_groups(sc, st, &cc, ix);
            if let Action::CcFireFrom(h) = a {
                groups.retain(|g| g.hex == *h);
            }
            let target = living(st, &cur(&cc).attackers[ix]);
            for g in &groups {
                cc.fired.extend(g.units.iter().copied());
                cc.fired_from.extend(g.units.iter().map(|&u| (u, g.hex)));
            }
            log(
                ev,
                "13.10",
                format!("defensive fire at {}", names(sc, &target)),
            );
            let before: Vec<HexId> = (target
                .first()
                .map(|&u| st.units[usize::from(u)].hexes)
                .unwrap_or_default())
            .to_vec();
            fire::resolve(sc, st, FireKind::Defensive, &groups, &target, ev);
            keep_hex_nearest_defenders(sc, st, cur(&cc), &target, &before, ev);
            let c = cur(&cc).clone();
            if c.attackers.iter().all(|s| living(st, s).is_empty()) {
                log(
                    ev,
                    "13.10e",
                    "defensive fire routed every attacker: the combat ends".into(),
                );
            }
        }
        (Step::DefensiveFire(_), Action::CcHoldFire) => {
            cc.steps.remove(0);
        }
        (Step::Leader { att, ix }, Action::CcLeader(l)) => {
            cc.steps.remove(0);
            let c = cur_mut(&mut cc);
            c.leaders.push((att, ix, *l));
        }
        (Step::Leader { .. }, Action::CcNoLeader) => {
            cc.steps.remove(0);
        }
        (s @ Step::Losses { .. }, Action::CcLose(u)) => {
            cc.steps.remove(0);
            resolve::losses(sc, st, &mut cc, s, Some(*u), ev);
        }
        (Step::Advance { att, .. }, Action::CcAdvance(us, hs)) => {
            cc.steps.remove(0);
            resolve::advance(sc, st, &mut cc, us, hs, ev);
            cc.steps.insert(0, Step::Advance { att, moved: true });
            if may_face_after_advance(sc, st, &cc, us) {
                cc.steps.insert(
                    0,
                    Step::AdvanceFace {
                        att,
                        units: us.clone(),
                    },
                );
            }
        }
        (Step::AdvanceFace { units, .. }, Action::CcFace(f)) => {
            cc.steps.remove(0);
            for &u in &units {
                st.units[usize::from(u)].facing = *f;
            }
            log(
                ev,
                "15.1g",
                format!(
                    "{} face {} after advancing",
                    names(sc, &units),
                    crate::geom::FacingExt::name(*f)
                ),
            );
        }
        (Step::AdvanceFace { .. }, Action::CcFaceKeep) => {
            cc.steps.remove(0);
        }
        (
            Step::TestG {
                mut order,
                pos,
                special,
                mut ers,
                ..
            },
            Action::CcFirst(u),
        ) => {
            cc.steps.remove(0);
            let c = cur(&cc);
            if let Some(j) = resolve::tied(&order, &ers, pos).into_iter().find(|&j| {
                let (att, ix) = order[j];
                let s = if att {
                    &c.attackers[ix]
                } else {
                    &c.defenders[ix]
                };
                s.first() == Some(u)
            }) {
                let x = order.remove(j);
                order.insert(pos, x);
                let e = ers.remove(j);
                ers.insert(pos, e);
            }
            cc.steps.insert(
                0,
                Step::TestG {
                    order,
                    pos,
                    special,
                    ers,
                    picked: true,
                },
            );
        }
        (Step::Advance { .. }, Action::CcAdvanceDone) => {
            cc.steps.remove(0);
            resolve::disorder_left_behind(sc, st, &mut cc, ev);
            cur_mut(&mut cc).done = true;
            // pursuit (16) / opportunity charge (17)
            cc.steps.insert(0, Step::Pursue);
        }
        // charges (13.3–13.5, 13.8)
        (
            Step::ChargeHex,
            Action::ChargeHex(_) | Action::ChargeContract(_) | Action::ChargeStop,
        ) => {
            cc.steps.remove(0);
            charge::choose(sc, st, &mut cc, a, ev);
        }
        (
            Step::React(s),
            Action::ReactFace(_) | Action::ReactForm(..) | Action::ReactPart(..) | Action::Pass,
        ) => {
            cc.steps.remove(0);
            charge::react(sc, st, &mut cc, &s, a, ev);
        }
        (Step::CounterchargeOrder, Action::CounterchargeFirst(u)) => {
            cc.steps.remove(0);
            charge::ask_first(sc, st, &mut cc, *u);
        }
        (Step::Countercharge(s), Action::Countercharge(_) | Action::Pass) => {
            cc.steps.remove(0);
            charge::countercharge(sc, st, &mut cc, &s, a, ev);
        }
        (Step::DefenceOption(i, s), Action::CcCavalryDefend(_) | Action::Pass) => {
            cc.steps.remove(0);
            defence_option::decide(sc, st, &mut cc, i, &s, a, ev);
            start(sc, st, &mut cc, i, ev);
        }
        _ => {}
    }
    run(sc, st, cc, ev)
}

/// 20.1: the retreat before close combat to `to`, its disorder (20.1e), the friends passed
/// (20.1c) and the morale check (D) that replaces the defender's (13.9c).
fn withdraw(sc: &Scenario, st: &mut State, cc: &mut Cc, ix: usize, to: HexId, ev: &mut Vec<Event>) {
    let c = cur(cc).clone();
    let stack = living(st, &c.defenders[ix]);
    let attackers = attackers_of(st, &c, ix);
    let Some(path) = withdraw_paths(sc, st, &stack, &attackers)
        .into_iter()
        .find(|p| p.last() == Some(&to))
    else {
        return;
    };
    let Some(&here) = st.units[usize::from(stack[0])].hexes.first() else {
        return;
    };
    let side = sc.units[usize::from(stack[0])].side;
    let skirm = stack.iter().all(|&u| {
        st.units[usize::from(u)].formation == Formation::Skirmish
            || sc.units[usize::from(u)].skirmish == Skirmish::Only
    });
    let mut passed: Vec<UnitIx> = Vec::new();
    for h in &path[..path.len() - 1] {
        passed.extend(crate::stacking::units_at(st, *h));
    }
    let non_clear = path
        .iter()
        .any(|h| sc.board.tec_row(*h).is_some_and(|t| t.non_clear));
    for &u in &stack {
        st.units[usize::from(u)].hexes = Hexes::one(to);
    }
    // 21.2c: leaders go with it.
    for (i, l) in st.leaders.iter_mut().enumerate() {
        if sc.leaders[i].side == side && l.status == LeaderStatus::Present && l.hex == Some(here) {
            l.hex = Some(to);
        }
    }
    cur_mut(cc).withdrew = true;
    log(
        ev,
        "13.9, 20.1a",
        format!(
            "{} retreat{} before close combat to {}",
            names(sc, &stack),
            if stack.len() == 1 { "s" } else { "" },
            path.iter()
                .map(|h| sc.board.label(*h))
                .collect::<Vec<_>>()
                .join(" → ")
        ),
    );
    if non_clear && !skirm {
        for &u in &stack {
            st.units[usize::from(u)].disordered = true;
        }
        log(
            ev,
            "20.1e",
            format!(
                "{} disordered: retreated through non-clear terrain",
                names(sc, &stack)
            ),
        );
    }
    morale_fail(
        sc,
        st,
        &stack,
        Spec::mc('D', "Retreat before close combat", "13.9c, 20.1a"),
        "holds",
        c.att_hexes.iter().flatten().copied().collect(),
        ev,
    );
    if !passed.is_empty() && !skirm {
        st.jobs.push(Job::MoraleF(passed));
    }
    // 13.9a: it withdrew "rather than fight": out of this combat's defensive fire, rounds (its SP
    // and CV, 13.11), losses and morale checks (14.4); its hex stays among the combat's (13.7e:
    // vacated, for the advance).
    if let Some(d) = cur_mut(cc).defenders.get_mut(ix) {
        d.clear();
    }
    let _ = name;
}
