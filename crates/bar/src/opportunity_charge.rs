//! Opportunity charge (17.0–17.3): package 4 (issue 17).
//!
//! At the triggers of opportunity fire (12.8c–d), the reactive player may answer a move with an
//! opportunity charge of an eligible cavalry stack (17.1, `offers`), beside opportunity fire in
//! `Phase::Reaction`. Declared (`declare`), it may need the reactive player's choices
//! (`Phase::OppCharge`): the option against a separating stack (17.2d) and the hex entered when
//! two are possible (A48). Then the morale check (H) (17.2a, 19.1 H): a failure shakes the
//! cavalry; a success moves it 0 or 1 hex (SCM, 11.10b) and starts one close combat, built here
//! and run by the close combat step machine (`close_combat::Cc` with `opp` set): the defender
//! morale checks (B) made here (no retreat before combat, 17.2c), defensive fire, rounds, the
//! advance after combat and pursuit (16.1a). At its end (`after`) the move goes on (17.3c) or
//! ends: routed or eliminated, disordered by the result (14.3b), advanced after combat (17.3e)
//! unless, active cavalry, it was recalled before spending any pursuit point (then it goes on from
//! the hex it advanced into); the end of movement makes the stacking test (17.3d, 10.13b) and the
//! DC (A) still owed (17.3f).
use crate::action::Action;
use crate::checks::{self, Spec};
use crate::close_combat::{Cc, Combat, Step};
use crate::data::Arm;
use crate::event::Event;
use crate::geom::Formation;
use crate::movement::{Mover, Trigger};
use crate::scenario::{Scenario, UnitIx};
use crate::state::{Job, Phase, State};
use hexmap::HexId;
use serde::{Deserialize, Serialize};

/// The move an opportunity charge interrupted, to go back to (the `Phase::Reaction` fields).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Resume {
    /// The moving unit, as it stands.
    pub mover: Mover,
    /// What triggered the reaction.
    pub trigger: Trigger,
    /// The move waiting for the answer.
    pub pending: Option<Action>,
    /// The reactive units that could answer.
    pub reactors: Vec<UnitIx>,
    /// Opportunity fires made at this trigger.
    pub fired: Vec<bool>,
    /// The movers already disordered before the combat (14.3b).
    #[serde(default)]
    pub disordered: Vec<UnitIx>,
    /// The movers' hexes before the combat.
    #[serde(default)]
    pub at: Vec<HexId>,
    /// The movers, cavalry that advanced after the combat, were recalled before spending any
    /// pursuit point (17.3e): their move may go on.
    #[serde(default)]
    pub recalled: bool,
}

/// An opportunity charge waiting for the reactive player's choices.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OppCharge {
    /// The reactive side.
    pub side: u8,
    /// The charging stack, top first.
    pub charger: Vec<UnitIx>,
    /// The option against a separating stack (17.2d), once chosen: `true` the original stack.
    pub original: Option<bool>,
    /// The option must be chosen.
    pub ask_option: bool,
    /// The hex to enter, once chosen (`None` and no choice: a charge from adjacency).
    pub to: Option<HexId>,
    /// The move to go back to.
    pub back: Resume,
}

fn log(ev: &mut Vec<Event>, rule: &str, text: String) {
    ev.push(Event::OppCharge {
        rule: rule.to_string(),
        text,
    });
}

fn names(sc: &Scenario, us: &[UnitIx]) -> String {
    crate::close_combat::names(sc, us)
}

/// The trigger's hexes.
fn trigger_hexes(t: &Trigger) -> Vec<HexId> {
    match t {
        Trigger::Change(h) | Trigger::Leave(h) => h.to_vec(),
    }
}

/// The stacks of reactive cavalry, top first.
fn cavalry_stacks(sc: &Scenario, st: &State, side: u8) -> Vec<Vec<UnitIx>> {
    let cav: Vec<UnitIx> = (0..sc.units.len() as UnitIx)
        .filter(|&u| {
            sc.units[usize::from(u)].side == side
                && st.on_map(u)
                && sc.units[usize::from(u)].arm == Arm::Cavalry
        })
        .collect();
    crate::rally::stacks(st, &cav)
        .into_iter()
        .map(|s| {
            let mut s = s;
            s.sort_by_key(|&u| (st.units[usize::from(u)].order, u));
            s
        })
        .collect()
}

