//! Scenario data as written in the TOML files (`scenarios/bar-drill/`, `scenarios/prague/`): plain
//! public fields that may be wrong. [`crate::scenario::Scenario::build`] validates them (every
//! problem at once, naming file and field) into a playable scenario.
//!
//! A BAR box carries its own charts (1.2b): a scenario names the box whose `charts.toml` it uses
//! (`charts = "prague"`); the charts are [`crate::charts`].
use serde::Deserialize;

/// Where a datum comes from: the book (`source = "BAR 6.1"`), or our reconstruction and why.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct Provenance {
    /// A rule book reference.
    #[serde(default)]
    pub source: Option<String>,
    /// Why and from what we reconstructed it.
    #[serde(default)]
    pub reconstructed: Option<String>,
    /// Invented for a drill scenario (no historical counterpart).
    #[serde(default)]
    pub invented: Option<String>,
}

/// `map.toml`: the hexes of one or more maps (1.3).
#[derive(Clone, Debug, Deserialize)]
pub struct MapFile {
    /// Header.
    pub map: MapHeader,
    /// Terrain of groups of hexes (each hex takes the last group naming it).
    #[serde(default)]
    pub hexes: Vec<HexGroup>,
    /// Hexside features (streams, slopes) between two adjacent hexes.
    #[serde(default)]
    pub hexsides: Vec<HexsideEntry>,
    /// Roads: chains of adjacent hexes (7.3b, 6.8b, 11.2c).
    #[serde(default)]
    pub roads: Vec<RoadEntry>,
    /// Named places.
    #[serde(default)]
    pub places: Vec<PlaceEntry>,
    /// The maps of a multi-map board (1.3b–c); none for a single map numbered as the header says.
    #[serde(default)]
    pub sheet: Vec<SheetEntry>,
}

/// A map of a multi-map board (1.3b): its code (its first letter prefixes its hex ids, 1.3c), its
/// printed rows and columns, and where its hex `rrcc` lies on the board (row + `row_offset`, column
/// + `col_offset`, in the board's one grid).
#[derive(Clone, Debug, Deserialize)]
pub struct SheetEntry {
    /// Code (`"WEST"`).
    pub code: String,
    /// First and last printed row.
    pub rows: [u8; 2],
    /// First and last printed column.
    pub cols: [u8; 2],
    /// Rows added to place it on the board.
    #[serde(default)]
    pub row_offset: u8,
    /// Columns added to place it on the board.
    #[serde(default)]
    pub col_offset: u8,
}

/// Map header.
#[derive(Clone, Debug, Deserialize)]
pub struct MapHeader {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// First and last printed row (inclusive).
    pub rows: [u8; 2],
    /// First and last printed column (inclusive).
    pub cols: [u8; 2],
    /// Terrain of hexes not listed.
    #[serde(default = "clear")]
    pub default_terrain: String,
    /// Provenance of the whole map.
    #[serde(flatten)]
    pub prov: Provenance,
}

fn clear() -> String {
    "clear".into()
}

/// A group of hexes sharing a terrain (and optionally a height level).
#[derive(Clone, Debug, Deserialize)]
pub struct HexGroup {
    /// Printed hex ids.
    pub ids: Vec<String>,
    /// Terrain key of the TEC (T1), e.g. `"village"`.
    #[serde(default)]
    pub terrain: Option<String>,
    /// Height level (12.6).
    #[serde(default)]
    pub level: Option<u8>,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// A hexside feature.
#[derive(Clone, Debug, Deserialize)]
pub struct HexsideEntry {
    /// The two hexes either side.
    pub between: [String; 2],
    /// Hexside key of the TEC, e.g. `"stream"`, `"slope"`.
    pub feature: String,
}

/// A road: each hex adjacent to the next.
#[derive(Clone, Debug, Deserialize)]
pub struct RoadEntry {
    /// Name.
    #[serde(default)]
    pub name: String,
    /// The hexes in order.
    pub hexes: Vec<String>,
}

/// A named place.
#[derive(Clone, Debug, Deserialize)]
pub struct PlaceEntry {
    /// Name.
    pub name: String,
    /// Its hex.
    pub hex: String,
}

/// `oob.toml`: the Order of Battle chart (T22) and the counters (T23).
#[derive(Clone, Debug, Deserialize)]
pub struct OobFile {
    /// The two armies, first seat first.
    pub army: Vec<ArmyEntry>,
    /// Leaders.
    #[serde(default)]
    pub leader: Vec<LeaderEntry>,
    /// Wings (5.0).
    #[serde(default)]
    pub wing: Vec<WingEntry>,
    /// Brigades (5.0; "Commands" in Part 1).
    #[serde(default)]
    pub brigade: Vec<BrigadeEntry>,
    /// Combat units.
    #[serde(default)]
    pub unit: Vec<UnitEntry>,
}

/// An army (5.0).
#[derive(Clone, Debug, Deserialize)]
pub struct ArmyEntry {
    /// Id (`"prussia"`).
    pub id: String,
    /// Name for people (`"Prussia"`).
    pub name: String,
    /// Its army leader (a leader id).
    pub leader: String,
    /// The direction of its rear for rout retreats (20.2g): `"N"`, `"NE"`, `"E"`, `"SE"`, `"S"`,
    /// `"SW"`, `"W"` or `"NW"`.
    pub rear: String,
    /// The number of ranks of its infantry (12.0 A, T5).
    #[serde(default = "three")]
    pub ranks: u8,
    /// Its Current Loss Level table in the charts (T20), by key.
    pub loss_table: String,
}

fn three() -> u8 {
    3
}

/// The kind of a leader (5.0).
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, serde::Serialize, Hash)]
#[serde(rename_all = "lowercase")]
pub enum LeaderKind {
    /// Army leader.
    Army,
    /// Wing leader.
    Wing,
    /// Brigade ("Command") leader.
    Brigade,
    /// Special leader (6.6f).
    Special,
}

