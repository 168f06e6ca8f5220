//! *Battles from the Age of Reason* (BAR), third edition series rules 1.0–24.0, as printed in
//! *Prague: The Empty Triumph*. Modules follow the book's sections: [`initiative`] (6.1, 6.5, 6.7,
//! 6.9), [`activation`] (6.3–6.6, 6.8), [`command`] (7), [`geom`] (formations 8 and orientation 9
//! as far as this package needs them), [`stacking`] (10), [`movement`] (11), [`fire`] (12),
//! [`close_combat`] (13–15), [`pursuit`] (16), [`opportunity_charge`] (17), [`checks`] (18.1,
//! 19.1), [`rally`] (18.6, 19.5), [`retreat`] (20), [`leaders`] (21), [`reinforcements`] (22),
//! [`army_morale`] (23), [`detachments`] (24). The charts of a box (1.2b) are [`charts`].
//!
//! Procedures run by themselves until a player must decide; every roll is an [`Event`] naming
//! its rule, its dice and its modifiers. Where the book is silent or ambiguous, `docs/bar.md`
//! gives the decision taken and its reason.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod action;
pub mod activation;
pub mod agent;
pub mod army_morale;
pub mod breakdown;
pub mod charts;
pub mod checks;
pub mod close_combat;
pub mod command;
pub mod data;
pub mod detachments;
pub mod event;
pub mod fire;
pub mod flow;
pub mod formation;
pub mod geom;
pub mod initiative;
pub mod leaders;
pub mod memo;
pub mod movement;
pub mod opportunity_charge;
pub mod policy;
pub mod pursuit;
pub mod rally;
pub mod reinforcements;
pub mod retreat;
pub mod scenario;
pub mod stacking;
pub mod state;
pub mod voluntary_rout;

pub use action::Action;
pub use event::Event;
pub use scenario::Scenario;
pub use state::State;

use crate::geom::FacingExt as _;
use engine::{Outcome, Ruleset, Seat};
use std::path::Path;
use std::sync::Arc;

/// A scenario on offer.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ScenarioInfo {
    /// Id.
    pub id: &'static str,
    /// Name.
    pub name: &'static str,
    /// Options.
    pub options: Vec<&'static str>,
    /// Its directory under the data dir.
    pub dir: &'static str,
    /// Its scenario file in that directory (beside `map.toml` and `oob.toml`).
    pub file: &'static str,
}

/// Every scenario of the ruleset.
pub fn catalogue() -> Vec<ScenarioInfo> {
    vec![
        ScenarioInfo {
            id: "bar-drill",
            name: "BAR drill — an invented field to try every rule on",
            options: Vec::new(),
            dir: "bar-drill",
            file: "scenario.toml",
        },
        ScenarioInfo {
            id: "prague-schwerin",
            name: "Prague 1757: Schwerin's attack (reconstructed)",
            options: Vec::new(),
            dir: "prague",
            file: "schwerin.toml",
        },
        ScenarioInfo {
            id: "prague-gap",
            name: "Prague 1757: the gap in the centre (reconstructed)",
            options: Vec::new(),
            dir: "prague",
            file: "gap.toml",
        },
        ScenarioInfo {
            id: "prague-battle",
            name: "Prague 1757: the whole battle (reconstructed)",
            options: Vec::new(),
            dir: "prague",
            file: "battle.toml",
        },
    ]
}

/// The ruleset bound to a scenario.
#[derive(Clone, Debug)]
pub struct Bar {
    /// The scenario.
    pub sc: Arc<Scenario>,
}

/// The built-in text of a data file (the repository's `scenarios/` at build time).
fn builtin(path: &str) -> Option<&'static str> {
    macro_rules! files {
        ($($f:literal),*) => {
            match path {
                $($f => Some(include_str!(concat!("../../../scenarios/", $f))),)*
                _ => None,
            }
        };
    }
    files!(
        "bar-drill/map.toml",
        "bar-drill/oob.toml",
        "bar-drill/scenario.toml",
        "prague/charts/tec.toml",
        "prague/charts/checks.toml",
        "prague/charts/command.toml",
        "prague/charts/fire.toml",
        "prague/charts/combat.toml",
        "prague/charts/movement.toml",
        "prague/map.toml",
        "prague/oob.toml",
        "prague/schwerin.toml",
        "prague/gap.toml",
        "prague/battle.toml"
    )
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

