//! Scenario and rule-table files (TOML, every datum with its provenance) and their validation.
use serde::{Deserialize, Serialize};

/// Troop types of the rule text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Regular (close-order) foot: a battalion.
    Foot,
    /// Light foot.
    LightFoot,
    /// Heavy horse (cuirassiers, dragoons, carabiniers).
    HeavyHorse,
    /// Lancers (uhlans).
    Lancers,
    /// Light horse (hussars).
    LightHorse,
    /// A battery of guns.
    Gun,
}

impl Kind {
    /// Mounted troops.
    pub fn is_horse(self) -> bool {
        match self {
            Kind::HeavyHorse | Kind::Lancers | Kind::LightHorse => true,
            Kind::Foot | Kind::LightFoot | Kind::Gun => false,
        }
    }
}

/// Troop quality (Morale).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Quality {
    /// Elite: 3 or more.
    Elite,
    /// Regular: 4 or more.
    #[default]
    Regular,
    /// Poor: 5 or more.
    Poor,
}

/// The three sectors of an army (Command & Control).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "kebab-case")]
pub enum Sector {
    /// The centre: the d10.
    Centre,
    /// The right flank: the green d6.
    Right,
    /// The left flank: the red d6.
    Left,
}

impl Sector {
    /// All, in the order the dice are read.
    pub const ALL: [Sector; 3] = [Sector::Centre, Sector::Right, Sector::Left];
    /// Index into per-sector arrays.
    pub fn index(self) -> usize {
        match self {
            Sector::Centre => 0,
            Sector::Right => 1,
            Sector::Left => 2,
        }
    }
    /// Id as in action ids.
    pub fn id(self) -> &'static str {
        match self {
            Sector::Centre => "centre",
            Sector::Right => "right",
            Sector::Left => "left",
        }
    }
}

/// A unit's order (formation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Order {
    /// Foot in firing order (line): 6 cm.
    Firing,
    /// Foot not in firing order (column), light foot: 8 cm.
    Column,
    /// Horse mounted.
    Mounted,
    /// Horse dismounted: fights as foot.
    Dismounted,
    /// Guns limbered: 6 cm, cannot fire.
    Limbered,
    /// Guns unlimbered: may fire, cannot move.
    Unlimbered,
}

/// Terrain pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TerrainKind {
    /// Woods: cover, blocks sight, half speed.
    Woods,
    /// A built-up area (village, town): cover, blocks sight, half speed.
    Town,
    /// Field works (redoubt, entrenchment): cover, counts as a built-up area in melee.
    Redoubt,
    /// A river or stream: half speed; defending its bank gives a melee bonus.
    River,
    /// High ground: a melee bonus; does not block sight.
    Hill,
}

/// A terrain piece: an oriented rectangle.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainDef {
    /// Kind.
    pub kind: TerrainKind,
    /// Name.
    pub name: String,
    /// Centre x (cm).
    pub x: f64,
    /// Centre y (cm).
    pub y: f64,
    /// Width (cm).
    pub w: f64,
    /// Depth (cm).
    pub h: f64,
    /// Rotation (degrees).
    #[serde(default)]
    pub angle: f64,
    /// Provenance: from a source.
    pub source: Option<String>,
    /// Provenance: reconstructed, why.
    pub reconstructed: Option<String>,
}

/// A general.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneralDef {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Seat 0 or 1.
    pub side: u8,
    /// The unit he starts with.
    pub with: String,
    /// Provenance: from a source.
    pub source: Option<String>,
    /// Provenance: reconstructed, why.
    pub reconstructed: Option<String>,
}

/// A unit.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitDef {
    /// Id (action ids use it).
    pub id: String,
    /// Name.
    pub name: String,
    /// Seat 0 or 1.
    pub side: u8,
    /// Troop type.
    pub kind: Kind,
    /// Quality.
    #[serde(default)]
    pub quality: Quality,
    /// Sector.
    pub sector: Sector,
    /// Centre x (cm).
    pub x: f64,
    /// Centre y (cm).
    pub y: f64,
    /// Facing (degrees).
    pub facing: f64,
    /// Starting order (default: firing order, mounted, unlimbered).
    pub order: Option<Order>,
    /// Cuirassiers (saving throw 6).
    #[serde(default)]
    pub cuirassiers: bool,
    /// Dragoons: may dismount.
    #[serde(default)]
    pub dragoons: bool,
    /// Provenance: from a source.
    pub source: Option<String>,
    /// Provenance: reconstructed, why.
    pub reconstructed: Option<String>,
}

