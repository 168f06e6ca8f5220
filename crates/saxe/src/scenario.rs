//! A validated, playable scenario: map, order of battle, set-up and tables in typed form.
use crate::data::*;
use hexmap::{HexId, Hexside, Vertex};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap, HashSet};

/// The two sides.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, PartialOrd, Ord)]
pub enum Side {
    /// The French army (seat 0).
    French,
    /// The Allied Army of Observation (seat 1).
    Allies,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::French => Side::Allies,
            Side::Allies => Side::French,
        }
    }
    /// Index 0/1.
    pub fn ix(self) -> usize {
        match self {
            Side::French => 0,
            Side::Allies => 1,
        }
    }
    /// From a seat index.
    pub fn from_ix(i: u8) -> Side {
        if i == 0 { Side::French } else { Side::Allies }
    }
    /// Name.
    pub fn name(self) -> &'static str {
        match self {
            Side::French => "French",
            Side::Allies => "Allies",
        }
    }
    fn parse(s: &str) -> Option<Side> {
        match s {
            "french" => Some(Side::French),
            "allies" => Some(Side::Allies),
            _ => None,
        }
    }
}

/// Unit kinds (rule 1.1.1).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Kind {
    /// Light infantry.
    LightInfantry,
    /// Normal infantry.
    Infantry,
    /// Light cavalry.
    LightCavalry,
    /// Heavy cavalry.
    HeavyCavalry,
    /// Field artillery.
    Artillery,
    /// Redoubt (artillery in a work, rule 1.1.2).
    Redoubt,
}

impl Kind {
    fn parse(s: &str) -> Option<Kind> {
        Some(match s {
            "light_infantry" => Kind::LightInfantry,
            "infantry" => Kind::Infantry,
            "light_cavalry" => Kind::LightCavalry,
            "heavy_cavalry" => Kind::HeavyCavalry,
            "artillery" => Kind::Artillery,
            "redoubt" => Kind::Redoubt,
            _ => return None,
        })
    }
    /// Infantry of either kind.
    pub fn is_infantry(self) -> bool {
        matches!(self, Kind::LightInfantry | Kind::Infantry)
    }
    /// Cavalry of either kind.
    pub fn is_cavalry(self) -> bool {
        matches!(self, Kind::LightCavalry | Kind::HeavyCavalry)
    }
    /// Artillery or redoubt.
    pub fn is_guns(self) -> bool {
        matches!(self, Kind::Artillery | Kind::Redoubt)
    }
    /// Light (rule 1.3).
    pub fn is_light(self) -> bool {
        matches!(self, Kind::LightInfantry | Kind::LightCavalry)
    }
    /// Short letter for the text board.
    pub fn letter(self) -> char {
        match self {
            Kind::LightInfantry => 'l',
            Kind::Infantry => 'i',
            Kind::LightCavalry => 'h',
            Kind::HeavyCavalry => 'c',
            Kind::Artillery => 'a',
            Kind::Redoubt => 'r',
        }
    }
}

/// Terrain of a hex (Terrain Effect Table).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Terrain {
    /// Clear.
    Clear,
    /// Marsh.
    Marsh,
    /// Woods.
    Woods,
    /// Town.
    Town,
    /// A fortified village (F/L 10.1 note: Fontenoy, Antoing): a town for every rule, with its
    /// own row in the terrain table.
    FortifiedVillage,
    /// Rough terrain ("terreno abrupto", F/L 1.3.1, 3.1).
    Rough,
}

/// Number of terrains.
pub const TERRAINS: usize = 6;

impl Terrain {
    fn parse(s: &str) -> Option<Terrain> {
        Some(match s {
            "clear" => Terrain::Clear,
            "marsh" => Terrain::Marsh,
            "woods" => Terrain::Woods,
            "town" => Terrain::Town,
            "fortified_village" => Terrain::FortifiedVillage,
            "rough" => Terrain::Rough,
            _ => return None,
        })
    }
    fn ix(self) -> usize {
        match self {
            Terrain::Clear => 0,
            Terrain::Marsh => 1,
            Terrain::Woods => 2,
            Terrain::Town => 3,
            Terrain::FortifiedVillage => 4,
            Terrain::Rough => 5,
        }
    }
    /// The terrain's name as a player reads it in the log ("fortified village").
    pub fn name(self) -> &'static str {
        match self {
            Terrain::Clear => "clear",
            Terrain::Marsh => "marsh",
            Terrain::Woods => "woods",
            Terrain::Town => "town",
            Terrain::FortifiedVillage => "fortified village",
            Terrain::Rough => "rough terrain",
        }
    }
    /// A town or village of either kind (3.1, 7.1, 10.3).
    pub fn is_town(self) -> bool {
        matches!(self, Terrain::Town | Terrain::FortifiedVillage)
    }
}

/// Hexside feature bits.
pub mod side_bits {
    /// A stream.
    pub const STREAM: u8 = 1;
    /// A river.
    pub const RIVER: u8 = 2;
    /// A bridge.
    pub const BRIDGE: u8 = 4;
    /// A road.
    pub const ROAD: u8 = 8;
    /// A trail.
    pub const TRAIL: u8 = 16;
}

/// Index of a unit in the order of battle.
pub type UnitIx = u16;
/// Index of a formation.
pub type FormationIx = u8;
/// Index of a commander.
pub type CommanderIx = u8;

/// A combat unit counter.
#[derive(Clone, Debug)]
pub struct UnitDef {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Side.
    pub side: Side,
    /// Formation (None: independent).
    pub formation: Option<FormationIx>,
    /// Kind.
    pub kind: Kind,
    /// Front combat points.
    pub cp: u8,
    /// Back combat points.
    pub cp_reduced: u8,
    /// Morale value.
    pub morale: u8,
    /// Movement points.
    pub mp: u8,
    /// Calibre in pounds.
    pub calibre: u8,
    /// Crossed swords (10.3).
    pub crossed_swords: bool,
    /// Grenadiers (3.1 exception 2).
    pub grenadiers: bool,
    /// Steps (1.1.4).
    pub steps: u8,
    /// In play only with this game option.
    pub optional: Option<String>,
    /// A unit of the King's Household (Fontenoy/Lauffeld 16.1, 16.2).
    pub household: bool,
    /// Grassin's arquebusiers (Fontenoy/Lauffeld 1.3.1).
    pub grassin: bool,
}

/// A formation.
#[derive(Clone, Debug)]
pub struct FormationDef {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Side.
    pub side: Side,
    /// Commander.
    pub commander: CommanderIx,
    /// Printed demoralisation value.
    pub demoralisation: u32,
    /// Initial steps incl. artillery, excl. redoubts (13.1).
    pub initial_steps: u32,
    /// Nationality (activation values by nationality, Fontenoy/Lauffeld 16.1, 16.2).
    pub nationality: Option<Nationality>,
    /// The King's Household (every unit of it is marked `household`).
    pub household: bool,
    /// No formation morale (Lauffeld 16.2: the Household's independent units under the King).
    pub no_morale: bool,
}

/// Nationalities of the Fontenoy/Lauffeld activation tables (16.1, 16.2).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Nationality {
    /// French.
    French,
    /// English.
    English,
    /// Dutch.
    Dutch,
    /// Austrian.
    Austrian,
}