impl Bar {
    /// Load a catalogue scenario from a data dir (`DIR/<scenario>/` and the charts of its box,
    /// `DIR/<box>/charts/`); without one, from the repository's `scenarios/` directory.
    pub fn load(
        scenario: &str,
        options: &[String],
        dir: Option<&Path>,
    ) -> Result<Bar, Vec<String>> {
        let info = catalogue()
            .into_iter()
            .find(|i| i.id == scenario)
            .ok_or_else(|| vec![format!("unknown scenario {scenario:?}")])?;
        if let Some(o) = options.first() {
            return Err(vec![format!(
                "unknown option {o:?} for {scenario} (it has none)"
            )]);
        }
        match dir {
            Some(dir) => Bar::from_dir_file(&dir.join(info.dir), info.file, dir),
            None => {
                let get = |f: &str| {
                    builtin(&format!("{}/{f}", info.dir))
                        .ok_or_else(|| vec![format!("no built-in {}/{f}", info.dir)])
                };
                let (map, oob, scen) = (get("map.toml")?, get("oob.toml")?, get(info.file)?);
                let box_id = charts_box(scen, info.dir)?;
                let files: Vec<(&str, Option<String>)> = charts::FILES
                    .iter()
                    .map(|f| {
                        (
                            *f,
                            builtin(&format!("{box_id}/charts/{f}")).map(str::to_string),
                        )
                    })
                    .collect();
                let charts = charts::Charts::parse(&box_id, &files)?;
                Bar::from_texts(map, oob, scen, Arc::new(charts), info.dir)
            }
        }
    }

    /// Load a scenario directory (`scenario.toml` beside `map.toml` and `oob.toml`), with the charts
    /// of the box it names under `boxes`.
    pub fn from_dir(sdir: &Path, boxes: &Path) -> Result<Bar, Vec<String>> {
        Bar::from_dir_file(sdir, "scenario.toml", boxes)
    }

    /// Load the scenario file `file` of a directory, with the charts of its box under `boxes`.
    pub fn from_dir_file(sdir: &Path, file: &str, boxes: &Path) -> Result<Bar, Vec<String>> {
        let map = read(&sdir.join("map.toml")).map_err(|e| vec![e])?;
        let oob = read(&sdir.join("oob.toml")).map_err(|e| vec![e])?;
        let scen = read(&sdir.join(file)).map_err(|e| vec![e])?;
        let box_id = charts_box(&scen, &sdir.join(file).display().to_string())?;
        let cdir = boxes.join(&box_id).join("charts");
        let files: Vec<(&str, Option<String>)> = charts::FILES
            .iter()
            .map(|f| (*f, std::fs::read_to_string(cdir.join(f)).ok()))
            .collect();
        let charts = charts::Charts::parse(&box_id, &files)?;
        let name = sdir
            .file_name()
            .map_or_else(|| "scenario".into(), |n| n.to_string_lossy().to_string());
        Bar::from_texts(&map, &oob, &scen, Arc::new(charts), &name)
    }

    /// A ruleset from the texts of a scenario's files and its charts.
    pub fn from_texts(
        map: &str,
        oob: &str,
        scenario: &str,
        charts: Arc<charts::Charts>,
        dir: &str,
    ) -> Result<Bar, Vec<String>> {
        let sc = Scenario::build(map, oob, scenario, charts, dir)?;
        let bar = Bar { sc: Arc::new(sc) };
        let mut ev = Vec::new();
        let st = flow::start(&bar.sc, 0, &mut ev);
        let bad = bar.check_invariants(&st);
        if bad.is_empty() { Ok(bar) } else { Err(bad) }
    }

    /// A validation report: what the data holds and where it comes from.
    pub fn validation_report(&self) -> (bool, String) {
        let sc = &self.sc;
        let (cs, cr) = sc.charts.provenance_counts();
        let (ss, sr) = sc.provenance;
        let sp = |side: u8| -> u32 {
            sc.units
                .iter()
                // 8.5: a component's SPs are its parent's, counted once.
                .filter(|u| u.side == side && u.parent.is_none())
                .map(|u| u32::from(u.sp))
                .sum()
        };
        let text = format!(
            "{} ({}): {} hexes, {} leaders, {} wings, {} brigades, {} units ({} SP {}, {} SP {}; {} parents of {} components, 8.5; {} batteries with a prolonge mark, 11.6), {} turns from {}, ETN {} with {} boxes\n\
             charts of {:?}: {cs} data from the rule book, {cr} reconstructed\n\
             scenario files: {ss} data from the rule book, {sr} reconstructed or invented\n\
             the charts pass the constraints of the rule text (bar-notes section 2)\n",
            sc.name,
            sc.id,
            sc.board.hexes.len(),
            sc.leaders.len(),
            sc.wings.len(),
            sc.brigades.len(),
            sc.units.iter().filter(|u| u.parent.is_none()).count(),
            sp(0),
            sc.armies[0].name,
            sp(1),
            sc.armies[1].name,
            sc.units.iter().filter(|u| !u.components.is_empty()).count(),
            sc.units.iter().filter(|u| u.parent.is_some()).count(),
            sc.units.iter().filter(|u| u.prolonge.is_some()).count(),
            sc.turns,
            sc.clock(1),
            sc.etn,
            sc.end_boxes,
            sc.charts.id,
        );
        (true, text)
    }
}

