//! Initiative (6.1), the End Turn track (6.7), wing activation's condition (6.5a), initiative
//! special results (6.9) and decapitation (21.6a–b).
use crate::charts::IsrEffect;
use crate::checks::d10;
use crate::command::{army_leader, holder};
use crate::event::{Event, InitiativeOutcome};
use crate::scenario::{BrigadeIx, Scenario, WingIx};
use crate::state::{LeaderStatus, Phase, State};

/// Whether a brigade may still be activated this turn: not activated, with a combat unit on the
/// map that is not routed (6.3e) or one arriving (22.2).
pub fn available(sc: &Scenario, st: &State, b: BrigadeIx) -> bool {
    if st.brigades[usize::from(b)].activated {
        return false;
    }
    sc.brigades[usize::from(b)].units.iter().any(|&u| {
        let s = &st.units[usize::from(u)];
        !s.eliminated
            && !s.activated
            && ((!s.hexes.is_empty() && !s.routed) || s.arrives.is_some_and(|t| t.get() <= st.turn))
    })
}

/// A side's brigades that may be activated.
pub fn available_brigades(sc: &Scenario, st: &State, side: u8) -> Vec<BrigadeIx> {
    (0..sc.brigades.len() as BrigadeIx)
        .filter(|&b| sc.brigades[usize::from(b)].side == side && available(sc, st, b))
        .collect()
}

/// The CR an army leader adds to his initiative die now (6.1b): −2 once he is FINISHED this turn
/// (A5), − the CR spent on army morale this hour (23.2b), never below 0; with the reasons.
pub fn cr(sc: &Scenario, st: &State, side: u8) -> (u8, String) {
    let Some(l) = army_leader(sc, st, side) else {
        return (0, " (no army leader, 21.6a)".into());
    };
    let mut c = sc.leaders[usize::from(l)].cr;
    let mut notes = Vec::new();
    if st.leaders[usize::from(l)].finished {
        c = c.saturating_sub(2);
        notes.push("−2 FINISHED, 6.1b".to_string());
    }
    let spent = st.armies[usize::from(side)].cr_spent;
    if spent > 0 {
        c = c.saturating_sub(spent);
        notes.push(format!("−{spent} spent on army morale, 23.2b"));
    }
    let n = if notes.is_empty() {
        String::new()
    } else {
        format!(" ({})", notes.join(", "))
    };
    (c, n)
}

/// Wings a side may activate now (6.5b–c, 21.6c): an unfinished wing leader in place, with at
/// least one available brigade of his wing whose leader he reaches with a LOC.
pub fn wings_on_offer(sc: &Scenario, st: &State, side: u8) -> Vec<WingIx> {
    (0..sc.wings.len() as WingIx)
        .filter(|&w| {
            let wing = &sc.wings[usize::from(w)];
            wing.side == side
                && st.leaders[usize::from(wing.leader)].status == LeaderStatus::Present
                && !st.leaders[usize::from(wing.leader)].finished
                && !wing_brigades(sc, st, w).is_empty()
        })
        .collect()
}

/// The available brigades of a wing whose leaders the wing leader reaches with a LOC (6.5c).
pub fn wing_brigades(sc: &Scenario, st: &State, w: WingIx) -> Vec<BrigadeIx> {
    let wing = &sc.wings[usize::from(w)];
    let Some(wl) = holder(st, wing.leader) else {
        return Vec::new();
    };
    wing.brigades
        .iter()
        .copied()
        .filter(|&b| {
            available(sc, st, b)
                && !st.brigades[usize::from(b)].limited
                && holder(st, sc.brigades[usize::from(b)].leader)
                    .and_then(|bl| st.leaders[usize::from(bl)].hex)
                    .is_some_and(|h| {
                        crate::command::loc_to(sc, st, wl, crate::command::Style::ArmyWing, &[h])
                            .is_some()
                    })
        })
        .collect()
}