/// The hexes a charging stack may enter to reach the trigger (17.2a–b, 11.10b): none needed when
/// the trigger is in its front (`Some(vec![])`); else its footprint one hex ahead into its front
/// hex(es), empty, of SCM cost ≤ 1 and with a hex adjacent to the trigger, each named by its first
/// hex (a multi-hex line advances as a whole, 17.2a: "no facing/formation changes"); `None` if it
/// cannot reach.
fn approach(
    sc: &Scenario,
    st: &State,
    stack: &[UnitIx],
    target: &[HexId],
) -> Option<Vec<Vec<HexId>>> {
    let &top = stack.first()?;
    let front = crate::close_combat::front_of(st, top);
    if front.iter().any(|h| target.contains(h)) {
        return Some(Vec::new());
    }
    // 11.10b: one hex of SCM cost 1 at most (the chart's range, checked to be 1).
    let max = sc
        .charts
        .movement
        .as_ref()
        .map_or(1, |m| m.opportunity_charge.max(1));
    let me = &st.units[usize::from(top)];
    let to: Vec<Vec<HexId>> = if let [here] = me.hexes[..] {
        // One hex (any facing, a column's hexside facing too): an empty front hex beside the
        // trigger.
        front
            .into_iter()
            .filter(|&h| {
                target.iter().any(|t| t.is_adjacent(h))
                    && crate::stacking::units_at(st, h).is_empty()
                    && crate::pursuit::scm_cost(sc, here, h).is_some_and(|c| c <= max)
                    && sc.board.hexes.get(&h).is_some_and(|i| {
                        sc.charts.tec.terrain.get(&i.terrain).is_none_or(|t| {
                            !t.no_formation
                                .iter()
                                .any(|f| f == crate::geom::chart_key(me.formation))
                        })
                    })
            })
            .map(|h| vec![h])
            .collect()
    } else {
        crate::close_combat::charge::one_hex_ahead(sc, st, stack, target, u16::from(max) * 2)
    };
    (!to.is_empty()).then_some(to)
}

/// 17.1: the reactive cavalry stacks (their top units) that may charge the mover at this trigger:
/// in line or attack column, none shaken or routed, not in an EZOC (17.1a); a disordered one only
/// at a trigger in its front hexes (17.1a); none at a trigger two hexes away with an enemy in a
/// front hex (17.1b); once per enemy a phase (17.1d); command does not matter (17.1e); and able
/// to reach it (17.2b: one that could not is not offered).
pub fn offers(sc: &Scenario, st: &State, mover: &Mover, hexes: &[HexId]) -> Vec<UnitIx> {
    if sc.charts.combat.is_none() {
        return Vec::new();
    }
    let side = 1 - mover.side;
    let mut out = Vec::new();
    for s in cavalry_stacks(sc, st, side) {
        let Some(&top) = s.first() else { continue };
        let ok = s.iter().all(|&u| {
            let x = &st.units[usize::from(u)];
            matches!(x.formation, Formation::Line | Formation::AttackColumn)
                && !x.shaken
                && !x.routed
                && !mover.charged_by.contains(&u)
        });
        if !ok || checks::in_ezoc(sc, st, top) {
            continue;
        }
        let Some(to) = approach(sc, st, &s, hexes) else {
            continue;
        };
        if !to.is_empty() {
            let disordered = s.iter().any(|&u| st.units[usize::from(u)].disordered);
            let enemy_front = crate::close_combat::front_of(st, top)
                .iter()
                .any(|h| checks::enemy_in(sc, st, side, *h, true));
            if disordered || enemy_front {
                continue;
            }
        }
        out.push(top);
    }
    out
}

