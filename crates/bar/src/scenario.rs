//! A validated scenario: the data files checked and indexed, every problem reported at once with
//! its file and field.
use crate::charts::Charts;
use crate::data::{
    Arm, LeaderKind, MapFile, OobFile, Provenance, ScenarioFile, UnitEntry, VictoryEntry,
};
use crate::geom::{Facing, Formation};
use engine::points::Half;
use hexmap::{Dir, HexId};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

/// A unit index (into [`Scenario::units`] and the state's units).
pub type UnitIx = u16;
/// A leader index.
pub type LeaderIx = u16;
/// A brigade index.
pub type BrigadeIx = u16;
/// A wing index.
pub type WingIx = u16;

/// A hex of the board.
#[derive(Clone, Debug, PartialEq)]
pub struct HexInfo {
    /// TEC terrain key.
    pub terrain: String,
    /// Height level.
    pub level: u8,
}

/// The board: hexes, hexside features, roads.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Board {
    /// Every hex on the maps (FxHash: looked up on every rules query; never iterated unsorted).
    pub hexes: rustc_hash::FxHashMap<HexId, HexInfo>,
    /// Hexside features by the unordered pair of hexes.
    pub hexsides: rustc_hash::FxHashMap<(HexId, HexId), String>,
    /// Road links between adjacent hexes (7.3b: "from a road hex to a contiguous road hex").
    pub roads: BTreeSet<(HexId, HexId)>,
    /// Named places.
    pub places: Vec<(String, HexId)>,
    /// Map name.
    pub name: String,
    /// The dense index of the board's hexes, for searches (built by [`Board::index`]).
    pub dense: Dense,
    /// The maps of a multi-map board (1.3b–c); empty for a single map.
    pub sheets: Vec<Sheet>,
}

/// A map of a multi-map board, placed in the board's grid.
#[derive(Clone, Debug, PartialEq)]
pub struct Sheet {
    /// Its letter (1.3c).
    pub letter: char,
    /// First and last printed row.
    pub rows: [u8; 2],
    /// First and last printed column.
    pub cols: [u8; 2],
    /// Rows added on the board.
    pub row_offset: u8,
    /// Columns added on the board.
    pub col_offset: u8,
    /// Whether the scenario uses it (1.3b).
    pub used: bool,
}

impl Sheet {
    fn holds(&self, row: u8, col: u8) -> bool {
        (self.rows[0]..=self.rows[1]).contains(&row) && (self.cols[0]..=self.cols[1]).contains(&col)
    }
}

/// The board as dense arrays, for searches that visit many hexes (LOC 7.1–7.3).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dense {
    /// Hex ids by index.
    pub ids: Vec<HexId>,
    /// Index by hex id: `table[row * 256 + col]` (`u32::MAX`: not on the board).
    pub table: Vec<u32>,
    /// Neighbours by direction (`u32::MAX`: off the board).
    pub nbr: Vec<[u32; 6]>,
    /// Whether leaders may enter the hex (7.1).
    pub leader_ok: Vec<bool>,
    /// Whether leaders may cross the hexside in each direction (7.1).
    pub leader_side_ok: Vec<[bool; 6]>,
    /// Whether a road links the hex to its neighbour in each direction (7.3b).
    pub road: Vec<[bool; 6]>,
    /// A leader's step from the hex in each direction (21.1a), in half MPs: the road's cost along
    /// a road (7.3b, at least half a point), else the TEC's leader column for the hex entered plus
    /// its hexside's; `u16::MAX` where he may not step (off the board, terrain not on the TEC or
    /// impassable to leaders, a hexside he may not cross off a road).
    pub leader_step: Vec<[u16; 6]>,
    /// A LOC's step from the hex in each direction (7.1, 7.3b), packed for the LOC search: the
    /// neighbour's index shifted left by one, its low bit set along a road; `u32::MAX` where no
    /// LOC steps (off the board, or a hexside impassable to leaders). `nbr`, `leader_side_ok`
    /// and `road` in one word.
    pub loc_step: Vec<[u32; 6]>,
    /// The TEC's terrain rows of the board's hexes, copied from the charts (looked up at every
    /// query of a hex's terrain; the chart's map is keyed by name).
    pub rows: Vec<crate::charts::tec::TerrainRow>,
    /// Each hex's row in `rows` (`u16::MAX`: its terrain is not on the TEC).
    pub row: Vec<u16>,
    /// The `clear` row in `rows` (for a hex off the board), if the TEC has one.
    pub clear: Option<u16>,
    /// Each hex's level (12.6).
    pub level: Vec<u8>,
}

impl Dense {
    /// The index of a hex, if on the board.
    #[inline]
    pub fn ix(&self, h: HexId) -> Option<u32> {
        let k = usize::from(h.row) * 256 + usize::from(h.col);
        self.table.get(k).copied().filter(|&i| i != u32::MAX)
    }
}

/// A hex's printed id ([`Board::label_of`]).
pub struct Label<'a> {
    board: &'a Board,
    h: HexId,
}

impl std::fmt::Display for Label<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let h = self.h;
        for m in &self.board.sheets {
            if let (Some(r), Some(c)) = (
                h.row.checked_sub(m.row_offset),
                h.col.checked_sub(m.col_offset),
            ) && m.holds(r, c)
            {
                return write!(f, "{}{}", m.letter, HexId::new(r, c));
            }
        }
        write!(f, "{h}")
    }
}

/// Hexes' printed ids with a separator ([`Board::labels`]).
pub struct Labels<'a> {
    board: &'a Board,
    hexes: &'a [HexId],
    sep: &'a str,
}

impl std::fmt::Display for Labels<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write_joined(f, self.hexes, self.sep, |f, &h| {
            write!(f, "{}", self.board.label_of(h))
        })
    }
}

/// `items` written one after another by `one`, `sep` between them.
fn write_joined<T>(
    f: &mut std::fmt::Formatter<'_>,
    items: &[T],
    sep: &str,
    one: impl Fn(&mut std::fmt::Formatter<'_>, &T) -> std::fmt::Result,
) -> std::fmt::Result {
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(sep)?;
        }
        one(f, x)?;
    }
    Ok(())
}

/// Units' names with a separator ([`Scenario::names`]).
pub struct Names<'a> {
    sc: &'a Scenario,
    units: &'a [UnitIx],
    sep: &'a str,
}

impl std::fmt::Display for Names<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write_joined(f, self.units, self.sep, |f, &u| {
            match self.sc.units.get(usize::from(u)) {
                Some(x) => f.write_str(&x.name),
                None => write!(f, "unit #{u}"),
            }
        })
    }
}