/// The rule of every BAR outcome: the scenario's levels (the series has none, C9).
pub const VICTORY_RULE: &str = "scenario";

/// The box whose charts a scenario file names (`charts = "prague"`).
fn charts_box(scen: &str, file: &str) -> Result<String, Vec<String>> {
    #[derive(serde::Deserialize)]
    struct Head {
        scenario: HeadInner,
    }
    #[derive(serde::Deserialize)]
    struct HeadInner {
        charts: String,
    }
    toml::from_str::<Head>(scen)
        .map(|h| h.scenario.charts)
        .map_err(|e| vec![format!("{file}: {}", charts::one_line(&e.to_string()))])
}

/// The outcome at the end (the series has no victory rules, C9: the scenario's levels, read from
/// the difference of the Current Loss Totals).
pub fn outcome_of(sc: &Scenario, st: &State) -> Outcome {
    let clt = [
        army_morale::clt_total(sc, st, 0),
        army_morale::clt_total(sc, st, 1),
    ];
    for v in &sc.victory {
        let Some(w) = v
            .winner
            .as_ref()
            .and_then(|w| sc.armies.iter().position(|a| &a.id == w))
        else {
            continue;
        };
        let points = |side: usize| -> i64 {
            sc.objectives
                .iter()
                .zip(&st.holders)
                .filter(|(_, h)| usize::from(**h) == side)
                .map(|(o, _)| i64::from(o.points))
                .sum()
        };
        let margin = i64::from(clt[1 - w]) - i64::from(clt[w]) + points(w) - points(1 - w);
        if margin >= i64::from(v.margin) {
            return Outcome {
                winner: Some(Seat(w as u8)),
                level: v.level.clone(),
                rule: VICTORY_RULE.into(),
            };
        }
    }
    Outcome {
        winner: None,
        level: "Draw".into(),
        rule: VICTORY_RULE.into(),
    }
}

impl Ruleset for Bar {
    type State = State;
    type Action = Action;
    type Event = Event;

    fn ruleset_id(&self) -> &str {
        "bar"
    }

    fn scenario_id(&self) -> &str {
        &self.sc.id
    }

    fn seat_name(&self, seat: Seat) -> &str {
        &self.sc.armies[usize::from(seat.0 & 1)].name
    }

    fn start(&self, seed: u64, events: &mut Vec<Event>) -> State {
        flow::start(&self.sc, seed, events)
    }

    fn decider(&self, state: &State) -> Option<Seat> {
        flow::decider(&self.sc, state).map(Seat)
    }

    fn legal_actions(&self, state: &State) -> Vec<Action> {
        flow::legal(&self.sc, state)
    }

    fn action_id(&self, action: &Action) -> String {
        action.id(&self.sc)
    }

    fn action_label(&self, state: &State, action: &Action) -> String {
        let sc = &self.sc;
        // charges (13.3–13.5, 13.8)
        if let state::Phase::CcDecision(cc) = &state.phase
            && let Some(l) = close_combat::charge::pass_label(cc, action)
        {
            return l;
        }
        if let Some(l) = fire::label(sc, state, action) {
            return l;
        }
        if let Some(l) = movement::label(sc, state, action) {
            return l;
        }
        // close combat (13–15)
        if let Some(l) = close_combat::label(sc, state, action) {
            return l;
        }
        // pursuit (16) / opportunity charge (17)
        if let Some(l) = pursuit::label_of(sc, action) {
            return l;
        }
        if let Some(l) = opportunity_charge::label_of(sc, action) {
            return l;
        }
        let b = |i: &u16| sc.brigades[usize::from(*i)].name.clone();
        let u = |i: &u16| sc.units[usize::from(*i)].name.clone();
        let l = |i: &u16| sc.leaders[usize::from(*i)].name.clone();
        match action {
            Action::Spend(0) => "Spend no CR on the army morale roll (23.2b)".into(),
            Action::Spend(n) => format!("Spend {n} CR to lower the army morale die (23.2b)"),
            Action::ActivateOwn(x) => format!("Activate {} (6.1a)", b(x)),
            Action::Opponent => "Make the opponent activate a brigade (6.1a)".into(),
            Action::Wing(w) => format!(
                "Wing activation of {} (6.5)",
                sc.wings[usize::from(*w)].name
            ),
            Action::Activate(x) => format!("Activate {} (6.3)", b(x)),
            Action::Join(x) => format!("{} joins the wing activation (6.5c)", b(x)),
            Action::JoinDone => "No more brigades join (6.5c)".into(),
            Action::Place(x, y) => format!("Place {} with {} (21.5e)", l(x), u(y)),
            Action::Independent(x) => format!("Activate the independent {} (6.6)", u(x)),
            Action::Leader(x) => format!("Activate {} with the brigade (6.6)", l(x)),
            Action::Attach(x) => format!("Attach {} (6.4)", u(x)),
            Action::CommandDone => "Command control done: fire, move and fight (4.0 C)".into(),
            Action::Retreat(h) => format!("Rout retreat to {} (20.2g)", sc.board.label(*h)),
            Action::Lose(x) => format!("{} takes one SP of the retreat's losses (19.7d)", u(x)),
            Action::Face(f) if matches!(state.phase, state::Phase::LineFacing { .. }) => {
                format!("Face {} as a one-hex line (8.4g)", f.name())
            }
            Action::Face(f) => format!("Face {} (19.5e)", f.name()),
            Action::Reintegrate => "Reintegrate the detachment (24.3a)".into(),
            Action::KeepDetached => "Keep the detachment apart (24.3a)".into(),
            other => other.id(sc),
        }
    }