/// The scenario header.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// Scenario id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Seat names.
    pub sides: [String; 2],
    /// Table width and depth (cm).
    pub table: [f64; 2],
    /// The seat that moves first.
    #[serde(default)]
    pub first: u8,
    /// Turn limit (docs/minis.md: the game is then decided on the points lost).
    pub max_turns: u32,
    /// Provenance: from a source.
    pub source: Option<String>,
    /// Provenance: reconstructed, why.
    pub reconstructed: Option<String>,
}

/// A scenario file.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    /// Header.
    pub scenario: Header,
    /// Terrain pieces.
    #[serde(default)]
    pub terrain: Vec<TerrainDef>,
    /// Generals.
    #[serde(default)]
    pub generals: Vec<GeneralDef>,
    /// Units.
    pub units: Vec<UnitDef>,
}

/// A base size (width × depth, cm).
pub type Size = [f64; 2];

/// Base sizes (the text gives none).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bases {
    /// Foot in firing order.
    pub foot_line: Size,
    /// Foot not in firing order.
    pub foot_column: Size,
    /// Light foot.
    pub light_foot: Size,
    /// Horse mounted.
    pub horse: Size,
    /// Horse dismounted.
    pub horse_dismounted: Size,
    /// Guns unlimbered.
    pub gun: Size,
    /// Guns limbered.
    pub gun_limbered: Size,
    /// Provenance.
    pub reconstructed: String,
}

impl Bases {
    /// Every base size of the table, in one list.
    pub fn all(&self) -> [Size; 7] {
        [
            self.foot_line,
            self.foot_column,
            self.light_foot,
            self.horse,
            self.horse_dismounted,
            self.gun,
            self.gun_limbered,
        ]
    }
}

/// Movement rates (Movement), cm.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Moves {
    /// Foot in firing order.
    pub foot_firing: f64,
    /// Other foot.
    pub foot_other: f64,
    /// Limbered guns.
    pub guns_limbered: f64,
    /// Heavy horse.
    pub heavy_horse: f64,
    /// Light horse and generals.
    pub light_horse: f64,
    /// Provenance.
    pub source: String,
}

/// Ranges (Musketry, Artillery, Melees), cm.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ranges {
    /// Muskets.
    pub musket: f64,
    /// Carbines.
    pub carbine: f64,
    /// Canister.
    pub canister: f64,
    /// Roundshot.
    pub roundshot: f64,
    /// Close-order foot within this distance protects guns from contact.
    pub gun_guard: f64,
    /// Provenance.
    pub source: String,
}

/// The melee table: dice per 25% by own unit (row) and enemy unit (column: heavy cavalry,
/// lancers, light cavalry, infantry in firing order attacked frontally, other infantry, light
/// infantry).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeTable {
    /// Heavy cavalry row.
    pub heavy_cavalry: [f64; 6],
    /// Lancers row.
    pub lancers: [f64; 6],
    /// Light cavalry row.
    pub light_cavalry: [f64; 6],
    /// Infantry (not light) row.
    pub infantry: [f64; 6],
    /// Provenance.
    pub source: String,
}

/// The rule tables file.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesFile {
    /// Base sizes.
    pub bases: Bases,
    /// Movement rates.
    pub moves: Moves,
    /// Ranges.
    pub ranges: Ranges,
    /// Melee table.
    pub melee: MeleeTable,
}

