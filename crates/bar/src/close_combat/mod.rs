//! Close combat (13.0–15.2): the close combat phase of an activation, for infantry and for cavalry
//! attacking from adjacency (13.3a: an attack on an adjacent enemy counts as a charge of 0 hexes).
//!
//! The phase is a queue of [`Step`]s carried by the boxed [`Cc`] state of
//! `Phase::CloseCombat` (automatic) and `Phase::CcDecision` (a player decides the step at the head
//! of the queue). Rout retreats run as jobs of the state: the phase parks itself on the phase stack,
//! lets them run (`Phase::Idle`) and comes back.
//!
//! Order (13.0): attacker designation (13.1, a decision per stack), attacker morale (13.2), the
//! individual combats (13.6, A38: each a connected group of attacking stacks and the defending
//! hexes in their ZOCs), then each combat in the attacker's order: defender morale or retreat
//! before combat (13.7, 13.9, 20.1), defensive fire (13.10), the leaders' CV (21.2b), rounds of
//! resolution (13.11, 14.1–14.8), the end-of-combat disorder of cavalry (14.5d) and the advance
//! after combat (15.1–15.2).
//!
//! Charges, reactions and countercharges (13.1d–f, 13.3–13.5) are in [`charge`], the cavalry
//! defence option (13.8) in [`defence_option`]; the cavalry line contraction of later rounds
//! (14.5b) in `resolve`, pursuit (16) in `crate::pursuit` after the advance, and the close combat
//! of an opportunity charge (17.3) is built by `crate::opportunity_charge` on this machinery.
mod resolve;
mod steps;
// charges (13.3–13.5, 13.8)
pub mod charge;
pub mod defence_option;

use crate::action::Action;
use crate::checks::{self, current_sp};
use crate::data::Arm;
use crate::event::Event;
use crate::geom::{Formation, arcs_of};
use crate::scenario::{LeaderIx, Scenario, UnitIx};
use crate::state::{LeaderStatus, Phase, State};
use hexmap::HexId;
use serde::{Deserialize, Serialize};

pub use steps::{apply, decider, legal};

/// The close combat phase in progress.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cc {
    /// The attacking (active) side.
    pub side: u8,
    /// Stacks that may be designated (13.1), each its participating units (activated,
    /// non-artillery, 13.1c), top first.
    pub eligible: Vec<Vec<UnitIx>>,
    /// Stacks designated so far (13.1).
    pub designated: Vec<Vec<UnitIx>>,
    /// The individual combats (13.6).
    pub combats: Vec<Combat>,
    /// The combat being resolved.
    pub cur: Option<usize>,
    /// Every unit that attacked or was attacked in this phase (13.6d).
    pub engaged: Vec<UnitIx>,
    /// Units that made defensive fire in this phase (13.10c).
    pub fired: Vec<UnitIx>,
    /// The hexes each unit made defensive fire from in this phase: a 2-hex line fires once from
    /// each hex, a square at up to three attacking stacks (13.10c).
    #[serde(default)]
    pub fired_from: Vec<(UnitIx, HexId)>,
    /// What comes next, first first; a decision waits at the head.
    pub steps: Vec<Step>,
    /// Leaders retreating with units routed by the phase, and those units (21.2c, 21.4e).
    #[serde(default)]
    pub escorts: Vec<(LeaderIx, Vec<UnitIx>)>,
    // pursuit (16) / opportunity charge (17)
    /// The close combat of an opportunity charge (17.3): the move to go back to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opp: Option<Box<crate::opportunity_charge::Resume>>,
    // charges (13.3–13.5, 13.8)
    /// Charges still to move, the one moving first (13.3a: one finished before the next).
    #[serde(default)]
    pub charges: Vec<charge::Charge>,
    /// Units that made a reaction this phase (13.4d; no defensive fire 13.10a, no countercharge
    /// 13.5b).
    #[serde(default)]
    pub reacted: Vec<UnitIx>,
    /// Units that countercharged: their MC (C) was their defender MC (B), no retreat before
    /// combat (13.5c, 13.7a, 13.9a).
    #[serde(default)]
    pub countercharged: Vec<UnitIx>,
    /// Hexes of charge or countercharge movement of a stack, by its top unit (13.11c: +1 a hex).
    #[serde(default)]
    pub charge_hexes: Vec<(UnitIx, u8)>,
    /// A charging stack (its top unit) that must attack the stack that countercharged it, in its
    /// ZOC or not (13.5c, 13.6a exception).
    #[serde(default)]
    pub must_attack: Vec<(UnitIx, Vec<UnitIx>)>,
    /// The cavalry defence options declined: `(combat, top unit of the cavalry stack)` (13.8a).
    #[serde(default)]
    pub defence_declined: Vec<(usize, UnitIx)>,
}

