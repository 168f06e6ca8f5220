//! Cavalry charges (13.1d–f, 13.2b, 13.3–13.5, 19.6d): which cavalry may charge a non-adjacent
//! enemy, the charge movement hex by hex as decisions of the charging player, the defender's
//! reactions before each hex with their disorder check (D), countercharges with their morale
//! check (C), the misjudged charge and the disorder check (A) a charge through some terrain owes.
//!
//! The readings the book leaves open are the table of `docs/bar-cavalry.md`: the charge area
//! (A36: the hexes a charge of the stack's range could cover straight ahead, fixed at
//! designation, reactive units in or beside it may react), the next hex announced before the
//! reactions, one reaction decision per stack.
use super::{Cc, Step, enemies_in_zoc, log, name, names};
use crate::action::Action;
use crate::charts::movement::ChangeCost;
use crate::checks::{self, Spec};
use crate::data::Arm;
use crate::event::Event;
use crate::formation::{self, Budget};
use crate::geom::{Facing, Formation, chart_key, footprint_of};
use crate::scenario::{Scenario, UnitIx};
use crate::state::Hexes;
use crate::state::State;
use engine::Half;
use hexmap::{Arc, End, Footprint, HexId, Printed};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// A charge in progress (13.3).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Charge {
    /// The charging stack (13.3c: it may not separate), top first.
    pub units: Vec<UnitIx>,
    /// Where it began (13.3e: a misjudged charge goes back there).
    pub start: Vec<HexId>,
    /// Its range in half SCM points (13.1e, 13.3a: the shortest of the stack).
    pub range: u16,
    /// Half SCM points spent (13.1f).
    pub spent: u16,
    /// The charge area (13.1e, 13.3b, A36).
    pub area: Vec<HexId>,
    /// Hexes entered (13.11c: +1 a hex).
    pub moved: u8,
    /// Contractions made (13.3c: one a charge hex).
    pub contractions: u8,
    /// Terrain passed that asks a disorder check (A) at the end (13.3f, 11.2d–e).
    pub dc_a: u8,
    /// The hex (or hexside) just entered asks the check if the charge goes on (11.2d).
    pub dc_a_here: bool,
    /// The footprint announced for the next hex (13.4a: the reactions come before it).
    pub next: Option<Vec<HexId>>,
    /// The charge has ended: an EZOC entered or a countercharge (13.3d, 13.5c).
    pub stopped: bool,
}

/// The reactive side's units of the stack at `h`, a helper for the tests and the web.
fn top(ch: &Charge) -> UnitIx {
    // A charge always has units (built from a designated stack).
    ch.units[0]
}

/// The facing and hexes of a stack's top unit.
fn aspect(st: &State, u: UnitIx) -> (Facing, Vec<HexId>, Formation) {
    let s = &st.units[usize::from(u)];
    (s.facing, s.hexes.to_vec(), s.formation)
}

/// 13.1e, 13.3a: the stack's charge range in half points: the shortest of its units (T11), `None`
/// if one has none.
pub fn range(sc: &Scenario, stack: &[UnitIx]) -> Option<u16> {
    let mv = sc.charts.movement.as_ref()?;
    let mut out: Option<u16> = None;
    for &u in stack {
        let unit = &sc.units[usize::from(u)];
        let r = mv.charge_range(&sc.armies[usize::from(unit.side)].id, &unit.sub)?;
        out = Some(out.map_or(u16::from(r) * 2, |o| o.min(u16::from(r) * 2)));
    }
    out
}

/// 13.1f, 13.3b, 13.3f: the SCM cost (half points) of a charge step from `from` to `to` (hex by
/// hex, the dearest hex of a line), and whether it asks a DC (A); `None` where prohibited.
fn step_cost(sc: &Scenario, from: &[HexId], to: &[HexId]) -> Option<(u16, bool)> {
    let mut cost = 0u16;
    let mut dc = false;
    for (i, &h) in to.iter().enumerate() {
        if from.contains(&h) {
            continue;
        }
        let t = sc.board.tec_row(h)?;
        let mut c = t.scm.points()?.halves();
        dc |= t.dc_a;
        if let Some(&f) = from.get(i)
            && let Some(k) = sc.board.hexside(f, h)
            && let Some(r) = sc.charts.tec.hexside.get(k)
        {
            c += r.scm.points()?.halves();
            dc |= r.dc_a;
        }
        cost = cost.max(c);
    }
    Some((cost, dc))
}

/// The footprints one charge step ahead of `hexes` (13.3a: into a front hex, as a move; 11.3d:
/// cavalry obliques freely), each with its cost and DC (A) flag: on the board, not prohibited,
/// within `budget`; with `occupied`, not into a hex held by a unit other than `own` (13.3b).
fn steps_from(
    sc: &Scenario,
    st: Option<&State>,
    own: &[UnitIx],
    facing: Facing,
    form: Formation,
    hexes: &[HexId],
    budget: u16,
) -> Vec<(Vec<HexId>, u16, bool)> {
    let Ok(fp) = Footprint::new(
        &Printed,
        crate::geom::footprint_kind(form),
        facing,
        hexes.to_vec(),
    ) else {
        return Vec::new();
    };
    let Facing::Point(v) = facing else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for d in v.front() {
        let Ok(next) = fp.shifted(&Printed, d) else {
            continue;
        };
        let nh = next.hexes().to_vec();
        if !nh.iter().all(|h| sc.board.contains(*h)) {
            continue;
        }
        if let Some(st) = st
            && nh.iter().any(|&h| {
                crate::stacking::units_at(st, h)
                    .iter()
                    .any(|u| !own.contains(u))
            })
        {
            continue;
        }
        let Some((c, dc)) = step_cost(sc, hexes, &nh) else {
            continue;
        };
        if c <= budget {
            out.push((nh, c, dc));
        }
    }
    out
}