/// The reactive player declares an opportunity charge by the stack of `top` (17.1c: the whole
/// stack).
pub fn declare(
    sc: &Scenario,
    st: &mut State,
    back: Resume,
    top: UnitIx,
    ev: &mut Vec<Event>,
) -> Phase {
    let mut back = back;
    let side = 1 - back.mover.side;
    let Some(charger) = cavalry_stacks(sc, st, side)
        .into_iter()
        .find(|s| s.first() == Some(&top))
    else {
        return back_to(sc, st, back);
    };
    back.mover.charged_by.extend(charger.iter().copied());
    let hexes = trigger_hexes(&back.trigger);
    let to = approach(sc, st, &charger, &hexes).unwrap_or_default();
    log(
        ev,
        "17.1",
        format!(
            "{} declare{} an opportunity charge at {}",
            names(sc, &charger),
            if charger.len() == 1 { "s" } else { "" },
            names(sc, &back.mover.units)
        ),
    );
    // 17.2d: a stack separating in its starting hex.
    let separating = back.mover.path.is_empty() && !back.mover.among.is_empty();
    let oc = OppCharge {
        side,
        charger,
        original: back.mover.charge_option,
        ask_option: separating && back.mover.charge_option.is_none(),
        to: (to.len() == 1).then(|| to[0][0]),
        back,
    };
    let oc = OppCharge {
        to: if to.is_empty() { None } else { oc.to },
        ..oc
    };
    if oc.ask_option || (!to.is_empty() && oc.to.is_none()) {
        return Phase::OppCharge(Box::new(oc));
    }
    go(sc, st, oc, ev)
}

/// Back to the reactive player's answer at the same trigger (17.0: the reacting player orders
/// his reactions), or on with the move if nothing else is open.
fn back_to(sc: &Scenario, st: &State, r: Resume) -> Phase {
    crate::movement::back_to_reaction(sc, st, r.mover, r.trigger, r.pending, r.fired)
}

/// Who decides: the reactive player.
pub fn decider(o: &OppCharge) -> u8 {
    o.side
}

/// The choices: the option against a separating stack (17.2d), then the hex entered (A48).
pub fn legal(sc: &Scenario, st: &State, o: &OppCharge) -> Vec<Action> {
    if o.ask_option && o.original.is_none() {
        return vec![
            Action::OppChargeOriginal(true),
            Action::OppChargeOriginal(false),
        ];
    }
    approach(sc, st, &o.charger, &trigger_hexes(&o.back.trigger))
        .unwrap_or_default()
        .into_iter()
        .map(|nh| Action::OppChargeTo(nh[0]))
        .collect()
}

/// Apply a choice and go on.
pub fn apply(
    sc: &Scenario,
    st: &mut State,
    mut o: OppCharge,
    a: &Action,
    ev: &mut Vec<Event>,
) -> Phase {
    match a {
        Action::OppChargeOriginal(x) => {
            o.original = Some(*x);
            o.back.mover.charge_option = Some(*x);
            log(
                ev,
                "17.2d",
                if *x {
                    "against the original stack (17.3a)".into()
                } else {
                    "against the stack after the separation: moving and non-moving units (17.3b)"
                        .into()
                },
            );
            let to =
                approach(sc, st, &o.charger, &trigger_hexes(&o.back.trigger)).unwrap_or_default();
            if to.len() > 1 {
                return Phase::OppCharge(Box::new(o));
            }
            o.to = to.first().map(|nh| nh[0]);
        }
        Action::OppChargeTo(h) => o.to = Some(*h),
        _ => return Phase::OppCharge(Box::new(o)),
    }
    go(sc, st, o, ev)
}

