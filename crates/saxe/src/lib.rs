//! The French battle series — *Les victoires du Maréchal de Saxe* and *Hastenbeck 1757* — as a
//! tricorne ruleset. This crate implements the Hastenbeck edition; [`Edition`] names the rules that
//! differ from the Fontenoy/Lauffeld edition so that edition can be added beside it.
//!
//! Procedures run by themselves until a side must decide (see [`state::Frame`]); every die roll is an
//! [`event::Event`] with its rule number and modifiers.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod action;
pub mod ai_support;
mod combat;
pub mod data;
mod decide;
mod effects;
pub mod event;
mod flow;
mod freesetup;
mod policy;
pub mod query;
pub mod scenario;
mod setup_check;
pub mod state;
mod text;

use action::Action;
use engine::{Outcome, Ruleset, Seat};
use event::Event;
use scenario::{Scenario, Side};
use state::{Options, State};
use std::sync::Arc;

/// The edition of the series' rules. Where they differ, a named function cites both rule numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edition {
    /// *Les victoires du Maréchal de Saxe* (Fontenoy 1745, Lauffeld 1747): not yet implemented.
    FontenoyLauffeld,
    /// *Hastenbeck 1757*.
    Hastenbeck,
}

impl Edition {
    /// Maximum artillery range (Hastenbeck 9.1: the Artillery Table's range, 3 hexes;
    /// Fontenoy/Lauffeld 9.1: 2, 3 for 16 lb).
    pub fn artillery_range(self, calibre: u8, table_range: u8) -> u32 {
        match self {
            Edition::Hastenbeck => u32::from(table_range),
            Edition::FontenoyLauffeld => {
                if calibre >= 16 {
                    3
                } else {
                    2
                }
            }
        }
    }
    /// Whether attacks can be mandatory (Hastenbeck 10.1: yes in clear terrain; Fontenoy/Lauffeld 10.1: never).
    pub fn mandatory_attacks(self) -> bool {
        matches!(self, Edition::Hastenbeck)
    }
    /// A formation's demoralisation value from its initial steps: a third, rounded up (Hastenbeck
    /// 13.1) or to the nearest whole number (Fontenoy/Lauffeld 13.1: "redondeando al entero más
    /// cercano"; its example 29 → 10).
    pub fn demoralisation_value(self, steps: u32) -> u32 {
        match self {
            Edition::Hastenbeck => steps.div_ceil(3),
            Edition::FontenoyLauffeld => (steps + 1) / 3,
        }
    }
    /// 11.4: a commander whose units were eliminated entirely dies on 1–2 (Hastenbeck) or 1–3
    /// (Fontenoy/Lauffeld); after a step loss, on 1 in both.
    pub fn commander_casualty_limit(self, wiped: bool) -> i32 {
        match (self, wiped) {
            (_, false) => 1,
            (Edition::Hastenbeck, true) => 2,
            (Edition::FontenoyLauffeld, true) => 3,
        }
    }
    /// 13.1: formation-morale losses for a dead formation commander (Hastenbeck −1, F/L −2) and for
    /// a dead army commander (Hastenbeck −2, F/L −3, to every formation).
    pub fn commander_morale_losses(self) -> (u32, u32) {
        match self {
            Edition::Hastenbeck => (1, 2),
            Edition::FontenoyLauffeld => (2, 3),
        }
    }
    /// 13.1: a routed unit costs its formation -1 (Hastenbeck) or -1 per remaining step (F/L).
    pub fn routed_count_by_step(self) -> bool {
        matches!(self, Edition::FontenoyLauffeld)
    }
    /// 11.4: an aide de camp activates at the commander's value −1 (Hastenbeck); F/L 11.4 has no
    /// such penalty.
    pub fn aide_penalty(self) -> bool {
        matches!(self, Edition::Hastenbeck)
    }
    /// 8.6: how near an enemy must move for cavalry to react (Hastenbeck 2 hexes, F/L "a tres
    /// hexes": 3).
    pub fn reaction_distance(self) -> u32 {
        match self {
            Edition::Hastenbeck => 2,
            Edition::FontenoyLauffeld => 3,
        }
    }
    /// 4.B1: Hastenbeck rallies in the active player's own Rally Phase; F/L rallies both sides in
    /// the reorganisation phase C after both players (4.C, 12.2, 12.5).
    pub fn rally_in_own_phase(self) -> bool {
        matches!(self, Edition::Hastenbeck)
    }
    /// Where the army commander moves: F/L 4.B1 step 3 and 8.5 (during an activation, once per
    /// turn, before the formation commander); Hastenbeck 4.B5 (his own phase at the end of B).
    pub fn army_moves_in_activation(self) -> bool {
        matches!(self, Edition::FontenoyLauffeld)
    }
    /// 5.3: after a failed activation Hastenbeck lets a unit or stack and the formation commander
    /// move at half their MP; F/L lets no unit move and the formation commander move in full.
    pub fn failed_activation_half_moves(self) -> bool {
        matches!(self, Edition::Hastenbeck)
    }
    /// 6.4, 6.6: an out-of-command unit or a failed independent unit may turn one vertex
    /// (Hastenbeck); F/L 6.4/6.6 allow no movement at all.
    pub fn stranded_may_turn(self) -> bool {
        matches!(self, Edition::Hastenbeck)
    }
    /// 8.9, 9.5: F/L artillery that has fired once is in battery for the rest of the game (it may
    /// still turn and fire); Hastenbeck 8.1/8.8/9.1: it may not move in a turn it fired, nor fire
    /// after moving the previous turn.
    pub fn artillery_stays_in_battery(self) -> bool {
        matches!(self, Edition::FontenoyLauffeld)
    }
    /// 12.1, 11.1: F/L artillery that must test morale does so at 3, and combat and fire results
    /// apply to the whole stack, its guns included (docs/editions.md A15); Hastenbeck 9.5, 11.5:
    /// "an artillery unit never retreats nor routs", so its guns never test (`None`).
    pub fn artillery_morale(self) -> Option<i32> {
        match self {
            Edition::Hastenbeck => None,
            Edition::FontenoyLauffeld => Some(3),
        }
    }
    /// 1.3, 7.1: light infantry projects a ZoC into woods in Hastenbeck only.
    pub fn light_infantry_zoc_in_woods(self) -> bool {
        matches!(self, Edition::Hastenbeck)
    }
    /// 8.5: commanders move as cavalry (F/L) or at 1 MP per clear/trail hex and 2 elsewhere
    /// (Hastenbeck).
    pub fn commanders_move_as_cavalry(self) -> bool {
        matches!(self, Edition::FontenoyLauffeld)
    }
    /// 14.3: DRM against a deploying unit (Hastenbeck +2, F/L +1).
    pub fn deploying_drm(self) -> i32 {
        match self {
            Edition::Hastenbeck => 2,
            Edition::FontenoyLauffeld => 1,
        }
    }
    /// 10.3, 12.1: F/L uses the best morale of the units involved for every combat and morale
    /// test; Hastenbeck uses the top unit of a stack for combat and its results.
    pub fn best_morale_of_stack(self) -> bool {
        matches!(self, Edition::FontenoyLauffeld)
    }
    /// 10.3: the artillery DRM needs the enemy in the gun's fire arc (Hastenbeck); F/L gives it
    /// whenever a gun takes part.
    pub fn artillery_drm_needs_arc(self) -> bool {
        matches!(self, Edition::Hastenbeck)
    }
    /// 11.3: the winner's top unit or the whole stack may advance, but a defender not into an
    /// enemy ZoC (Hastenbeck); only the top unit, anywhere (F/L).
    pub fn advance_whole_stack(self) -> bool {
        matches!(self, Edition::Hastenbeck)
    }
    /// 11.3: a defender advancing after combat may not enter an enemy ZoC (Hastenbeck); F/L 11.3
    /// has no such exception.
    pub fn defender_advance_avoids_zoc(self) -> bool {
        matches!(self, Edition::Hastenbeck)
    }
    /// 10.3: F/L cavalry attacking a redoubt or a town hex has −2 of its own ("Una unidad de
    /// caballería atacando un reducto o contra un hex de ciudad tiene un DRM de -2"), beside the
    /// terrain's own modifier; Hastenbeck 10.3 has no such line (its example's −2 against a
    /// redoubt is the redoubt's terrain line, which every attacker has).
    pub fn cavalry_vs_town_or_redoubt(self) -> i32 {
        match self {
            Edition::Hastenbeck => 0,
            Edition::FontenoyLauffeld => -2,
        }
    }
    /// 13.2: an independent unit that has lost half its steps loses a point of morale (F/L only).
    pub fn independent_morale_at_half(self) -> bool {
        matches!(self, Edition::FontenoyLauffeld)
    }
    /// 13.1: in a demoralised formation a disorganised unit stays disorganised (F/L only).
    pub fn demoralised_stay_disorganised(self) -> bool {
        matches!(self, Edition::FontenoyLauffeld)
    }
    /// 11.1: the losses of a stack go top, second, top (Hastenbeck) or to the top unit until it
    /// is eliminated (F/L: "la unidad de arriba toma las pérdidas en primer lugar").
    pub fn losses_alternate(self) -> bool {
        matches!(self, Edition::Hastenbeck)
    }
    /// 10.3: F/L cavalry attacking disorganised normal infantry has +1 instead of −1 ("sin
    /// embargo"); Hastenbeck applies both lines (cumulative).
    pub fn cavalry_vs_disorganised_replaces(self) -> bool {
        matches!(self, Edition::FontenoyLauffeld)
    }
    /// 7.1: no move from an enemy ZoC into another, except an advance after combat (Hastenbeck
    /// 7.1); F/L 7.1 has no exception.
    pub fn advance_zoc_to_zoc(self) -> bool {
        matches!(self, Edition::Hastenbeck)
    }
    /// 9.6: an F/L redoubt fires through its four front hexes; a Hastenbeck redoubt through its
    /// two forward hexes (9.1 note).
    pub fn redoubt_fires_four_hexes(self) -> bool {
        matches!(self, Edition::FontenoyLauffeld)
    }
    /// 14.4 "Unit in column" (Hastenbeck, marked new): an independent unit may march in column.
    pub fn independent_columns(self) -> bool {
        matches!(self, Edition::Hastenbeck)
    }
    /// 4.B1 steps 4–5, "en este estricto orden": in F/L the formation commander moves before the
    /// unit action; in Hastenbeck in the order the player likes.
    pub fn officer_moves_first(self) -> bool {
        matches!(self, Edition::FontenoyLauffeld)
    }
    /// 11.5: a lone gun is destroyed when an enemy unit enters its hex (Hastenbeck, marked new) or
    /// when it is attacked (F/L): in F/L its hex is closed to movement and open to attack.
    pub fn lone_guns_destroyed_by_attack(self) -> bool {
        matches!(self, Edition::FontenoyLauffeld)
    }
    /// 3.1: F/L stacks at most two counters, a gun counting as one, and only one unit with a gun
    /// in a town, rough terrain or with a routed unit; Hastenbeck allows two units plus one gun,
    /// and one infantry (grenadiers excepted) with a gun in a village or redoubt.
    pub fn two_counters_with_guns(self) -> bool {
        matches!(self, Edition::FontenoyLauffeld)
    }
    /// 3.1: a unit joins a stack "from the rear hexes (or front hexes if it's a backward
    /// movement)" (Hastenbeck); F/L 3.1 asks only for the same facing. It matters for light
    /// units, which move in any direction (docs/rules-decisions.md 3.1).
    pub fn joins_stacks_from_rear_or_front(self) -> bool {
        matches!(self, Edition::Hastenbeck)
    }
    /// 3.5.2: a unit ending its move on a friend goes on top (F/L) or under it (Hastenbeck).
    pub fn arriving_unit_on_top(self) -> bool {
        matches!(self, Edition::FontenoyLauffeld)
    }
    /// The rule of the sequence of play that ends the turn and advances the turn marker:
    /// Hastenbeck 4.C "End of Turn"; F/L 4.D "Fin del turno" (its 4.C is the reorganisation phase).
    pub fn end_of_turn_rule(self) -> &'static str {
        match self {
            Edition::Hastenbeck => "4.C",
            Edition::FontenoyLauffeld => "4.D",
        }
    }
    /// Short id as in the scenario files.
    pub fn id(self) -> &'static str {
        match self {
            Edition::Hastenbeck => "hastenbeck",
            Edition::FontenoyLauffeld => "fontenoy-lauffeld",
        }
    }
}