/// 13.1e, 13.3b, A36: the charge area of a stack as it stands: every hex a footprint of it can
/// cover charging straight ahead within its range, whatever stands there.
fn area_of(sc: &Scenario, st: &State, stack: &[UnitIx], range: u16) -> Vec<HexId> {
    let (facing, hexes, form) = aspect(st, stack[0]);
    let mut best: HashMap<Vec<HexId>, u16> = HashMap::new();
    let mut todo = vec![(hexes.clone(), 0u16)];
    best.insert(hexes, 0);
    let mut area: Vec<HexId> = Vec::new();
    while let Some((h, spent)) = todo.pop() {
        for x in &h {
            if !area.contains(x) {
                area.push(*x);
            }
        }
        for (nh, c, _) in steps_from(sc, None, stack, facing, form, &h, range - spent) {
            let s = spent + c;
            if best.get(&nh).is_none_or(|&b| s < b) {
                best.insert(nh.clone(), s);
                todo.push((nh, s));
            }
        }
    }
    area.sort();
    area
}

/// Whether a charge of `stack` could contact an enemy unit now (13.1d): a footprint reachable
/// within the range and area, through empty hexes, stopping in an EZOC (13.3d), with the enemy in
/// its front; and the enemy in its LOS now. The search stops at the first such enemy.
fn reachable_target(sc: &Scenario, st: &State, stack: &[UnitIx], range: u16) -> bool {
    let side = sc.units[usize::from(stack[0])].side;
    let (facing, hexes, form) = aspect(st, stack[0]);
    let area = area_of(sc, st, stack, range);
    let ezoc = crate::command::ezoc_set(sc, st, side);
    let mut best: HashMap<Vec<HexId>, u16> = HashMap::new();
    let mut todo = vec![(hexes.clone(), 0u16)];
    best.insert(hexes.clone(), 0);
    // 13.1d: in the cavalry's LOS at designation.
    let in_sight = |e: UnitIx| {
        hexes.iter().any(|&a| {
            st.units[usize::from(e)]
                .hexes
                .iter()
                .any(|&b| crate::fire::sight(sc, st, a, b, side, false).is_some())
        })
    };
    let mut seen: Vec<UnitIx> = Vec::new();
    while let Some((h, spent)) = todo.pop() {
        for (nh, c, _) in steps_from(sc, Some(st), stack, facing, form, &h, range - spent) {
            if !nh.iter().all(|x| area.contains(x)) {
                continue;
            }
            let s = spent + c;
            if best.get(&nh).is_some_and(|&b| s >= b) {
                continue;
            }
            best.insert(nh.clone(), s);
            let front = crate::geom::front_of(&nh, facing, form);
            for (e, es) in st.units.iter().enumerate() {
                let e = e as UnitIx;
                if sc.units[usize::from(e)].side != side
                    && st.on_map(e)
                    && !seen.contains(&e)
                    && es.hexes.iter().any(|x| front.contains(x))
                {
                    if in_sight(e) {
                        return true;
                    }
                    seen.push(e);
                }
            }
            if !nh.iter().any(|x| ezoc.contains(x)) {
                todo.push((nh, s));
            }
        }
    }
    false
}

/// Whether every unit of the stack is cavalry.
fn all_cavalry(sc: &Scenario, stack: &[UnitIx]) -> bool {
    !stack.is_empty()
        && stack
            .iter()
            .all(|&u| sc.units[usize::from(u)].arm == Arm::Cavalry)
}

/// 13.1d, 13.1a, 19.6d: a (non-shaken, eligible) cavalry stack may charge: not disordered, not in
/// an EZOC, no enemy in its front hex, an enemy within reach and in LOS.
pub(crate) fn may_charge(sc: &Scenario, st: &State, stack: &[UnitIx]) -> bool {
    if !all_cavalry(sc, stack) {
        return false;
    }
    let top = stack[0];
    if stack.iter().any(|&u| {
        let s = &st.units[usize::from(u)];
        s.disordered || s.shaken || s.routed
    }) || checks::in_ezoc(sc, st, top)
        || !enemies_in_zoc(sc, st, top).is_empty()
    {
        return false;
    }
    let Some(r) = range(sc, stack) else {
        return false;
    };
    reachable_target(sc, st, stack, r)
}

/// Whether a designated stack must charge to attack (no enemy in its ZOC).
pub(crate) fn is_charger(sc: &Scenario, st: &State, stack: &[UnitIx]) -> bool {
    all_cavalry(sc, stack)
        && stack
            .first()
            .is_some_and(|&u| enemies_in_zoc(sc, st, u).is_empty())
}

/// Step `Charges`: every designated stack that must charge gets its charge, moved one after the
/// other (13.3a).
pub(super) fn begin(sc: &Scenario, st: &State, cc: &mut Cc, ev: &mut Vec<Event>) {
    for stack in &cc.designated {
        if !is_charger(sc, st, stack) {
            continue;
        }
        let Some(r) = range(sc, stack) else { continue };
        let area = area_of(sc, st, stack, r);
        let start = st.units[usize::from(stack[0])].hexes;
        log(
            ev,
            "13.3",
            format!(
                "{} charge{} from {} (range {}, charge area {} hexes)",
                names(sc, stack),
                if stack.len() == 1 { "s" } else { "" },
                hex_list(sc, &start),
                show(r),
                area.len()
            ),
        );
        cc.charges.push(Charge {
            units: stack.clone(),
            start: start.to_vec(),
            range: r,
            spent: 0,
            area,
            moved: 0,
            contractions: 0,
            dc_a: 0,
            dc_a_here: false,
            next: None,
            stopped: false,
        });
    }
    if !cc.charges.is_empty() {
        cc.steps.insert(0, Step::ChargeHex);
    }
}

/// Half points for people ("1½").
fn show(halves: u16) -> String {
    format!("{}{}", halves / 2, if halves % 2 == 1 { "½" } else { "" })
}

fn hex_list(sc: &Scenario, hexes: &[HexId]) -> String {
    hexes
        .iter()
        .map(|h| sc.board.label(*h))
        .collect::<Vec<_>>()
        .join("-")
}

/// The charge's possible next footprints (13.3a–b: front hexes, empty, inside the area, the
/// range left).
fn next_steps(sc: &Scenario, st: &State, ch: &Charge) -> Vec<(Vec<HexId>, u16, bool)> {
    let (facing, hexes, form) = aspect(st, top(ch));
    steps_from(
        sc,
        Some(st),
        &ch.units,
        facing,
        form,
        &hexes,
        ch.range - ch.spent.min(ch.range),
    )
    .into_iter()
    .filter(|(nh, _, _)| nh.iter().all(|h| ch.area.contains(h)))
    .collect()
}