/// 17.2a: the morale check (H); on a success the move and the close combat.
fn go(sc: &Scenario, st: &mut State, o: OppCharge, ev: &mut Vec<Event>) -> Phase {
    let OppCharge {
        side,
        charger,
        original,
        to,
        mut back,
        ..
    } = o;
    let mut mc = checks::roll(
        sc,
        st,
        &charger,
        Spec::mc('H', "Opportunity charge", "17.2a"),
    );
    mc.event.result = if mc.passed {
        "charges".into()
    } else {
        "shaken, does not charge (17.2a)".into()
    };
    ev.push(Event::Check(mc.event.clone()));
    crate::close_combat::special_effects(sc, st, &charger, &mc, ev);
    let charger: Vec<UnitIx> = charger.into_iter().filter(|&u| st.on_map(u)).collect();
    if !mc.passed || charger.is_empty() {
        for &u in &charger {
            st.units[usize::from(u)].shaken = true;
        }
        return back_to(sc, st, back);
    }
    if let Some(h) = to {
        // The footprint named by its first hex (a one-hex stack: the hex itself).
        let nh = approach(sc, st, &charger, &trigger_hexes(&back.trigger))
            .unwrap_or_default()
            .into_iter()
            .find(|nh| nh.first() == Some(&h))
            .unwrap_or_else(|| vec![h]);
        crate::close_combat::charge::move_stack(sc, st, &charger, &nh);
        log(
            ev,
            "17.2a",
            format!(
                "{} charge{} one hex into {}",
                names(sc, &charger),
                if charger.len() == 1 { "s" } else { "" },
                nh.iter()
                    .map(|&x| sc.board.label(x))
                    .collect::<Vec<_>>()
                    .join("-")
            ),
        );
    } else {
        log(
            ev,
            "17.2a",
            format!(
                "{}: the mover is adjacent, no movement needed",
                names(sc, &charger)
            ),
        );
    }
    // The defending stacks: the mover's hexes first, then every enemy in the charger's front
    // (17.3a, A49).
    let movers: Vec<UnitIx> = back
        .mover
        .units
        .iter()
        .copied()
        .filter(|&u| st.on_map(u))
        .collect();
    let hexes = trigger_hexes(&back.trigger);
    let mut defenders: Vec<Vec<UnitIx>> = Vec::new();
    let all_here = crate::close_combat::units_in(sc, st, 1 - side, &hexes);
    // The movers' stack: the units with exactly their hexes; other units in those hexes (a
    // multi-hex mover over a one-hex stack) are stacks of their own.
    let mover_hexes = movers
        .first()
        .map(|&u| st.units[usize::from(u)].hexes)
        .unwrap_or_default();
    let (here, apart): (Vec<UnitIx>, Vec<UnitIx>) = all_here
        .into_iter()
        .partition(|&u| st.units[usize::from(u)].hexes == mover_hexes);
    let mixed = here.iter().any(|u| !movers.contains(u));
    // 17.3b (or 17.2d b): the moving units on top, their ER and CV speak for the stack.
    let moving_first = mixed && original != Some(true);
    let mut first: Vec<UnitIx> = if moving_first {
        let mut v = movers.clone();
        v.extend(here.iter().copied().filter(|u| !movers.contains(u)));
        let numbers: Vec<u16> = {
            let mut n: Vec<u16> = v.iter().map(|&u| st.units[usize::from(u)].order).collect();
            n.sort_unstable();
            n
        };
        for (&u, n) in v.iter().zip(numbers) {
            st.units[usize::from(u)].order = n;
        }
        v
    } else {
        here.clone()
    };
    first.sort_by_key(|&u| (st.units[usize::from(u)].order, u));
    defenders.push(first);
    for mut s2 in crate::rally::stacks(st, &apart) {
        s2.sort_by_key(|&u| (st.units[usize::from(u)].order, u));
        defenders.push(s2);
    }
    for e in crate::close_combat::enemies_in_zoc(sc, st, charger[0]) {
        if defenders.iter().any(|d| d.contains(&e)) {
            continue;
        }
        let hx = st.units[usize::from(e)].hexes;
        let mut s = crate::close_combat::units_in(sc, st, 1 - side, &hx);
        s.sort_by_key(|&u| (st.units[usize::from(u)].order, u));
        defenders.push(s);
    }
    let c = Combat {
        attackers: vec![charger.clone()],
        att_hexes: vec![st.units[usize::from(charger[0])].hexes.to_vec()],
        def_hexes: defenders
            .iter()
            .map(|d| st.units[usize::from(d[0])].hexes.to_vec())
            .collect(),
        defenders,
        ..Combat::default()
    };
    log(
        ev,
        "17.3",
        format!(
            "close combat: {} attack{} {}{}",
            names(sc, &charger),
            if charger.len() == 1 { "s" } else { "" },
            c.defenders
                .iter()
                .map(|d| names(sc, d))
                .collect::<Vec<_>>()
                .join(" and "),
            if moving_first {
                " (moving and non-moving units: the moving units' ER and CV, 17.3b)"
            } else {
                ""
            }
        ),
    );
    // 13.7: the defender morale checks (B); 17.2c: no retreat before combat.
    let from = c.att_hexes[0].clone();
    for d in &c.defenders {
        defender_morale(sc, st, d, &charger, from.clone(), ev);
    }
    back.disordered = movers
        .iter()
        .copied()
        .filter(|&u| st.units[usize::from(u)].disordered)
        .collect();
    back.at = (movers
        .first()
        .map(|&u| st.units[usize::from(u)].hexes)
        .unwrap_or_default())
    .to_vec();
    let mut engaged: Vec<UnitIx> = charger.clone();
    engaged.extend(c.defenders.iter().flatten().copied());
    // 17.3b: the moving units do not fire defensively.
    let fired = if moving_first { movers } else { Vec::new() };
    let cc = Cc {
        side,
        eligible: Vec::new(),
        designated: Vec::new(),
        combats: vec![c],
        cur: Some(0),
        engaged,
        fired,
        fired_from: Vec::new(),
        steps: vec![Step::DefensiveFire(0), Step::PreRound, Step::OppChargeOver],
        escorts: Vec::new(),
        opp: Some(Box::new(back)),
        charges: Vec::new(),
        reacted: Vec::new(),
        countercharged: Vec::new(),
        charge_hexes: Vec::new(),
        must_attack: Vec::new(),
        defence_declined: Vec::new(),
    };
    crate::close_combat::resume(sc, st, cc, ev)
}