/// Parse and validate a scenario with its rule tables: every problem found.
pub fn parse(scenario: &str, rules: &str) -> Result<(ScenarioFile, RulesFile), Vec<String>> {
    let mut errs = Vec::new();
    let sc: Option<ScenarioFile> = toml::from_str(scenario)
        .map_err(|e| errs.push(format!("scenario: {e}")))
        .ok();
    let rf: Option<RulesFile> = toml::from_str(rules)
        .map_err(|e| errs.push(format!("rules.toml: {e}")))
        .ok();
    let (Some(sc), Some(rf)) = (sc, rf) else {
        return Err(errs);
    };
    let [tw, th] = sc.scenario.table;
    if !(tw > 0.0 && th > 0.0) {
        errs.push("scenario.table: must be positive".into());
    }
    // Every action that moves a unit uses movement, so a phase has a bounded number of them
    // (docs/minis.md M9): rates and bases must be positive and finite.
    let b = &rf.bases;
    for (what, [w, d]) in [
        ("foot_line", b.foot_line),
        ("foot_column", b.foot_column),
        ("light_foot", b.light_foot),
        ("horse", b.horse),
        ("horse_dismounted", b.horse_dismounted),
        ("gun", b.gun),
        ("gun_limbered", b.gun_limbered),
    ] {
        if !((1.0..=100.0).contains(&w) && (1.0..=100.0).contains(&d)) {
            errs.push(format!(
                "rules.toml: bases.{what}: each side from 1 to 100 cm"
            ));
        }
    }
    let m = &rf.moves;
    for (what, r) in [
        ("foot_firing", m.foot_firing),
        ("foot_other", m.foot_other),
        ("guns_limbered", m.guns_limbered),
        ("heavy_horse", m.heavy_horse),
        ("light_horse", m.light_horse),
    ] {
        if !(r > 0.0 && r <= 100.0) {
            errs.push(format!("rules.toml: moves.{what}: from above 0 to 100 cm"));
        }
    }
    if !(1..=1000).contains(&sc.scenario.max_turns) {
        errs.push("scenario.max_turns: from 1 to 1000".into());
    }
    let prov = |what: String, s: &Option<String>, r: &Option<String>, errs: &mut Vec<String>| {
        if s.is_none() && r.is_none() {
            errs.push(format!("{what}: neither `source` nor `reconstructed`"));
        }
    };
    prov(
        "scenario".into(),
        &sc.scenario.source,
        &sc.scenario.reconstructed,
        &mut errs,
    );
    if sc.scenario.first > 1 {
        errs.push("scenario.first: 0 or 1".into());
    }
    for (i, t) in sc.terrain.iter().enumerate() {
        prov(
            format!("terrain[{i}] {}", t.name),
            &t.source,
            &t.reconstructed,
            &mut errs,
        );
        if !(t.w > 0.0 && t.h > 0.0) {
            errs.push(format!("terrain[{i}] {}: size must be positive", t.name));
        }
    }
    let mut ids = std::collections::BTreeSet::new();
    for (i, u) in sc.units.iter().enumerate() {
        let w = format!("units[{i}] {}", u.id);
        prov(w.clone(), &u.source, &u.reconstructed, &mut errs);
        if !ids.insert(u.id.clone()) {
            errs.push(format!("{w}: duplicate id"));
        }
        if u.id.is_empty() || u.id.contains(':') || u.id.contains(char::is_whitespace) {
            errs.push(format!("{w}: ids may not be empty or hold ':' or spaces"));
        }
        if u.side > 1 {
            errs.push(format!("{w}: side must be 0 or 1"));
        }
        if let Some(o) = u.order
            && !order_fits(u.kind, o, u.dragoons)
        {
            errs.push(format!("{w}: order {o:?} does not fit {:?}", u.kind));
        }
        if !(0.0..=tw).contains(&u.x) || !(0.0..=th).contains(&u.y) {
            errs.push(format!("{w}: off the table"));
        }
    }
    for (i, g) in sc.generals.iter().enumerate() {
        let w = format!("generals[{i}] {}", g.id);
        prov(w.clone(), &g.source, &g.reconstructed, &mut errs);
        match sc.units.iter().find(|u| u.id == g.with) {
            None => errs.push(format!("{w}: no unit {:?}", g.with)),
            Some(u) if u.side != g.side => errs.push(format!("{w}: with an enemy unit")),
            Some(_) => {}
        }
        if !ids.insert(g.id.clone()) {
            errs.push(format!("{w}: duplicate id"));
        }
    }
    for s in 0..2u8 {
        if !sc.units.iter().any(|u| u.side == s) {
            errs.push(format!("side {s} has no units"));
        }
    }
    if errs.is_empty() {
        Ok((sc, rf))
    } else {
        Err(errs)
    }
}

/// The default order of a troop type.
pub fn default_order(k: Kind) -> Order {
    match k {
        Kind::Foot => Order::Firing,
        Kind::LightFoot => Order::Column,
        Kind::HeavyHorse | Kind::Lancers | Kind::LightHorse => Order::Mounted,
        Kind::Gun => Order::Unlimbered,
    }
}

/// Whether an order fits a troop type.
pub fn order_fits(k: Kind, o: Order, dragoons: bool) -> bool {
    match (k, o) {
        (Kind::Foot, Order::Firing | Order::Column) => true,
        (Kind::LightFoot, Order::Column) => true,
        (Kind::HeavyHorse | Kind::Lancers | Kind::LightHorse, Order::Mounted) => true,
        (Kind::HeavyHorse | Kind::Lancers | Kind::LightHorse, Order::Dismounted) => dragoons,
        (Kind::Gun, Order::Limbered | Order::Unlimbered) => true,
        _ => false,
    }
}