/// 13.3c: the end hexes a charging line may give up now: one a charge hex (before leaving a hex
/// or after entering one), never in an EZOC.
fn contractions(sc: &Scenario, st: &State, ch: &Charge) -> Vec<(HexId, Vec<HexId>)> {
    let u = top(ch);
    let s = &st.units[usize::from(u)];
    if s.formation != Formation::Line
        || s.hexes.len() < 2
        || u16::from(ch.contractions) > u16::from(ch.moved)
        || checks::in_ezoc(sc, st, u)
    {
        return Vec::new();
    }
    let Some(fp) = footprint_of(s) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for end in [End::Head, End::Tail] {
        if let Ok(c) = fp.contracted(&Printed, end)
            && let Some(&gone) = s.hexes.iter().find(|h| !c.hexes().contains(h))
        {
            out.push((gone, c.hexes().to_vec()));
        }
    }
    out
}

/// The charging player's choices at `ChargeHex`: the next hexes, contractions, and stopping.
pub(super) fn hex_options(sc: &Scenario, st: &State, cc: &Cc) -> Vec<Action> {
    let Some(ch) = cc.charges.first() else {
        return Vec::new();
    };
    let mut v: Vec<Action> = next_steps(sc, st, ch)
        .into_iter()
        .map(|(nh, _, _)| Action::ChargeHex(nh[0]))
        .collect();
    v.extend(
        contractions(sc, st, ch)
            .into_iter()
            .map(|(h, _)| Action::ChargeContract(h)),
    );
    if !v.is_empty() {
        v.push(Action::ChargeStop);
    }
    v
}

/// Apply the charging player's choice at `ChargeHex` (the step is already off the queue).
pub(super) fn choose(sc: &Scenario, st: &mut State, cc: &mut Cc, a: &Action, ev: &mut Vec<Event>) {
    let Some(ch) = cc.charges.first().cloned() else {
        return;
    };
    match a {
        Action::ChargeHex(h) => {
            let Some((nh, _, _)) = next_steps(sc, st, &ch)
                .into_iter()
                .find(|(nh, _, _)| nh[0] == *h)
            else {
                cc.steps.insert(0, Step::ChargeHex);
                return;
            };
            log(
                ev,
                "13.3a",
                format!(
                    "{} will charge into {}",
                    names(sc, &ch.units),
                    hex_list(sc, &nh)
                ),
            );
            cc.charges[0].next = Some(nh);
            // 13.4a: before each hex (the first included), the reactions.
            let mut next: Vec<Step> = reactors(sc, st, cc).into_iter().map(Step::React).collect();
            next.push(Step::ChargeEnter);
            for (i, s) in next.into_iter().enumerate() {
                cc.steps.insert(i, s);
            }
        }
        Action::ChargeContract(h) => {
            if let Some((_, hexes)) = contractions(sc, st, &ch).into_iter().find(|c| c.0 == *h) {
                move_stack(sc, st, &ch.units, &hexes);
                cc.charges[0].contractions += 1;
                log(
                    ev,
                    "13.3c",
                    format!(
                        "{} contract{} out of {} (the charge area stays)",
                        names(sc, &ch.units),
                        if ch.units.len() == 1 { "s" } else { "" },
                        sc.board.label(*h)
                    ),
                );
            }
            cc.steps.insert(0, Step::ChargeHex);
        }
        _ => end(sc, st, cc, ev),
    }
}

/// Move a charging or countercharging stack to `to`; a leader whose hex it leaves empty of his
/// side's units goes with it (the hex of the same rank in the footprint, or its last), so that
/// he can still give it his CV bonus (21.2b).
pub(crate) fn move_stack(sc: &Scenario, st: &mut State, units: &[UnitIx], to: &[HexId]) {
    let Some(&t) = units.first() else { return };
    let side = sc.units[usize::from(t)].side;
    let from = st.units[usize::from(t)].hexes;
    for &u in units {
        st.units[usize::from(u)].hexes = Hexes::from(to);
    }
    let Some(&last) = to.last() else { return };
    for (i, &h) in from.iter().enumerate() {
        if to.contains(&h) || !super::units_in(sc, st, side, &[h]).is_empty() {
            continue;
        }
        let dest = to.get(i).copied().unwrap_or(last);
        for l in super::leaders_in(sc, st, side, &[h]) {
            st.leaders[usize::from(l)].hex = Some(dest);
        }
    }
}

/// Step `ChargeHex` with nothing to choose: the charge ends where it is.
pub(super) fn no_choice(sc: &Scenario, st: &mut State, cc: &mut Cc, ev: &mut Vec<Event>) {
    if !cc.charges.is_empty() {
        end(sc, st, cc, ev);
    }
}

/// Step `ChargeEnter`: the charger enters the announced hex (13.3a), stops in an EZOC (13.3d);
/// the countercharges it may trigger (13.5a).
pub(super) fn enter(sc: &Scenario, st: &mut State, cc: &mut Cc, ev: &mut Vec<Event>) {
    let Some(ch) = cc.charges.first().cloned() else {
        return;
    };
    let Some(nh) = ch.next.clone() else {
        cc.steps.insert(0, Step::ChargeHex);
        return;
    };
    // The reactions may have changed what lies ahead: the hex must still be open.
    let Some((_, c, dc)) = next_steps(sc, st, &ch).into_iter().find(|s| s.0 == nh) else {
        log(
            ev,
            "13.3b",
            format!(
                "{} cannot enter {}",
                names(sc, &ch.units),
                hex_list(sc, &nh)
            ),
        );
        cc.charges[0].next = None;
        cc.steps.insert(0, Step::ChargeHex);
        return;
    };
    move_stack(sc, st, &ch.units, &nh);
    let side = cc.side;
    let in_ezoc = nh.iter().any(|&h| crate::command::ezoc(sc, st, side, h));
    {
        let m = &mut cc.charges[0];
        m.spent += c;
        m.moved += 1;
        if m.dc_a_here {
            m.dc_a += 1;
        }
        m.dc_a_here = dc;
        m.next = None;
        m.stopped |= in_ezoc;
    }
    let m = &cc.charges[0];
    log(
        ev,
        "13.3",
        format!(
            "{} charge{} into {} ({} of {} hexes of range)",
            names(sc, &ch.units),
            if ch.units.len() == 1 { "s" } else { "" },
            hex_list(sc, &nh),
            show(m.spent),
            show(m.range)
        ),
    );
    if in_ezoc {
        log(
            ev,
            "13.3d",
            "it enters an enemy ZOC: the charge movement ends".into(),
        );
    }
    let mut next: Vec<Step> = counterchargers(sc, st, cc, &nh)
        .into_iter()
        .map(Step::Countercharge)
        .collect();
    if next.len() > 1 {
        // A37: the reactive player orders them.
        next.insert(0, Step::CounterchargeOrder);
    }
    next.push(Step::ChargeAfter);
    for (i, s) in next.into_iter().enumerate() {
        cc.steps.insert(i, s);
    }
}