impl Nationality {
    fn parse(s: &str) -> Option<Nationality> {
        Some(match s {
            "french" => Nationality::French,
            "english" => Nationality::English,
            "dutch" => Nationality::Dutch,
            "austrian" => Nationality::Austrian,
            _ => return None,
        })
    }
    /// Index 0..4.
    pub fn ix(self) -> usize {
        self as usize
    }
}

/// The Household special rule (Fontenoy 16.1 / Lauffeld 16.2).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum HouseholdRule {
    /// 16.1: the Household may not be activated until an enemy unit comes within three hexes of
    /// Louis XV.
    Fontenoy,
    /// 16.2: the King may command the Household as a formation (CR 2); it may be activated only
    /// once two French formations are demoralised or when it is attacked.
    Lauffeld,
}

/// Formations entering in march column (Fontenoy/Lauffeld 17.1, 17.2; rule 14).
#[derive(Clone, Debug)]
pub struct ColumnEntry {
    /// Side.
    pub side: Side,
    /// Formations.
    pub formations: Vec<FormationIx>,
    /// Turn of entry (the formations may enter from then on).
    pub turn: u8,
    /// Entry hexes.
    pub hexes: Vec<HexId>,
}

/// A side deploying freely inside a zone (Fontenoy 17.1 option 2).
#[derive(Clone, Copy, Debug)]
pub struct ZoneSetup {
    /// Side.
    pub side: Side,
    /// Rows allowed (inclusive).
    pub rows: (u8, u8),
    /// Columns allowed (inclusive).
    pub cols: (u8, u8),
}

/// A unit arriving as a reinforcement (Fontenoy/Lauffeld 8.8).
#[derive(Clone, Debug)]
pub struct Reinforcement {
    /// Unit.
    pub unit: UnitIx,
    /// Turn (as on the turn track).
    pub turn: u8,
    /// Entry hexes.
    pub hexes: Vec<HexId>,
    /// Facing on entry as the data gives it; `None`: facing away from the side's own edge.
    pub facing: Option<Vertex>,
    /// F/L 17: an independent unit entering with the march columns (`[[column_entries]] units`):
    /// it enters in phase A in march column, activated automatically (14.4), not by 8.8.
    pub column: bool,
}

/// A commander counter.
#[derive(Clone, Debug)]
pub struct CommanderDef {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Side.
    pub side: Side,
    /// Army commander.
    pub army: bool,
    /// Louis XV (Fontenoy/Lauffeld 0.1: follows the army commanders' rules; 15.1).
    pub king: bool,
    /// Command radius.
    pub radius: u8,
    /// Formation commanded.
    pub formation: Option<FormationIx>,
}

/// Map.
#[derive(Clone, Debug)]
pub struct Map {
    /// Name.
    pub name: String,
    /// Rows.
    pub rows: (u8, u8),
    /// Columns.
    pub cols: (u8, u8),
    terrain: Vec<Terrain>,
    level: Vec<u8>,
    sides: HashMap<Hexside, u8>,
    /// The same hexside bits per hex and direction (row-major, [`Map::index`], then
    /// [`hexmap::Dir::index`]): `side` is asked on every step and ZoC test, so no hashing there.
    side_bits: Vec<[u8; 6]>,
    /// Named places.
    pub places: Vec<(String, Vec<HexId>)>,
    /// Friendly edges [French, Allies] (a side may have several).
    pub edges: [Vec<Edge>; 2],
    /// Hexes of fortified villages (10.1 note).
    pub fortified: Vec<HexId>,
}

/// A map edge.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum Edge {
    /// Lowest rows.
    North,
    /// Highest rows.
    South,
    /// Lowest columns.
    East,
    /// Highest columns.
    West,
}

impl Map {
    /// Index of a hex in row-major order, if on the map.
    pub fn index(&self, h: HexId) -> Option<usize> {
        if self.contains(h) {
            let w = usize::from(self.cols.1 - self.cols.0 + 1);
            Some(usize::from(h.row - self.rows.0) * w + usize::from(h.col - self.cols.0))
        } else {
            None
        }
    }
    /// Number of hexes.
    pub fn len(&self) -> usize {
        self.terrain.len()
    }

    /// Whether the map has no hexes.
    pub fn is_empty(&self) -> bool {
        self.terrain.is_empty()
    }

    /// Whether the hex is on the map.
    pub fn contains(&self, h: HexId) -> bool {
        (self.rows.0..=self.rows.1).contains(&h.row) && (self.cols.0..=self.cols.1).contains(&h.col)
    }
    /// All hexes, row by row.
    pub fn hexes(&self) -> impl Iterator<Item = HexId> + '_ {
        (self.rows.0..=self.rows.1)
            .flat_map(move |r| (self.cols.0..=self.cols.1).map(move |c| HexId::new(r, c)))
    }
    /// Terrain (off-map: clear).
    pub fn terrain(&self, h: HexId) -> Terrain {
        self.index(h)
            .map(|i| self.terrain[i])
            .unwrap_or(Terrain::Clear)
    }
    /// Level.
    pub fn level(&self, h: HexId) -> u8 {
        self.index(h).map(|i| self.level[i]).unwrap_or(0)
    }
    /// Hexside feature bits between two adjacent hexes.
    pub fn side(&self, a: HexId, b: HexId) -> u8 {
        // Every hexside with features lies between two hexes of the map (both are checked
        // when the map is read), so an off-map hex has none.
        match (self.index(a), a.direction_to(b)) {
            (Some(i), Some(d)) => self.side_bits[i][d.index()],
            _ => 0,
        }
    }
    /// Distance from a hex to a side's friendly edge, in hexes (0 on the edge row/column).
    pub fn edge_distance(&self, side: Side, h: HexId) -> u32 {
        self.edges[side.ix()]
            .iter()
            .map(|e| match e {
                Edge::North => u32::from(h.row.saturating_sub(self.rows.0)),
                Edge::South => u32::from(self.rows.1.saturating_sub(h.row)),
                Edge::East => u32::from(h.col.saturating_sub(self.cols.0)),
                Edge::West => u32::from(self.cols.1.saturating_sub(h.col)),
            })
            .min()
            .unwrap_or(u32::MAX)
    }
    /// Every hexside with features, in a stable order.
    pub fn hexsides(&self) -> Vec<(Hexside, u8)> {
        let mut v: Vec<(Hexside, u8)> = self.sides.iter().map(|(k, b)| (*k, *b)).collect();
        v.sort();
        v
    }

    /// Hexes of a named place.
    pub fn place(&self, name: &str) -> Option<&[HexId]> {
        self.places
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_slice())
    }
}

/// A parsed result of the CRT or artillery table.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct Outcome {
    /// Step losses.
    pub steps: u8,
    /// Disorganisation.
    pub disorganise: bool,
    /// Morale test with this DRM.
    pub tm: Option<i8>,
    /// Retreat hexes.
    pub retreat: u8,
    /// Disorganised cavalry eliminated.
    pub star: bool,
    /// Elimination.
    pub eliminate: bool,
}