/// The defender morale check (B) of a stack attacked by the charge (13.7a): good morale that
/// fails is shaken, shaken routs; a routed stack loses 1 SP and routs again (13.7d).
fn defender_morale(
    sc: &Scenario,
    st: &mut State,
    stack: &[UnitIx],
    charger: &[UnitIx],
    from: Vec<HexId>,
    ev: &mut Vec<Event>,
) {
    let stack: Vec<UnitIx> = stack.iter().copied().filter(|&u| st.on_map(u)).collect();
    let Some(&top) = stack.first() else { return };
    if st.units[usize::from(top)].routed {
        crate::retreat::lose(
            sc,
            st,
            top,
            1,
            "routed defender in close combat",
            "13.7d, 19.7c",
            ev,
        );
        let left: Vec<UnitIx> = stack.iter().copied().filter(|&u| st.on_map(u)).collect();
        if !left.is_empty() {
            st.jobs.push(Job::Rout { units: left, from });
        }
        return;
    }
    let non_cav = stack
        .iter()
        .any(|&u| sc.units[usize::from(u)].arm != Arm::Cavalry);
    let extra: &[&str] = if non_cav && !charger.is_empty() {
        &["cavalry_attack"]
    } else {
        &[]
    };
    let shaken = stack.iter().any(|&u| st.units[usize::from(u)].shaken);
    let mut o = checks::roll(
        sc,
        st,
        &stack,
        Spec::mc('B', "Defender morale (opportunity charge)", "13.7a, 17.3a").with(extra),
    );
    o.event.result = if o.passed {
        "fights on".into()
    } else if shaken {
        "already shaken: routs (19.1c)".into()
    } else {
        "shaken (19.1c)".into()
    };
    ev.push(Event::Check(o.event.clone()));
    crate::close_combat::special_effects(sc, st, &stack, &o, ev);
    let stack: Vec<UnitIx> = stack.into_iter().filter(|&u| st.on_map(u)).collect();
    if o.passed || stack.is_empty() {
        return;
    }
    if shaken {
        for &u in &stack {
            st.units[usize::from(u)].routed = true;
        }
        st.jobs.push(Job::Rout { units: stack, from });
    } else {
        for &u in &stack {
            st.units[usize::from(u)].shaken = true;
        }
    }
}