/// Step `ChargeAfter`: the charge goes on (a new hex to choose) or ends.
pub(super) fn after(sc: &Scenario, st: &mut State, cc: &mut Cc, ev: &mut Vec<Event>) {
    match cc.charges.first() {
        Some(ch) if ch.stopped => end(sc, st, cc, ev),
        Some(_) => cc.steps.insert(0, Step::ChargeHex),
        None => {}
    }
}

/// The end of a charge: a misjudged charge goes back DISORDER/SHAKEN (13.3e); otherwise the DC
/// (A) its terrain asks (13.3f) and its hexes for the CV (13.11c). Then the next charge.
fn end(sc: &Scenario, st: &mut State, cc: &mut Cc, ev: &mut Vec<Event>) {
    if cc.charges.is_empty() {
        return;
    }
    let ch = cc.charges.remove(0);
    let t = top(&ch);
    let countered = cc.must_attack.iter().any(|(a, _)| *a == t);
    let contact = !enemies_in_zoc(sc, st, t).is_empty();
    if !contact && !countered {
        move_stack(sc, st, &ch.units, &ch.start);
        for &u in &ch.units {
            let s = &mut st.units[usize::from(u)];
            s.disordered = true;
            s.shaken = true;
        }
        cc.designated.retain(|s| *s != ch.units);
        log(
            ev,
            "13.3e",
            format!(
                "misjudged charge: no enemy in the ZOC of {}: back to {}, DISORDER/SHAKEN",
                names(sc, &ch.units),
                hex_list(sc, &ch.start)
            ),
        );
    } else {
        if ch.dc_a > 0 {
            let extra: Vec<&str> = vec!["non_clear"; usize::from(ch.dc_a)];
            let mut o = checks::roll(
                sc,
                st,
                &ch.units,
                Spec::dc('A', "Charge through terrain", "13.3f, 11.2d").with(&extra),
            );
            o.event.result = if o.passed {
                "in order".into()
            } else {
                "disordered (13.3f)".into()
            };
            ev.push(Event::Check(o.event.clone()));
            if !o.passed {
                for &u in &ch.units {
                    st.units[usize::from(u)].disordered = true;
                }
            }
        }
        if ch.moved > 0 {
            cc.charge_hexes.push((t, ch.moved));
        }
        log(
            ev,
            "13.3",
            format!(
                "the charge of {} ends in {} after {} hex{}",
                names(sc, &ch.units),
                hex_list(sc, &st.units[usize::from(t)].hexes),
                ch.moved,
                if ch.moved == 1 { "" } else { "es" }
            ),
        );
    }
    if !cc.charges.is_empty() {
        cc.steps.insert(0, Step::ChargeHex);
    }
}

// ---------------------------------------------------------------- 13.4 reactions

/// The reactive stacks that may react to the charge now (13.4a, 13.4d): not routed, not
/// disordered, not in an EZOC, in or beside the charge area (A36), with LOS to the charger, no
/// reaction yet this phase, a reaction open to it.
fn reactors(sc: &Scenario, st: &State, cc: &Cc) -> Vec<Vec<UnitIx>> {
    let Some(ch) = cc.charges.first() else {
        return Vec::new();
    };
    let side = 1 - cc.side;
    let charger = &st.units[usize::from(top(ch))].hexes;
    let on: Vec<UnitIx> = (0..sc.units.len() as UnitIx)
        .filter(|&u| sc.units[usize::from(u)].side == side && st.on_map(u))
        .collect();
    crate::rally::stacks(st, &on)
        .into_iter()
        .filter(|s| {
            let t = s[0];
            let hexes = &st.units[usize::from(t)].hexes;
            s.iter().all(|&u| {
                let x = &st.units[usize::from(u)];
                !x.routed && !x.disordered && !cc.reacted.contains(&u)
            }) && !checks::in_ezoc(sc, st, t)
                && hexes
                    .iter()
                    .any(|h| ch.area.iter().any(|a| a == h || a.is_adjacent(*h)))
                && hexes.iter().any(|&a| {
                    charger
                        .iter()
                        .any(|&b| crate::fire::sight(sc, st, a, b, side, false).is_some())
                })
                && !reaction_options(sc, st, s).is_empty()
        })
        .collect()
}

/// What a reaction costs for its DC (D) (13.4e): MPs, or the +40 of a whole-MA or only-action
/// change.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Price {
    Mp(Half),
    Whole,
}