impl Outcome {
    /// Parse "1D-R1*", "TM+2", "-", "E".
    pub fn parse(s: &str) -> Option<Outcome> {
        let mut o = Outcome::default();
        let s = s.trim();
        if s == "-" || s == "–" {
            return Some(o);
        }
        let mut rest = s;
        if let Some(r) = rest.strip_suffix('*') {
            o.star = true;
            rest = r;
        }
        // Tokenise by hand to keep "TM-1" together.
        let b = rest.as_bytes();
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'-' => i += 1,
                b'0'..=b'9' => {
                    o.steps = b[i] - b'0';
                    i += 1;
                }
                b'D' => {
                    o.disorganise = true;
                    i += 1;
                }
                b'E' => {
                    o.eliminate = true;
                    i += 1;
                }
                b'R' => {
                    let d = *b.get(i + 1)?;
                    o.retreat = d.checked_sub(b'0')?;
                    i += 2;
                }
                b'T' if b.get(i + 1) == Some(&b'M') => {
                    i += 2;
                    let mut drm: i8 = 0;
                    if let (Some(&sg), Some(&d)) = (b.get(i), b.get(i + 1))
                        && (sg == b'+' || sg == b'-')
                        && d.is_ascii_digit()
                    {
                        let v = (d - b'0') as i8;
                        drm = if sg == b'+' { v } else { -v };
                        i += 2;
                    }
                    o.tm = Some(drm);
                }
                _ => return None,
            }
        }
        Some(o)
    }

    /// Whether nothing happens.
    pub fn is_none(&self) -> bool {
        *self == Outcome::default()
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        if self.eliminate {
            parts.push("E".into());
        }
        if self.steps > 0 || self.disorganise {
            let mut p = String::new();
            if self.steps > 0 {
                p.push_str(&self.steps.to_string());
            }
            if self.disorganise {
                p.push('D');
            }
            parts.push(p);
        }
        if let Some(t) = self.tm {
            parts.push(match t {
                0 => "TM".to_string(),
                t if t > 0 => format!("TM+{t}"),
                t => format!("TM{t}"),
            });
        }
        if self.retreat > 0 {
            parts.push(format!("R{}", self.retreat));
        }
        let mut s = if parts.is_empty() {
            "-".to_string()
        } else {
            parts.join("-")
        };
        if self.star {
            s.push('*');
        }
        write!(f, "{s}")
    }
}

/// Typed tables.
#[derive(Clone, Debug)]
pub struct Tables {
    /// Raw file (costs and modifiers).
    pub raw: TablesFile,
    /// Terrain rows by [`Terrain`] index.
    terrain: [TerrainRule; TERRAINS],
    /// CRT rows min..=max: (attacker, defender).
    pub crt: Vec<(i8, Outcome, Outcome)>,
    /// Artillery rows.
    pub artillery: Vec<(i8, Outcome)>,
}

/// Terrain rule.
#[derive(Clone, Copy, Debug)]
pub struct TerrainRule {
    /// Infantry cost.
    pub cost_inf: Option<u8>,
    /// Cavalry cost.
    pub cost_cav: Option<u8>,
    /// Artillery cost.
    pub cost_art: Option<u8>,
    /// Fire DRM.
    pub fire: i8,
    /// Combat DRM.
    pub combat: i8,
    /// Blocks ZoC.
    pub blocks_zoc: bool,
    /// Blocks LoS.
    pub blocks_los: bool,
    /// Town flank rule.
    pub flanks_front: bool,
    /// F/L 3.1: only one unit with a gun may stack here.
    pub restricted_stacking: bool,
    /// 10.1 note: cavalry may never attack this hex.
    pub no_cavalry_attack: bool,
    /// The table has a row for this terrain.
    pub present: bool,
}

impl Tables {
    /// Rule of a terrain.
    pub fn terrain(&self, t: Terrain) -> &TerrainRule {
        &self.terrain[t.ix()]
    }
    /// CRT lookup (clamped).
    pub fn crt(&self, total: i32) -> (i8, Outcome, Outcome) {
        let lo = i32::from(self.raw.crt.min_row);
        let hi = i32::from(self.raw.crt.max_row);
        let row = total.clamp(lo, hi) as i8;
        self.crt.iter().find(|r| r.0 == row).copied().unwrap_or((
            row,
            Outcome::default(),
            Outcome::default(),
        ))
    }
    /// Artillery lookup (clamped).
    pub fn artillery(&self, total: i32) -> (i8, Outcome) {
        let lo = i32::from(self.raw.artillery.min_row);
        let hi = i32::from(self.raw.artillery.max_row);
        let row = total.clamp(lo, hi) as i8;
        self.artillery
            .iter()
            .find(|r| r.0 == row)
            .copied()
            .unwrap_or((row, Outcome::default()))
    }
    /// Strength-ratio DRM, rounded in favour of the defender (10.2).
    pub fn ratio_drm(&self, att: u32, def: u32) -> (i8, String) {
        let (a, d) = (att as i64, def.max(1) as i64);
        for c in &self.raw.crt.ratio.columns {
            if a * i64::from(c[1]) >= d * i64::from(c[0]) {
                return (c[2] as i8, format!("{}/{}", c[0], c[1]));
            }
        }
        (self.raw.crt.ratio.below, "1/3".into())
    }
}

/// Counts of provenance marks, for `validate`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ProvenanceCount {
    /// Data taken from the rule book.
    pub from_book: u32,
    /// Data reconstructed (with a reason).
    pub reconstructed: u32,
    /// Data with neither mark (a defect).
    pub unmarked: Vec<String>,
}

/// A unit's set-up.
#[derive(Clone, Debug)]
pub struct Placement {
    /// Unit.
    pub unit: UnitIx,
    /// Hex.
    pub hex: HexId,
    /// Facing.
    pub facing: Vertex,
}

/// Free set-up rules (16.2).
#[derive(Clone, Copy, Debug)]
pub struct FreeSetup {
    /// The Allies set up no further south than this row.
    pub allied_max_row: u8,
    /// The Allies set up no further east than this column.
    pub allied_min_col: u8,
    /// The French set up no further north than this row.
    pub french_min_row: u8,
    /// The French set up at least this far from enemy units.
    pub french_min_distance: u32,
    /// 14.1: no march or deployment nearer than this to an enemy unit.
    pub column_min_distance: u32,
}

/// A victory objective: a named place.
#[derive(Clone, Debug)]
pub struct Objective {
    /// Key the victory rules use ("fontenoy").
    pub key: String,
    /// The place's name on the map ("Fontenoy").
    pub name: String,
    /// Its hexes.
    pub hexes: Vec<HexId>,
}

/// The order of the objectives a victory rule knows (the index into `State::control`); other keys
/// follow in alphabetical order.
pub const OBJECTIVE_ORDER: [&str; 6] = [
    "hastenbeck",
    "afferde",
    "fontenoy",
    "pontoon",
    "lauffeld",
    "vlitingen",
];