/// One close combat (13.6).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Combat {
    /// Attacking stacks: their participating units (13.1c, 13.11a).
    pub attackers: Vec<Vec<UnitIx>>,
    /// The hexes of each attacking stack when the combat was designated.
    pub att_hexes: Vec<Vec<HexId>>,
    /// Defending stacks: every unit of the hex (13.6a).
    pub defenders: Vec<Vec<UnitIx>>,
    /// The hexes of each defending stack when the combat was designated.
    pub def_hexes: Vec<Vec<HexId>>,
    /// Round (14.5): 0 before the first.
    pub round: u8,
    /// The leader whose CV bonus each stack uses (21.2b): `(attacker?, stack, leader)`.
    pub leaders: Vec<(bool, usize, LeaderIx)>,
    /// Morale checks (G) of this round: `(attacker?, stack, passed)` (14.4, 14.8b).
    pub tested: Vec<(bool, usize, bool)>,
    /// Defenders retreated before combat (13.9a: no pursuit).
    pub withdrew: bool,
    /// Resolved.
    pub done: bool,
    /// 14.3a: artillery and inactive units of the attackers' hexes under a 'D' result, each with
    /// the attacking infantry stacked with it: disordered at the end of the advance unless all that
    /// infantry advanced.
    #[serde(default)]
    pub d_pending: Vec<(UnitIx, Vec<UnitIx>)>,
    // charges (13.3–13.5, 13.8)
    /// Hexes of charge or countercharge of its stacks, by top unit (13.11c: +1 a hex).
    #[serde(default)]
    pub charge_hexes: Vec<(UnitIx, u8)>,
}

