//! Scenario data as written in the TOML files (`scenarios/<battle>/`): plain public fields that may
//! be wrong. [`crate::scenario::Scenario::build`] validates them into a playable scenario.
use serde::Deserialize;
use std::collections::BTreeMap;

/// Where a datum comes from: the book, or our reconstruction and why.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct Provenance {
    /// A rule book reference.
    #[serde(default)]
    pub source: Option<String>,
    /// Why and from what we reconstructed it.
    #[serde(default)]
    pub reconstructed: Option<String>,
}

/// `map.toml`.
#[derive(Clone, Debug, Deserialize)]
pub struct MapFile {
    /// Header.
    pub map: MapHeader,
    /// Terrain groups.
    #[serde(default)]
    pub hexes: Vec<HexGroup>,
    /// Height groups.
    #[serde(default)]
    pub levels: Vec<LevelGroup>,
    /// Hexside features.
    #[serde(default)]
    pub hexsides: Vec<HexsideEntry>,
    /// Named places.
    #[serde(default)]
    pub places: Vec<PlaceEntry>,
    /// Friendly map edges.
    pub edges: Edges,
}

/// Inclusive range.
#[derive(Clone, Copy, Debug, Deserialize)]
pub struct Range {
    /// Lowest.
    pub min: u8,
    /// Highest.
    pub max: u8,
}