    fn random_action(&self, state: &State, pick: &mut engine::Dice) -> Option<Action> {
        flow::sample(&self.sc, state, pick)
    }

    fn apply_legal(&self, state: &mut State, action: &Action, events: &mut Vec<Event>) {
        flow::apply(&self.sc, state, action, events);
    }

    fn policy_answer(&self, state: &State, _seat: Seat, policy: &engine::Policy) -> Option<Action> {
        policy::answer(&self.sc, state, policy)
    }

    fn outcome(&self, state: &State) -> Option<Outcome> {
        (state.phase == state::Phase::Over).then(|| outcome_of(&self.sc, state))
    }

    fn view(&self, state: &State, _seat: Option<Seat>) -> serde_json::Value {
        let sc = &self.sc;
        let mut v = serde_json::to_value(state).unwrap_or(serde_json::Value::Null);
        if let Some(o) = v.as_object_mut() {
            // 23.2b, A63: the CR a side commits before the army morale roll is not shown until
            // both have committed.
            if let Some(serde_json::Value::Array(armies)) = o.get_mut("armies") {
                for a in armies.iter_mut() {
                    if let Some(a) = a.as_object_mut() {
                        a.remove("pending_spend");
                    }
                }
            }
            o.remove("dice");
            // For the page (docs/web.md, "BAR"): every hex as the board labels it (1.3c), the
            // facing's name, the procedure for people and each army's Current Loss Total (23.1).
            let label = |h: &hexmap::HexId| serde_json::Value::from(sc.board.label(*h));
            if let Some(serde_json::Value::Array(us)) = o.get_mut("units") {
                for (u, s) in us.iter_mut().zip(&state.units) {
                    if let Some(u) = u.as_object_mut() {
                        u.insert("at".into(), s.hexes.iter().map(label).collect());
                        u.insert("face".into(), s.facing.name().into());
                        u.insert("entry_at".into(), s.entry.as_ref().map(label).into());
                    }
                }
            }
            if let Some(serde_json::Value::Array(ls)) = o.get_mut("leaders") {
                for (l, s) in ls.iter_mut().zip(&state.leaders) {
                    if let Some(l) = l.as_object_mut() {
                        l.insert("at".into(), s.hex.as_ref().map(label).into());
                    }
                }
            }
            o.insert("phase_text".into(), phase_text(sc, state).into());
            o.insert(
                "clt".into(),
                serde_json::json!([
                    army_morale::clt_total(sc, state, 0),
                    army_morale::clt_total(sc, state, 1)
                ]),
            );
            o.insert("clock".into(), sc.clock(state.turn).into());
            o.insert("ruleset".into(), "bar".into());
        }
        v
    }

    fn render_text(&self, state: &State, _seat: Option<Seat>) -> String {
        let sc = &self.sc;
        let mut out = format!(
            "{} — turn {} ({}), END TURN box {} of {}: {}\n",
            sc.name,
            state.turn,
            sc.clock(state.turn),
            state.end_box,
            sc.end_boxes,
            phase_text(sc, state)
        );
        for side in 0..2u8 {
            out += &format!(
                "{}: army morale {}, CLT {}\n",
                sc.armies[usize::from(side)].name,
                state.armies[usize::from(side)].morale,
                army_morale::clt_total(sc, state, side)
            );
            for (i, u) in sc.units.iter().enumerate() {
                let s = &state.units[i];
                if u.side != side || s.eliminated || s.hexes.is_empty() {
                    continue;
                }
                let mut flags = Vec::new();
                if s.disordered {
                    flags.push("disordered");
                }
                if s.shaken {
                    flags.push("shaken");
                }
                if s.routed {
                    flags.push("routed");
                }
                if s.activated {
                    flags.push("activated");
                }
                out += &format!(
                    "  {} [{}] {} SP {}/{} {} facing {} {}\n",
                    u.name,
                    u.id,
                    s.hexes
                        .iter()
                        .map(|h| sc.board.label(*h))
                        .collect::<Vec<_>>()
                        .join("-"),
                    u.sp - s.lost,
                    u.sp,
                    s.formation.name(),
                    s.facing.name(),
                    flags.join(" ")
                );
            }
        }
        out
    }