/// A playable scenario.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// Free set-up rules (16.2), or `None` for a printed set-up.
    pub free: Option<FreeSetup>,
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Last turn.
    pub turns: u8,
    /// First player.
    pub first: Side,
    /// Edition of the rules the scenario is played under.
    pub edition: crate::Edition,
    /// First turn on the turn track (Fontenoy 16.1: 4).
    pub first_turn: u8,
    /// Who sets up first.
    pub sets_up_first: Side,
    /// The rule book's number for the scenario (16.1 Hastenbeck and Fontenoy, 16.2 Lauffeld and
    /// Hastenbeck's free set-up, 17.x the F/L alternatives).
    pub rule: String,
    /// Activation value per side (Hastenbeck 16.1.2).
    pub activation: [u8; 2],
    /// Activation value per nationality (Fontenoy/Lauffeld 16.1, 16.2), French/English/Dutch/Austrian.
    pub activation_by_nationality: Option<[u8; 4]>,
    /// Automatic activations: (turn, side, count).
    pub auto_activations: Vec<(u8, Side, u8)>,
    /// Reinforcements (8.8).
    pub reinforcements: Vec<Reinforcement>,
    /// Formations entering in march column (17).
    pub column_entries: Vec<ColumnEntry>,
    /// Commanders entering with the columns (placed with the first unit of their side to enter).
    pub entering_commanders: Vec<CommanderIx>,
    /// A side's free deployment in a zone (17.1 option 2).
    pub zone: Option<ZoneSetup>,
    /// The Household special rule.
    pub household: Option<HouseholdRule>,
    /// Demoralised formations that demoralise the army (16.1.4).
    pub army_demoralisation: [u8; 2],
    /// Victory objectives: key (e.g. "hastenbeck") and hexes, in a fixed order (see
    /// [`OBJECTIVE_ORDER`]); `State::control` follows this order.
    pub objectives: Vec<Objective>,
    /// Initial holder of the objectives.
    pub initial_control: Side,
    /// Units.
    pub units: Vec<UnitDef>,
    /// Formations.
    pub formations: Vec<FormationDef>,
    /// Commanders.
    pub commanders: Vec<CommanderDef>,
    /// Unit set-up in file order (stack order: first listed is on top).
    pub setup: Vec<Placement>,
    /// Commander set-up.
    pub commander_setup: Vec<(CommanderIx, HexId)>,
    /// Abattis hexes.
    pub abattis: Vec<HexId>,
    /// Map.
    pub map: Map,
    /// Tables.
    pub tables: Tables,
    /// The tables as `tables.toml` prints them, every row with its `source` or `reconstructed`
    /// (read-only, for a player to consult: the board's `tables`, issue 19.4).
    pub tables_printed: serde_json::Value,
    /// Provenance counts.
    pub provenance: ProvenanceCount,
}

fn mark(p: &Provenance, what: &str, c: &mut ProvenanceCount) {
    match (&p.source, &p.reconstructed) {
        (_, Some(r)) if !r.trim().is_empty() => c.reconstructed += 1,
        (Some(s), _) if !s.trim().is_empty() => c.from_book += 1,
        _ => c.unmarked.push(what.to_string()),
    }
}

/// Steps of a unit from its CP (rule 1.1.4).
pub fn steps_for(kind: Kind, cp: u8) -> u8 {
    if kind.is_guns() {
        1
    } else if cp >= 7 {
        4
    } else if cp >= 5 {
        3
    } else {
        2
    }
}

fn parse_cost(c: &Cost) -> Result<Option<u8>, String> {
    match c {
        // 8.1: entering a hex costs MP; a free one would let a group step back and forth for
        // ever (issue 12).
        Cost::Mp(0) => Err("a cost is at least 1 MP".into()),
        Cost::Mp(n) => Ok(Some(*n)),
        Cost::Word(w) if w == "forbidden" => Ok(None),
        Cost::Word(w) => Err(format!("cost {w:?} is neither a number nor \"forbidden\"")),
    }
}

/// Parse a vertex name.
pub fn parse_vertex(s: &str) -> Option<Vertex> {
    Some(match s {
        "N" => Vertex::N,
        "NE" => Vertex::NE,
        "SE" => Vertex::SE,
        "S" => Vertex::S,
        "SW" => Vertex::SW,
        "NW" => Vertex::NW,
        _ => return None,
    })
}