/// The close combat of the charge is over (its advance and pursuit included): the move goes on
/// (17.3c) unless the movers are gone (routed, eliminated), disordered by the combat (14.3b) or
/// moved by it (17.3e: an advance after combat ends the move); then the end of movement's
/// stacking test and DC (A) (17.3d, f).
pub fn after(sc: &Scenario, st: &mut State, mut cc: Cc, ev: &mut Vec<Event>) -> Phase {
    st.routes.clear();
    let Some(back) = cc.opp.take() else {
        return Phase::Movement;
    };
    let Resume {
        mut mover,
        trigger,
        pending,
        fired,
        disordered,
        at,
        recalled,
        ..
    } = *back;
    let all = mover.units.clone();
    mover
        .units
        .retain(|&u| st.on_map(u) && !st.units[usize::from(u)].routed);
    if mover.units.is_empty() {
        log(
            ev,
            "17.3",
            format!(
                "{}: routed or eliminated, its move is over",
                names(sc, &all)
            ),
        );
        if let Some(act) = st.activation.as_mut() {
            act.moved.extend(all.iter().copied());
        }
        return Phase::Movement;
    }
    let now = st.units[usize::from(mover.units[0])].hexes;
    let newly = mover
        .units
        .iter()
        .any(|&u| st.units[usize::from(u)].disordered && !disordered.contains(&u));
    if now != at && !recalled {
        return crate::movement::finish_after_charge(
            sc,
            st,
            mover,
            "ends its move: it advanced after the opportunity charge's combat (17.3e)",
            ev,
        );
    }
    if newly {
        return crate::movement::finish_after_charge(
            sc,
            st,
            mover,
            "stops: disordered by the opportunity charge's combat (14.3b, 17.3c)",
            ev,
        );
    }
    if now != at {
        // 17.3e: recalled before any pursuit point, not disordered: on from where it stands
        // (the advance and 16.2a's contraction and facing are not movement).
        log(
            ev,
            "17.3e",
            format!(
                "{}: recalled before any pursuit, may go on with its move from {} ({} MP left)",
                names(sc, &mover.units),
                sc.board.labels(&now[..], "-"),
                mover.left
            ),
        );
        mover.among = crate::close_combat::units_in(sc, st, mover.side, &now)
            .into_iter()
            .filter(|u| !mover.units.contains(u))
            .collect();
        mover.last_step = None;
        mover.turned_here = false;
        mover.before = None;
        return crate::movement::go_on_after_charge(sc, st, mover, ev);
    }
    log(
        ev,
        "17.3c",
        format!("{} may go on with its move", names(sc, &mover.units)),
    );
    crate::movement::back_to_reaction(sc, st, mover, trigger, pending, fired)
}

/// Active cavalry of an interrupted move was recalled before spending any pursuit point (17.3e):
/// noted on the close combat of the charge waiting on the phase stack.
pub(crate) fn note_recall(st: &mut State, units: &[UnitIx]) {
    for p in st.stack.iter_mut() {
        if let Phase::CloseCombat(cc) = p
            && let Some(r) = cc.opp.as_deref_mut()
            && r.mover.units.iter().any(|u| units.contains(u))
        {
            r.recalled = true;
        }
    }
}

/// The units of an interrupted move inside a close combat of an opportunity charge on the phase
/// or its stack (for the stacking invariants: a unit on the move).
pub fn movers_in(st: &State) -> Vec<UnitIx> {
    st.stack
        .iter()
        .chain(std::iter::once(&st.phase))
        .filter_map(|p| match p {
            Phase::CloseCombat(cc) | Phase::CcDecision(cc) => cc.opp.as_deref(),
            Phase::OppCharge(o) => Some(&o.back),
            _ => None,
        })
        .flat_map(|r| r.mover.units.iter().copied())
        .collect()
}

/// The label of an opportunity charge action, for people.
pub fn label_of(sc: &Scenario, a: &Action) -> Option<String> {
    Some(match a {
        Action::OppCharge(x) => format!(
            "Opportunity charge by the stack of {} (17.1)",
            sc.units[usize::from(*x)].name
        ),
        Action::OppChargeTo(h) => format!(
            "The opportunity charge enters {} (17.2a)",
            sc.board.label(*h)
        ),
        Action::OppChargeOriginal(true) => {
            "Charge the original stack, before its separation (17.2d a)".into()
        }
        Action::OppChargeOriginal(false) => {
            "Charge the stack after the separation, moving and non-moving units (17.2d b)".into()
        }
        _ => return None,
    })
}

/// What the reactive player decides, for people.
pub fn decision_text(o: &OppCharge) -> &'static str {
    if o.ask_option && o.original.is_none() {
        "opportunity charge — against the original stack or the stack after the separation (17.2d)"
    } else {
        "opportunity charge — which hex the charge enters (17.2a)"
    }
}