/// A scenario the catalogue offers.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ScenarioInfo {
    /// Id for `tricorne new`.
    pub id: &'static str,
    /// Name.
    pub name: &'static str,
    /// Options it accepts.
    pub options: Vec<&'static str>,
    /// The battle (directory under `scenarios/`).
    pub battle: &'static str,
    /// The scenario file in that directory.
    pub file: &'static str,
}

/// Options of the Lauffeld scenarios (17.2 options 1, 2 and 5).
const LAUFFELD_OPTIONS: [&str; 4] = [
    "fortify-lauffeld",
    "fortify-both",
    "austrians-fight",
    "strict-activation",
];

/// Scenarios built in.
pub fn catalogue() -> Vec<ScenarioInfo> {
    let s = |id, name, options: &[&'static str], battle, file| ScenarioInfo {
        id,
        name,
        options: options.to_vec(),
        battle,
        file,
    };
    vec![
        s(
            "hastenbeck",
            "Hastenbeck 1757 — historical scenario (16.1)",
            &["perception", "armentieres-artillery"],
            "hastenbeck",
            "scenario.toml",
        ),
        s(
            "hastenbeck-free",
            "Hastenbeck 1757 — free set-up (16.2)",
            &["perception", "armentieres-artillery"],
            "hastenbeck",
            "free.toml",
        ),
        s(
            "fontenoy",
            "Fontenoy 1745 — historical scenario (16.1)",
            &["strict-activation"],
            "fontenoy",
            "scenario.toml",
        ),
        s(
            "fontenoy-surprise",
            "Fontenoy 1745 — Saxe caught off guard (17.1 option 1)",
            &["strict-activation"],
            "fontenoy",
            "alt1.toml",
        ),
        s(
            "fontenoy-free",
            "Fontenoy 1745 — the French deploy as they see fit (17.1 option 2)",
            &["strict-activation"],
            "fontenoy",
            "alt2.toml",
        ),
        s(
            "lauffeld",
            "Lauffeld 1747 — historical scenario (16.2)",
            &LAUFFELD_OPTIONS,
            "lauffeld",
            "scenario.toml",
        ),
        s(
            "lauffeld-french-arrive",
            "Lauffeld 1747 — the French army arrives (17.2 option 3)",
            &LAUFFELD_OPTIONS,
            "lauffeld",
            "alt3.toml",
        ),
        s(
            "lauffeld-both-arrive",
            "Lauffeld 1747 — both armies arrive (17.2 options 3 and 4)",
            &["austrians-fight", "strict-activation"],
            "lauffeld",
            "alt34.toml",
        ),
    ]
}

