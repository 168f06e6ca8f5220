//! *Command & Control* (1975), the miniatures rules, on a virtual table: bases as rectangles in
//! centimetres and degrees (module [`geom`] on `glam`), the turn of pips per sector, movement,
//! musketry, artillery, melees, saving throws, morale, retreats, rally and victory points.
//!
//! Procedures run by themselves until a player must choose (the active player's sector, guns and
//! moves; the owner's retreat direction); every die roll is an [`Event`] naming its paragraph of the
//! rule text. Where the text is silent, `docs/minis.md` gives the decision taken and its reason.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod agent;
pub mod data;
pub mod geom;
mod moves;
mod rules;
pub mod state;
mod text;

pub use state::{Action, Event, State, Veer};

use data::{Kind, Order, RulesFile, ScenarioFile, TerrainKind, UnitDef};
use engine::{ApplyError, Outcome, Ruleset, Seat};
use geom::Rect;
use glam::DVec2;
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
    /// File under `scenarios/minis/`.
    pub file: &'static str,
}

/// Options where players of these rules disagree (docs/minis.md).
pub const OPTIONS: [&str; 3] = ["narrow-arc", "free-gun-fire", "two-hits-a-quarter"];

/// Every scenario of the ruleset.
pub fn catalogue() -> Vec<ScenarioInfo> {
    vec![
        ScenarioInfo {
            id: "minis-encounter",
            name: "Command & Control — an encounter in open country",
            options: OPTIONS.to_vec(),
            file: "encounter.toml",
        },
        ScenarioInfo {
            id: "minis-fontenoy",
            name: "Command & Control — Fontenoy 1745, the British column",
            options: OPTIONS.to_vec(),
            file: "fontenoy.toml",
        },
    ]
}

fn builtin(file: &str) -> Option<&'static str> {
    match file {
        "encounter.toml" => Some(include_str!("../../../scenarios/minis/encounter.toml")),
        "fontenoy.toml" => Some(include_str!("../../../scenarios/minis/fontenoy.toml")),
        "rules.toml" => Some(include_str!("../../../scenarios/minis/rules.toml")),
        _ => None,
    }
}

/// Options chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Arcs are 45° in all (22.5° either side) instead of 45° either side.
    pub narrow_arc: bool,
    /// Guns fire without spending a pip.
    pub free_gun_fire: bool,
    /// Two hits take a quarter of effectiveness instead of one.
    pub two_hits: bool,
}

/// A terrain piece on the table.
#[derive(Clone, Debug)]
pub struct Piece {
    /// Kind.
    pub kind: TerrainKind,
    /// Its rectangle.
    pub rect: Rect,
    /// Name.
    pub name: String,
}

/// A validated scenario.
#[derive(Clone, Debug)]
pub struct Scn {
    /// The file.
    pub file: ScenarioFile,
    /// The rule tables.
    pub rules: RulesFile,
    /// Terrain.
    pub terrain: Vec<Piece>,
    /// The circumscribed radius of the largest base of the tables (a broad phase).
    pub max_radius: f64,
}

/// The ruleset bound to a scenario.
#[derive(Clone, Debug)]
pub struct Minis {
    /// The scenario.
    pub sc: Arc<Scn>,
    /// Options.
    pub opts: Options,
    id: String,
}

impl Minis {
    /// Load a catalogue scenario (built in, or from `dir/minis/`), with options.
    pub fn load(
        scenario: &str,
        options: &[String],
        dir: Option<&std::path::Path>,
    ) -> Result<Minis, Vec<String>> {
        let info = catalogue()
            .into_iter()
            .find(|i| i.id == scenario)
            .ok_or_else(|| vec![format!("unknown scenario {scenario:?}")])?;
        let read = |f: &str| -> Result<String, Vec<String>> {
            match dir {
                None => builtin(f)
                    .map(str::to_string)
                    .ok_or_else(|| vec![format!("no built-in {f}")]),
                Some(d) => {
                    let p = d.join("minis").join(f);
                    std::fs::read_to_string(&p).map_err(|e| vec![format!("{}: {e}", p.display())])
                }
            }
        };
        let text = read(info.file)?;
        let rules = read("rules.toml")?;
        let mut opts = Options::default();
        for o in options {
            match o.as_str() {
                "narrow-arc" => opts.narrow_arc = true,
                "free-gun-fire" => opts.free_gun_fire = true,
                "two-hits-a-quarter" => opts.two_hits = true,
                other => {
                    return Err(vec![format!(
                        "unknown option {other:?} for {scenario} (known: {})",
                        OPTIONS.join(", ")
                    )]);
                }
            }
        }
        let mut m = Minis::from_text(&text, &rules, opts)?;
        m.id = scenario.to_string();
        Ok(m)
    }