    fn check_invariants(&self, state: &State) -> Vec<String> {
        let sc = &self.sc;
        let mut bad = Vec::new();
        for (i, u) in state.units.iter().enumerate() {
            let name = &sc.units[i].name;
            if u.eliminated && !u.hexes.is_empty() {
                bad.push(format!("{name}: eliminated but on the map"));
            }
            if u.lost > sc.units[i].sp || (!u.eliminated && u.lost >= sc.units[i].sp) {
                bad.push(format!("{name}: {} SP lost of {}", u.lost, sc.units[i].sp));
            }
            // 19.7e: a multi-hex stack about to rout holds its hexes until its owner picks one.
            let picking = matches!(&state.phase, state::Phase::RoutHex { units, .. } if units.contains(&(i as scenario::UnitIx)));
            if u.routed && u.hexes.len() > 1 && !u.eliminated && !picking {
                bad.push(format!(
                    "{name}: routed over {} hexes (19.7e)",
                    u.hexes.len()
                ));
            }
            if u.hexes.iter().any(|h| !sc.board.contains(*h)) {
                bad.push(format!("{name}: off the board"));
            }
            // 8.5: a parent and its components are never on the map at the same time.
            if let Some(p) = sc.units[i].parent
                && state.on_map(i as scenario::UnitIx)
                && state.on_map(p)
            {
                bad.push(format!(
                    "{name}: on the map with its parent {} (8.5)",
                    sc.units[usize::from(p)].name
                ));
            }
            // 12.2c: a target fired on at most once by infantry and once by artillery a phase.
            for p in std::iter::once(&state.phase).chain(state.stack.iter()) {
                if let state::Phase::Fire(f) = p {
                    for kind in [false, true] {
                        let n = f
                            .targeted
                            .iter()
                            .filter(|t| **t == (i as u16, kind))
                            .count();
                        if n > 1 {
                            bad.push(format!(
                                "{name}: fired on {n} times by the same type (12.2c)"
                            ));
                        }
                    }
                }
            }
            if u.facing.name().is_empty()
                || u.formation.faces_hexside() != matches!(u.facing, geom::Facing::Side(_))
                    && !u.hexes.is_empty()
            {
                bad.push(format!(
                    "{name}: a {} facing a {}",
                    u.formation.name(),
                    if matches!(u.facing, geom::Facing::Side(_)) {
                        "hexside"
                    } else {
                        "hexpoint"
                    }
                ));
            }
        }
        // Footprints (C6, 8.1, 9.4) and stacks at rest (10.1c–f): the units of a stack on the
        // move are checked when it stops.
        let mut moving: Vec<u16> = match &state.phase {
            state::Phase::Moving(m) => m.units.clone(),
            state::Phase::Reaction { mover, .. } => mover.units.clone(),
            _ => Vec::new(),
        };
        // pursuit (16) / opportunity charge (17): a move interrupted by an opportunity charge.
        moving.extend(opportunity_charge::movers_in(state));
        if let state::Phase::Moving(m) | state::Phase::Reaction { mover: m, .. } = &state.phase
            && m.left > m.ma
        {
            bad.push(format!("MP left {} above the phase's MA {}", m.left, m.ma));
        }
        for (i, u) in state.units.iter().enumerate() {
            if u.hexes.is_empty() || u.eliminated {
                continue;
            }
            let name = &sc.units[i].name;
            if let Some(p) = movement::footprint_problem(state, i as u16) {
                bad.push(format!("{name}: {p}"));
            }
            let len = u.hexes.len();
            let max = match u.formation {
                geom::Formation::Line
                | geom::Formation::HookLeft
                | geom::Formation::HookRight
                | geom::Formation::MarchColumn => 3,
                geom::Formation::RoadColumn => usize::MAX,
                _ => 1,
            };
            if len > max {
                bad.push(format!("{name}: a {} over {len} hexes", u.formation.name()));
            }
            if moving.contains(&(i as u16)) {
                continue;
            }
            if !movement::at_rest_straight(u) {
                bad.push(format!("{name}: a bent march column at rest (9.4)"));
            }
            // 8.1a, 8.1d, 8.1f: a stack at rest as long as its SPs allow (checked once, on its
            // first unit), in a box with its Infantry Line SP chart (T5; the package-1 test box
            // has none, so its lines' lengths are geometry only).
            let stack: Vec<scenario::UnitIx> = state
                .units
                .iter()
                .enumerate()
                .filter(|(j, v)| {
                    !v.eliminated
                        && !v.routed
                        && !moving.contains(&(*j as u16))
                        && v.hexes == u.hexes
                        && sc.units[*j].side == sc.units[i].side
                })
                .map(|(j, _)| j as scenario::UnitIx)
                .collect();
            if !u.routed
                && sc.charts.fire.is_some()
                && stack.first() == Some(&(i as scenario::UnitIx))
                && !is_mid_procedure(state)
                && !combat_under_way(state)
                && !formation::lengths(sc, state, &stack, u.formation).contains(&len)
            {
                bad.push(format!(
                    "{name}: a {} of {} SP over {len} hex{} (8.1)",
                    u.formation.name(),
                    stack
                        .iter()
                        .map(|&v| u32::from(checks::current_sp(sc, state, v)))
                        .sum::<u32>(),
                    if len == 1 { "" } else { "es" }
                ));
            }
            for (j, v) in state.units.iter().enumerate().skip(i + 1) {
                if v.eliminated
                    || moving.contains(&(j as u16))
                    || !v.hexes.iter().any(|h| u.hexes.contains(h))
                    || ((u.routed || v.routed) && is_mid_procedure(state))
                {
                    continue;
                }
                if v.hexes != u.hexes {
                    bad.push(format!(
                        "{name} and {}: stacked without the same hexes (10.1d)",
                        sc.units[j].name
                    ));
                } else if !movement::compatible(u, v) {
                    bad.push(format!(
                        "{name} and {}: stacked in different facings or formations (10.1d–e)",
                        sc.units[j].name
                    ));
                }
            }
        }
        // No two sides in a hex.
        let occ = command::occupancy(state);
        for (h, us) in &occ {
            let sides: std::collections::BTreeSet<u8> =
                us.iter().map(|&u| sc.units[usize::from(u)].side).collect();
            if sides.len() > 1 {
                bad.push(format!("{h}: units of both armies"));
            }
            // A unit on the move may pass through routed friends (10.7a).
            let us: Vec<u16> = us.iter().copied().filter(|u| !moving.contains(u)).collect();
            let routed = us
                .iter()
                .filter(|&&u| state.units[usize::from(u)].routed)
                .count();
            if routed > 0 && routed < us.len() && !is_mid_procedure(state) {
                bad.push(format!("{h}: routed and unrouted units stacked (20.2c)"));
            }
        }
        // At rest, out of any procedure: every hex a legal stack (10.1b–f, 10.2–10.4, 10.6d–e,
        // 10.11).
        if !is_mid_procedure(state) {
            for (h, us) in &occ {
                // A routed unit is alone (20.2c, above), in no formation of the TEC (8.4k).
                if us
                    .iter()
                    .any(|&u| moving.contains(&u) || state.units[usize::from(u)].routed)
                {
                    continue;
                }
                // 10.1c binds at the end of movement: a routed stack that retreated into a
                // smaller hex (20.2c) and rallied there (19.5) may be over it until it moves
                // (docs/bar.md); movement's own stop (11.1, 10.13) checks it there.
                match stacking::legal_at(sc, state, *h) {
                    Ok(()) | Err(stacking::StackError::Limit { .. }) => {}
                    Err(e) => bad.push(e.to_string()),
                }
            }
        }
        for (i, l) in state.leaders.iter().enumerate() {
            if (l.status == state::LeaderStatus::Present) != l.hex.is_some() {
                bad.push(format!(
                    "{}: {:?} with hex {:?}",
                    sc.leaders[i].name, l.status, l.hex
                ));
            }
        }
        // close combat (13–15): each unit attacks or is attacked at most once a phase (13.6d).
        for p in state.stack.iter().chain(std::iter::once(&state.phase)) {
            if let state::Phase::CloseCombat(cc) | state::Phase::CcDecision(cc) = p
                && let Some(u) = close_combat::twice_engaged(cc)
            {
                bad.push(format!(
                    "{}: in two close combats of one phase (13.6d)",
                    sc.units[usize::from(u)].name
                ));
            }
            // charges (13.3–13.5, 13.8)
            if let state::Phase::CloseCombat(cc) | state::Phase::CcDecision(cc) = p {
                bad.extend(close_combat::charge::problems(sc, state, cc));
            }
        }
        if state.end_box > sc.end_boxes {
            bad.push(format!(
                "END TURN box {} past End {}",
                state.end_box, sc.end_boxes
            ));
        }
        if state.turn == 0 || state.turn > sc.turns {
            bad.push(format!("turn {} outside 1–{}", state.turn, sc.turns));
        }
        if !flow::is_decision(&state.phase) {
            bad.push(format!(
                "stopped in a phase that is not a decision: {:?}",
                state.phase
            ));
        }
        if state.phase != state::Phase::Over && flow::legal(sc, state).is_empty() {
            bad.push(format!(
                "a decision without legal actions: {:?}",
                state.phase
            ));
        }
        bad
    }