/// The built-in text of a data file (the repository's `scenarios/` at build time).
fn builtin(battle: &str, file: &str) -> Option<&'static str> {
    macro_rules! files {
        ($($b:literal / $f:literal),* $(,)?) => {
            match (battle, file) {
                $(($b, $f) => Some(include_str!(concat!("../../../scenarios/", $b, "/", $f))),)*
                _ => None,
            }
        };
    }
    files!(
        "hastenbeck" / "map.toml",
        "hastenbeck" / "oob.toml",
        "hastenbeck" / "tables.toml",
        "hastenbeck" / "scenario.toml",
        "hastenbeck" / "free.toml",
        "fontenoy" / "map.toml",
        "fontenoy" / "oob.toml",
        "fontenoy" / "tables.toml",
        "fontenoy" / "scenario.toml",
        "fontenoy" / "alt1.toml",
        "fontenoy" / "alt2.toml",
        "lauffeld" / "map.toml",
        "lauffeld" / "oob.toml",
        "lauffeld" / "tables.toml",
        "lauffeld" / "scenario.toml",
        "lauffeld" / "alt3.toml",
        "lauffeld" / "alt34.toml",
    )
}

/// The data files of a battle, built in (the repository's `scenarios/` at build time) or read from a
/// directory a player edited (`dir/<battle>/…`). A player's directory needs the map, the order of
/// battle and the tables; scenario files it lacks are simply not offered.
pub fn battle_files(
    battle: &str,
    dir: Option<&std::path::Path>,
) -> Result<data::BattleFiles, String> {
    let entries: Vec<ScenarioInfo> = catalogue()
        .into_iter()
        .filter(|i| i.battle == battle)
        .collect();
    if entries.is_empty() {
        return Err(format!("unknown battle {battle:?}"));
    }
    let read = |f: &str| -> Result<Option<String>, String> {
        match dir {
            None => Ok(builtin(battle, f).map(str::to_string)),
            Some(d) => {
                let p = d.join(battle).join(f);
                if !p.exists() {
                    return Ok(None);
                }
                std::fs::read_to_string(&p)
                    .map(Some)
                    .map_err(|e| format!("{}: {e}", p.display()))
            }
        }
    };
    let need = |f: &str| -> Result<String, String> {
        read(f)?.ok_or_else(|| match dir {
            None => format!("the built-in data of {battle} has no {f}"),
            Some(d) => format!("{}: missing", d.join(battle).join(f).display()),
        })
    };
    let mut scenarios = std::collections::BTreeMap::new();
    for e in &entries {
        if let Some(t) = read(e.file)? {
            scenarios.insert(e.id.to_string(), t);
        }
    }
    Ok(data::BattleFiles {
        map: need("map.toml")?,
        oob: need("oob.toml")?,
        tables: need("tables.toml")?,
        scenarios,
    })
}