impl Board {
    /// A hex id as printed (1.3c: "W2119" on a multi-map board) to the board's hex: `Ok(None)` for
    /// a hex of a map the scenario does not use, `Err(())` for no hex of any map.
    #[allow(clippy::result_unit_err)]
    pub fn parse(&self, s: &str) -> Result<Option<HexId>, ()> {
        let t = s.trim();
        if self.sheets.is_empty() {
            return t.parse::<HexId>().map(Some).map_err(|_| ());
        }
        let mut chars = t.chars();
        let letter = chars.next().ok_or(())?.to_ascii_uppercase();
        let local: HexId = chars.as_str().parse().map_err(|_| ())?;
        let sheet = self
            .sheets
            .iter()
            .find(|m| m.letter == letter && m.holds(local.row, local.col))
            .ok_or(())?;
        if !sheet.used {
            return Ok(None);
        }
        let row = local.row.checked_add(sheet.row_offset).ok_or(())?;
        let col = local.col.checked_add(sheet.col_offset).ok_or(())?;
        Ok(Some(HexId::new(row, col)))
    }

    /// A hex's printed id (1.3c: the map's letter before its number on a multi-map board).
    pub fn label(&self, h: HexId) -> String {
        self.label_of(h).to_string()
    }

    /// [`Board::label`], written into the text that holds it (no string of its own).
    pub fn label_of(&self, h: HexId) -> Label<'_> {
        Label { board: self, h }
    }

    /// Hexes as printed, `sep` between them (`0606-0605`), written into the text that holds
    /// them (no string for each: the log writes such a list at almost every step).
    pub fn labels<'a>(&'a self, hexes: &'a [HexId], sep: &'a str) -> Labels<'a> {
        Labels {
            board: self,
            hexes,
            sep,
        }
    }

    /// Build the dense index with the charts' leader columns and terrain rows. Every query of a
    /// hex's terrain reads it: a board or chart changed after the scenario was built must be
    /// indexed again.
    pub fn index(&mut self, charts: &Charts) {
        let mut ids: Vec<HexId> = self.hexes.keys().copied().collect();
        ids.sort();
        let ix: HashMap<HexId, u32> = ids
            .iter()
            .enumerate()
            .map(|(i, h)| (*h, i as u32))
            .collect();
        // What a leader's steps are made of (21.1a), folded into `leader_step` below.
        let mut leader_enter = vec![false; ids.len()];
        let mut leader_mp: Vec<Option<Half>> = vec![None; ids.len()];
        let mut leader_side_mp: Vec<[Option<Half>; 6]> = vec![[None; 6]; ids.len()];
        let mut d = Dense {
            nbr: vec![[u32::MAX; 6]; ids.len()],
            leader_ok: vec![true; ids.len()],
            leader_side_ok: vec![[true; 6]; ids.len()],
            road: vec![[false; 6]; ids.len()],
            leader_step: vec![[u16::MAX; 6]; ids.len()],
            ..Dense::default()
        };
        for (i, h) in ids.iter().enumerate() {
            d.leader_ok[i] = !self
                .hexes
                .get(h)
                .and_then(|x| charts.tec.terrain.get(&x.terrain))
                .is_some_and(|t| t.impassable_to_leaders);
            let row = self
                .hexes
                .get(h)
                .and_then(|x| charts.tec.terrain.get(&x.terrain))
                .filter(|t| !t.impassable_to_leaders);
            leader_enter[i] = row.is_some();
            leader_mp[i] = row.and_then(|t| t.mp_leader.points());
            for (k, dir) in Dir::ALL.iter().enumerate() {
                let Some(n) = h.neighbour(*dir) else { continue };
                let Some(&j) = ix.get(&n) else { continue };
                d.nbr[i][k] = j;
                d.leader_side_ok[i][k] = !self
                    .hexside(*h, n)
                    .and_then(|f| charts.tec.hexside.get(f))
                    .is_some_and(|t| t.impassable_to_leaders);
                d.road[i][k] = self.road(*h, n);
                leader_side_mp[i][k] = match self.hexside(*h, n) {
                    None => Some(Half::ZERO),
                    Some(f) => charts
                        .tec
                        .hexside
                        .get(f)
                        .filter(|t| !t.impassable_to_leaders)
                        .and_then(|t| t.mp_leader.points()),
                };
            }
        }
        let road_cost = charts.tec.road.loc.max(Half::HALF);
        for (i, sides) in leader_side_mp.iter().enumerate() {
            for (k, side) in sides.iter().enumerate() {
                let j = d.nbr[i][k];
                if j == u32::MAX || !leader_enter[j as usize] {
                    continue;
                }
                let step = if d.road[i][k] {
                    Some(road_cost)
                } else {
                    leader_mp[j as usize].zip(*side).map(|(a, b)| a + b)
                };
                if let Some(c) = step {
                    d.leader_step[i][k] = c.0;
                }
            }
        }
        d.loc_step = (0..ids.len())
            .map(|i| {
                std::array::from_fn(|k| {
                    let j = d.nbr[i][k];
                    if j == u32::MAX || !d.leader_side_ok[i][k] {
                        u32::MAX
                    } else {
                        (j << 1) | u32::from(d.road[i][k])
                    }
                })
            })
            .collect();
        d.table = vec![u32::MAX; 256 * 256];
        for (h, i) in &ix {
            d.table[usize::from(h.row) * 256 + usize::from(h.col)] = *i;
        }
        // Terrain rows by hex.
        let mut names: Vec<String> = Vec::new();
        let mut row_ix = |name: &str, d: &mut Dense| -> u16 {
            let Some(r) = charts.tec.terrain.get(name) else {
                return u16::MAX;
            };
            match names.iter().position(|n| n == name) {
                Some(k) => k as u16,
                None => {
                    names.push(name.to_string());
                    d.rows.push(r.clone());
                    (d.rows.len() - 1) as u16
                }
            }
        };
        d.row = Vec::with_capacity(ids.len());
        d.level = ids
            .iter()
            .map(|h| self.hexes.get(h).map_or(0, |i| i.level))
            .collect();
        for h in &ids {
            let k = match self.hexes.get(h) {
                Some(x) => row_ix(&x.terrain, &mut d),
                None => u16::MAX,
            };
            d.row.push(k);
        }
        d.clear = Some(row_ix("clear", &mut d)).filter(|&k| k != u16::MAX);
        d.ids = ids;
        self.dense = d;
    }

    /// The TEC's row of a hex on the board (`None` off the board or for terrain not on the TEC),
    /// from the dense index ([`Board::index`]).
    #[inline]
    pub fn tec_row(&self, h: HexId) -> Option<&crate::charts::tec::TerrainRow> {
        let d = &self.dense;
        let i = d.ix(h)?;
        d.rows.get(usize::from(*d.row.get(i as usize)?))
    }

    /// A hex's level (12.6; 0 off the board).
    #[inline]
    pub fn level(&self, h: HexId) -> u8 {
        if self.dense.ids.is_empty() {
            // Not indexed yet (while the scenario is built).
            return self.hexes.get(&h).map_or(0, |i| i.level);
        }
        self.dense
            .ix(h)
            .and_then(|i| self.dense.level.get(i as usize).copied())
            .unwrap_or(0)
    }

    /// The TEC's row of a hex, a hex off the board counting as clear.
    #[inline]
    pub fn tec_row_or_clear(&self, h: HexId) -> Option<&crate::charts::tec::TerrainRow> {
        self.dense.rows.get(usize::from(self.tec_row_key(h)?))
    }

    /// The index in the dense index's rows of the TEC row [`Board::tec_row_or_clear`] reads for
    /// `h` (`u16::MAX` or `None`: none): hexes of one terrain share it.
    pub fn tec_row_key(&self, h: HexId) -> Option<u16> {
        let d = &self.dense;
        match d.ix(h) {
            Some(i) => d.row.get(i as usize).copied(),
            None => d.clear,
        }
    }

    /// Whether the hex is on the map.
    pub fn contains(&self, h: HexId) -> bool {
        if self.dense.ids.is_empty() {
            // Not indexed yet (while the scenario is built).
            self.hexes.contains_key(&h)
        } else {
            self.dense.ix(h).is_some()
        }
    }

    /// The hexside feature between two adjacent hexes.
    pub fn hexside(&self, a: HexId, b: HexId) -> Option<&str> {
        self.hexsides.get(&pair(a, b)).map(String::as_str)
    }

    /// Whether a road links two adjacent hexes.
    pub fn road(&self, a: HexId, b: HexId) -> bool {
        self.roads.contains(&pair(a, b))
    }

    /// Whether a hex has a road.
    pub fn is_road_hex(&self, h: HexId) -> bool {
        self.roads.iter().any(|&(a, b)| a == h || b == h)
    }
}