impl Scenario {
    /// Validate the files of a battle into the scenario `scenario_id`; every problem is reported.
    pub fn build(files: &BattleFiles, scenario_id: &str) -> Result<Scenario, Vec<String>> {
        let mut errs: Vec<String> = Vec::new();
        let mut prov = ProvenanceCount::default();
        let map_f: Option<MapFile> = toml::from_str(&files.map)
            .map_err(|e| errs.push(format!("map.toml: {e}")))
            .ok();
        let oob_f: Option<OobFile> = toml::from_str(&files.oob)
            .map_err(|e| errs.push(format!("oob.toml: {e}")))
            .ok();
        let tab_f: Option<TablesFile> = toml::from_str(&files.tables)
            .map_err(|e| errs.push(format!("tables.toml: {e}")))
            .ok();
        // The same file for the player to read; it parsed above, so this cannot fail but on a
        // value JSON cannot hold (then the board just has no tables).
        let tables_printed = toml::from_str::<toml::Value>(&files.tables)
            .ok()
            .and_then(|v| serde_json::to_value(v).ok())
            .unwrap_or(serde_json::Value::Null);
        let sc_text = match files.scenarios.get(scenario_id) {
            Some(t) => t,
            None => {
                errs.push(format!("unknown scenario {scenario_id:?}"));
                return Err(errs);
            }
        };
        let sc_f: Option<ScenarioFile> = toml::from_str(sc_text)
            .map_err(|e| errs.push(format!("{scenario_id}.toml: {e}")))
            .ok();
        let (Some(mf), Some(of), Some(tf), Some(sf)) = (map_f, oob_f, tab_f, sc_f) else {
            return Err(errs);
        };

        // ---- map
        let rows = (mf.map.rows.min, mf.map.rows.max);
        let cols = (mf.map.cols.min, mf.map.cols.max);
        if rows.0 > rows.1 || cols.0 > cols.1 {
            errs.push("map.toml: [map] rows/cols: min above max".into());
        }
        mark(&mf.map.prov, "map.toml [map]", &mut prov);
        let default_t = Terrain::parse(&mf.map.default_terrain).unwrap_or_else(|| {
            errs.push(format!(
                "map.toml: default_terrain {:?} unknown",
                mf.map.default_terrain
            ));
            Terrain::Clear
        });
        let n = usize::from(rows.1.saturating_sub(rows.0) + 1)
            * usize::from(cols.1.saturating_sub(cols.0) + 1);
        let mut map = Map {
            name: mf.map.name.clone(),
            rows,
            cols,
            terrain: vec![default_t; n],
            level: vec![0; n],
            sides: HashMap::new(),
            side_bits: vec![[0; 6]; n],
            places: Vec::new(),
            edges: [vec![Edge::South], vec![Edge::North]],
            fortified: Vec::new(),
        };
        let parse_hex = |s: &str, ctx: &str, errs: &mut Vec<String>, map: &Map| -> Option<HexId> {
            match s.parse::<HexId>() {
                Ok(h) if map.contains(h) => Some(h),
                Ok(h) => {
                    errs.push(format!("{ctx}: hex {h} is off the map"));
                    None
                }
                Err(e) => {
                    errs.push(format!("{ctx}: {e}"));
                    None
                }
            }
        };
        for (i, g) in mf.hexes.iter().enumerate() {
            let ctx = format!("map.toml [[hexes]] #{} ({})", i + 1, g.terrain);
            mark(&g.prov, &ctx, &mut prov);
            let Some(t) = Terrain::parse(&g.terrain) else {
                errs.push(format!("{ctx}: unknown terrain {:?}", g.terrain));
                continue;
            };
            if !tf.terrain.iter().any(|r| r.name == g.terrain) {
                errs.push(format!(
                    "{ctx}: terrain {:?} has no row in tables.toml",
                    g.terrain
                ));
            }
            for id in &g.ids {
                if let Some(h) = parse_hex(id, &ctx, &mut errs, &map)
                    && let Some(ix) = map.index(h)
                {
                    map.terrain[ix] = t;
                }
            }
        }
        for (i, g) in mf.levels.iter().enumerate() {
            let ctx = format!("map.toml [[levels]] #{}", i + 1);
            mark(&g.prov, &ctx, &mut prov);
            for id in &g.ids {
                if let Some(h) = parse_hex(id, &ctx, &mut errs, &map)
                    && let Some(ix) = map.index(h)
                {
                    map.level[ix] = g.level;
                }
            }
        }
        for (i, s) in mf.hexsides.iter().enumerate() {
            let ctx = format!("map.toml [[hexsides]] #{} {:?}", i + 1, s.between);
            mark(&s.prov, &ctx, &mut prov);
            let a = parse_hex(&s.between[0], &ctx, &mut errs, &map);
            let b = parse_hex(&s.between[1], &ctx, &mut errs, &map);
            let (Some(a), Some(b)) = (a, b) else { continue };
            let Some(key) = Hexside::between(a, b) else {
                errs.push(format!("{ctx}: {a} and {b} are not adjacent"));
                continue;
            };
            let mut bits = 0u8;
            for f in &s.features {
                bits |= match f.as_str() {
                    "stream" => side_bits::STREAM,
                    "river" => side_bits::RIVER,
                    "bridge" => side_bits::BRIDGE,
                    "road" => side_bits::ROAD,
                    "trail" => side_bits::TRAIL,
                    other => {
                        errs.push(format!("{ctx}: unknown feature {other:?}"));
                        0
                    }
                };
            }
            *map.sides.entry(key).or_insert(0) |= bits;
            for (x, y) in [(a, b), (b, a)] {
                if let (Some(i), Some(d)) = (map.index(x), x.direction_to(y)) {
                    map.side_bits[i][d.index()] |= bits;
                }
            }
        }
        for (i, p) in mf.places.iter().enumerate() {
            let ctx = format!("map.toml [[places]] #{} {}", i + 1, p.name);
            mark(&p.prov, &ctx, &mut prov);
            let hs: Vec<HexId> = p
                .hexes
                .iter()
                .filter_map(|s| parse_hex(s, &ctx, &mut errs, &map))
                .collect();
            if p.fortified {
                map.fortified.extend(hs.iter().copied());
            }
            map.places.push((p.name.clone(), hs));
        }
        mark(&mf.edges.prov, "map.toml [edges]", &mut prov);
        let edge = |e: &OneOrMany, errs: &mut Vec<String>| {
            let v: Vec<Edge> = e
                .names()
                .into_iter()
                .filter_map(|s| match s {
                    "north" => Some(Edge::North),
                    "south" => Some(Edge::South),
                    "east" => Some(Edge::East),
                    "west" => Some(Edge::West),
                    o => {
                        errs.push(format!(
                            "map.toml [edges]: unknown edge {o:?} (north, south, east, west)"
                        ));
                        None
                    }
                })
                .collect();
            if v.is_empty() {
                errs.push("map.toml [edges]: a side has no friendly edge".into());
            }
            v
        };
        map.edges = [
            edge(&mf.edges.french, &mut errs),
            edge(&mf.edges.allies, &mut errs),
        ];

        // ---- order of battle
        let mut formations: Vec<FormationDef> = Vec::new();
        let mut commanders: Vec<CommanderDef> = Vec::new();
        let mut units: Vec<UnitDef> = Vec::new();
        let mut cmd_ix: HashMap<String, CommanderIx> = HashMap::new();
        for (i, c) in of.commanders.iter().enumerate() {
            let ctx = format!("oob.toml [[commanders]] {}", c.id);
            mark(&c.prov, &ctx, &mut prov);
            let side = Side::parse(&c.side).unwrap_or_else(|| {
                errs.push(format!("{ctx}: side {:?} unknown", c.side));
                Side::French
            });
            let (army, king) = match c.kind.as_str() {
                "army" => (true, false),
                "formation" => (false, false),
                "king" => (false, true),
                o => {
                    errs.push(format!("{ctx}: kind {o:?} unknown (army, formation, king)"));
                    (false, false)
                }
            };
            if cmd_ix.insert(c.id.clone(), i as CommanderIx).is_some() {
                errs.push(format!("{ctx}: duplicate id"));
            }
            commanders.push(CommanderDef {
                id: c.id.clone(),
                name: c.name.clone(),
                side,
                army,
                king,
                radius: c.command_radius,
                formation: None,
            });
        }
        let mut form_ix: HashMap<String, FormationIx> = HashMap::new();
        for (i, f) in of.formations.iter().enumerate() {
            let ctx = format!("oob.toml [[formations]] {}", f.id);
            mark(&f.prov, &ctx, &mut prov);
            let side = Side::parse(&f.side).unwrap_or_else(|| {
                errs.push(format!("{ctx}: side {:?} unknown", f.side));
                Side::French
            });
            let Some(&c) = cmd_ix.get(&f.commander) else {
                errs.push(format!("{ctx}: commander {:?} not found", f.commander));
                continue;
            };
            if form_ix
                .insert(f.id.clone(), formations.len() as FormationIx)
                .is_some()
            {
                errs.push(format!("{ctx}: duplicate id"));
            }
            commanders[usize::from(c)].formation = Some(formations.len() as FormationIx);
            formations.push(FormationDef {
                id: f.id.clone(),
                name: f.name.clone(),
                side,
                commander: c,
                demoralisation: f.demoralisation,
                initial_steps: 0,
                household: false,
                no_morale: false,
                nationality: f.nationality.as_deref().and_then(|n| {
                    let v = Nationality::parse(n);
                    if v.is_none() {
                        errs.push(format!(
                            "{ctx}: nationality {n:?} unknown (french, english, dutch, austrian)"
                        ));
                    }
                    v
                }),
            });
            let _ = i;
        }
        let mut unit_ix: HashMap<String, UnitIx> = HashMap::new();
        for u in &of.units {
            let ctx = format!("oob.toml [[units]] {}", u.id);
            mark(&u.prov, &ctx, &mut prov);
            let side = Side::parse(&u.side).unwrap_or_else(|| {
                errs.push(format!("{ctx}: side {:?} unknown", u.side));
                Side::French
            });
            let Some(kind) = Kind::parse(&u.kind) else {
                errs.push(format!("{ctx}: kind {:?} unknown", u.kind));
                continue;
            };
            let formation = if u.formation == "independent" {
                None
            } else {
                match form_ix.get(&u.formation) {
                    Some(&f) => Some(f),
                    None => {
                        errs.push(format!("{ctx}: formation {:?} not found", u.formation));
                        None
                    }
                }
            };
            let cp = if kind.is_guns() {
                0
            } else {
                match u.cp {
                    Some(c) if (1..=12).contains(&c) => c,
                    _ => {
                        errs.push(format!("{ctx}: cp must be 1..=12"));
                        1
                    }
                }
            };
            let morale = if kind.is_guns() {
                6
            } else {
                u.morale.unwrap_or_else(|| {
                    errs.push(format!("{ctx}: morale missing"));
                    1
                })
            };
            let calibre = if kind.is_guns() {
                match u.calibre {
                    Some(c) => c,
                    None => {
                        errs.push(format!("{ctx}: calibre missing"));
                        6
                    }
                }
            } else {
                0
            };
            if unit_ix
                .insert(u.id.clone(), units.len() as UnitIx)
                .is_some()
            {
                errs.push(format!("{ctx}: duplicate id"));
            }
            let steps = steps_for(kind, cp);
            units.push(UnitDef {
                id: u.id.clone(),
                name: u.name.clone(),
                side,
                formation,
                kind,
                cp,
                cp_reduced: u.cp_reduced.unwrap_or((cp / 2).max(1)),
                morale,
                mp: if kind == Kind::Redoubt {
                    0
                } else {
                    u.mp.unwrap_or(4)
                },
                calibre,
                crossed_swords: u.crossed_swords,
                grenadiers: u.grenadiers,
                steps,
                optional: u.optional.clone(),
                household: u.household,
                grassin: u.grassin,
            });
        }
        for (i, f) in formations.iter_mut().enumerate() {
            let mine: Vec<&UnitDef> = units
                .iter()
                .filter(|u| u.formation == Some(i as FormationIx))
                .collect();
            f.household = !mine.is_empty() && mine.iter().all(|u| u.household);
        }
        for u in &units {
            if let Some(f) = u.formation {
                let f = &mut formations[usize::from(f)];
                if f.side != u.side {
                    errs.push(format!(
                        "oob.toml [[units]] {}: side differs from its formation",
                        u.id
                    ));
                }
                // 13.1: the printed values count the standard counters (optional ones are not).
                if u.kind != Kind::Redoubt && u.optional.is_none() {
                    f.initial_steps += u32::from(u.steps);
                }
            }
        }

        // ---- tables
        let mut terrain = [TerrainRule {
            cost_inf: Some(1),
            cost_cav: Some(1),
            cost_art: Some(1),
            fire: 0,
            combat: 0,
            blocks_zoc: false,
            blocks_los: false,
            flanks_front: false,
            restricted_stacking: false,
            no_cavalry_attack: false,
            present: false,
        }; TERRAINS];
        let mut seen = [false; TERRAINS];
        for r in &tf.terrain {
            let ctx = format!("tables.toml [[terrain]] {}", r.name);
            mark(&r.prov, &ctx, &mut prov);
            let Some(t) = Terrain::parse(&r.name) else {
                errs.push(format!("{ctx}: unknown terrain"));
                continue;
            };
            let mut cost = |c: &Cost| {
                parse_cost(c).unwrap_or_else(|e| {
                    errs.push(format!("{ctx}: {e}"));
                    None
                })
            };
            terrain[t.ix()] = TerrainRule {
                cost_inf: cost(&r.cost_infantry),
                cost_cav: cost(&r.cost_cavalry),
                cost_art: cost(&r.cost_artillery),
                fire: r.fire,
                combat: r.combat,
                blocks_zoc: r.blocks_zoc,
                blocks_los: r.blocks_los,
                flanks_front: r.town_flanks_are_front,
                restricted_stacking: r.restricted_stacking,
                no_cavalry_attack: r.cavalry_may_not_attack,
                present: true,
            };
            seen[t.ix()] = true;
        }
        for (c, w) in [
            (tf.hexsides.road.cost, "road"),
            (tf.hexsides.trail.cost, "trail"),
        ] {
            if c == 0 {
                errs.push(format!(
                    "tables.toml [hexsides.{w}]: a cost is at least 1 MP"
                ));
            }
        }
        if seen[..4].iter().any(|s| !s) {
            errs.push("tables.toml: every terrain (clear, marsh, woods, town) needs a row".into());
        }
        for (p, w) in [
            (&tf.hexsides.stream.prov, "tables.toml [hexsides.stream]"),
            (&tf.hexsides.river.prov, "tables.toml [hexsides.river]"),
            (&tf.hexsides.road.prov, "tables.toml [hexsides.road]"),
            (&tf.hexsides.trail.prov, "tables.toml [hexsides.trail]"),
            (&tf.heights.prov, "tables.toml [heights]"),
            (&tf.abattis.prov, "tables.toml [abattis]"),
            (&tf.redoubt.prov, "tables.toml [redoubt]"),
            (&tf.unit_type.prov, "tables.toml [unit_type]"),
            (&tf.artillery.prov, "tables.toml [artillery]"),
        ] {
            mark(p, w, &mut prov);
        }
        let mut crt = Vec::new();
        for r in &tf.crt.rows {
            let ctx = format!("tables.toml [crt] row {}", r.die);
            mark(&r.prov, &ctx, &mut prov);
            match (Outcome::parse(&r.attacker), Outcome::parse(&r.defender)) {
                (Some(a), Some(d)) => crt.push((r.die, a, d)),
                _ => errs.push(format!(
                    "{ctx}: cannot read {:?} / {:?}",
                    r.attacker, r.defender
                )),
            }
        }
        for d in tf.crt.min_row..=tf.crt.max_row {
            if !crt.iter().any(|r| r.0 == d) {
                errs.push(format!("tables.toml [crt]: row {d} missing"));
            }
        }
        let mut artillery = Vec::new();
        for r in &tf.artillery.rows {
            let ctx = format!("tables.toml [artillery] row {}", r.die);
            mark(&r.prov, &ctx, &mut prov);
            match Outcome::parse(&r.result) {
                Some(o) => artillery.push((r.die, o)),
                None => errs.push(format!("{ctx}: cannot read {:?}", r.result)),
            }
        }
        let tables = Tables {
            raw: tf,
            terrain,
            crt,
            artillery,
        };

        // ---- scenario
        let s = &sf.scenario;
        mark(&s.prov, "scenario [scenario]", &mut prov);
        let edition = match s.edition.as_deref() {
            None | Some("hastenbeck") => crate::Edition::Hastenbeck,
            Some("fontenoy-lauffeld") => crate::Edition::FontenoyLauffeld,
            Some(o) => {
                errs.push(format!(
                    "scenario [scenario]: edition {o:?} unknown (hastenbeck, fontenoy-lauffeld)"
                ));
                crate::Edition::Hastenbeck
            }
        };
        let first_turn = s.first_turn.unwrap_or(1);
        if first_turn == 0 || first_turn > s.turns {
            errs.push(format!(
                "scenario [scenario]: first_turn {first_turn} is not within 1..={}",
                s.turns
            ));
        }
        let activation = match &sf.activation {
            Some(a) => {
                mark(&a.prov, "scenario [activation]", &mut prov);
                [a.french, a.allies]
            }
            None => [0, 0],
        };
        let activation_by_nationality = sf.activation_by_nationality.as_ref().map(|a| {
            mark(&a.prov, "scenario [activation_by_nationality]", &mut prov);
            [a.french, a.english, a.dutch, a.austrian]
        });
        if sf.activation.is_none() && activation_by_nationality.is_none() {
            errs.push("scenario: needs [activation] or [activation_by_nationality]".to_string());
        }
        if activation_by_nationality.is_some() {
            for f in &formations {
                if f.nationality.is_none() {
                    errs.push(format!(
                        "oob.toml [[formations]] {}: nationality missing (activation is by nationality)",
                        f.id
                    ));
                }
            }
        }
        mark(
            &sf.army_demoralisation.prov,
            "scenario [army_demoralisation]",
            &mut prov,
        );
        mark(&sf.objectives.prov, "scenario [objectives]", &mut prov);
        let first = Side::parse(&s.first_player).unwrap_or_else(|| {
            errs.push(format!(
                "scenario: first_player {:?} unknown",
                s.first_player
            ));
            Side::French
        });
        let initial_control = Side::parse(&sf.objectives.initial_control).unwrap_or_else(|| {
            errs.push("scenario [objectives]: initial_control unknown".into());
            Side::Allies
        });
        let mut objectives: Vec<Objective> = Vec::new();
        for (key, place) in &sf.objectives.places {
            match map.place(place) {
                Some(p) => objectives.push(Objective {
                    key: key.clone(),
                    name: place.clone(),
                    hexes: p.to_vec(),
                }),
                None => errs.push(format!(
                    "scenario [objectives]: no place {place:?} on the map"
                )),
            }
        }
        let rank = |k: &str| {
            OBJECTIVE_ORDER
                .iter()
                .position(|x| *x == k)
                .unwrap_or(OBJECTIVE_ORDER.len())
        };
        objectives.sort_by(|a, b| rank(&a.key).cmp(&rank(&b.key)).then(a.key.cmp(&b.key)));
        let side_of = |s: &str, ctx: &str, errs: &mut Vec<String>| {
            Side::parse(s).unwrap_or_else(|| {
                errs.push(format!("{ctx}: side {s:?} unknown (french, allies)"));
                Side::French
            })
        };
        let sets_up_first = match &s.sets_up_first {
            Some(x) => side_of(x, "scenario [scenario] sets_up_first", &mut errs),
            None => first.other(),
        };
        let mut auto_activations = Vec::new();
        for a in &sf.automatic_activations {
            mark(&a.prov, "scenario [[automatic_activations]]", &mut prov);
            let side = side_of(&a.side, "scenario [[automatic_activations]]", &mut errs);
            auto_activations.push((a.turn, side, a.count));
        }
        let mut reinforcements = Vec::new();
        for r in &sf.reinforcements {
            let ctx = format!("scenario [[reinforcements]] {}", r.unit);
            mark(&r.prov, &ctx, &mut prov);
            let Some(&u) = unit_ix.get(&r.unit) else {
                errs.push(format!("{ctx}: unit not in oob.toml"));
                continue;
            };
            let hexes: Vec<HexId> = r
                .hexes
                .iter()
                .filter_map(|h| parse_hex(h, &ctx, &mut errs, &map))
                .collect();
            if hexes.is_empty() {
                errs.push(format!("{ctx}: no entry hex"));
            }
            if r.turn < first_turn || r.turn > s.turns {
                errs.push(format!("{ctx}: turn {} is not played", r.turn));
            }
            let facing = r.facing.as_deref().and_then(|f| {
                let v = parse_vertex(f);
                if v.is_none() {
                    errs.push(format!("{ctx}: facing {f:?} is not one of N NE SE S SW NW"));
                }
                v
            });
            reinforcements.push(Reinforcement {
                unit: u,
                turn: r.turn,
                hexes,
                facing,
                column: false,
            });
        }
        let mut column_entries = Vec::new();
        let mut entering_commanders = Vec::new();
        for (i, c) in sf.column_entries.iter().enumerate() {
            let ctx = format!("scenario [[column_entries]] #{}", i + 1);
            mark(&c.prov, &ctx, &mut prov);
            let side = side_of(&c.side, &ctx, &mut errs);
            let hexes: Vec<HexId> = c
                .hexes
                .iter()
                .filter_map(|h| parse_hex(h, &ctx, &mut errs, &map))
                .collect();
            if hexes.is_empty() {
                errs.push(format!("{ctx}: no entry hex"));
            }
            let mut fs = Vec::new();
            for f in &c.formations {
                match form_ix.get(f) {
                    Some(&fi) => fs.push(fi),
                    None => errs.push(format!("{ctx}: formation {f:?} not in oob.toml")),
                }
            }
            for u in &c.units {
                match unit_ix.get(u) {
                    Some(&ui) => reinforcements.push(Reinforcement {
                        unit: ui,
                        turn: c.turn,
                        hexes: hexes.clone(),
                        facing: None,
                        column: true,
                    }),
                    None => errs.push(format!("{ctx}: unit {u:?} not in oob.toml")),
                }
            }
            for k in &c.commanders {
                match cmd_ix.get(k) {
                    Some(&ci) => entering_commanders.push(ci),
                    None => errs.push(format!("{ctx}: commander {k:?} not in oob.toml")),
                }
            }
            column_entries.push(ColumnEntry {
                side,
                formations: fs,
                turn: c.turn,
                hexes,
            });
        }
        let zone = sf.zone_setup.as_ref().map(|z| {
            mark(&z.prov, "scenario [zone_setup]", &mut prov);
            ZoneSetup {
                side: side_of(&z.side, "scenario [zone_setup]", &mut errs),
                rows: (z.rows.min, z.rows.max),
                cols: (z.cols.min, z.cols.max),
            }
        });
        let household = match &sf.special {
            Some(sp) => {
                mark(&sp.prov, "scenario [special]", &mut prov);
                match sp.household.as_deref() {
                    None => None,
                    Some("fontenoy") => Some(HouseholdRule::Fontenoy),
                    Some("lauffeld") => Some(HouseholdRule::Lauffeld),
                    Some(o) => {
                        errs.push(format!(
                            "scenario [special]: household {o:?} unknown (fontenoy, lauffeld)"
                        ));
                        None
                    }
                }
            }
            None => None,
        };
        // Lauffeld 16.2: "The King can command the independent units of his house as if they were
        // a formation … his CR is 2": they form a formation under the King, with no formation
        // morale (13.2), whose units may still be activated one by one.
        if household == Some(HouseholdRule::Lauffeld)
            && let Some(k) = commanders.iter().position(|c| c.king)
        {
            let members: Vec<usize> = (0..units.len())
                .filter(|&i| units[i].household && units[i].formation.is_none())
                .collect();
            if !members.is_empty() {
                let fi = formations.len() as FormationIx;
                for &i in &members {
                    units[i].formation = Some(fi);
                }
                commanders[k].formation = Some(fi);
                if let Some(r) = sf.special.as_ref().and_then(|sp| sp.king_command_radius) {
                    commanders[k].radius = r;
                }
                formations.push(FormationDef {
                    id: "maison-du-roi".into(),
                    name: "Maison du Roi (the King)".into(),
                    side: Side::French,
                    commander: k as CommanderIx,
                    demoralisation: 0,
                    initial_steps: members.iter().map(|&i| u32::from(units[i].steps)).sum(),
                    nationality: Some(Nationality::French),
                    household: true,
                    no_morale: true,
                });
                // 17.2 option 3: "the Household (which may act as a formation under the King's
                // orders)" arrives in march column with the French formations: it marches as the
                // King's formation (14: a column is a whole formation; 14.4 automatic activation),
                // not as four reinforcements, and the King enters as its commander.
                let is_member = |u: UnitIx| members.contains(&usize::from(u));
                if let Some(c) = column_entries.iter_mut().find(|c| {
                    reinforcements.iter().any(|r| {
                        r.column && is_member(r.unit) && r.turn == c.turn && r.hexes == c.hexes
                    })
                }) {
                    reinforcements.retain(|r| !(r.column && is_member(r.unit)));
                    c.formations.push(fi);
                    entering_commanders.retain(|&x| usize::from(x) != k);
                }
            }
        }
        let mut setup = Vec::new();
        let mut placed: HashSet<UnitIx> = HashSet::new();
        for e in &sf.setup {
            let ctx = format!("scenario [[setup]] {}", e.unit);
            mark(&e.prov, &ctx, &mut prov);
            let Some(&u) = unit_ix.get(&e.unit) else {
                errs.push(format!("{ctx}: unit not in oob.toml"));
                continue;
            };
            let Some(h) = parse_hex(&e.hex, &ctx, &mut errs, &map) else {
                continue;
            };
            if !e.zone.is_empty() {
                let zone: Vec<HexId> = e
                    .zone
                    .iter()
                    .filter_map(|z| parse_hex(z, &ctx, &mut errs, &map))
                    .collect();
                if !zone.contains(&h) {
                    errs.push(format!("{ctx}: hex {h} is outside its printed zone"));
                }
            }
            let Some(f) = parse_vertex(&e.facing) else {
                errs.push(format!(
                    "{ctx}: facing {:?} is not one of N NE SE S SW NW",
                    e.facing
                ));
                continue;
            };
            if !placed.insert(u) {
                errs.push(format!("{ctx}: set up twice"));
            }
            setup.push(Placement {
                unit: u,
                hex: h,
                facing: f,
            });
        }
        let mut commander_setup = Vec::new();
        for e in &sf.commander_setup {
            let ctx = format!("scenario [[commander_setup]] {}", e.commander);
            mark(&e.prov, &ctx, &mut prov);
            let Some(&c) = cmd_ix.get(&e.commander) else {
                errs.push(format!("{ctx}: commander not in oob.toml"));
                continue;
            };
            if let Some(h) = parse_hex(&e.hex, &ctx, &mut errs, &map) {
                commander_setup.push((c, h));
            }
        }
        let mut abattis = Vec::new();
        for m in &sf.markers {
            let ctx = format!("scenario [[markers]] {}", m.kind);
            mark(&m.prov, &ctx, &mut prov);
            if m.kind != "abattis" {
                errs.push(format!("{ctx}: unknown marker kind"));
                continue;
            }
            if let Some(h) = parse_hex(&m.hex, &ctx, &mut errs, &map) {
                abattis.push(h);
            }
        }
        // Every side has exactly one army commander.
        for side in [Side::French, Side::Allies] {
            let n = commanders
                .iter()
                .filter(|c| c.side == side && c.army)
                .count();
            if n != 1 {
                errs.push(format!(
                    "oob.toml: {} has {n} army commanders (need 1)",
                    side.name()
                ));
            }
        }
        let free = sf.free_setup.as_ref().map(|f| {
            mark(&f.prov, "scenario [free_setup]", &mut prov);
            FreeSetup {
                allied_max_row: f.allied_max_row,
                allied_min_col: f.allied_min_col,
                french_min_row: f.french_min_row,
                french_min_distance: f.french_min_distance,
                column_min_distance: f.column_min_distance,
            }
        });
        let arrives = |i: usize| {
            reinforcements.iter().any(|r| usize::from(r.unit) == i)
                || column_entries.iter().any(|c| {
                    units[i]
                        .formation
                        .is_some_and(|f| c.formations.contains(&f))
                })
        };
        let missing_n = (0..units.len())
            .filter(|&i| !placed.contains(&(i as UnitIx)) && !arrives(i))
            .count();
        if free.is_none() && missing_n > 0 {
            let missing: Vec<&str> = units
                .iter()
                .enumerate()
                .filter(|(i, _)| !placed.contains(&(*i as UnitIx)) && !arrives(*i))
                .map(|(_, u)| u.id.as_str())
                .collect();
            errs.push(format!(
                "scenario [[setup]]: units not set up: {}",
                missing.join(", ")
            ));
        }
        if errs.is_empty() {
            Ok(Scenario {
                free,
                id: s.id.clone(),
                name: s.name.clone(),
                turns: s.turns,
                first,
                edition,
                first_turn,
                sets_up_first,
                rule: s.rule.clone().unwrap_or_else(|| "16.1".into()),
                activation,
                activation_by_nationality,
                auto_activations,
                reinforcements,
                column_entries,
                entering_commanders,
                zone,
                household,
                army_demoralisation: [sf.army_demoralisation.french, sf.army_demoralisation.allies],
                objectives,
                initial_control,
                units,
                formations,
                commanders,
                setup,
                commander_setup,
                tables_printed,
                abattis,
                map,
                tables,
                provenance: prov,
            })
        } else {
            Err(errs)
        }
    }