/// A step of the phase.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Step {
    /// Decision (attacker): designate stacks (13.1) or end designation.
    Designate,
    /// Attacker morale checks (B) of the designated stacks (13.2).
    AttackerMorale,
    /// Individual combat designations (13.6, A38).
    Define,
    /// Decision (attacker) when several combats remain: which is resolved next (13.0 5).
    Choose,
    /// Defender morale (B), or the choice of a retreat before combat, of a defending stack (13.7).
    DefenderMorale(usize),
    /// Decision (defender): retreat before combat or stand (13.9, 20.1).
    Withdraw(usize),
    /// Decision (defender): defensive fire at an attacking stack (13.10).
    DefensiveFire(usize),
    /// Whether the combat is still to be fought, then leaders and the first round.
    PreRound,
    /// Decision (owner): the leader whose CV bonus a stack uses (21.2b).
    Leader {
        /// Attacking stack?
        att: bool,
        /// Stack index.
        ix: usize,
    },
    /// A round of resolution (13.11).
    Round,
    /// SP losses one at a time, alternating from the attacker (14.2a–b); a decision when the
    /// owner chooses among equal units.
    Losses {
        /// Attacker SP still to lose.
        a: u8,
        /// Defender SP still to lose.
        d: u8,
        /// The attacker takes the next one.
        next_att: bool,
        /// Only these units may take them (a stack's morale (G) loss); empty: the side's.
        only: Vec<UnitIx>,
        /// Why, for the log.
        why: String,
    },
    /// The letters of a result after its losses (14.3–14.8).
    Effects {
        /// The cell, as printed ("1D/2R").
        cell: String,
        /// A special result (14.8b).
        special: bool,
    },
    /// Morale checks (G) in order (14.4, 14.8b).
    TestG {
        /// `(attacker?, stack)` in testing order.
        order: Vec<(bool, usize)>,
        /// Next to test.
        pos: usize,
        /// Special result ranking (14.8b) rather than the 'M' order (14.4).
        special: bool,
        /// The ranked ERs (14.8b), in `order`'s order; empty for 'M'.
        #[serde(default)]
        ers: Vec<i32>,
        /// The owner has picked the stack at `pos` among his equal ones (14.8b).
        #[serde(default)]
        picked: bool,
    },
    /// A stack routs (14.4c, 14.6a).
    Rout {
        /// Attacking stack?
        att: bool,
        /// Stack index.
        ix: usize,
    },
    /// The combat is over: cavalry disorder (14.5d), then the advance (15.1).
    EndCombat,
    /// Decision (owner): advance after combat (15.1).
    Advance {
        /// The attacker advances (else defending cavalry, 15.1b).
        att: bool,
        /// At least one unit has advanced.
        moved: bool,
    },
    /// The phase is over: the activation ends.
    Finish,
    /// Decision (advancing side): a free facing change of the units that just advanced into a
    /// hex (15.1g).
    AdvanceFace {
        /// The attacker's units?
        att: bool,
        /// The units that advanced.
        units: Vec<UnitIx>,
    },
    // pursuit (16) / opportunity charge (17)
    /// The advance of the combat is over: its cavalry pursues (16.1c).
    Pursue,
    /// The close combat of an opportunity charge is over: the move goes on or ends (17.3c–f).
    OppChargeOver,
    // charges (13.3–13.5, 13.8)
    /// The charging stacks begin their charges, one after the other (13.3a).
    Charges,
    /// Decision (attacker): the next hex of the charge, a contraction, or the end (13.3).
    ChargeHex,
    /// Decision (defender): a reaction of this stack to the charge (13.4).
    React(Vec<UnitIx>),
    /// The charger enters the hex it announced (13.3); countercharges may follow (13.5a).
    ChargeEnter,
    /// Decision (defender): a countercharge by this cavalry stack (13.5).
    Countercharge(Vec<UnitIx>),
    /// Decision (defender): which of the cavalry stacks of the `Countercharge` steps that follow
    /// is asked first (A37: the reactive player's order).
    CounterchargeOrder,
    /// After the hex: the charge goes on or ends (13.3d–f).
    ChargeAfter,
    /// Decision (defender): the cavalry defence option of this stack in combat `usize` (13.8).
    DefenceOption(usize, Vec<UnitIx>),
}

/// Whether a unit is still in a combat: on the map, not eliminated, not routed.
pub(crate) fn alive(st: &State, u: UnitIx) -> bool {
    let s = &st.units[usize::from(u)];
    !s.eliminated && !s.routed && !s.hexes.is_empty()
}

/// The living units of a stack.
pub(crate) fn living(st: &State, stack: &[UnitIx]) -> Vec<UnitIx> {
    stack.iter().copied().filter(|&u| alive(st, u)).collect()
}

/// A unit's name.
pub(crate) fn name(sc: &Scenario, u: UnitIx) -> String {
    sc.units[usize::from(u)].name.clone()
}