/// The unordered pair key of two hexes.
pub fn pair(a: HexId, b: HexId) -> (HexId, HexId) {
    if a <= b { (a, b) } else { (b, a) }
}

/// An army.
#[derive(Clone, Debug, PartialEq)]
pub struct Army {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Army leader.
    pub leader: LeaderIx,
    /// The compass bearing of its rear in degrees (0 north, clockwise), for rout retreats (20.2g).
    pub rear: u16,
    /// Ranks (T5).
    pub ranks: u8,
    /// Its Current Loss Level table key (T20).
    pub loss_table: String,
}

/// A leader.
#[derive(Clone, Debug, PartialEq)]
pub struct Leader {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Side (0 or 1).
    pub side: u8,
    /// Kind.
    pub kind: LeaderKind,
    /// Command range (7.1).
    pub range: u8,
    /// Initiative rating (7.4a).
    pub initiative: u8,
    /// ER bonus (21.3).
    pub er_bonus: i8,
    /// CV bonus (21.2b).
    pub cv_bonus: i8,
    /// Own modifier to the pursuit points roll (16.2a), if the counter gives one.
    pub pp_modifier: Option<i8>,
    /// CR (6.1a).
    pub cr: u8,
    /// WAN (6.5a).
    pub wan: u8,
    /// MA.
    pub ma: u8,
    /// Loss value (23.1a).
    pub loss: u8,
    /// The leader he replaces (21.5).
    pub replaces: Option<LeaderIx>,
    /// Brigade he leads (brigade leaders).
    pub brigade: Option<BrigadeIx>,
    /// Wing he leads (wing leaders).
    pub wing: Option<WingIx>,
    /// Detachment he leads (24.1a).
    pub detachment: Option<u8>,
}

/// A wing.
#[derive(Clone, Debug, PartialEq)]
pub struct Wing {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Side.
    pub side: u8,
    /// Leader.
    pub leader: LeaderIx,
    /// Its brigades.
    pub brigades: Vec<BrigadeIx>,
}

/// A brigade.
#[derive(Clone, Debug, PartialEq)]
pub struct Brigade {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Side.
    pub side: u8,
    /// Leader.
    pub leader: LeaderIx,
    /// Wing.
    pub wing: Option<WingIx>,
    /// Detachment (24.1).
    pub detachment: Option<u8>,
    /// Its units.
    pub units: Vec<UnitIx>,
}

/// Skirmish ability (8.1g).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Skirmish {
    /// None.
    No,
    /// May form skirmish order.
    Capable,
    /// Skirmishers only.
    Only,
}

/// A combat unit's printed values.
#[derive(Clone, Debug, PartialEq)]
pub struct Unit {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Side.
    pub side: u8,
    /// Brigade (none: independent).
    pub brigade: Option<BrigadeIx>,
    /// Regiment (6.2).
    pub regiment: Option<String>,
    /// The regiment's number among the scenario's regiments (the same for the same `regiment`;
    /// for lookups that would otherwise compare names).
    pub regiment_ix: Option<u16>,
    /// Arm.
    pub arm: Arm,
    /// Sub-type.
    pub sub: String,
    /// Printed SP.
    pub sp: u8,
    /// ER.
    pub er: u8,
    /// CV.
    pub cv: i8,
    /// MA.
    pub ma: u8,
    /// Skirmish.
    pub skirmish: Skirmish,
    /// Light troops for 20.1 and 13.11c (data `light`, default by sub-type).
    pub light: bool,
    /// Detachment (24.1) of an independent unit, or of its brigade.
    pub detachment: Option<u8>,
    /// Artillery's prolonge mark (11.6); `None` for none.
    pub prolonge: Option<crate::data::Prolonge>,
    /// A parent's components (8.5), in the order of the data (the order 8.5a deals SPs in).
    pub components: Vec<UnitIx>,
    /// A component's parent (8.5).
    pub parent: Option<UnitIx>,
}

/// Where a unit starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Placement {
    /// Hexes.
    pub hexes: Vec<HexId>,
    /// Facing.
    pub facing: Facing,
    /// Formation.
    pub formation: Formation,
    /// SP lost.
    pub lost: u8,
    /// Disordered.
    pub disordered: bool,
    /// Shaken.
    pub shaken: bool,
    /// Routed.
    pub routed: bool,
}

/// A reinforcement group.
#[derive(Clone, Debug, PartialEq)]
pub struct Reinforcement {
    /// Turn.
    pub turn: u16,
    /// Entry hex.
    pub hex: HexId,
    /// Units.
    pub units: Vec<UnitIx>,
    /// Leaders.
    pub leaders: Vec<LeaderIx>,
}