    /// The demoralisation check of `validate`: recomputed value per formation vs the printed one
    /// (13.1: a third of the initial steps, rounded as the edition says).
    pub fn demoralisation_check(&self) -> Vec<(String, u32, u32, u32)> {
        self.formations
            .iter()
            .filter(|f| !f.no_morale)
            .map(|f| {
                (
                    f.name.clone(),
                    f.initial_steps,
                    self.edition.demoralisation_value(f.initial_steps),
                    f.demoralisation,
                )
            })
            .collect()
    }

    /// Hexes of a victory objective by key ("hastenbeck", "fontenoy" …); empty if the scenario
    /// has none.
    pub fn objective(&self, key: &str) -> &[HexId] {
        self.objectives
            .iter()
            .find(|o| o.key == key)
            .map(|o| o.hexes.as_slice())
            .unwrap_or(&[])
    }

    /// Index of an objective in `State::control`.
    pub fn objective_ix(&self, key: &str) -> Option<usize> {
        self.objectives.iter().position(|o| o.key == key)
    }

    /// The activation value of a formation or (for `None`) an independent unit's side (5.1, 5.2):
    /// by nationality in Fontenoy/Lauffeld (16.1, 16.2), by side in Hastenbeck (16.1.2).
    pub fn activation_value(&self, side: Side, formation: Option<FormationIx>) -> u8 {
        match (self.activation_by_nationality, formation) {
            (Some(v), Some(f)) => {
                let n = self.formations[usize::from(f)]
                    .nationality
                    .unwrap_or(Nationality::French);
                v[n.ix()]
            }
            _ => self.activation[side.ix()],
        }
    }