    /// A ruleset from scenario and rule-table text; every problem found.
    pub fn from_text(scenario: &str, rules: &str, opts: Options) -> Result<Minis, Vec<String>> {
        let (file, rules) = data::parse(scenario, rules)?;
        let terrain = file
            .terrain
            .iter()
            .map(|t| Piece {
                kind: t.kind,
                // `w` runs along x and `h` along y before the piece is turned by `angle`
                // (docs/minis.md G6); a `Rect` measures its width across its facing.
                rect: Rect::new(DVec2::new(t.x, t.y), t.angle + 90.0, t.w, t.h),
                name: t.name.clone(),
            })
            .collect();
        let id = file.scenario.id.clone();
        let max_radius = rules
            .bases
            .all()
            .iter()
            .map(|[w, d]| (w * w + d * d).sqrt() / 2.0)
            .fold(0.0, f64::max);
        let m = Minis {
            sc: Arc::new(Scn {
                file,
                rules,
                terrain,
                max_radius,
            }),
            opts,
            id,
        };
        let st = m.initial_state(0);
        let bad = m.check_invariants(&st);
        if bad.is_empty() { Ok(m) } else { Err(bad) }
    }

    /// A validation report: provenance counts.
    pub fn validation_report(&self) -> (bool, String) {
        let f = &self.sc.file;
        let mut src = 0;
        let mut rec = 0;
        let mut count = |s: &Option<String>, r: &Option<String>| {
            if s.is_some() {
                src += 1;
            }
            if r.is_some() {
                rec += 1;
            }
        };
        count(&f.scenario.source, &f.scenario.reconstructed);
        for t in &f.terrain {
            count(&t.source, &t.reconstructed);
        }
        for u in &f.units {
            count(&u.source, &u.reconstructed);
        }
        for g in &f.generals {
            count(&g.source, &g.reconstructed);
        }
        let pts = self.start_points();
        (
            true,
            format!(
                "{}: {} units, {} generals, {} terrain pieces; points {} / {}; provenance: {src} from a source, {rec} reconstructed\n",
                f.scenario.name,
                f.units.len(),
                f.generals.len(),
                f.terrain.len(),
                pts[0],
                pts[1]
            ),
        )
    }

    pub(crate) fn def(&self, i: usize) -> &UnitDef {
        &self.sc.file.units[i]
    }

    pub(crate) fn name(&self, i: usize) -> &str {
        &self.sc.file.units[i].name
    }

    pub(crate) fn side(&self, i: usize) -> u8 {
        self.sc.file.units[i].side
    }

    /// Base size of a unit in an order (width, depth).
    pub fn size(&self, kind: Kind, order: Order) -> [f64; 2] {
        let b = &self.sc.rules.bases;
        match (kind, order) {
            (Kind::Foot, Order::Firing) => b.foot_line,
            (Kind::Foot, _) => b.foot_column,
            (Kind::LightFoot, _) => b.light_foot,
            (Kind::Gun, Order::Limbered) => b.gun_limbered,
            (Kind::Gun, _) => b.gun,
            (Kind::HeavyHorse | Kind::Lancers | Kind::LightHorse, Order::Dismounted) => {
                b.horse_dismounted
            }
            (Kind::HeavyHorse | Kind::Lancers | Kind::LightHorse, _) => b.horse,
        }
    }

    /// The base of unit `i` placed at `c` facing `facing` in `order`.
    pub fn rect_at(&self, i: usize, c: DVec2, facing: f64, order: Order) -> Rect {
        let [w, d] = self.size(self.def(i).kind, order);
        Rect::new(c, facing, w, d)
    }

    /// The base of unit `i` now.
    pub fn rect(&self, st: &State, i: usize) -> Rect {
        let u = &st.units[i];
        self.rect_at(i, DVec2::new(u.x, u.y), u.facing, u.order)
    }