/// A detachment.
#[derive(Clone, Debug, PartialEq)]
pub struct Detachment {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Side.
    pub side: u8,
    /// Leader.
    pub leader: LeaderIx,
    /// Brigades.
    pub brigades: Vec<BrigadeIx>,
}

/// An objective place (invented: the series has no victory rules, C9).
#[derive(Clone, Debug, PartialEq)]
pub struct Objective {
    /// Name.
    pub name: String,
    /// Hex.
    pub hex: HexId,
    /// Points to its holder.
    pub points: u16,
    /// Side holding it at the start.
    pub holder: u8,
}

/// A validated scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Charts (1.2b).
    pub charts: Arc<Charts>,
    /// Board.
    pub board: Board,
    /// Armies, seat 0 first.
    pub armies: [Army; 2],
    /// Leaders.
    pub leaders: Vec<Leader>,
    /// Wings.
    pub wings: Vec<Wing>,
    /// Brigades.
    pub brigades: Vec<Brigade>,
    /// Units.
    pub units: Vec<Unit>,
    /// Starting places (units absent: reinforcements or not in this scenario).
    pub setup: HashMap<UnitIx, Placement>,
    /// Each set-up unit's line in the set-up file: its place in the stacking order (10.6).
    pub setup_order: HashMap<UnitIx, u16>,
    /// Leaders' starting hexes.
    pub leader_setup: HashMap<LeaderIx, HexId>,
    /// Reinforcements.
    pub reinforcements: Vec<Reinforcement>,
    /// Detachments.
    pub detachments: Vec<Detachment>,
    /// Victory levels.
    pub victory: Vec<VictoryEntry>,
    /// Objective places.
    pub objectives: Vec<Objective>,
    /// First turn's clock, minutes after midnight.
    pub first_minute: u16,
    /// Turns.
    pub turns: u16,
    /// ETN (6.7a).
    pub etn: u8,
    /// Turn track boxes before End.
    pub end_boxes: u8,
    /// ISR limit per turn (6.9c).
    pub isr_limit: Option<u8>,
    /// Provenance counts (sourced, reconstructed or invented) of the scenario's own files.
    pub provenance: (usize, usize),
    /// This load's number, for the memos of derived data (`memo.rs`); never compared.
    pub instance: crate::memo::Instance,
}

/// Parse a facing: a hexpoint for line-type formations, a hexside for columns (8.4c).
pub fn parse_facing(s: &str, formation: Formation) -> Option<Facing> {
    let v = match s {
        "N" => Some(hexmap::Vertex::N),
        "NE" => Some(hexmap::Vertex::NE),
        "SE" => Some(hexmap::Vertex::SE),
        "S" => Some(hexmap::Vertex::S),
        "SW" => Some(hexmap::Vertex::SW),
        "NW" => Some(hexmap::Vertex::NW),
        _ => None,
    };
    if formation.faces_hexside() {
        parse_dir(s).map(Facing::Side)
    } else {
        v.map(Facing::Point)
    }
}

/// Parse a hexside direction.
pub fn parse_dir(s: &str) -> Option<Dir> {
    Some(match s {
        "NE" => Dir::NE,
        "E" => Dir::E,
        "SE" => Dir::SE,
        "SW" => Dir::SW,
        "W" => Dir::W,
        "NW" => Dir::NW,
        _ => return None,
    })
}