/// Names of units, joined.
pub(crate) fn names(sc: &Scenario, us: &[UnitIx]) -> String {
    us.iter()
        .map(|&u| name(sc, u))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Log a step of the phase with its rule.
pub(crate) fn log(ev: &mut Vec<Event>, rule: &str, text: String) {
    ev.push(Event::CloseCombat {
        rule: rule.to_string(),
        text,
    });
}

/// Light troops for 20.1 and 13.11c: the unit's `light` (data, default: sub-type "light" or
/// hussar).
pub(crate) fn is_light(sc: &Scenario, u: UnitIx) -> bool {
    sc.units[usize::from(u)].light
}

/// The front (ZOC, 9.1) hexes of a unit as it stands.
pub(crate) fn front_of(st: &State, u: UnitIx) -> Vec<HexId> {
    let s = &st.units[usize::from(u)];
    crate::geom::front_of(&s.hexes, s.facing, s.formation)
}

/// Flank and rear hexes of a unit (13.11c flanking, A40).
pub(crate) fn flank_rear_of(st: &State, u: UnitIx) -> Vec<HexId> {
    let s = &st.units[usize::from(u)];
    let (_, f, r) = arcs_of(&s.hexes, s.facing, s.formation);
    f.into_iter().chain(r).collect()
}

/// Flank hexes only.
pub(crate) fn flank_of(st: &State, u: UnitIx) -> Vec<HexId> {
    let s = &st.units[usize::from(u)];
    arcs_of(&s.hexes, s.facing, s.formation).1
}

/// 13.1a–c: the stacks of the active side entitled to initiate close combat, each its
/// participating units (activated, non-artillery), top first.
pub fn eligible(sc: &Scenario, st: &State) -> Vec<Vec<UnitIx>> {
    let Some(act) = &st.activation else {
        return Vec::new();
    };
    let side = act.side;
    let on: Vec<UnitIx> = (0..sc.units.len() as UnitIx)
        .filter(|&u| sc.units[usize::from(u)].side == side && st.on_map(u))
        .collect();
    let mut out = Vec::new();
    for stack in crate::rally::stacks(st, &on) {
        // 19.4c: a stack with a shaken (or routed) unit is shaken.
        if stack.iter().any(|&u| {
            let s = &st.units[usize::from(u)];
            s.shaken || s.routed
        }) {
            continue;
        }
        let part: Vec<UnitIx> = stack
            .iter()
            .copied()
            .filter(|&u| {
                act.includes(u)
                    && !st.units[usize::from(u)].ooc
                    && sc.units[usize::from(u)].arm != Arm::Artillery
            })
            .collect();
        let Some(&top) = part.first() else { continue };
        // 13.1b: line, attack column, general order.
        if !part.iter().all(|&u| {
            matches!(
                st.units[usize::from(u)].formation,
                Formation::Line | Formation::AttackColumn | Formation::GeneralOrder
            )
        }) {
            continue;
        }
        // 13.1a: an enemy in its ZOC; charges (13.3–13.5, 13.8): or cavalry that may charge a
        // non-adjacent enemy (13.1d–f; disordered cavalry only from adjacency).
        if enemies_in_zoc(sc, st, top).is_empty() && !charge::may_charge(sc, st, &part) {
            continue;
        }
        out.push(part);
    }
    out
}

/// The enemy units in the ZOC of a unit (13.6a): routed ones included (13.7d).
pub(crate) fn enemies_in_zoc(sc: &Scenario, st: &State, u: UnitIx) -> Vec<UnitIx> {
    let side = sc.units[usize::from(u)].side;
    let front = front_of(st, u);
    (0..sc.units.len() as UnitIx)
        .filter(|&e| {
            sc.units[usize::from(e)].side != side
                && st.on_map(e)
                && st.units[usize::from(e)]
                    .hexes
                    .iter()
                    .any(|h| front.contains(h))
        })
        .collect()
}

/// Begin the close combat phase after movement (4.0 C, 13.0): with no stack entitled to attack it
/// ends at once and so does the activation.
pub fn begin(sc: &Scenario, st: &mut State, ev: &mut Vec<Event>) -> Phase {
    let side = st.activation.as_ref().map_or(0, |a| a.side);
    let stacks = if sc.charts.combat.is_some() {
        eligible(sc, st)
    } else {
        Vec::new()
    };
    if stacks.is_empty() {
        crate::activation::end(sc, st, ev);
        return Phase::Initiative;
    }
    let cc = Cc {
        side,
        eligible: stacks,
        designated: Vec::new(),
        combats: Vec::new(),
        cur: None,
        engaged: Vec::new(),
        fired: Vec::new(),
        fired_from: Vec::new(),
        escorts: Vec::new(),
        // pursuit (16) / opportunity charge (17)
        opp: None,
        charges: Vec::new(),
        reacted: Vec::new(),
        countercharged: Vec::new(),
        charge_hexes: Vec::new(),
        must_attack: Vec::new(),
        defence_declined: Vec::new(),
        steps: vec![
            Step::Designate,
            Step::AttackerMorale,
            // charges (13.3–13.5, 13.8)
            Step::Charges,
            Step::Define,
            Step::Choose,
        ],
    };
    steps::run(sc, st, cc, ev)
}

/// Continue the phase (after rout retreats ran).
pub fn resume(sc: &Scenario, st: &mut State, cc: Cc, ev: &mut Vec<Event>) -> Phase {
    steps::run(sc, st, cc, ev)
}

/// Whether a leader of `side` is present in one of the hexes.
pub(crate) fn leaders_in(sc: &Scenario, st: &State, side: u8, hexes: &[HexId]) -> Vec<LeaderIx> {
    (0..sc.leaders.len() as LeaderIx)
        .filter(|&l| {
            let s = &st.leaders[usize::from(l)];
            sc.leaders[usize::from(l)].side == side
                && s.status == LeaderStatus::Present
                && s.hex.is_some_and(|h| hexes.contains(&h))
        })
        .collect()
}

/// 21.4e: a leader whose combat units are all eliminated in close combat is eliminated too.
pub(crate) fn leaders_left_alone(
    sc: &Scenario,
    st: &mut State,
    hexes: &[HexId],
    side: u8,
    ev: &mut Vec<Event>,
) {
    for &h in hexes {
        let friends = (0..sc.units.len() as UnitIx).any(|u| {
            sc.units[usize::from(u)].side == side
                && st.on_map(u)
                && st.units[usize::from(u)].hexes.contains(&h)
        });
        if friends {
            continue;
        }
        for l in leaders_in(sc, st, side, &[h]) {
            crate::leaders::kill(sc, st, l);
            ev.push(Event::LeaderLoss {
                leader: sc.leaders[usize::from(l)].name.clone(),
                die: 0,
                result:
                    "all the combat units with him eliminated in close combat: eliminated (21.4e)"
                        .into(),
            });
        }
    }
}

/// The units of a side in a hex set, any state.
pub(crate) fn units_in(sc: &Scenario, st: &State, side: u8, hexes: &[HexId]) -> Vec<UnitIx> {
    (0..sc.units.len() as UnitIx)
        .filter(|&u| {
            sc.units[usize::from(u)].side == side
                && st.on_map(u)
                && st.units[usize::from(u)]
                    .hexes
                    .iter()
                    .any(|h| hexes.contains(h))
        })
        .collect()
}

/// The label of a close combat action, for people.
pub fn label(sc: &Scenario, _st: &State, a: &Action) -> Option<String> {
    let u = |x: &UnitIx| name(sc, *x);
    let hx = |hs: &[HexId]| {
        hs.iter()
            .map(|h| sc.board.label(*h))
            .collect::<Vec<_>>()
            .join("-")
    };
    Some(match a {
        Action::Attack(x) => format!("{} will attack in close combat (13.1)", u(x)),
        Action::CcDone => "No more close combat attacks (13.1)".into(),
        Action::CcFight(x) => format!("Resolve the close combat of {} next (13.0)", u(x)),
        Action::CcWithdraw(h) => format!(
            "Retreat before close combat to {} (13.9, 20.1)",
            sc.board.label(*h)
        ),
        Action::CcStand => "Stand and fight (13.7)".into(),
        Action::CcFire => "Defensive fire (13.10)".into(),
        Action::CcHoldFire => "Hold the defensive fire (13.10)".into(),
        Action::CcFace(f) => format!(
            "Face {} after the advance (15.1g)",
            crate::geom::FacingExt::name(*f)
        ),
        Action::CcFaceKeep => "Keep the facing after the advance (15.1g)".into(),
        Action::CcFireFrom(h) => format!(
            "Defensive fire from {} only, the other hexes kept for another attacker (13.10c)",
            sc.board.label(*h)
        ),
        Action::CcLeader(l) => format!(
            "{} adds his CV bonus to the stack (21.2b)",
            sc.leaders[usize::from(*l)].name
        ),
        Action::CcNoLeader => "No leader's CV bonus for this stack (21.2b)".into(),
        Action::CcLose(x) => format!("{} takes the SP loss (14.2b)", u(x)),
        Action::CcAdvance(us, hs) => format!(
            "{} advance{} after combat to {} (15.1)",
            names(sc, us),
            if us.len() == 1 { "s" } else { "" },
            hx(hs)
        ),
        Action::CcAdvanceDone => "No more units advance (15.1c)".into(),
        Action::CcFirst(x) => format!(
            "The stack of {} makes its morale check (G) first among equals (14.8b)",
            u(x)
        ),
        // charges (13.3–13.5, 13.8)
        _ => return charge::label(sc, a),
    })
}

/// 13.6d invariant: no unit in two combats of the phase.
pub fn twice_engaged(cc: &Cc) -> Option<UnitIx> {
    let mut seen = Vec::new();
    for &u in &cc.engaged {
        if seen.contains(&u) {
            return Some(u);
        }
        seen.push(u);
    }
    None
}

/// A unit's current SP (re-exported for the resolution).
pub(crate) fn sp(sc: &Scenario, st: &State, u: UnitIx) -> u8 {
    current_sp(sc, st, u)
}

/// A morale check's special result effects: SP and the leader check (19.1a, 21.4d).
pub(crate) fn special_effects(
    sc: &Scenario,
    st: &mut State,
    stack: &[UnitIx],
    o: &checks::Outcome,
    ev: &mut Vec<Event>,
) {
    let top = checks::tester(sc, st, stack);
    if o.lose_sp > 0 {
        crate::retreat::lose(
            sc,
            st,
            top,
            o.lose_sp,
            "morale check special result",
            "19.1a",
            ev,
        );
    }
    if o.leader_check {
        let side = sc.units[usize::from(top)].side;
        let hexes = stack
            .iter()
            .flat_map(|&u| st.units[usize::from(u)].hexes)
            .collect::<Vec<_>>();
        for l in leaders_in(sc, st, side, &hexes) {
            crate::leaders::loss_check(sc, st, l, crate::leaders::Cause::CloseCombatOrMorale, ev);
        }
    }
}

/// What the decision at the head of the phase is about, for people.
pub fn decision_text(cc: &Cc) -> &'static str {
    match cc.steps.first() {
        Some(Step::Designate) => "close combat — designate the attacking stacks (13.1)",
        Some(Step::Choose) => "close combat — which combat is resolved next (13.0)",
        Some(Step::Withdraw(_)) => "close combat — retreat before combat or stand (13.9, 20.1)",
        Some(Step::DefensiveFire(_)) => "close combat — defensive fire (13.10)",
        Some(Step::Leader { .. }) => "close combat — which leader adds his CV bonus (21.2b)",
        Some(Step::Losses { .. }) => "close combat — which unit takes the SP loss (14.2b)",
        Some(Step::TestG { .. }) => "close combat — which of equal stacks tests first (14.8b)",
        Some(Step::Advance { .. }) => "close combat — advance after combat (15.1)",
        // charges (13.3–13.5, 13.8)
        Some(Step::ChargeHex) => "close combat — the charge's next hex (13.3)",
        Some(Step::React(_)) => "close combat — a reaction to the charge (13.4)",
        Some(Step::Countercharge(_)) => "close combat — countercharge (13.5)",
        Some(Step::CounterchargeOrder) => {
            "close combat — which cavalry is asked first about a countercharge (13.5, A37)"
        }
        Some(Step::DefenceOption(..)) => "close combat — the cavalry defence option (13.8)",
        _ => "close combat",
    }
}