    /// Unit index by id.
    pub fn unit_by_id(&self, id: &str) -> Option<UnitIx> {
        self.units
            .iter()
            .position(|u| u.id == id)
            .map(|i| i as UnitIx)
    }

    /// The army commander of a side at the start.
    pub fn army_commander(&self, side: Side) -> CommanderIx {
        self.commanders
            .iter()
            .position(|c| c.side == side && c.army)
            .unwrap_or(0) as CommanderIx
    }

    /// Ids of files, for messages.
    pub fn summary(&self) -> BTreeMap<&'static str, usize> {
        let mut m = BTreeMap::new();
        m.insert("units", self.units.len());
        m.insert("formations", self.formations.len());
        m.insert("commanders", self.commanders.len());
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_parse_round_trip() {
        for s in [
            "-",
            "TM",
            "TM+1",
            "TM-1",
            "TM+2-R1",
            "1-TM+2-R1",
            "1D-R1*",
            "2D-R2*",
            "3D-R2*",
            "E",
            "D",
            "1D-R2",
        ] {
            let o = Outcome::parse(s).unwrap(); // test literal
            assert_eq!(o.to_string(), s, "{s}");
        }
        let o = Outcome::parse("1-TM+2-R1").unwrap(); // test literal
        assert_eq!(
            (o.steps, o.tm, o.retreat, o.disorganise),
            (1, Some(2), 1, false)
        );
        assert!(Outcome::parse("X").is_none());
    }
}