impl Scenario {
    /// Units' names, `sep` between them, written into the text that holds them (no string for
    /// each).
    pub fn names<'a>(&'a self, units: &'a [UnitIx], sep: &'a str) -> Names<'a> {
        Names {
            sc: self,
            units,
            sep,
        }
    }

    /// Build from the files' texts; every problem, each naming file and field.
    pub fn build(
        map: &str,
        oob: &str,
        scenario: &str,
        charts: Arc<Charts>,
        dir: &str,
    ) -> Result<Scenario, Vec<String>> {
        let mut p = Vec::new();
        let mf = format!("{dir}/map.toml");
        let of = format!("{dir}/oob.toml");
        let sf = format!("{dir}/scenario.toml");
        let map: Option<MapFile> = toml::from_str(map)
            .map_err(|e| p.push(format!("{mf}: {}", crate::charts::one_line(&e.to_string()))))
            .ok();
        let oob: Option<OobFile> = toml::from_str(oob)
            .map_err(|e| p.push(format!("{of}: {}", crate::charts::one_line(&e.to_string()))))
            .ok();
        let sc: Option<ScenarioFile> = toml::from_str(scenario)
            .map_err(|e| p.push(format!("{sf}: {}", crate::charts::one_line(&e.to_string()))))
            .ok();
        let (Some(map), Some(oob), Some(sc)) = (map, oob, sc) else {
            return Err(p);
        };
        let mut prov = (0usize, 0usize);
        let mut count = |pr: &Provenance| {
            if pr.source.is_some() {
                prov.0 += 1;
            }
            if pr.reconstructed.is_some() || pr.invented.is_some() {
                prov.1 += 1;
            }
        };
        // Board.
        let mut board = Board {
            name: map.map.name.clone(),
            ..Board::default()
        };
        count(&map.map.prov);
        if !charts.tec.terrain.contains_key(&map.map.default_terrain) {
            p.push(format!(
                "{mf}: map.default_terrain: {:?} is not a terrain of the TEC",
                map.map.default_terrain
            ));
        }
        // 1.3b–c: the maps of the board, those the scenario uses.
        for (i, m) in map.sheet.iter().enumerate() {
            let Some(letter) = m.code.chars().next().map(|c| c.to_ascii_uppercase()) else {
                p.push(format!("{mf}: sheet[{i}].code: empty"));
                continue;
            };
            if board.sheets.iter().any(|x| x.letter == letter) {
                p.push(format!(
                    "{mf}: sheet[{i}].code: {:?} begins with the letter of another map (1.3c)",
                    m.code
                ));
            }
            let used = sc.scenario.maps.is_empty()
                || sc
                    .scenario
                    .maps
                    .iter()
                    .any(|x| x.chars().next().map(|c| c.to_ascii_uppercase()) == Some(letter));
            board.sheets.push(Sheet {
                letter,
                rows: m.rows,
                cols: m.cols,
                row_offset: m.row_offset,
                col_offset: m.col_offset,
                used,
            });
        }
        for (i, m) in sc.scenario.maps.iter().enumerate() {
            let l = m.chars().next().map(|c| c.to_ascii_uppercase());
            if !board.sheets.iter().any(|x| Some(x.letter) == l) {
                p.push(format!(
                    "{sf}: scenario.maps[{i}]: {m:?} is not a map of {mf}"
                ));
            }
        }
        let blank = HexInfo {
            terrain: map.map.default_terrain.clone(),
            level: 0,
        };
        if board.sheets.is_empty() {
            for r in map.map.rows[0]..=map.map.rows[1] {
                for c in map.map.cols[0]..=map.map.cols[1] {
                    board.hexes.insert(HexId::new(r, c), blank.clone());
                }
            }
        } else {
            for m in board.sheets.clone().iter().filter(|m| m.used) {
                for r in m.rows[0]..=m.rows[1] {
                    for c in m.cols[0]..=m.cols[1] {
                        match (r.checked_add(m.row_offset), c.checked_add(m.col_offset)) {
                            (Some(r), Some(c)) => {
                                board.hexes.insert(HexId::new(r, c), blank.clone());
                            }
                            _ => {
                                p.push(format!(
                                    "{mf}: sheet {}: placed beyond row or column 255",
                                    m.letter
                                ));
                                break;
                            }
                        }
                    }
                }
            }
        }
        // A map-file hex: `Ok(None)` on a map the scenario does not use.
        let at = |board: &Board, id: &str| -> Result<Option<HexId>, ()> {
            board.parse(id).and_then(|h| match h {
                Some(h) if board.contains(h) => Ok(Some(h)),
                Some(_) => Err(()),
                None => Ok(None),
            })
        };
        for (i, g) in map.hexes.iter().enumerate() {
            count(&g.prov);
            if let Some(t) = &g.terrain
                && !charts.tec.terrain.contains_key(t)
            {
                p.push(format!(
                    "{mf}: hexes[{i}].terrain: {t:?} is not a terrain of the TEC"
                ));
            }
            for id in &g.ids {
                match at(&board, id) {
                    Err(()) => p.push(format!(
                        "{mf}: hexes[{i}].ids: {id:?} is not a hex of the map"
                    )),
                    Ok(None) => {}
                    Ok(Some(h)) => {
                        if let Some(info) = board.hexes.get_mut(&h) {
                            if let Some(t) = &g.terrain {
                                info.terrain = t.clone();
                            }
                            if let Some(l) = g.level {
                                info.level = l;
                            }
                        }
                    }
                }
            }
        }
        for (i, s) in map.hexsides.iter().enumerate() {
            match (at(&board, &s.between[0]), at(&board, &s.between[1])) {
                (Ok(Some(a)), Ok(Some(b))) if a.is_adjacent(b) => {
                    if !charts.tec.hexside.contains_key(&s.feature) {
                        p.push(format!(
                            "{mf}: hexsides[{i}].feature: {:?} is not a hexside of the TEC",
                            s.feature
                        ));
                    }
                    board.hexsides.insert(pair(a, b), s.feature.clone());
                }
                (Ok(None), Ok(_)) | (Ok(_), Ok(None)) => {}
                _ => p.push(format!(
                    "{mf}: hexsides[{i}].between: {:?} are not two adjacent hexes of the map",
                    s.between
                )),
            }
        }
        for (i, r) in map.roads.iter().enumerate() {
            let hs: Vec<Result<Option<HexId>, ()>> =
                r.hexes.iter().map(|h| at(&board, h)).collect();
            for (j, w) in hs.windows(2).enumerate() {
                match (w[0], w[1]) {
                    (Ok(Some(a)), Ok(Some(b))) if a.is_adjacent(b) => {
                        board.roads.insert(pair(a, b));
                    }
                    (Ok(None), Ok(_)) | (Ok(_), Ok(None)) => {}
                    _ => p.push(format!(
                        "{mf}: roads[{i}].hexes[{j}..{}]: {:?} → {:?} are not adjacent hexes of the map",
                        j + 1,
                        r.hexes[j],
                        r.hexes[j + 1]
                    )),
                }
            }
        }
        for (i, pl) in map.places.iter().enumerate() {
            match at(&board, &pl.hex) {
                Ok(Some(h)) => board.places.push((pl.name.clone(), h)),
                Ok(None) => {}
                Err(()) => p.push(format!(
                    "{mf}: places[{i}].hex: {:?} is not a hex of the map",
                    pl.hex
                )),
            }
        }
        // A scenario hex: on a map it uses.
        let parse_hex = |id: &str| -> Option<HexId> { at(&board, id).ok().flatten() };
        // Order of battle.
        if oob.army.len() != 2 {
            p.push(format!(
                "{of}: army: exactly two armies (found {})",
                oob.army.len()
            ));
            return Err(p);
        }
        let side_of = |army: &str| oob.army.iter().position(|a| a.id == army).map(|i| i as u8);
        let mut leader_ix: BTreeMap<&str, LeaderIx> = BTreeMap::new();
        let mut leaders = Vec::new();
        for (i, l) in oob.leader.iter().enumerate() {
            count(&l.prov);
            if leader_ix.insert(&l.id, i as LeaderIx).is_some() {
                p.push(format!("{of}: leader[{i}].id: {:?} repeated", l.id));
            }
            let side = side_of(&l.army).unwrap_or_else(|| {
                p.push(format!("{of}: leader[{i}].army: unknown army {:?}", l.army));
                0
            });
            if l.kind == LeaderKind::Army && (l.cr > 9 || l.wan > 9) {
                p.push(format!(
                    "{of}: leader[{i}]: CR and WAN are single digits (6.1, 6.5)"
                ));
            }
            if l.initiative > 9 {
                p.push(format!(
                    "{of}: leader[{i}].initiative: a d10 rating 0–9 (7.4a)"
                ));
            }
            leaders.push(Leader {
                id: l.id.clone(),
                name: l.name.clone(),
                side,
                kind: l.kind,
                range: l.range,
                initiative: l.initiative,
                er_bonus: l.er_bonus,
                cv_bonus: l.cv_bonus,
                pp_modifier: l.pp_modifier,
                cr: l.cr,
                wan: l.wan,
                ma: l.ma,
                loss: l.loss,
                replaces: None,
                brigade: None,
                wing: None,
                detachment: None,
            });
        }
        for (i, l) in oob.leader.iter().enumerate() {
            if let Some(r) = &l.replaces {
                match leader_ix.get(r.as_str()) {
                    Some(&j) => leaders[i].replaces = Some(j),
                    None => p.push(format!("{of}: leader[{i}].replaces: unknown leader {r:?}")),
                }
            }
        }
        let mut armies = Vec::new();
        for (i, a) in oob.army.iter().enumerate() {
            let leader = match leader_ix.get(a.leader.as_str()) {
                Some(&l) if leaders[usize::from(l)].kind == LeaderKind::Army => l,
                _ => {
                    p.push(format!(
                        "{of}: army[{i}].leader: {:?} is not an army leader",
                        a.leader
                    ));
                    0
                }
            };
            let rear = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
                .iter()
                .position(|d| *d == a.rear)
                .map(|k| k as u16 * 45)
                .unwrap_or_else(|| {
                    p.push(format!(
                        "{of}: army[{i}].rear: {:?} is not a compass direction (N, NE, E, SE, S, SW, W, NW)",
                        a.rear
                    ));
                    0
                });
            if !charts.command.loss_levels.contains_key(&a.loss_table) {
                p.push(format!(
                    "{of}: army[{i}].loss_table: {:?} is not a Current Loss Level table of the charts (T20)",
                    a.loss_table
                ));
            }
            armies.push(Army {
                id: a.id.clone(),
                name: a.name.clone(),
                leader,
                rear,
                ranks: a.ranks,
                loss_table: a.loss_table.clone(),
            });
        }
        let mut wing_ix: BTreeMap<&str, WingIx> = BTreeMap::new();
        let mut wings = Vec::new();
        for (i, w) in oob.wing.iter().enumerate() {
            wing_ix.insert(&w.id, i as WingIx);
            let leader = match leader_ix.get(w.leader.as_str()) {
                Some(&l) if leaders[usize::from(l)].kind == LeaderKind::Wing => l,
                _ => {
                    p.push(format!(
                        "{of}: wing[{i}].leader: {:?} is not a wing leader",
                        w.leader
                    ));
                    0
                }
            };
            leaders[usize::from(leader)].wing = Some(i as WingIx);
            wings.push(Wing {
                id: w.id.clone(),
                name: w.name.clone(),
                side: leaders[usize::from(leader)].side,
                leader,
                brigades: Vec::new(),
            });
        }
        let mut brigade_ix: BTreeMap<&str, BrigadeIx> = BTreeMap::new();
        let mut brigades = Vec::new();
        for (i, b) in oob.brigade.iter().enumerate() {
            brigade_ix.insert(&b.id, i as BrigadeIx);
            let side = side_of(&b.army).unwrap_or_else(|| {
                p.push(format!(
                    "{of}: brigade[{i}].army: unknown army {:?}",
                    b.army
                ));
                0
            });
            let leader = match leader_ix.get(b.leader.as_str()) {
                Some(&l) if leaders[usize::from(l)].kind == LeaderKind::Brigade => l,
                _ => {
                    p.push(format!(
                        "{of}: brigade[{i}].leader: {:?} is not a brigade leader",
                        b.leader
                    ));
                    0
                }
            };
            leaders[usize::from(leader)].brigade = Some(i as BrigadeIx);
            let wing = b.wing.as_ref().and_then(|w| {
                let ix = wing_ix.get(w.as_str()).copied();
                if ix.is_none() {
                    p.push(format!("{of}: brigade[{i}].wing: unknown wing {w:?}"));
                }
                ix
            });
            if let Some(w) = wing {
                wings[usize::from(w)].brigades.push(i as BrigadeIx);
                if wings[usize::from(w)].side != side {
                    p.push(format!("{of}: brigade[{i}].wing: a wing of the other army"));
                }
            }
            brigades.push(Brigade {
                id: b.id.clone(),
                name: b.name.clone(),
                side,
                leader,
                wing,
                detachment: None,
                units: Vec::new(),
            });
        }
        for (i, w) in wings.iter().enumerate() {
            if w.brigades.len() < 2 {
                p.push(format!(
                    "{of}: wing[{i}]: a wing has at least two brigades (5.0)"
                ));
            }
        }
        let mut unit_ix: BTreeMap<&str, UnitIx> = BTreeMap::new();
        let mut units = Vec::new();
        for (i, u) in oob.unit.iter().enumerate() {
            count(&u.prov);
            if unit_ix.insert(&u.id, i as UnitIx).is_some() {
                p.push(format!("{of}: unit[{i}].id: {:?} repeated", u.id));
            }
            units.push(unit_of(u, i, &of, &side_of, &brigade_ix, &mut p));
            if let Some(b) = units[i].brigade {
                brigades[usize::from(b)].units.push(i as UnitIx);
                if brigades[usize::from(b)].side != units[i].side {
                    p.push(format!(
                        "{of}: unit[{i}].brigade: a brigade of the other army"
                    ));
                }
            }
        }
        for (s, _) in armies.iter().enumerate() {
            if brigades.iter().filter(|b| usize::from(b.side) == s).count() < 2 {
                p.push(format!(
                    "{of}: army[{s}]: an army has at least two brigades (5.0)"
                ));
            }
        }
        // 8.5: parents and their components.
        for (i, u) in oob.unit.iter().enumerate() {
            if u.components.is_empty() {
                continue;
            }
            let field = format!("{of}: unit[{i}].components");
            if u.components.len() < 2 {
                p.push(format!(
                    "{field}: a parent has at least two components (8.5)"
                ));
            }
            let mut comps: Vec<UnitIx> = Vec::new();
            for c in &u.components {
                let Some(&ci) = unit_ix.get(c.as_str()) else {
                    p.push(format!("{field}: unknown unit {c:?}"));
                    continue;
                };
                let cu = &units[usize::from(ci)];
                if usize::from(ci) == i || comps.contains(&ci) {
                    p.push(format!("{field}: {c:?} listed twice or is the parent"));
                    continue;
                }
                if let Some(other) = cu.parent {
                    p.push(format!(
                        "{field}: {c:?} is already a component of {:?}",
                        units[usize::from(other)].id
                    ));
                    continue;
                }
                if cu.side != units[i].side || cu.brigade != units[i].brigade {
                    p.push(format!(
                        "{field}: {c:?} is not of the parent's army and brigade (8.5)"
                    ));
                }
                comps.push(ci);
            }
            for &c in &comps {
                units[usize::from(c)].parent = Some(i as UnitIx);
            }
            let sum: u16 = comps
                .iter()
                .map(|&c| u16::from(units[usize::from(c)].sp))
                .sum();
            if comps.len() == u.components.len() && sum != u16::from(u.sp) {
                p.push(format!(
                    "{field}: the components' printed SPs sum to {sum}, the parent's are {} (8.5a)",
                    u.sp
                ));
            }
            units[i].components = comps;
        }
        for (i, u) in units.iter().enumerate() {
            if u.parent.is_some() && !u.components.is_empty() {
                p.push(format!(
                    "{of}: unit[{i}].components: a component cannot be a parent itself (8.5)"
                ));
            }
        }
        // Detachments.
        let mut detachments = Vec::new();
        for (i, d) in sc.detachment.iter().enumerate() {
            let Some(&leader) = leader_ix.get(d.leader.as_str()) else {
                p.push(format!(
                    "{sf}: detachment[{i}].leader: unknown leader {:?}",
                    d.leader
                ));
                continue;
            };
            let side = leaders[usize::from(leader)].side;
            leaders[usize::from(leader)].detachment = Some(i as u8);
            let mut bs = Vec::new();
            for b in &d.brigades {
                match brigade_ix.get(b.as_str()) {
                    Some(&bi) => {
                        brigades[usize::from(bi)].detachment = Some(i as u8);
                        for &u in &brigades[usize::from(bi)].units {
                            units[usize::from(u)].detachment = Some(i as u8);
                        }
                        bs.push(bi);
                    }
                    None => p.push(format!(
                        "{sf}: detachment[{i}].brigades: unknown brigade {b:?}"
                    )),
                }
            }
            if bs.is_empty() {
                p.push(format!(
                    "{sf}: detachment[{i}]: at least one brigade (24.1a)"
                ));
            }
            for u in &d.units {
                match unit_ix.get(u.as_str()) {
                    Some(&ui) if units[usize::from(ui)].brigade.is_none() => {
                        units[usize::from(ui)].detachment = Some(i as u8)
                    }
                    _ => p.push(format!(
                        "{sf}: detachment[{i}].units: {u:?} is not an independent unit"
                    )),
                }
            }
            detachments.push(Detachment {
                id: d.id.clone(),
                name: d.name.clone(),
                side,
                leader,
                brigades: bs,
            });
        }
        // Set-up.
        let mut setup = HashMap::new();
        let mut setup_order = HashMap::new();
        for (i, s) in sc.setup.iter().enumerate() {
            let Some(&u) = unit_ix.get(s.unit.as_str()) else {
                p.push(format!("{sf}: setup[{i}].unit: unknown unit {:?}", s.unit));
                continue;
            };
            let Some(formation) = Formation::parse(&s.formation) else {
                p.push(format!(
                    "{sf}: setup[{i}].formation: unknown formation {:?}",
                    s.formation
                ));
                continue;
            };
            let Some(facing) = parse_facing(&s.facing, formation) else {
                p.push(format!(
                    "{sf}: setup[{i}].facing: {:?} is not a {} for a {} (8.4c)",
                    s.facing,
                    if formation.faces_hexside() {
                        "hexside (NE, E, SE, SW, W, NW)"
                    } else {
                        "hexpoint (N, NE, SE, S, SW, NW)"
                    },
                    formation.name()
                ));
                continue;
            };
            let hexes: Vec<HexId> = s.hexes.iter().filter_map(|h| parse_hex(h)).collect();
            if hexes.len() != s.hexes.len()
                || hexes.iter().any(|h| !board.contains(*h))
                || hexes.is_empty()
            {
                p.push(format!(
                    "{sf}: setup[{i}].hexes: {:?} are not hexes of the map",
                    s.hexes
                ));
                continue;
            }
            if hexes.windows(2).any(|w| !w[0].is_adjacent(w[1])) {
                p.push(format!(
                    "{sf}: setup[{i}].hexes: each hex must be adjacent to the next (8.1)"
                ));
            }
            if hexes.len() > crate::state::MAX_FOOTPRINT {
                p.push(format!(
                    "{sf}: setup[{i}].hexes: {} hexes; tricorne holds a footprint of at most {} \
                     (a 32-SP road column, 8.1f)",
                    hexes.len(),
                    crate::state::MAX_FOOTPRINT
                ));
                continue;
            }
            let unit = &units[usize::from(u)];
            if s.lost >= unit.sp {
                p.push(format!(
                    "{sf}: setup[{i}].lost: {} of {} SP would eliminate it",
                    s.lost, unit.sp
                ));
            }
            let mut pl = Placement {
                hexes,
                facing,
                formation,
                lost: s.lost,
                disordered: false,
                shaken: false,
                routed: false,
            };
            for st in &s.state {
                match st.as_str() {
                    "disordered" => pl.disordered = true,
                    "shaken" => pl.shaken = true,
                    "routed" => pl.routed = true,
                    other => p.push(format!("{sf}: setup[{i}].state: unknown state {other:?}")),
                }
            }
            if pl.routed && pl.hexes.len() > 1 {
                p.push(format!(
                    "{sf}: setup[{i}]: a routed unit holds one hex (19.7e)"
                ));
            }
            setup_order.insert(u, i as u16);
            if setup.insert(u, pl).is_some() {
                p.push(format!("{sf}: setup[{i}].unit: {:?} placed twice", s.unit));
            }
        }
        // 8.5: "the parent unit and its components can never be on the game map at the same
        // time".
        let mut placed: Vec<&UnitIx> = setup.keys().collect();
        placed.sort_unstable();
        for u in placed {
            if let Some(parent) = units[usize::from(*u)].parent
                && setup.contains_key(&parent)
            {
                p.push(format!(
                    "{sf}: setup: {:?} and its component {:?} both set up (8.5)",
                    units[usize::from(parent)].id,
                    units[usize::from(*u)].id
                ));
            }
        }
        let mut leader_setup = HashMap::new();
        for (i, s) in sc.leader_setup.iter().enumerate() {
            match (
                leader_ix.get(s.leader.as_str()),
                parse_hex(&s.hex).filter(|h| board.contains(*h)),
            ) {
                (Some(&l), Some(h)) => {
                    leader_setup.insert(l, h);
                }
                (None, _) => p.push(format!(
                    "{sf}: leader_setup[{i}].leader: unknown leader {:?}",
                    s.leader
                )),
                (_, None) => p.push(format!(
                    "{sf}: leader_setup[{i}].hex: {:?} is not a hex of the map",
                    s.hex
                )),
            }
        }
        let mut reinforcements = Vec::new();
        for (i, r) in sc.reinforcement.iter().enumerate() {
            let Some(hex) = parse_hex(&r.hex).filter(|h| board.contains(*h)) else {
                p.push(format!(
                    "{sf}: reinforcement[{i}].hex: {:?} is not a hex of the map",
                    r.hex
                ));
                continue;
            };
            let mut us = Vec::new();
            for u in &r.units {
                match unit_ix.get(u.as_str()) {
                    Some(&ui) if !setup.contains_key(&ui) => us.push(ui),
                    Some(_) => p.push(format!(
                        "{sf}: reinforcement[{i}].units: {u:?} is also set up"
                    )),
                    None => p.push(format!(
                        "{sf}: reinforcement[{i}].units: unknown unit {u:?}"
                    )),
                }
            }
            let mut ls = Vec::new();
            for l in &r.leaders {
                match leader_ix.get(l.as_str()) {
                    Some(&li) => ls.push(li),
                    None => p.push(format!(
                        "{sf}: reinforcement[{i}].leaders: unknown leader {l:?}"
                    )),
                }
            }
            if r.turn < 1 || r.turn > sc.scenario.turns {
                p.push(format!(
                    "{sf}: reinforcement[{i}].turn: {} is not a turn of the scenario",
                    r.turn
                ));
            }
            reinforcements.push(Reinforcement {
                turn: r.turn,
                hex,
                units: us,
                leaders: ls,
            });
        }
        for (s, a) in armies.iter().enumerate() {
            if !leader_setup.contains_key(&a.leader) {
                p.push(format!(
                    "{sf}: leader_setup: the army leader of army {s} ({}) must start on the map",
                    oob.leader[usize::from(a.leader)].id
                ));
            }
        }
        let mut objectives = Vec::new();
        for (i, o) in sc.objective.iter().enumerate() {
            count(&o.prov);
            let holder = oob.army.iter().position(|a| a.id == o.holder);
            match (parse_hex(&o.hex), holder) {
                (Some(hex), Some(h)) => objectives.push(Objective {
                    name: o.name.clone(),
                    hex,
                    points: o.points,
                    holder: h as u8,
                }),
                (None, _) => p.push(format!(
                    "{sf}: objective[{i}].hex: {:?} is not a hex of the maps the scenario uses",
                    o.hex
                )),
                (_, None) => p.push(format!(
                    "{sf}: objective[{i}].holder: unknown army {:?}",
                    o.holder
                )),
            }
        }
        let first_minute = parse_clock(&sc.scenario.first_turn).unwrap_or_else(|| {
            p.push(format!(
                "{sf}: scenario.first_turn: {:?} is not a clock time HH:MM on a 20-minute turn (2.0)",
                sc.scenario.first_turn
            ));
            0
        });
        if sc.scenario.end_boxes < 1 {
            p.push(format!(
                "{sf}: scenario.end_boxes: at least one box before End (6.7)"
            ));
        }
        if sc.scenario.etn > 18 {
            p.push(format!(
                "{sf}: scenario.etn: {} can never be exceeded by two d10 (0–18, 6.7a)",
                sc.scenario.etn
            ));
        }
        count(&sc.scenario.prov);
        if !p.is_empty() {
            return Err(p);
        }
        let armies: [Army; 2] = [armies[0].clone(), armies[1].clone()];
        board.index(&charts);
        // Regiment numbers, by first appearance.
        let mut regiments: Vec<String> = Vec::new();
        for u in &mut units {
            if let Some(r) = &u.regiment {
                let k = match regiments.iter().position(|x| x == r) {
                    Some(k) => k,
                    None => {
                        regiments.push(r.clone());
                        regiments.len() - 1
                    }
                };
                u.regiment_ix = Some(k as u16);
            }
        }
        Ok(Scenario {
            instance: crate::memo::Instance::fresh(),
            id: sc.scenario.id.clone(),
            name: sc.scenario.name.clone(),
            charts,
            board,
            armies,
            leaders,
            wings,
            brigades,
            units,
            setup,
            setup_order,
            leader_setup,
            reinforcements,
            detachments,
            victory: sc.victory.clone(),
            objectives,
            first_minute,
            turns: sc.scenario.turns,
            etn: sc.scenario.etn,
            end_boxes: sc.scenario.end_boxes,
            isr_limit: sc.scenario.isr_limit,
            provenance: prov,
        })
    }

    /// The clock of a turn ("09:20").
    pub fn clock(&self, turn: u16) -> String {
        let m = u32::from(self.first_minute) + 20 * u32::from(turn.saturating_sub(1));
        format!("{:02}:{:02}", (m / 60) % 24, m % 60)
    }

    /// Whether a turn is the first of an hour (':00', 4.0 A, 23.1a).
    pub fn on_the_hour(&self, turn: u16) -> bool {
        (u32::from(self.first_minute) + 20 * u32::from(turn.saturating_sub(1))) % 60 == 0
    }

    /// A unit's index by id.
    pub fn unit(&self, id: &str) -> Option<UnitIx> {
        self.units
            .iter()
            .position(|u| u.id == id)
            .map(|i| i as UnitIx)
    }

    /// A leader's index by id.
    pub fn leader(&self, id: &str) -> Option<LeaderIx> {
        self.leaders
            .iter()
            .position(|u| u.id == id)
            .map(|i| i as LeaderIx)
    }

    /// A brigade's index by id.
    pub fn brigade(&self, id: &str) -> Option<BrigadeIx> {
        self.brigades
            .iter()
            .position(|u| u.id == id)
            .map(|i| i as BrigadeIx)
    }
}