/// Turn on the option named `o`; `false` if there is no such option.
fn set_option(opts: &mut Options, o: &str) -> bool {
    match o {
        "perception" => opts.perception = true,
        "armentieres-artillery" => opts.armentieres_artillery = true,
        "fortify-lauffeld" => opts.fortify_lauffeld = true,
        "fortify-both" => opts.fortify_both = true,
        "austrians-fight" => opts.austrians_fight = true,
        "strict-activation" => opts.strict_activation = true,
        _ => return false,
    }
    true
}

/// The ruleset bound to one scenario and its options.
#[derive(Clone, Debug)]
pub struct Saxe {
    /// The scenario.
    pub sc: Arc<Scenario>,
    /// Options.
    pub options: Options,
    /// Edition.
    pub edition: Edition,
}

impl Saxe {
    /// Load a scenario by id with options ("perception").
    pub fn load(
        scenario: &str,
        options: &[String],
        dir: Option<&std::path::Path>,
    ) -> Result<Saxe, Vec<String>> {
        let info = catalogue()
            .into_iter()
            .find(|i| i.id == scenario)
            .ok_or_else(|| {
                vec![format!(
                    "unknown scenario {scenario:?} (known: {})",
                    catalogue()
                        .iter()
                        .map(|i| i.id)
                        .collect::<Vec<_>>()
                        .join(", ")
                )]
            })?;
        let mut opts = Options::default();
        for o in options {
            if !info.options.contains(&o.as_str()) {
                return Err(vec![format!(
                    "unknown option {o:?} for {scenario} (known: {})",
                    if info.options.is_empty() {
                        "none".to_string()
                    } else {
                        info.options.join(", ")
                    }
                )]);
            }
            if !set_option(&mut opts, o) {
                return Err(vec![format!(
                    "unknown option {o:?} for {scenario} (known: {})",
                    info.options.join(", ")
                )]);
            }
        }
        // 17.2: options 1 and 2 are alternatives (one or both villages fortified).
        if opts.fortify_lauffeld && opts.fortify_both {
            return Err(vec![
                "options fortify-lauffeld (17.2 option 1) and fortify-both (option 2) exclude each other"
                    .to_string(),
            ]);
        }
        let files = battle_files(info.battle, dir).map_err(|e| vec![e])?;
        let sc = Scenario::build(&files, scenario)?;
        let edition = sc.edition;
        let rules = Saxe {
            sc: Arc::new(sc),
            options: opts,
            edition,
        };
        // 3.1–3.4: the set-up itself must be legal.
        let bad = rules.setup_problems(&rules.options);
        if !bad.is_empty() {
            return Err(bad);
        }
        Ok(rules)
    }