    /// Movement rate of unit `i` in `order` (Movement).
    pub fn rate(&self, i: usize, order: Order) -> f64 {
        let m = &self.sc.rules.moves;
        match (self.def(i).kind, order) {
            (Kind::Foot, Order::Firing) => m.foot_firing,
            (Kind::Foot | Kind::LightFoot, _) => m.foot_other,
            (Kind::Gun, Order::Limbered) => m.guns_limbered,
            (Kind::Gun, _) => 0.0,
            (Kind::HeavyHorse | Kind::Lancers | Kind::LightHorse, Order::Dismounted) => {
                m.foot_other
            }
            (Kind::HeavyHorse, _) => m.heavy_horse,
            (Kind::Lancers | Kind::LightHorse, _) => m.light_horse,
        }
    }

    /// Foot, where the rule text names foot: regular and light foot, and horse dismounted (they
    /// move and fight as foot, docs/minis.md M1, C1, R2).
    pub fn is_foot(&self, st: &State, i: usize) -> bool {
        matches!(self.def(i).kind, Kind::Foot | Kind::LightFoot)
            || st.units[i].order == Order::Dismounted
    }

    /// Horse on their horses.
    pub fn is_mounted(&self, st: &State, i: usize) -> bool {
        self.def(i).kind.is_horse() && !self.is_foot(st, i)
    }

    /// Half the firing arc in degrees (option `narrow-arc`).
    pub fn half_arc(&self) -> f64 {
        if self.opts.narrow_arc { 22.5 } else { 45.0 }
    }

    /// The terrain pieces of a kind containing a point.
    pub(crate) fn piece_at(&self, p: DVec2, kinds: &[TerrainKind]) -> Option<usize> {
        self.sc
            .terrain
            .iter()
            .position(|t| kinds.contains(&t.kind) && t.rect.contains(p))
    }

    /// Difficult going (woods, built-up areas, field works, rivers): each cm counts double.
    pub(crate) fn rough(&self, p: DVec2) -> bool {
        self.piece_at(
            p,
            &[
                TerrainKind::Woods,
                TerrainKind::Town,
                TerrainKind::Redoubt,
                TerrainKind::River,
            ],
        )
        .is_some()
    }

    /// Behind cover (Saving throws): the unit's centre in woods, a built-up area or field works.
    pub fn in_cover(&self, st: &State, i: usize) -> bool {
        let u = &st.units[i];
        self.piece_at(
            DVec2::new(u.x, u.y),
            &[TerrainKind::Woods, TerrainKind::Town, TerrainKind::Redoubt],
        )
        .is_some()
    }

    /// Live unit indices.
    pub(crate) fn live<'a>(&self, st: &'a State) -> impl Iterator<Item = usize> + use<'a> {
        st.units
            .iter()
            .enumerate()
            .filter(|(_, u)| !u.gone)
            .map(|(i, _)| i)
    }

    /// Victory points of a unit (Victory).
    pub fn unit_points(&self, i: usize) -> u32 {
        match self.def(i).kind {
            Kind::Foot | Kind::LightFoot => 2,
            Kind::HeavyHorse | Kind::Lancers | Kind::LightHorse | Kind::Gun => 1,
        }
    }

    /// Starting points per side.
    pub fn start_points(&self) -> [u32; 2] {
        let mut p = [0, 0];
        for (i, u) in self.sc.file.units.iter().enumerate() {
            p[usize::from(u.side & 1)] += self.unit_points(i);
        }
        for g in &self.sc.file.generals {
            p[usize::from(g.side & 1)] += 3;
        }
        p
    }

    /// Points still standing per side.
    pub fn points(&self, st: &State) -> [u32; 2] {
        let mut p = [0, 0];
        for i in self.live(st) {
            p[usize::from(self.side(i) & 1)] += self.unit_points(i);
        }
        for (gi, g) in st.generals.iter().enumerate() {
            if !g.gone {
                p[usize::from(self.sc.file.generals[gi].side & 1)] += 3;
            }
        }
        p
    }

    /// The state before the first roll.
    fn initial_state(&self, seed: u64) -> State {
        let units = self
            .sc
            .file
            .units
            .iter()
            .map(|u| state::Unit {
                x: u.x,
                y: u.y,
                facing: geom::norm_deg(u.facing),
                order: u.order.unwrap_or(data::default_order(u.kind)),
                eff: 4,
                hits: 0,
                retreating: false,
                gone: false,
                ph: state::PhaseFlags::default(),
            })
            .collect();
        let generals = self
            .sc
            .file
            .generals
            .iter()
            .map(|g| state::General {
                // Validated in data::parse: the unit exists.
                with: self
                    .sc
                    .file
                    .units
                    .iter()
                    .position(|u| u.id == g.with)
                    .unwrap_or(0),
                gone: false,
                moved: false,
            })
            .collect();
        State {
            turn: 1,
            active: self.sc.file.scenario.first,
            pips: [0; 3],
            sectors_done: [false; 3],
            sector: None,
            step: state::Step::TurnStart,
            units,
            generals,
            retreats: Vec::new(),
            shaken: Vec::new(),
            contacts: Vec::new(),
            over: None,
            dice: engine::Dice::new(seed),
        }
    }

    /// The unit index of an id.
    pub fn unit_index(&self, id: &str) -> Option<usize> {
        self.sc.file.units.iter().position(|u| u.id == id)
    }
}