/// A leader counter (T23).
#[derive(Clone, Debug, Deserialize)]
pub struct LeaderEntry {
    /// Id.
    pub id: String,
    /// Printed name.
    pub name: String,
    /// Army id.
    pub army: String,
    /// Kind.
    pub kind: LeaderKind,
    /// Command range in hexes (7.1).
    pub range: u8,
    /// Initiative rating for leader initiative (7.4a: d10 ≤ rating). Army leaders need none.
    #[serde(default)]
    pub initiative: u8,
    /// ER bonus added to the ER of a unit he is stacked with (21.3; negative is good).
    #[serde(default)]
    pub er_bonus: i8,
    /// CV bonus in close combat (21.2b).
    #[serde(default)]
    pub cv_bonus: i8,
    /// Modifier to the pursuit points roll of cavalry he is stacked with (16.2a); absent: the
    /// charts' value for his kind (`pursuit_leader`).
    #[serde(default)]
    pub pp_modifier: Option<i8>,
    /// Army leader's Command Rating (6.1a).
    #[serde(default)]
    pub cr: u8,
    /// Army leader's Wing Activation Number (6.5a).
    #[serde(default)]
    pub wan: u8,
    /// Movement allowance (21.1).
    #[serde(default = "leader_ma")]
    pub ma: u8,
    /// Loss value on the Army Loss Chart (21.4b, 23.1a).
    #[serde(default)]
    pub loss: u8,
    /// For a replacement leader: the leader whose post he takes when that one is wounded or killed
    /// (21.5). A replacement starts off the map unless he has a set-up hex.
    #[serde(default)]
    pub replaces: Option<String>,
    /// Provenance of the values.
    #[serde(flatten)]
    pub prov: Provenance,
}

fn leader_ma() -> u8 {
    8
}

/// A wing (5.0).
#[derive(Clone, Debug, Deserialize)]
pub struct WingEntry {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Wing leader (a leader id).
    pub leader: String,
}

/// A brigade (5.0).
#[derive(Clone, Debug, Deserialize)]
pub struct BrigadeEntry {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Army id.
    pub army: String,
    /// Brigade leader (a leader id).
    pub leader: String,
    /// Its wing, if any (5.0: a brigade may be directly under the army leader).
    #[serde(default)]
    pub wing: Option<String>,
}

/// A combat unit's type.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, serde::Serialize, Hash)]
#[serde(rename_all = "lowercase")]
pub enum Arm {
    /// Infantry.
    Infantry,
    /// Cavalry.
    Cavalry,
    /// Artillery.
    Artillery,
}

/// A combat unit counter (T23).
#[derive(Clone, Debug, Deserialize)]
pub struct UnitEntry {
    /// Id.
    pub id: String,
    /// Printed name (`"IR 24/I"`).
    pub name: String,
    /// Army id.
    pub army: String,
    /// Brigade id; none for an independent unit (5.0).
    #[serde(default)]
    pub brigade: Option<String>,
    /// Regiment designation (6.2); units of one regiment share it.
    #[serde(default)]
    pub regiment: Option<String>,
    /// Arm.
    pub arm: Arm,
    /// Sub-type: `"grenadier"`, `"fusilier"`, `"light"`, `"heavy"`, `"medium"`, `"hussar"`,
    /// `"12pdr"`… (T4, T11 keys).
    #[serde(default)]
    pub sub: String,
    /// Printed strength points (2.0).
    pub sp: u8,
    /// Effectiveness Rating (two digits; checks fail below it, 18.1a).
    pub er: u8,
    /// Close-combat value (13.11).
    #[serde(default)]
    pub cv: i8,
    /// Movement allowance.
    pub ma: u8,
    /// Skirmish ability (8.1g): `"no"`, `"capable"` or `"only"`.
    #[serde(default = "no")]
    pub skirmish: String,
    /// A light unit for retreat before close combat and the cavalry type (20.1, 13.11c), as the
    /// Battle Rules list them (13.9a, A55); absent: light when `sub` is `"light"` or `"hussar"`.
    #[serde(default)]
    pub light: Option<bool>,
    /// Artillery: the prolonge mark on the unlimbered side of the counter (11.6): `"P"` or
    /// `"FP"`; absent, none.
    #[serde(default)]
    pub prolonge: Option<Prolonge>,
    /// A parent unit (8.5): the ids of the component units it breaks down into (at least two,
    /// their printed SPs summing to its own). Components stay off the map while it is on it.
    #[serde(default)]
    pub components: Vec<String>,
    /// Provenance of the values.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// An artillery counter's prolonge mark (11.6).
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, serde::Serialize, Hash)]
pub enum Prolonge {
    /// 'P': one hex by prolonge if it did not fire in the fire phase before.
    #[serde(rename = "P")]
    P,
    /// 'FP' (fire and prolonge): one hex by prolonge even after firing.
    #[serde(rename = "FP")]
    Fp,
}