fn parse_clock(s: &str) -> Option<u16> {
    let (h, m) = s.split_once(':')?;
    let (h, m): (u16, u16) = (h.parse().ok()?, m.parse().ok()?);
    (h < 24 && m < 60 && m % 20 == 0).then_some(h * 60 + m)
}

fn unit_of(
    u: &UnitEntry,
    i: usize,
    of: &str,
    side_of: &dyn Fn(&str) -> Option<u8>,
    brigade_ix: &BTreeMap<&str, BrigadeIx>,
    p: &mut Vec<String>,
) -> Unit {
    let side = side_of(&u.army).unwrap_or_else(|| {
        p.push(format!("{of}: unit[{i}].army: unknown army {:?}", u.army));
        0
    });
    let brigade = u.brigade.as_ref().and_then(|b| {
        let ix = brigade_ix.get(b.as_str()).copied();
        if ix.is_none() {
            p.push(format!("{of}: unit[{i}].brigade: unknown brigade {b:?}"));
        }
        ix
    });
    let skirmish = match u.skirmish.as_str() {
        "no" => Skirmish::No,
        "capable" => Skirmish::Capable,
        "only" => Skirmish::Only,
        other => {
            p.push(format!(
                "{of}: unit[{i}].skirmish: {other:?} is not no, capable or only"
            ));
            Skirmish::No
        }
    };
    if u.sp == 0 {
        p.push(format!("{of}: unit[{i}].sp: at least 1"));
    }
    if u.prolonge.is_some() && u.arm != Arm::Artillery {
        p.push(format!(
            "{of}: unit[{i}].prolonge: only artillery has a prolonge mark (11.6)"
        ));
    }
    if !(1..=99).contains(&u.er) {
        p.push(format!(
            "{of}: unit[{i}].er: a two-digit rating 01–99 (18.1a)"
        ));
    }
    Unit {
        id: u.id.clone(),
        name: u.name.clone(),
        side,
        brigade,
        regiment: u.regiment.clone(),
        regiment_ix: None,
        arm: u.arm,
        sub: u.sub.clone(),
        sp: u.sp,
        er: u.er,
        cv: u.cv,
        ma: u.ma,
        skirmish,
        light: u
            .light
            .unwrap_or(matches!(u.sub.as_str(), "light" | "hussar")),
        detachment: None,
        prolonge: u.prolonge,
        components: Vec::new(),
        parent: None,
    }
}