/// Round every position, facing and distance used to a multiple of 1/1024: such numbers are
/// written and read back exactly by JSON, so a saved game equals the game (docs/minis.md G3).
fn settle(st: &mut State) {
    let q = |v: &mut f64| *v = (*v * 1024.0).round() / 1024.0;
    for u in st.units.iter_mut() {
        q(&mut u.x);
        q(&mut u.y);
        q(&mut u.facing);
        u.facing = geom::norm_deg(u.facing);
        q(&mut u.ph.used);
    }
}

impl Ruleset for Minis {
    type State = State;
    type Action = Action;
    type Event = Event;

    fn ruleset_id(&self) -> &str {
        "minis"
    }
    fn scenario_id(&self) -> &str {
        &self.id
    }
    fn seat_name(&self, seat: Seat) -> &str {
        &self.sc.file.scenario.sides[usize::from(seat.0 & 1)]
    }
    fn start(&self, seed: u64, events: &mut Vec<Event>) -> State {
        let mut st = self.initial_state(seed);
        settle(&mut st);
        self.run(&mut st, events);
        st
    }
    fn decider(&self, st: &State) -> Option<Seat> {
        if st.over.is_some() {
            return None;
        }
        if let Some(r) = st.retreats.first() {
            return Some(Seat(self.side(r.unit)));
        }
        Some(Seat(st.active))
    }
    fn legal_actions(&self, st: &State) -> Vec<Action> {
        self.menu(st)
    }
    fn action_id(&self, a: &Action) -> String {
        self.id_of(a)
    }
    fn action_label(&self, st: &State, a: &Action) -> String {
        self.label_of(st, a)
    }
    fn apply_legal(&self, st: &mut State, a: &Action, events: &mut Vec<Event>) {
        self.perform(st, a, events);
        self.run(st, events);
        settle(st);
    }
    fn outcome(&self, st: &State) -> Option<Outcome> {
        st.over.as_ref().map(|(w, level, rule)| Outcome {
            winner: w.map(Seat),
            level: level.clone(),
            rule: rule.clone(),
        })
    }
    fn view(&self, st: &State, _seat: Option<Seat>) -> serde_json::Value {
        self.view_json(st)
    }
    fn render_text(&self, st: &State, _seat: Option<Seat>) -> String {
        self.render(st)
    }
    fn check_invariants(&self, st: &State) -> Vec<String> {
        self.invariants(st)
    }
    fn board(&self) -> serde_json::Value {
        self.board_json()
    }
    fn outcome_levels(&self) -> Vec<(String, String)> {
        let s = &self.sc.file.scenario.sides;
        vec![
            (
                format!("{} victory: the {} army defeated", s[0], s[1]),
                "Victory".into(),
            ),
            (
                format!("{} victory: the {} army defeated", s[1], s[0]),
                "Victory".into(),
            ),
            (
                format!("{} victory on points at the turn limit", s[0]),
                "Victory (turn limit)".into(),
            ),
            (
                format!("{} victory on points at the turn limit", s[1]),
                "Victory (turn limit)".into(),
            ),
            (
                "Draw at the turn limit".into(),
                "Victory (turn limit)".into(),
            ),
        ]
    }
    fn dice<'s>(&self, st: &'s State) -> Option<&'s engine::Dice> {
        Some(&st.dice)
    }
    fn validate_state(&self, st: &State) -> Vec<String> {
        let mut bad = Vec::new();
        if st.units.len() != self.sc.file.units.len() {
            bad.push("the number of units does not fit the scenario".into());
        }
        if st.generals.len() != self.sc.file.generals.len() {
            bad.push("the number of generals does not fit the scenario".into());
        }
        if st
            .contacts
            .iter()
            .any(|&(x, y)| x >= st.units.len() || y >= st.units.len())
        {
            bad.push("a contact names no unit".into());
        }
        bad
    }
    /// Any valid continuous action is accepted, in the menu or not; a refused one says why and
    /// leaves the state untouched.
    fn apply_id(
        &self,
        st: &mut State,
        id: &str,
        events: &mut Vec<Event>,
    ) -> Result<(), ApplyError> {
        if self.decider(st).is_none() {
            return Err(ApplyError::GameOver);
        }
        let a = self
            .parse_id(id)
            .map_err(|why| ApplyError::Illegal(format!("{id} — {why}")))?;
        self.check(st, &a)
            .map_err(|why| ApplyError::Illegal(format!("{id} — {why}")))?;
        let mut next = st.clone();
        let mut evs = Vec::new();
        self.apply_legal(&mut next, &a, &mut evs);
        *st = next;
        events.extend(evs);
        Ok(())
    }
}