/// Map header.
#[derive(Clone, Debug, Deserialize)]
pub struct MapHeader {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Rows.
    pub rows: Range,
    /// Columns.
    pub cols: Range,
    /// Terrain of hexes not listed.
    #[serde(default = "clear")]
    pub default_terrain: String,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

fn clear() -> String {
    "clear".into()
}

/// A group of hexes with one terrain.
#[derive(Clone, Debug, Deserialize)]
pub struct HexGroup {
    /// Printed ids.
    pub ids: Vec<String>,
    /// Terrain name.
    pub terrain: String,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// A group of hexes at one level.
#[derive(Clone, Debug, Deserialize)]
pub struct LevelGroup {
    /// Printed ids.
    pub ids: Vec<String>,
    /// Level.
    pub level: u8,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// Features of one hexside.
#[derive(Clone, Debug, Deserialize)]
pub struct HexsideEntry {
    /// The two hexes.
    pub between: [String; 2],
    /// stream, river, bridge, road, trail.
    pub features: Vec<String>,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// A named place.
#[derive(Clone, Debug, Deserialize)]
pub struct PlaceEntry {
    /// Name.
    pub name: String,
    /// Hexes.
    pub hexes: Vec<String>,
    /// A fortified village: cavalry may never attack it (10.1 note).
    #[serde(default)]
    pub fortified: bool,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// One name or a list of names.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum OneOrMany {
    /// One.
    One(String),
    /// Several.
    Many(Vec<String>),
}

impl OneOrMany {
    /// The names.
    pub fn names(&self) -> Vec<&str> {
        match self {
            OneOrMany::One(s) => vec![s.as_str()],
            OneOrMany::Many(v) => v.iter().map(String::as_str).collect(),
        }
    }
}

/// Friendly map edges, in grid terms: north = lowest rows, south = highest rows, east = lowest
/// columns, west = highest columns. A side may have several (Fontenoy 16.1: "south-west and
/// south-east").
#[derive(Clone, Debug, Deserialize)]
pub struct Edges {
    /// French edge(s).
    pub french: OneOrMany,
    /// Allied edge(s).
    pub allies: OneOrMany,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// `oob.toml`.
#[derive(Clone, Debug, Deserialize)]
pub struct OobFile {
    /// Commanders.
    pub commanders: Vec<CommanderEntry>,
    /// Formations.
    pub formations: Vec<FormationEntry>,
    /// Units.
    pub units: Vec<UnitEntry>,
}

/// A commander counter.
#[derive(Clone, Debug, Deserialize)]
pub struct CommanderEntry {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// french / allies.
    pub side: String,
    /// army / formation.
    pub kind: String,
    /// Command radius.
    pub command_radius: u8,
    /// Formation (formation commanders).
    #[serde(default)]
    pub formation: Option<String>,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// A formation.
#[derive(Clone, Debug, Deserialize)]
pub struct FormationEntry {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Side.
    pub side: String,
    /// Commander id.
    pub commander: String,
    /// Printed demoralisation value.
    pub demoralisation: u32,
    /// Nationality, for activation values by nationality (Fontenoy/Lauffeld 16.1, 16.2).
    #[serde(default)]
    pub nationality: Option<String>,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// A combat unit counter.
#[derive(Clone, Debug, Deserialize)]
pub struct UnitEntry {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Side.
    pub side: String,
    /// Formation id or "independent".
    pub formation: String,
    /// Kind.
    pub kind: String,
    /// Combat points (front).
    #[serde(default)]
    pub cp: Option<u8>,
    /// Combat points on the back (reduced) side; reconstructed as half the front, rounded down, when absent.
    #[serde(default)]
    pub cp_reduced: Option<u8>,
    /// Morale.
    #[serde(default)]
    pub morale: Option<u8>,
    /// Movement points.
    #[serde(default)]
    pub mp: Option<u8>,
    /// Calibre.
    #[serde(default)]
    pub calibre: Option<u8>,
    /// Crossed swords.
    #[serde(default)]
    pub crossed_swords: bool,
    /// Grenadiers.
    #[serde(default)]
    pub grenadiers: bool,
    /// Nationality (independent units; for display).
    #[serde(default)]
    pub nationality: Option<String>,
    /// A unit of the King's Household (Maison du Roi; Fontenoy/Lauffeld 16.1, 16.2).
    #[serde(default)]
    pub household: bool,
    /// Grassin's arquebusiers: light in rough terrain, abattis and woods, normal elsewhere
    /// (Fontenoy/Lauffeld 1.3.1).
    #[serde(default)]
    pub grassin: bool,
    /// In play only with this game option (a counter of an optional rule).
    #[serde(default)]
    pub optional: Option<String>,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// `scenario.toml`.
#[derive(Clone, Debug, Deserialize)]
pub struct ScenarioFile {
    /// Header.
    pub scenario: ScenarioHeader,
    /// Activation values by side (Hastenbeck 16.1.2).
    #[serde(default)]
    pub activation: Option<SideValues>,
    /// Activation values by nationality (Fontenoy/Lauffeld 16.1, 16.2).
    #[serde(default)]
    pub activation_by_nationality: Option<NationValues>,
    /// Automatic activations (Fontenoy/Lauffeld 16.1, 16.2).
    #[serde(default)]
    pub automatic_activations: Vec<AutoActivationEntry>,
    /// Reinforcements (Fontenoy/Lauffeld 8.8).
    #[serde(default)]
    pub reinforcements: Vec<ReinforcementEntry>,
    /// Special rules.
    #[serde(default)]
    pub special: Option<SpecialEntry>,
    /// Formations entering in march column (Fontenoy/Lauffeld 17).
    #[serde(default)]
    pub column_entries: Vec<ColumnEntryData>,
    /// A side deploying freely inside a zone (Fontenoy 17.1 option 2).
    #[serde(default)]
    pub zone_setup: Option<ZoneSetupEntry>,
    /// Army demoralisation thresholds.
    pub army_demoralisation: SideValues,
    /// Objectives.
    pub objectives: Objectives,
    /// Unit set-up.
    #[serde(default)]
    pub setup: Vec<SetupEntry>,
    /// Commander set-up.
    #[serde(default)]
    pub commander_setup: Vec<CommanderSetup>,
    /// Markers.
    #[serde(default)]
    pub markers: Vec<MarkerEntry>,
    /// The free set-up rules (16.2), when the scenario has one.
    #[serde(default)]
    pub free_setup: Option<FreeSetupEntry>,
}

/// Activation values by nationality.
#[derive(Clone, Debug, Deserialize)]
pub struct NationValues {
    /// French.
    pub french: u8,
    /// English.
    pub english: u8,
    /// Dutch.
    pub dutch: u8,
    /// Austrian.
    pub austrian: u8,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// Automatic activations of a side on a turn.
#[derive(Clone, Debug, Deserialize)]
pub struct AutoActivationEntry {
    /// Turn number (as on the turn track).
    pub turn: u8,
    /// Side.
    pub side: String,
    /// How many.
    pub count: u8,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// A unit arriving as a reinforcement (8.8).
#[derive(Clone, Debug, Deserialize)]
pub struct ReinforcementEntry {
    /// Unit id.
    pub unit: String,
    /// Turn number.
    pub turn: u8,
    /// Entry hexes (any one of them).
    pub hexes: Vec<String>,
    /// Facing on entry (default: away from the side's own edge, chosen by the owner).
    #[serde(default)]
    pub facing: Option<String>,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// Scenario special rules.
#[derive(Clone, Debug, Deserialize)]
pub struct SpecialEntry {
    /// The Household rule: "fontenoy" (16.1) or "lauffeld" (16.2).
    #[serde(default)]
    pub household: Option<String>,
    /// Lauffeld 16.2: the King's command radius when he commands the Household as a formation.
    #[serde(default)]
    pub king_command_radius: Option<u8>,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// Formations that enter in march column (17.1, 17.2).
#[derive(Clone, Debug, Deserialize)]
pub struct ColumnEntryData {
    /// Side.
    pub side: String,
    /// Formation ids (and "independent" units by id).
    pub formations: Vec<String>,
    /// Independent units entering with them (they enter as reinforcements by the same hexes, 8.8).
    #[serde(default)]
    pub units: Vec<String>,
    /// Commanders entering with them (placed with the first unit of their side to enter).
    #[serde(default)]
    pub commanders: Vec<String>,
    /// Turn of entry.
    pub turn: u8,
    /// Entry hexes.
    pub hexes: Vec<String>,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// A side deploys freely in a zone (17.1 option 2).
#[derive(Clone, Debug, Deserialize)]
pub struct ZoneSetupEntry {
    /// Side.
    pub side: String,
    /// Rows allowed.
    pub rows: Range,
    /// Columns allowed.
    pub cols: Range,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// The placement rules of a free set-up (Hastenbeck 16.2).
#[derive(Clone, Debug, Deserialize)]
pub struct FreeSetupEntry {
    /// The Allies set up no further south than this row.
    pub allied_max_row: u8,
    /// The Allies set up no further east than this column (columns grow westward).
    pub allied_min_col: u8,
    /// The French set up no further north than this row.
    pub french_min_row: u8,
    /// The French set up at least this far from the nearest enemy unit.
    pub french_min_distance: u32,
    /// Columns may not march or deploy nearer than this to an enemy unit (14.1).
    pub column_min_distance: u32,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// Scenario header.
#[derive(Clone, Debug, Deserialize)]
pub struct ScenarioHeader {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Turns.
    pub turns: u8,
    /// First player.
    pub first_player: String,
    /// Edition of the rules: "hastenbeck" (default) or "fontenoy-lauffeld".
    #[serde(default)]
    pub edition: Option<String>,
    /// First turn on the turn track (Fontenoy 16.1: 4); default 1.
    #[serde(default)]
    pub first_turn: Option<u8>,
    /// Who sets up first.
    #[serde(default)]
    pub sets_up_first: Option<String>,
    /// The rule book's number for this scenario ("16.2", "17.1"), cited by the opening event;
    /// 16.1 when absent.
    #[serde(default)]
    pub rule: Option<String>,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// A value per side.
#[derive(Clone, Debug, Deserialize)]
pub struct SideValues {
    /// French.
    pub french: u8,
    /// Allies.
    pub allies: u8,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// Victory objectives: named places the victory conditions speak of.
#[derive(Clone, Debug, Deserialize)]
pub struct Objectives {
    /// Key (used by the victory rules) → place name on the map.
    pub places: BTreeMap<String, String>,
    /// Side holding them at the start.
    pub initial_control: String,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// Where a unit starts.
#[derive(Clone, Debug, Deserialize)]
pub struct SetupEntry {
    /// Unit id.
    pub unit: String,
    /// Hex.
    pub hex: String,
    /// Facing vertex.
    pub facing: String,
    /// The printed zone when the book gives a range of hexes instead of one hex.
    #[serde(default)]
    pub zone: Vec<String>,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// Where a commander starts.
#[derive(Clone, Debug, Deserialize)]
pub struct CommanderSetup {
    /// Commander id.
    pub commander: String,
    /// Hex.
    pub hex: String,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// A marker on the map.
#[derive(Clone, Debug, Deserialize)]
pub struct MarkerEntry {
    /// Kind ("abattis").
    pub kind: String,
    /// Hex.
    pub hex: String,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// `tables.toml`.
#[derive(Clone, Debug, Deserialize)]
pub struct TablesFile {
    /// Terrain rows.
    pub terrain: Vec<TerrainRow>,
    /// Hexside features.
    pub hexsides: HexsideTable,
    /// Heights.
    pub heights: Heights,
    /// Abattis.
    pub abattis: Abattis,
    /// Redoubt.
    pub redoubt: RedoubtRow,
    /// Unit types.
    pub unit_type: UnitTypeTable,
    /// Artillery table.
    pub artillery: ArtilleryTable,
    /// CRT.
    pub crt: CrtTable,
}

/// A cost: a number or "forbidden".
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum Cost {
    /// MP.
    Mp(u8),
    /// "forbidden".
    Word(String),
}

/// Terrain row.
#[derive(Clone, Debug, Deserialize)]
pub struct TerrainRow {
    /// Name.
    pub name: String,
    /// Infantry cost.
    pub cost_infantry: Cost,
    /// Cavalry cost.
    pub cost_cavalry: Cost,
    /// Artillery cost.
    pub cost_artillery: Cost,
    /// Fire DRM.
    pub fire: i8,
    /// Combat DRM.
    pub combat: i8,
    /// Blocks ZoC.
    pub blocks_zoc: bool,
    /// Blocks LoS.
    pub blocks_los: bool,
    /// Town: flanks count as front.
    #[serde(default)]
    pub town_flanks_are_front: bool,
    /// F/L 3.1: only one unit with a gun may stack here (village, rough terrain).
    #[serde(default)]
    pub restricted_stacking: bool,
    /// 10.1 note: cavalry may never attack a unit here (a fortified village).
    #[serde(default)]
    pub cavalry_may_not_attack: bool,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// Hexside features.
#[derive(Clone, Debug, Deserialize)]
pub struct HexsideTable {
    /// Stream.
    pub stream: Stream,
    /// River.
    pub river: River,
    /// Road.
    pub road: RoadRow,
    /// Trail.
    pub trail: RoadRow,
}

/// Stream.
#[derive(Clone, Debug, Deserialize)]
pub struct Stream {
    /// Extra MP.
    pub extra_cost: u8,
    /// Combat DRM across.
    pub combat: i8,
    /// Blocks ZoC.
    pub blocks_zoc: bool,
    /// Disorganises next to marsh.
    pub disorganises_next_to_marsh: bool,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// River.
#[derive(Clone, Debug, Deserialize)]
pub struct River {
    /// Impassable without bridge.
    pub impassable: bool,
    /// Combat DRM across a bridge.
    pub combat: i8,
    /// Blocks ZoC.
    pub blocks_zoc: bool,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// Road or trail.
#[derive(Clone, Debug, Deserialize)]
pub struct RoadRow {
    /// Cost along it.
    pub cost: u8,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// Heights.
#[derive(Clone, Debug, Deserialize)]
pub struct Heights {
    /// Extra MP uphill.
    pub uphill_extra_cost: u8,
    /// DRM attacking uphill.
    pub attack_uphill: i8,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// Abattis.
#[derive(Clone, Debug, Deserialize)]
pub struct Abattis {
    /// Extra MP.
    pub extra_cost: u8,
    /// Combat DRM.
    pub combat: i8,
    /// No cavalry.
    pub cavalry_forbidden: bool,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// Redoubt.
#[derive(Clone, Debug, Deserialize)]
pub struct RedoubtRow {
    /// Combat DRM.
    pub combat: i8,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// Unit-type modifiers.
#[derive(Clone, Debug, Deserialize)]
pub struct UnitTypeTable {
    /// Cavalry vs normal infantry.
    pub cavalry_vs_normal_infantry: i8,
    /// Cavalry vs disorganised infantry.
    pub cavalry_vs_disorganised_infantry: i8,
    /// Crossed swords vs cavalry.
    pub crossed_swords_vs_cavalry: i8,
    /// Light attacker in clear.
    pub light_attacking_non_light_in_clear: i8,
    /// Light defender in clear.
    pub non_light_attacking_light_in_clear: i8,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// Artillery table.
#[derive(Clone, Debug, Deserialize)]
pub struct ArtilleryTable {
    /// Lowest row.
    pub min_row: i8,
    /// Highest row.
    pub max_row: i8,
    /// Range.
    pub max_range: u8,
    /// Rows.
    pub rows: Vec<ArtRow>,
    /// Modifiers.
    pub modifiers: ArtMods,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// Artillery row.
#[derive(Clone, Debug, Deserialize)]
pub struct ArtRow {
    /// Modified die.
    pub die: i8,
    /// Result.
    pub result: String,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// Artillery modifiers.
#[derive(Clone, Debug, Deserialize)]
pub struct ArtMods {
    /// Light target.
    pub light_target: i8,
    /// Shooter disorganised.
    pub shooter_disorganised: i8,
    /// Flank.
    pub flank: i8,
    /// Per hex beyond first.
    pub per_hex_beyond_first: i8,
    /// Adjacent.
    pub adjacent: i8,
    /// 12 lb.
    pub calibre_12: i8,
}

/// CRT.
#[derive(Clone, Debug, Deserialize)]
pub struct CrtTable {
    /// Lowest row.
    pub min_row: i8,
    /// Highest row.
    pub max_row: i8,
    /// Rows.
    pub rows: Vec<CrtRow>,
    /// Ratio columns.
    pub ratio: RatioTable,
    /// Modifiers.
    pub modifiers: CrtMods,
}

/// CRT row.
#[derive(Clone, Debug, Deserialize)]
pub struct CrtRow {
    /// Modified die.
    pub die: i8,
    /// Attacker result.
    pub attacker: String,
    /// Defender result.
    pub defender: String,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// Ratio columns.
#[derive(Clone, Debug, Deserialize)]
pub struct RatioTable {
    /// [att, def, drm].
    pub columns: Vec<[i32; 3]>,
    /// Below the last.
    pub below: i8,
}

/// CRT modifiers.
#[derive(Clone, Debug, Deserialize)]
pub struct CrtMods {
    /// Flank.
    pub flank: i8,
    /// Rear.
    pub rear: i8,
    /// Demoralised.
    pub demoralised: i8,
    /// Disorganised.
    pub disorganised: i8,
    /// Commander.
    pub commander: i8,
    /// Order changed in ZoC.
    pub order_changed_in_zoc: i8,
    /// Artillery.
    pub artillery: i8,
    /// March column.
    pub march_column: i8,
}

/// The files of one battle, as text.
#[derive(Clone, Debug)]
pub struct BattleFiles {
    /// map.toml.
    pub map: String,
    /// oob.toml.
    pub oob: String,
    /// scenario.toml (one per scenario id).
    pub scenarios: BTreeMap<String, String>,
    /// tables.toml.
    pub tables: String,
}