fn no() -> String {
    "no".into()
}

/// `scenario.toml`.
#[derive(Clone, Debug, Deserialize)]
pub struct ScenarioFile {
    /// Header.
    pub scenario: ScenarioHeader,
    /// Where units start.
    #[serde(default)]
    pub setup: Vec<SetupEntry>,
    /// Where leaders start.
    #[serde(default)]
    pub leader_setup: Vec<LeaderSetup>,
    /// Reinforcements (22).
    #[serde(default)]
    pub reinforcement: Vec<ReinforcementEntry>,
    /// Detachments (24).
    #[serde(default)]
    pub detachment: Vec<DetachmentEntry>,
    /// Victory levels (the series has none: C9).
    #[serde(default)]
    pub victory: Vec<VictoryEntry>,
    /// Objective places (invented: C9), counted into the victory margin.
    #[serde(default)]
    pub objective: Vec<ObjectiveEntry>,
}

/// An objective place: held by the army that last had a combat unit in its hex.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct ObjectiveEntry {
    /// Name.
    pub name: String,
    /// Hex.
    pub hex: String,
    /// Points to its holder.
    pub points: u16,
    /// Army id holding it at the start.
    pub holder: String,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// Scenario header.
#[derive(Clone, Debug, Deserialize)]
pub struct ScenarioHeader {
    /// Id (`"bar-drill"`).
    pub id: String,
    /// Name.
    pub name: String,
    /// The box whose charts it uses (a directory under the data dir with `charts.toml`).
    pub charts: String,
    /// Clock time of the first turn, `"HH:MM"`, minutes a multiple of 20 (2.0).
    pub first_turn: String,
    /// Number of game turns.
    pub turns: u16,
    /// End Turn Number (6.7a, T21).
    pub etn: u8,
    /// Numbered boxes of the Turn Track before 'End' (6.7 example: boxes 1–5, then End).
    pub end_boxes: u8,
    /// The maps it uses, by letter (1.3b); all if empty.
    #[serde(default)]
    pub maps: Vec<String>,
    /// Limit of initiative special results per game turn (6.9c); none if absent.
    #[serde(default)]
    pub isr_limit: Option<u8>,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// A unit's starting place.
#[derive(Clone, Debug, Deserialize)]
pub struct SetupEntry {
    /// Unit id.
    pub unit: String,
    /// Its hexes, the right-hand one first for a line (8.1a), the head first for a column.
    pub hexes: Vec<String>,
    /// Facing: a hexpoint (`"N"`, `"NE"`, …) or a hexside for columns.
    pub facing: String,
    /// Formation key (8.1): `"line"`, `"march"`, `"road"`, `"attack"`, `"square"`, `"skirmish"`,
    /// `"general"`, `"limbered"`, `"unlimbered"`, `"hook-left"`, `"hook-right"`.
    pub formation: String,
    /// Starting SP lost (for drills and tests).
    #[serde(default)]
    pub lost: u8,
    /// Starting state: `"disordered"`, `"shaken"`, `"routed"` (drills and tests).
    #[serde(default)]
    pub state: Vec<String>,
}

/// A leader's starting place.
#[derive(Clone, Debug, Deserialize)]
pub struct LeaderSetup {
    /// Leader id.
    pub leader: String,
    /// Hex.
    pub hex: String,
}

/// A reinforcement group (22.1): units and leaders arriving at a hex on a turn.
#[derive(Clone, Debug, Deserialize)]
pub struct ReinforcementEntry {
    /// Game turn of arrival (1 = the first).
    pub turn: u16,
    /// Entry hex on a map edge (22.4).
    pub hex: String,
    /// Unit ids.
    #[serde(default)]
    pub units: Vec<String>,
    /// Leader ids.
    #[serde(default)]
    pub leaders: Vec<String>,
}

/// A detachment (24.1).
#[derive(Clone, Debug, Deserialize)]
pub struct DetachmentEntry {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Detachment leader (acts as army leader for it, 24.1a).
    pub leader: String,
    /// Its brigades.
    pub brigades: Vec<String>,
    /// Its independent units.
    #[serde(default)]
    pub units: Vec<String>,
}

/// A victory level read at the end from losses and objectives (invented: C9).
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct VictoryEntry {
    /// Level name.
    pub level: String,
    /// Winning army id, or none for a draw.
    #[serde(default)]
    pub winner: Option<String>,
    /// Minimum of (the other army's CLT − the winner's CLT) + objective points, for this level.
    pub margin: i32,
}