impl Minis {
    /// The invariants: bases never overlap and stay on the table, effectiveness within 0–4 and
    /// zero exactly when eliminated, generals with a live unit, pips within their dice.
    pub(crate) fn invariants(&self, st: &State) -> Vec<String> {
        let mut bad = Vec::new();
        if st.units.len() != self.sc.file.units.len()
            || st.generals.len() != self.sc.file.generals.len()
        {
            bad.push("the state does not fit the scenario".to_string());
            return bad;
        }
        let rects: Vec<(usize, Rect)> = self.live(st).map(|i| (i, self.rect(st, i))).collect();
        for (k, (i, a)) in rects.iter().enumerate() {
            if !self.on_table(a) {
                bad.push(format!("{} is off the table", self.name(*i)));
            }
            for (j, b) in &rects[k + 1..] {
                // Twice the moves' tolerance: positions are rounded to 1/1024 cm after each action.
                if a.penetration(b) > 2.0 * geom::OVERLAP_EPS {
                    bad.push(format!(
                        "{} and {} overlap by {:.2} cm",
                        self.name(*i),
                        self.name(*j),
                        a.penetration(b)
                    ));
                }
            }
        }
        for (i, u) in st.units.iter().enumerate() {
            if u.eff > 4 {
                bad.push(format!("{} has {} quarters", self.name(i), u.eff));
            }
            if u.gone != (u.eff == 0) {
                bad.push(format!("{}: eliminated iff no effectiveness", self.name(i)));
            }
            if !data::order_fits(self.def(i).kind, u.order, self.def(i).dragoons) {
                bad.push(format!(
                    "{}: order {:?} does not fit",
                    self.name(i),
                    u.order
                ));
            }
        }
        for (gi, g) in st.generals.iter().enumerate() {
            if g.with >= st.units.len() {
                bad.push(format!("general {gi} with no unit"));
            } else if !g.gone && st.units[g.with].gone {
                bad.push(format!(
                    "{} is with an eliminated unit",
                    self.sc.file.generals[gi].name
                ));
            } else if self.side(g.with) != self.sc.file.generals[gi].side {
                bad.push(format!(
                    "{} is with an enemy unit",
                    self.sc.file.generals[gi].name
                ));
            }
        }
        if st.pips[0] > 10 || st.pips[1] > 6 || st.pips[2] > 6 {
            bad.push("pips beyond their dice".to_string());
        }
        for r in &st.retreats {
            if r.unit >= st.units.len() || st.units[r.unit].gone {
                bad.push("a retreat of no live unit is pending".to_string());
            }
        }
        for &(x, y) in &st.contacts {
            if x >= st.units.len() || y >= st.units.len() || self.side(x) == self.side(y) {
                bad.push("a contact is not between enemies".to_string());
            }
        }
        bad
    }
}