/// Roll the initiative once (6.1) and return the next phase: a choice, a forced activation, the
/// same phase again (a re-roll), or the rally phase when no brigade is left.
pub fn roll(sc: &Scenario, st: &mut State, ev: &mut Vec<Event>) -> Phase {
    let has = [
        !available_brigades(sc, st, 0).is_empty(),
        !available_brigades(sc, st, 1).is_empty(),
    ];
    if !has[0] && !has[1] {
        return Phase::RallyStart;
    }
    let dice = [d10(st), d10(st)];
    let (c0, n0) = cr(sc, st, 0);
    let (c1, n1) = cr(sc, st, 1);
    let crs = [c0, c1];
    // 6.1c, 6.7a: every roll whose unmodified sum exceeds the ETN moves the marker, ties and
    // special results included (A6).
    let mut end_box = None;
    if dice[0] + dice[1] > sc.etn && st.end_box < sc.end_boxes {
        st.end_box += 1;
        end_box = Some(st.end_box);
        if st.end_box == sc.end_boxes {
            limit_all(sc, st);
        }
    }
    let leaders = [
        army_leader(sc, st, 0).is_some(),
        army_leader(sc, st, 1).is_some(),
    ];
    let zero = [dice[0] == 0, dice[1] == 0];
    let isr_open = sc.isr_limit.is_none_or(|l| st.isr < l);
    let mut next = Phase::Initiative;
    let mut after = Vec::new();
    let outcome = if zero[0] && zero[1] {
        InitiativeOutcome::DoubleZero
    } else if (zero[0] || zero[1]) && isr_open {
        // 6.9a: read with the die of the player who did not roll 0, for him.
        let side = if zero[0] { 1u8 } else { 0u8 };
        let die = dice[usize::from(side)];
        st.isr += 1;
        let (text, effect) = match sc.charts.command.isr(die) {
            Some(r) => (r.text.clone(), r.effect),
            None => ("no result: roll again".to_string(), IsrEffect::Reroll),
        };
        // The result's effects are logged after the roll that calls for it.
        next = special(sc, st, side, effect, &mut after, has);
        InitiativeOutcome::Special { side, die, text }
    } else if leaders[0] != leaders[1] {
        let w = if leaders[0] { 0 } else { 1 };
        next = won(sc, st, w, false, has);
        InitiativeOutcome::Decapitated(w)
    } else {
        // 21.6b: with no army leader on either side the unmodified dice decide.
        let t = if leaders[0] {
            [dice[0] + crs[0], dice[1] + crs[1]]
        } else {
            dice
        };
        if t[0] == t[1] {
            InitiativeOutcome::Tie
        } else {
            let w = if t[0] > t[1] { 0u8 } else { 1u8 };
            let (mine, theirs) = (dice[usize::from(w)], dice[usize::from(1 - w)]);
            let wan = army_leader(sc, st, w).map_or(10, |l| sc.leaders[usize::from(l)].wan);
            // 6.5a: the unmodified roll ≥ the WAN and at least double the loser's.
            let wing = mine >= wan && mine >= 2 * theirs && leaders[usize::from(w)];
            next = won(sc, st, w, wing, has);
            InitiativeOutcome::Winner(w)
        }
    };
    ev.push(Event::Initiative {
        armies: [sc.armies[0].name.clone(), sc.armies[1].name.clone()],
        dice,
        cr: crs,
        cr_notes: [n0, n1],
        outcome,
        etn: sc.etn,
        end_box,
        end_boxes: sc.end_boxes,
    });
    ev.append(&mut after);
    next
}

/// The END TURN marker reached End (6.7b): every remaining activation is limited.
fn limit_all(sc: &Scenario, st: &mut State) {
    let _ = sc;
    for b in st.brigades.iter_mut() {
        if !b.activated {
            b.limited = true;
        }
    }
}

/// The winner's choice, or the activation the other side must make (6.1a, 6.1e, A8).
fn won(sc: &Scenario, st: &State, w: u8, wing: bool, has: [bool; 2]) -> Phase {
    if has[usize::from(w)] {
        let wing = wing && !wings_on_offer(sc, st, w).is_empty();
        Phase::InitiativeChoice { side: w, wing }
    } else {
        Phase::ChooseBrigade { side: 1 - w }
    }
}

/// Apply an initiative special result to `side` (6.9a); the next phase.
fn special(
    sc: &Scenario,
    st: &mut State,
    side: u8,
    effect: IsrEffect,
    ev: &mut Vec<Event>,
    has: [bool; 2],
) -> Phase {
    match effect {
        IsrEffect::Initiative => won(sc, st, side, false, has),
        IsrEffect::MustActivate if has[usize::from(side)] => Phase::ChooseBrigade { side },
        IsrEffect::MustActivate | IsrEffect::Reroll => Phase::Initiative,
        IsrEffect::Recovery => {
            crate::rally::recover_with_leaders(sc, st, side, "6.9a, 18.6a", ev);
            Phase::Initiative
        }
        IsrEffect::EndTurn => {
            if st.end_box < sc.end_boxes {
                st.end_box += 1;
                if st.end_box == sc.end_boxes {
                    limit_all(sc, st);
                }
                ev.push(Event::Limited {
                    rule: "6.9a",
                    what: format!("END TURN marker to box {} of {}", st.end_box, sc.end_boxes),
                });
            }
            Phase::Initiative
        }
    }
}