/// A stack's reactions (13.4b–c): facing changes of a single hex (reversal of any footprint that
/// stays in place), formation changes that keep its hexes; no wheel, extension or contraction.
fn reactions(sc: &Scenario, st: &State, stack: &[UnitIx]) -> Vec<(Action, Price)> {
    let Some(&t) = stack.first() else {
        return Vec::new();
    };
    let s = &st.units[usize::from(t)];
    let side = sc.units[usize::from(t)].side;
    let army = &sc.armies[usize::from(side)].id;
    let ma = stack
        .iter()
        .map(|&u| sc.units[usize::from(u)].ma)
        .min()
        .unwrap_or(0);
    let mut out: Vec<(Action, Price)> = Vec::new();
    // 10.1d: the stack shares a formation and facing, or it cannot turn as one.
    let same = stack.iter().all(|&u| {
        let x = &st.units[usize::from(u)];
        x.formation == s.formation && x.facing == s.facing
    });
    let per = sc
        .charts
        .movement
        .as_ref()
        .and_then(|m| m.facing.get(army.as_str()))
        .and_then(|r| r.get(chart_key(s.formation)))
        .map(|r| r.per_step);
    if same && let Some(fp) = footprint_of(s) {
        let hook = matches!(s.formation, Formation::HookLeft | Formation::HookRight);
        if fp.len() == 1 && !hook && s.formation != Formation::Square {
            let options: Vec<Facing> = match s.facing {
                Facing::Point(_) => hexmap::Vertex::ALL
                    .iter()
                    .map(|&v| Facing::Point(v))
                    .collect(),
                Facing::Side(_) => hexmap::Dir::ALL.iter().map(|&d| Facing::Side(d)).collect(),
            };
            for nf in options {
                if nf == s.facing {
                    continue;
                }
                let steps = (s.facing.turn_to(nf).unsigned_abs() / 2) as u16;
                let price = match per {
                    // 9.3b, 9.5: general order, unlimbered guns: the whole MA.
                    Some(ChangeCost::WholeMa | ChangeCost::RemainingMa) => Price::Whole,
                    // 9.6: a turn about is a reversal, an only action (+40).
                    Some(ChangeCost::Mp { .. }) if steps >= 3 => Price::Whole,
                    Some(ChangeCost::Mp { base, .. }) => {
                        Price::Mp(Half::from_halves(base.halves() * steps))
                    }
                    None => continue,
                };
                out.push((Action::ReactFace(nf), price));
            }
        } else if fp.len() > 1
            && matches!(
                s.formation,
                Formation::Line
                    | Formation::AttackColumn
                    | Formation::MarchColumn
                    | Formation::RoadColumn
                    | Formation::Limbered
            )
            && let Ok(r) = fp.reversed(&Printed)
        {
            // 9.6 reversal of a footprint that stays in its hexes (13.4c).
            let mut a = r.hexes().to_vec();
            let mut b = s.hexes;
            a.sort();
            b.sort();
            if a == b {
                out.push((Action::ReactFace(r.facing()), Price::Whole));
            }
        }
    }
    let budget = Budget {
        ma: Half::whole(u16::from(ma)),
        left: Half::whole(u16::from(ma)),
        spent: false,
        fired: false,
    };
    let mut mine = s.hexes;
    mine.sort();
    for c in formation::changes(sc, st, stack, &budget) {
        let mut h = c.hexes;
        h.sort();
        if h != mine || !c.must_leave.is_empty() {
            continue;
        }
        let price = if c.ends_movement && c.cost >= budget.ma {
            Price::Whole
        } else {
            Price::Mp(c.cost)
        };
        let mut forms: Vec<Formation> = Vec::new();
        for &(_, f) in &c.formations {
            if !forms.contains(&f) {
                forms.push(f);
            }
        }
        let a = Action::ReactForm(forms, c.facing, c.hexes.to_vec());
        if !out.iter().any(|x| x.0 == a) {
            out.push((a, price));
        }
    }
    out
}

/// The id of an arm in action ids.
pub(crate) fn arm_key(a: Arm) -> &'static str {
    match a {
        Arm::Infantry => "infantry",
        Arm::Cavalry => "cavalry",
        Arm::Artillery => "artillery",
    }
}

/// Every reaction open to a stack (13.4a–c), with the units that make it: the whole stack's, and
/// in a stack of infantry and artillery, those of one arm alone while the other does not react,
/// when the stack stays valid (10.1–10.3, `stacking::legal_at`). "They may not make, one a facing
/// change and the other a formation change": one reaction a stack.
fn reactions_all(sc: &Scenario, st: &State, stack: &[UnitIx]) -> Vec<(Action, Vec<UnitIx>, Price)> {
    let mut out: Vec<(Action, Vec<UnitIx>, Price)> = reactions(sc, st, stack)
        .into_iter()
        .map(|(a, p)| (a, stack.to_vec(), p))
        .collect();
    let of = |arm: Arm| -> Vec<UnitIx> {
        stack
            .iter()
            .copied()
            .filter(|&u| sc.units[usize::from(u)].arm == arm)
            .collect()
    };
    let (foot, guns) = (of(Arm::Infantry), of(Arm::Artillery));
    if foot.is_empty() || guns.is_empty() || foot.len() + guns.len() != stack.len() {
        return out;
    }
    for (arm, part) in [(Arm::Infantry, foot), (Arm::Artillery, guns)] {
        for (a, price) in reactions(sc, st, &part) {
            let mut tmp = st.clone();
            if change(sc, &mut tmp, &part, &a).is_none() {
                continue;
            }
            guns_on_top(sc, &mut tmp, stack);
            let hexes: Vec<HexId> = stack
                .iter()
                .flat_map(|&u| tmp.units[usize::from(u)].hexes.to_vec())
                .collect();
            if hexes
                .iter()
                .all(|&h| crate::stacking::legal_at(sc, &tmp, h).is_ok())
            {
                out.push((Action::ReactPart(arm, Box::new(a)), part.clone(), price));
            }
        }
    }
    out
}

/// 10.6d: guns stacked with a square are its top units (a reaction that forms the square puts
/// them there; the other units keep their order).
fn guns_on_top(sc: &Scenario, st: &mut State, stack: &[UnitIx]) {
    let square = stack.iter().any(|&u| {
        sc.units[usize::from(u)].arm == Arm::Infantry
            && st.units[usize::from(u)].formation == Formation::Square
    });
    if !square {
        return;
    }
    let mut now: Vec<UnitIx> = stack.to_vec();
    now.sort_by_key(|&u| (st.units[usize::from(u)].order, u));
    let numbers: Vec<u16> = now
        .iter()
        .map(|&u| st.units[usize::from(u)].order)
        .collect();
    let (guns, rest): (Vec<UnitIx>, Vec<UnitIx>) = now
        .into_iter()
        .partition(|&u| sc.units[usize::from(u)].arm == Arm::Artillery);
    for (u, n) in guns.into_iter().chain(rest).zip(numbers) {
        st.units[usize::from(u)].order = n;
    }
}