    /// The report of `tricorne validate`: the printed totals recomputed (13.1) and the provenance
    /// counts; `false` if a total differs or a datum is unmarked.
    pub fn validation_report(&self) -> (bool, String) {
        use std::fmt::Write;
        let sc = &self.sc;
        let mut ok = true;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{}: {} units, {} formations, {} commanders",
            sc.name,
            sc.units.len(),
            sc.formations.len(),
            sc.commanders.len()
        );
        let _ = writeln!(
            out,
            "Formation demoralisation (13.1: 1/3 of initial steps incl. guns, not redoubts, {}):",
            match self.edition {
                Edition::Hastenbeck => "rounded up",
                Edition::FontenoyLauffeld => "rounded to the nearest",
            }
        );
        for (name, steps, computed, printed) in sc.demoralisation_check() {
            let mark = if computed == printed { "ok" } else { "DIFFERS" };
            ok &= computed == printed;
            let _ = writeln!(
                out,
                "  {name:<14} steps {steps:>3} → {computed:>2}   printed {printed:>2}   {mark}"
            );
        }
        let p = &sc.provenance;
        let _ = writeln!(
            out,
            "Provenance: {} data from the rule book, {} reconstructed (with reasons), {} unmarked",
            p.from_book,
            p.reconstructed,
            p.unmarked.len()
        );
        for u in &p.unmarked {
            let _ = writeln!(out, "  unmarked: {u}");
        }
        ok &= p.unmarked.is_empty();
        // 3.1, 3.2: the set-up with each option (optional counters are placed only with theirs).
        let mut setup_ok = true;
        let options = catalogue()
            .into_iter()
            .find(|i| i.id == sc.id)
            .map(|i| i.options)
            .unwrap_or_default();
        for o in options {
            let mut opts = self.options.clone();
            if !set_option(&mut opts, o) {
                continue;
            }
            for b in self.setup_problems(&opts) {
                setup_ok = false;
                let _ = writeln!(out, "  set-up with option {o}: {b}");
            }
        }
        let _ = writeln!(
            out,
            "Set-up (3.1 stacking, 3.2 commanders), with each option: {}",
            if setup_ok { "ok" } else { "PROBLEMS above" }
        );
        ok &= setup_ok;
        (ok, out)
    }

    fn uid(&self, u: scenario::UnitIx) -> &str {
        &self.sc.units[usize::from(u)].id
    }
    fn cid(&self, c: scenario::CommanderIx) -> &str {
        &self.sc.commanders[usize::from(c)].id
    }
    fn fid(&self, f: scenario::FormationIx) -> &str {
        &self.sc.formations[usize::from(f)].id
    }
}