    fn board(&self) -> serde_json::Value {
        use serde_json::json;
        let sc = &self.sc;
        let mut ids: Vec<&hexmap::HexId> = sc.board.hexes.keys().collect();
        ids.sort();
        let hexes: Vec<serde_json::Value> = ids
            .iter()
            .map(|h| {
                let i = &sc.board.hexes[*h];
                let (x, y) = h.centre();
                json!({"id": sc.board.label(**h), "terrain": i.terrain, "level": i.level, "x": x, "y": y})
            })
            .collect();
        let mut sides: Vec<_> = sc.board.hexsides.iter().collect();
        sides.sort();
        let hexsides: Vec<serde_json::Value> = sides
            .iter()
            .map(|((a, b), f)| json!({"between": [sc.board.label(*a), sc.board.label(*b)], "feature": f}))
            .collect();
        let roads: Vec<serde_json::Value> = sc
            .board
            .roads
            .iter()
            .map(|(a, b)| json!([sc.board.label(*a), sc.board.label(*b)]))
            .collect();
        let units: Vec<serde_json::Value> = sc
            .units
            .iter()
            .map(|u| {
                json!({
                    "id": u.id, "name": u.name, "side": sc.armies[usize::from(u.side)].name,
                    "arm": u.arm, "sub": u.sub, "sp": u.sp, "er": u.er, "cv": u.cv, "ma": u.ma,
                    "brigade": u.brigade.map(|b| sc.brigades[usize::from(b)].id.clone()),
                    "regiment": u.regiment,
                })
            })
            .collect();
        let leaders: Vec<serde_json::Value> = sc
            .leaders
            .iter()
            .map(|l| {
                json!({
                    "id": l.id, "name": l.name, "side": sc.armies[usize::from(l.side)].name,
                    "kind": l.kind, "range": l.range, "initiative": l.initiative,
                    "er_bonus": l.er_bonus, "cv_bonus": l.cv_bonus, "cr": l.cr, "wan": l.wan,
                    "brigade": l.brigade.map(|b| sc.brigades[usize::from(b)].id.clone()),
                    "wing": l.wing.map(|w| sc.wings[usize::from(w)].id.clone()),
                })
            })
            .collect();
        json!({
            "kind": "hex",
            "name": sc.name,
            "map": {"hexes": hexes, "hexsides": hexsides, "roads": roads,
                    "places": sc.board.places.iter().map(|(n, h)| json!({"name": n, "hex": sc.board.label(*h)})).collect::<Vec<_>>()},
            "units": units,
            "leaders": leaders,
            "brigades": sc.brigades.iter().map(|b| json!({"id": b.id, "name": b.name, "side": sc.armies[usize::from(b.side)].name})).collect::<Vec<_>>(),
            "wings": sc.wings.iter().map(|w| json!({"id": w.id, "name": w.name})).collect::<Vec<_>>(),
            // For the page: the turn track and its clock, the END TURN track (6.7a), the objective
            // places (the scenario's victory, C9) and how much of the data is reconstructed.
            "armies": sc.armies.iter().map(|a| json!({"id": a.id, "name": a.name})).collect::<Vec<_>>(),
            "turns": sc.turns,
            "clocks": (1..=sc.turns).map(|t| sc.clock(t)).collect::<Vec<_>>(),
            "etn": sc.etn,
            "end_boxes": sc.end_boxes,
            "objectives": sc.objectives.iter().map(|o| json!({"name": o.name, "hex": sc.board.label(o.hex), "points": o.points})).collect::<Vec<_>>(),
            "provenance": {"sourced": sc.provenance.0, "reconstructed": sc.provenance.1},
        })
    }