/// The reactions of a stack as actions (13.4).
fn reaction_options(sc: &Scenario, st: &State, stack: &[UnitIx]) -> Vec<Action> {
    reactions_all(sc, st, stack)
        .into_iter()
        .map(|(a, _, _)| a)
        .collect()
}

/// The reactive player's choices at `React(stack)`: its reactions and `pass`.
pub(super) fn react_options(sc: &Scenario, st: &State, stack: &[UnitIx]) -> Vec<Action> {
    let mut v = reaction_options(sc, st, stack);
    if !v.is_empty() {
        v.push(Action::Pass);
    }
    v
}

/// Make the facing or formation change of a reaction (13.4b) for `stack`; its text, `None` if
/// not open.
fn change(sc: &Scenario, st: &mut State, stack: &[UnitIx], a: &Action) -> Option<String> {
    Some(match a {
        Action::ReactFace(f) => {
            let s = &st.units[usize::from(*stack.first()?)];
            let hexes = match footprint_of(s)
                .and_then(|fp| (fp.len() > 1).then(|| fp.reversed(&Printed).ok()).flatten())
            {
                Some(r) => r.hexes().to_vec(),
                None => s.hexes.to_vec(),
            };
            for &u in stack {
                st.units[usize::from(u)].facing = *f;
                st.units[usize::from(u)].hexes = Hexes::from(&hexes[..]);
            }
            format!("faces {}", crate::geom::FacingExt::name(*f))
        }
        Action::ReactForm(fs, f, hexes) => {
            // The stack's units take the change's formations in order (infantry then guns).
            let budget = {
                let ma = stack
                    .iter()
                    .map(|&u| sc.units[usize::from(u)].ma)
                    .min()
                    .unwrap_or(0);
                Budget {
                    ma: Half::whole(u16::from(ma)),
                    left: Half::whole(u16::from(ma)),
                    spent: false,
                    fired: false,
                }
            };
            let c = formation::changes(sc, st, stack, &budget)
                .into_iter()
                .find(|c| {
                    c.facing == *f
                        && c.hexes == *hexes
                        && c.must_leave.is_empty()
                        && fs.iter().all(|x| c.formations.iter().any(|y| y.1 == *x))
                })?;
            for &(u, fm) in &c.formations {
                let s = &mut st.units[usize::from(u)];
                s.formation = fm;
                s.hexes = Hexes::from(&c.hexes[..]);
                s.facing = c.facing;
            }
            format!(
                "forms {} facing {}",
                fs.iter()
                    .map(|x| x.name())
                    .collect::<Vec<_>>()
                    .join(" and "),
                crate::geom::FacingExt::name(*f)
            )
        }
        _ => return None,
    })
}

/// Apply a reaction (13.4b) and its DC (D) at +10 a MP or +40 (13.4e); a failure leaves the
/// change made, the units that reacted disordered. When one arm of a stack reacts alone
/// (13.4a), only its units make the check and take its result (18.2e by analogy: the check of
/// the units that changed); the others may still fire defensively (13.10a).
pub(super) fn react(
    sc: &Scenario,
    st: &mut State,
    cc: &mut Cc,
    stack: &[UnitIx],
    a: &Action,
    ev: &mut Vec<Event>,
) {
    if matches!(a, Action::Pass) {
        return;
    }
    let Some((_, part, price)) = reactions_all(sc, st, stack).into_iter().find(|x| x.0 == *a)
    else {
        return;
    };
    let inner = match a {
        Action::ReactPart(_, b) => b.as_ref(),
        x => x,
    };
    let Some(mut what) = change(sc, st, &part, inner) else {
        return;
    };
    guns_on_top(sc, st, stack);
    if part.len() != stack.len() {
        let rest: Vec<UnitIx> = stack
            .iter()
            .copied()
            .filter(|u| !part.contains(u))
            .collect();
        what += &format!(
            " ({} do{} not react, 13.4a)",
            names(sc, &rest),
            if rest.len() == 1 { "es" } else { "" }
        );
    }
    // 13.4a: one reaction a stack: the units that did not react make none later either
    // (`reactors` passes over a stack with a unit that reacted); they keep their defensive fire.
    cc.reacted.extend(part.iter().copied());
    let stack = &part[..];

    log(
        ev,
        "13.4",
        format!(
            "{} react{} to the charge: {what}",
            names(sc, stack),
            if stack.len() == 1 { "s" } else { "" }
        ),
    );
    let per: Vec<&str>;
    let extra: &[&str] = match price {
        Price::Whole => &["reaction_whole_ma"],
        Price::Mp(c) => {
            // 1.5b: a half MP rounds up.
            per = vec!["reaction_per_mp"; usize::from(c.rounded())];
            &per
        }
    };
    let mut o = checks::roll(
        sc,
        st,
        stack,
        Spec::dc('D', "Defender's reaction", "13.4e").with(extra),
    );
    o.event.result = if o.passed {
        "in order".into()
    } else {
        "the change is made, disordered (13.4e)".into()
    };
    ev.push(Event::Check(o.event.clone()));
    if !o.passed {
        for &u in stack {
            st.units[usize::from(u)].disordered = true;
        }
    }
}

// ---------------------------------------------------------------- 13.5 countercharge