fn rot(cw: bool) -> &'static str {
    if cw { "cw" } else { "ccw" }
}

fn hexes(v: &[hexmap::HexId]) -> String {
    v.iter()
        .map(|h| h.to_string())
        .collect::<Vec<_>>()
        .join("+")
}

impl Ruleset for Saxe {
    type State = State;
    type Action = Action;
    type Event = Event;

    fn ruleset_id(&self) -> &str {
        "saxe"
    }
    fn scenario_id(&self) -> &str {
        &self.sc.id
    }
    fn seat_name(&self, seat: Seat) -> &str {
        Side::from_ix(seat.0).name()
    }
    fn start(&self, seed: u64, events: &mut Vec<Event>) -> State {
        self.initial_state(seed, self.options.clone(), events)
    }
    fn decider(&self, state: &State) -> Option<Seat> {
        self.decider_side(state).map(|s| Seat(s.ix() as u8))
    }
    fn legal_actions(&self, state: &State) -> Vec<Action> {
        self.legal(state)
    }
    fn action_id(&self, a: &Action) -> String {
        match a {
            Action::RedoubtFire { unit, target } => {
                format!("redoubt-fire:{}:{target}", self.uid(*unit))
            }
            Action::EndRedoubtFire => "end-redoubt-fire".into(),
            Action::Activate { formation } => format!("activate:{}", self.fid(*formation)),
            Action::ActivateAuto { formation } => format!("activate-auto:{}", self.fid(*formation)),
            Action::ActivateIndependent { unit } => {
                format!("activate-independent:{}", self.uid(*unit))
            }
            Action::ArtilleryFace { unit, clockwise } => {
                format!("art-face:{}:{}", self.uid(*unit), rot(*clockwise))
            }
            Action::ArtilleryFire { unit, target } => {
                format!("art-fire:{}:{target}", self.uid(*unit))
            }
            Action::CommanderStep {
                commander,
                to,
                with_army,
            } => {
                format!(
                    "commander-step:{}:{to}{}",
                    self.cid(*commander),
                    if *with_army { "+army" } else { "" }
                )
            }
            Action::Accompany { commander } => format!("accompany:{}", self.cid(*commander)),
            Action::StopAccompanying { commander } => {
                format!("stop-accompanying:{}", self.cid(*commander))
            }
            Action::ArmyWithStack => "army-with-stack".into(),
            Action::ChiefWithStack { commander } => {
                format!("chief-with-stack:{}", self.cid(*commander))
            }
            Action::CavalryLineReaction { unit } => {
                format!("cavalry-line-reaction:{}", self.uid(*unit))
            }
            Action::MoveUnit {
                unit,
                with_commander,
            } => format!(
                "move-unit:{}{}",
                self.uid(*unit),
                if *with_commander { "+commander" } else { "" }
            ),
            Action::MoveStack {
                hex,
                with_commander,
            } => format!(
                "move-stack:{hex}{}",
                if *with_commander { "+commander" } else { "" }
            ),
            Action::MoveLine { unit } => format!("move-line:{}", self.uid(*unit)),
            Action::TurnInPlace { unit, clockwise } => {
                format!("turn-in-place:{}:{}", self.uid(*unit), rot(*clockwise))
            }
            Action::EndActivation => "end-activation".into(),
            Action::Step { dir } => format!("step:{dir:?}"),
            Action::Turn { clockwise } => format!("turn:{}", rot(*clockwise)),
            Action::AboutFace => "about-face".into(),
            Action::ChangeOrder => "change-order".into(),
            Action::Drop { unit } => format!("drop:{}", self.uid(*unit)),
            Action::Pivot { pivot, clockwise } => {
                format!("pivot:{}:{}", self.uid(*pivot), rot(*clockwise))
            }
            Action::LeaveZoc { to, turn } => format!("leave-zoc:{to}:{turn}"),
            Action::Stop => "stop".into(),
            Action::ReactionFire { unit, target } => {
                format!("reaction-fire:{}:{target}", self.uid(*unit))
            }
            Action::CavalryReaction { unit } => format!("cavalry-reaction:{}", self.uid(*unit)),
            Action::Pass => "pass".into(),
            Action::Attack {
                attackers,
                defenders,
            } => format!("attack:{}>{}", hexes(attackers), hexes(defenders)),
            Action::EndCombat => "end-combat".into(),
            Action::Evade => "evade".into(),
            Action::AllocateLoss { hex } => format!("allocate-loss:{hex}"),
            Action::RetreatTo { to } => format!("retreat:{to}"),
            Action::Advance {
                from,
                to,
                whole_stack,
            } => format!(
                "advance:{from}>{to}{}",
                if *whole_stack { ":stack" } else { "" }
            ),
            Action::ArmyStep { to } => format!("army-step:{to}"),
            Action::EndArmyMove => "end-army-move".into(),
            Action::Promote { commander } => format!("promote:{}", self.cid(*commander)),
            Action::PlaceAide { unit } => format!("place-aide:{}", self.uid(*unit)),
            Action::PlaceUnit { unit, hex } => format!("place:{}:{hex}", self.uid(*unit)),
            Action::FaceUnit { facing } => format!("face:{facing:?}"),
            Action::PlaceAbattis { hex } => format!("abattis:{hex}"),
            Action::PlaceCommander { commander, hex } => {
                format!("place-commander:{}:{hex}", self.cid(*commander))
            }
            Action::SetUpOnMap { formation } => format!("set-up-on-map:{}", self.fid(*formation)),
            Action::EnterInColumn { formation, hex } => {
                format!("enter-in-column:{}:{hex}", self.fid(*formation))
            }
            Action::March { formation } => format!("march:{}", self.fid(*formation)),
            Action::Deploy { formation } => format!("deploy:{}", self.fid(*formation)),
            Action::ColumnUnit { unit } => format!("column-unit:{}", self.uid(*unit)),
            Action::EnterUnit { unit } => format!("enter:{}", self.uid(*unit)),
            Action::Reinforce { unit, hex } => format!("reinforce:{}:{hex}", self.uid(*unit)),
            Action::EndColumn => "end-column".into(),
            Action::IndependentColumn { unit } => format!("column-move:{}", self.uid(*unit)),
        }
    }
    fn action_label(&self, s: &State, a: &Action) -> String {
        self.label(s, a)
    }
    fn apply_legal(&self, state: &mut State, action: &Action, events: &mut Vec<Event>) {
        self.apply_action(state, action, events);
        self.run(state, events);
    }
    fn outcome(&self, state: &State) -> Option<Outcome> {
        state.result.as_ref().map(|(w, level, rule)| Outcome {
            winner: w.map(|s| Seat(s.ix() as u8)),
            level: level.clone(),
            rule: rule.clone(),
        })
    }
    fn view(&self, state: &State, seat: Option<Seat>) -> serde_json::Value {
        self.view_json(state, seat.map(|s| Side::from_ix(s.0)))
    }
    fn hides_information(&self) -> bool {
        true // 3.6
    }
    fn render_events(&self, events: &[Event], viewer: engine::Viewer) -> Vec<String> {
        event::render_events(events, viewer)
    }
    fn render_text(&self, state: &State, seat: Option<Seat>) -> String {
        self.render(state, seat.map(|s| Side::from_ix(s.0)))
    }
    fn check_invariants(&self, state: &State) -> Vec<String> {
        self.invariants(state)
    }
    fn board(&self) -> serde_json::Value {
        self.board_json()
    }
    fn hidden_from(&self, state: &State, seat: Seat) -> Vec<String> {
        self.hidden_names(state, Side::from_ix(seat.0))
    }
    fn public_view(&self, state: &State) -> serde_json::Value {
        self.public_view_json(state)
    }
    fn hidden_from_public(&self, state: &State) -> Vec<String> {
        self.hidden_from_public_names(state)
    }
    fn action_hexes(&self, state: &State, a: &Action) -> Vec<String> {
        self.hexes_of(state, a)
            .into_iter()
            .map(|h| h.to_string())
            .collect()
    }
    fn outcome_levels(&self) -> Vec<(String, String)> {
        if let Some(levels) = self.fl_outcome_levels() {
            return levels;
        }
        let mut v: Vec<(String, String)> = [
            ("Tremendous French victory", "15.1"),
            ("Tremendous French victory", "15.3"),
            ("Brilliant French victory", "15.2"),
            ("Brilliant French victory", "15.3"),
            ("Limited French victory", "15.2"),
            ("Limited French victory", "15.3"),
            ("Forfeited game", "15.2"),
            ("Limited Allied victory", "15.2"),
            ("Brilliant Allied victory", "15.2"),
            ("Tremendous Allied victory", "15.2"),
        ]
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
        if !self.options.perception {
            v.retain(|(_, r)| r != "15.3");
        }
        v
    }
    fn validate_state(&self, state: &State) -> Vec<String> {
        self.validate_loaded(state)
    }
    fn dice<'s>(&self, state: &'s State) -> Option<&'s engine::Dice> {
        Some(&state.dice)
    }
    fn odds(&self, state: &State, action: &Action) -> Option<serde_json::Value> {
        self.odds_json(state, action)
    }
    fn policy_answer(&self, state: &State, _seat: Seat, policy: &engine::Policy) -> Option<Action> {
        self.reaction_policy_answer(state, policy)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edition_differences_cite_both_books() {
        // 9.1: Hastenbeck 3 hexes (table); Fontenoy/Lauffeld 2, or 3 for 16 lb.
        assert_eq!(Edition::Hastenbeck.artillery_range(6, 3), 3);
        assert_eq!(Edition::FontenoyLauffeld.artillery_range(12, 3), 2);
        assert_eq!(Edition::FontenoyLauffeld.artillery_range(16, 3), 3);
        // 10.1: attacks are never mandatory in the earlier edition.
        assert!(Edition::Hastenbeck.mandatory_attacks());
        assert!(!Edition::FontenoyLauffeld.mandatory_attacks());
    }
}