    fn validate_state(&self, state: &State) -> Vec<String> {
        let sc = &self.sc;
        let mut bad = Vec::new();
        if !state.loaded.is_empty() {
            bad.push("a saved game may not carry loaded dice".to_string());
        }
        if state.units.len() != sc.units.len()
            || state.leaders.len() != sc.leaders.len()
            || state.brigades.len() != sc.brigades.len()
        {
            bad.push(format!(
                "the state has {} units, {} leaders and {} brigades; {} has {}, {} and {}",
                state.units.len(),
                state.leaders.len(),
                state.brigades.len(),
                sc.id,
                sc.units.len(),
                sc.leaders.len(),
                sc.brigades.len()
            ));
        }
        bad
    }

    fn outcome_levels(&self) -> Vec<(String, String)> {
        let mut v: Vec<(String, String)> = Vec::new();
        for level in self
            .sc
            .victory
            .iter()
            .map(|v| v.level.clone())
            .chain(["Draw".into()])
        {
            if !v.iter().any(|(l, _)| *l == level) {
                v.push((level, VICTORY_RULE.into()));
            }
        }
        v
    }
}

/// What the procedure waits for, for people.
pub fn phase_text(sc: &Scenario, st: &State) -> String {
    use state::Phase as P;
    let army = |s: &u8| sc.armies[usize::from(*s)].name.clone();
    let who = flow::decider(sc, st).map(|s| army(&s)).unwrap_or_default();
    match &st.phase {
        P::ArmyMoraleSpend { side } => format!(
            "army morale (23.2b): {} decides the CR to spend",
            army(side)
        ),
        P::InitiativeChoice { side, wing } => format!(
            "{} won the initiative (6.1a) and chooses{}",
            army(side),
            if *wing {
                ", a wing activation allowed (6.5a)"
            } else {
                ""
            }
        ),
        P::ChooseBrigade { side } => format!("{} activates a brigade (6.1a)", army(side)),
        P::WingBrigades { wing, .. } => format!(
            "{who}: brigades joining the wing activation of {} (6.5c)",
            sc.wings[usize::from(*wing)].name
        ),
        P::PlaceLeader { leader } => format!(
            "{who} places {} (21.5e)",
            sc.leaders[usize::from(*leader)].name
        ),
        P::CommandControl => format!("{who}: command control declarations (6.4, 6.6)"),
        P::RoutStep { .. } => format!("{who}: the next hex of a rout retreat (20.2g)"),
        P::AllocateLoss { .. } => format!("{who}: which unit takes a retreat loss (19.7d)"),
        P::RallyFacing { unit } => format!(
            "{who}: the facing of {}, rallied (19.5e)",
            sc.units[usize::from(*unit)].name
        ),
        P::LineFacing { unit } => format!(
            "{who}: the facing of {}, a one-hex line since its square fell below 3 SP (8.4g)",
            sc.units[usize::from(*unit)].name
        ),
        P::Reintegrate { detachment, .. } => format!(
            "{who}: reintegrate {}? (24.3a)",
            sc.detachments[usize::from(*detachment)].name
        ),
        P::Over => "the game is over".into(),
        P::Fire(f) => match (&f.ret, &f.decl) {
            (Some(_), _) => format!("{who}: return fire or not (12.10)"),
            (None, Some(d)) => format!(
                "{who}: {} fire at {} — add firing hexes, then resolve (12.1, 12.2d)",
                if d.artillery { "artillery" } else { "infantry" },
                sc.units[usize::from(d.target)].name
            ),
            (None, None) => format!("{who}: fire phase — declare a fire or end the phase (12.1)"),
        },
        P::Movement => {
            format!("{who}: movement phase — which unit, stack or leader moves next (11.1)")
        }
        P::LeaderMoving { leader } => format!(
            "{who}: where {} moves (21.1a)",
            sc.leaders[usize::from(*leader)].name
        ),
        P::Moving(m) => format!(
            "{who}: {} moving, {} of {} MP left (11.1)",
            m.units
                .iter()
                .map(|&u| sc.units[usize::from(u)].name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            m.left,
            m.ma
        ),
        P::Reaction { mover, .. } => format!(
            "{}: may answer {}'s move with opportunity fire or a charge (12.8, 17.0)",
            army(&(1 - mover.side)),
            mover
                .units
                .iter()
                .map(|&u| sc.units[usize::from(u)].name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        // close combat (13–15)
        P::CcDecision(cc) => format!("{who}: {}", close_combat::decision_text(cc)),
        // pursuit (16) / opportunity charge (17)
        P::Pursuit(p) => format!("{who}: {}", pursuit::decision_text(p)),
        P::OppCharge(o) => format!("{who}: {}", opportunity_charge::decision_text(o)),
        other => format!("{other:?}"),
    }
}

/// Whether a close combat waits on the phase stack for a procedure within it (a loser's rout,
/// 14.6a, with its choice of the hex to keep, 19.7e): the losses of its rounds and special result
/// (14.2, 14.8b) contract the lines they no longer fill when the combat is over (12.9j, 11.5i;
/// `close_combat::resolve`), so until then a line may stand longer than its SPs allow.
fn combat_under_way(state: &State) -> bool {
    state
        .stack
        .iter()
        .any(|p| matches!(p, state::Phase::CloseCombat(_)))
}

/// Whether a rout retreat is under way (a routed stack passes through friends before it ends).
fn is_mid_procedure(state: &State) -> bool {
    matches!(
        state.phase,
        state::Phase::RoutStep { .. } | state::Phase::AllocateLoss { .. }
    ) || !state.jobs.is_empty()
}