/// The reactive cavalry stacks that may countercharge a charger that entered `nh` (13.5a–b,
/// 19.6d): all cavalry, line or attack column, not shaken, routed or disordered, not in an
/// EZOC, no reaction this phase, a hex of `nh` two hexes away and in its frontal arc, a front
/// hex to enter.
fn counterchargers(sc: &Scenario, st: &State, cc: &Cc, nh: &[HexId]) -> Vec<Vec<UnitIx>> {
    let side = 1 - cc.side;
    let on: Vec<UnitIx> = (0..sc.units.len() as UnitIx)
        .filter(|&u| sc.units[usize::from(u)].side == side && st.on_map(u))
        .collect();
    crate::rally::stacks(st, &on)
        .into_iter()
        .filter(|s| {
            let t = s[0];
            let us = &st.units[usize::from(t)];
            let Some(fp) = footprint_of(us) else {
                return false;
            };
            all_cavalry(sc, s)
                && s.iter().all(|&u| {
                    let x = &st.units[usize::from(u)];
                    matches!(x.formation, Formation::Line | Formation::AttackColumn)
                        && !x.shaken
                        && !x.routed
                        && !x.disordered
                        && !cc.reacted.contains(&u)
                        && !cc.countercharged.contains(&u)
                })
                && !checks::in_ezoc(sc, st, t)
                && nh.iter().any(|&h| {
                    us.hexes.iter().map(|x| x.distance(h)).min() == Some(2)
                        && fp.arc_of(&Printed, h) == Some(Arc::Front)
                })
                && !countercharge_hexes(sc, st, s, nh).is_empty()
        })
        .collect()
}

/// 13.5c–d, 11.10b: the footprints a countercharge may take: one hex ahead into its front,
/// adjacent to the charger, empty, SCM cost at most 1.
fn countercharge_hexes(
    sc: &Scenario,
    st: &State,
    stack: &[UnitIx],
    charger: &[HexId],
) -> Vec<Vec<HexId>> {
    let (facing, hexes, form) = aspect(st, stack[0]);
    steps_from(sc, Some(st), stack, facing, form, &hexes, 2)
        .into_iter()
        .map(|(nh, _, _)| nh)
        .filter(|nh| nh.iter().any(|h| charger.iter().any(|c| c.is_adjacent(*h))))
        .collect()
}

/// 17.2a, 11.10b: the footprints a one-hex opportunity charge may take: the stack's footprint
/// shifted one hex into a front direction (a multi-hex line moves as a whole, "into its front
/// hex(es)", no facing or formation change), every hex on the board, empty, of SCM cost at most
/// `budget` half points and allowed to its formation, and a hex of it adjacent to `target`.
pub(crate) fn one_hex_ahead(
    sc: &Scenario,
    st: &State,
    stack: &[UnitIx],
    target: &[HexId],
    budget: u16,
) -> Vec<Vec<HexId>> {
    let Some(&t) = stack.first() else {
        return Vec::new();
    };
    let (facing, hexes, form) = aspect(st, t);
    steps_from(sc, Some(st), stack, facing, form, &hexes, budget)
        .into_iter()
        .map(|(nh, _, _)| nh)
        .filter(|nh| {
            nh.iter().any(|h| target.iter().any(|c| c.is_adjacent(*h)))
                && nh.iter().all(|h| {
                    sc.board.hexes.get(h).is_some_and(|i| {
                        sc.charts.tec.terrain.get(&i.terrain).is_none_or(|t| {
                            !t.no_formation
                                .iter()
                                .any(|f| f == crate::geom::chart_key(form))
                        })
                    })
                })
        })
        .collect()
}

/// The reactive player's choices at `Countercharge(stack)`.
pub(super) fn countercharge_options(
    sc: &Scenario,
    st: &State,
    cc: &Cc,
    stack: &[UnitIx],
) -> Vec<Action> {
    let Some(ch) = cc.charges.first() else {
        return Vec::new();
    };
    let charger = &st.units[usize::from(top(ch))].hexes;
    let mut v: Vec<Action> = countercharge_hexes(sc, st, stack, charger)
        .into_iter()
        .map(|nh| Action::Countercharge(nh[0]))
        .collect();
    if !v.is_empty() {
        v.push(Action::Pass);
    }
    v
}

/// A37: the top units of the cavalry stacks of the `Countercharge` steps queued after the head
/// step that have a countercharge open, in unit order.
pub(super) fn order_options(sc: &Scenario, st: &State, cc: &Cc) -> Vec<UnitIx> {
    cc.steps
        .iter()
        .skip(1)
        .map_while(|s| match s {
            Step::Countercharge(x) => Some(x),
            _ => None,
        })
        .filter(|x| !countercharge_options(sc, st, cc, x).is_empty())
        .map(|x| x[0])
        .collect()
}

/// A37: the stack of `u` is asked first (its step goes to the head); the others wait, and are
/// ordered again after it if two or more are left.
pub(super) fn ask_first(sc: &Scenario, st: &State, cc: &mut Cc, u: UnitIx) {
    let Some(i) = cc
        .steps
        .iter()
        .position(|s| matches!(s, Step::Countercharge(x) if x.first() == Some(&u)))
    else {
        return;
    };
    let first = cc.steps.remove(i);
    cc.steps.insert(0, first);
    cc.steps.insert(1, Step::CounterchargeOrder);
    if order_options_after(sc, st, cc) < 2 {
        cc.steps.remove(1);
    }
}

/// How many stacks the `CounterchargeOrder` step at index 1 would offer.
fn order_options_after(sc: &Scenario, st: &State, cc: &Cc) -> usize {
    cc.steps
        .iter()
        .skip(2)
        .map_while(|s| match s {
            Step::Countercharge(x) => Some(x),
            _ => None,
        })
        .filter(|x| !countercharge_options(sc, st, cc, x).is_empty())
        .count()
}

/// A countercharge (13.5c): MC (C); a pass moves the stack one hex, stops the charge, and the
/// charger must attack it (13.6a); a failure shakes it and the charge goes on.
pub(super) fn countercharge(
    sc: &Scenario,
    st: &mut State,
    cc: &mut Cc,
    stack: &[UnitIx],
    a: &Action,
    ev: &mut Vec<Event>,
) {
    let Action::Countercharge(h) = a else { return };
    let Some(ch) = cc.charges.first().cloned() else {
        return;
    };
    let charger = st.units[usize::from(top(&ch))].hexes;
    let Some(nh) = countercharge_hexes(sc, st, stack, &charger)
        .into_iter()
        .find(|nh| nh[0] == *h)
    else {
        return;
    };
    let mut o = checks::roll(
        sc,
        st,
        stack,
        Spec::mc('C', "Cavalry countercharge", "13.5c"),
    );
    o.event.result = if o.passed {
        format!("countercharges into {}", hex_list(sc, &nh))
    } else {
        "shaken, stays in place: the charge goes on (13.5c)".into()
    };
    ev.push(Event::Check(o.event.clone()));
    super::special_effects(sc, st, stack, &o, ev);
    let stack: Vec<UnitIx> = stack.iter().copied().filter(|&u| st.on_map(u)).collect();
    if stack.is_empty() {
        return;
    }
    if !o.passed {
        for &u in &stack {
            st.units[usize::from(u)].shaken = true;
        }
        return;
    }
    move_stack(sc, st, &stack, &nh);
    cc.countercharged.extend(stack.iter().copied());
    cc.charge_hexes.push((stack[0], 1));
    cc.must_attack.push((top(&ch), stack.clone()));
    cc.charges[0].stopped = true;
    // A37: the first countercharge that succeeds stops the charge; no other is asked.
    cc.steps
        .retain(|s| !matches!(s, Step::Countercharge(_) | Step::CounterchargeOrder));
    log(
        ev,
        "13.5c",
        format!(
            "{} countercharge{} into {}: the charge of {} stops there and must attack {} (13.6a)",
            names(sc, &stack),
            if stack.len() == 1 { "s" } else { "" },
            hex_list(sc, &nh),
            names(sc, &ch.units),
            name(sc, stack[0])
        ),
    );
}

/// 13.6a exception: the units a stack must attack besides those in its ZOC (the cavalry that
/// countercharged it).
pub(super) fn forced_targets(st: &State, cc: &Cc, stack: &[UnitIx]) -> Vec<UnitIx> {
    cc.must_attack
        .iter()
        .filter(|(a, _)| stack.contains(a))
        .flat_map(|(_, d)| d.iter().copied())
        .filter(|&u| st.on_map(u))
        .collect()
}

/// 13.7a, 13.5c: the defending stack countercharged: its MC (C) was its defender morale check.
pub(super) fn tested_already(cc: &Cc, stack: &[UnitIx]) -> bool {
    !stack.is_empty() && stack.iter().all(|u| cc.countercharged.contains(u))
}

/// 13.11c: the charge or countercharge hexes of a stack (+1 a hex).
pub(crate) fn hexes_moved(cc_hexes: &[(UnitIx, u8)], stack: &[UnitIx]) -> u8 {
    cc_hexes
        .iter()
        .filter(|(u, _)| stack.contains(u))
        .map(|x| x.1)
        .max()
        .unwrap_or(0)
}

/// Invariants of the charges of a phase: a charging stack stays together and inside its charge
/// area (13.3b–c), a unit reacts at most once (13.4d) and countercharges at most once.
pub fn problems(sc: &Scenario, st: &State, cc: &Cc) -> Vec<String> {
    let mut bad = Vec::new();
    if let Some(ch) = cc.charges.first() {
        let hexes = &st.units[usize::from(top(ch))].hexes;
        if ch
            .units
            .iter()
            .any(|&u| st.on_map(u) && st.units[usize::from(u)].hexes != *hexes)
        {
            bad.push(format!(
                "{}: the charging stack separated (13.3c)",
                names(sc, &ch.units)
            ));
        }
        if *hexes != ch.start && hexes.iter().any(|h| !ch.area.contains(h)) {
            bad.push(format!(
                "{}: outside its charge area (13.3b)",
                names(sc, &ch.units)
            ));
        }
        if ch.spent > ch.range {
            bad.push(format!(
                "{}: beyond its charge range (13.1e)",
                names(sc, &ch.units)
            ));
        }
    }
    for list in [&cc.reacted, &cc.countercharged] {
        for (i, u) in list.iter().enumerate() {
            if list[..i].contains(u) {
                bad.push(format!(
                    "{}: reacted or countercharged twice (13.4d, 13.5b)",
                    name(sc, *u)
                ));
            }
        }
    }
    bad
}

/// The label of `pass` at a charge decision (the movement's "no opportunity fire" elsewhere).
pub fn pass_label(cc: &Cc, a: &Action) -> Option<String> {
    if !matches!(a, Action::Pass) {
        return None;
    }
    Some(
        match cc.steps.first()? {
            Step::React(_) => "No reaction to the charge (13.4)",
            Step::Countercharge(_) => "No countercharge (13.5)",
            Step::DefenceOption(..) => "The cavalry stays out of the close combat (13.8e)",
            _ => return None,
        }
        .into(),
    )
}

/// Labels of the charge actions, for people.
pub fn label(sc: &Scenario, a: &Action) -> Option<String> {
    let hx = |h: &HexId| sc.board.label(*h);
    Some(match a {
        Action::Charge(u) => format!("{} will charge (13.1d)", name(sc, *u)),
        Action::ChargeHex(h) => format!("Charge into {} (13.3)", hx(h)),
        Action::ChargeContract(h) => format!("Contract the charging line out of {} (13.3c)", hx(h)),
        Action::ChargeStop => "End the charge here (13.3)".into(),
        Action::ReactFace(f) => format!(
            "React to the charge: face {} (13.4)",
            crate::geom::FacingExt::name(*f)
        ),
        Action::ReactForm(fs, f, hexes) => format!(
            "React to the charge: form {} facing {} in {} (13.4)",
            fs.iter()
                .map(|x| x.name())
                .collect::<Vec<_>>()
                .join(" and "),
            crate::geom::FacingExt::name(*f),
            hexes.iter().map(hx).collect::<Vec<_>>().join("-")
        ),
        Action::ReactPart(arm, inner) => format!(
            "{} (the {} only, 13.4a)",
            label(sc, inner).unwrap_or_default(),
            arm_key(*arm)
        ),
        Action::Countercharge(h) => format!("Countercharge into {} (13.5)", hx(h)),
        Action::CounterchargeFirst(u) => format!(
            "Ask {} first about a countercharge (13.5, A37)",
            name(sc, *u)
        ),
        Action::CcCavalryDefend(u) => format!(
            "{} joins the close combat: cavalry defence option (13.8)",
            name(sc, *u)
        ),
        _ => return None,
    })
}
