//! Hex geometry for tricorne: printed hex ids, neighbour directions, vertex facings and their
//! front/flank/rear arcs, hexside keys and line of sight paths.
//!
//! # Orientation (decided for Hastenbeck, see `docs/hex-orientation.md`)
//!
//! Hexes are *pointy-top*: rows of hexes run straight west–east. A printed id `RRCC` is row-first:
//! the row grows southward and the column grows **westward**; odd rows are shifted half a hex to the
//! east. Vertex facings point at one of the six corners of the hex: north, north-east, south-east,
//! south, south-west and north-west.
//!
//! ```text
//!            N (vertex 0)
//!      NW  /\  NE            neighbour directions (hexsides): NE, E, SE, SW, W, NW
//!         /  \               vertex facings (corners):        N, NE, SE, S, SW, NW
//!     W  |    |  E
//!         \  /
//!      SW  \/  SE
//!            S (vertex 3)
//! ```
//!
//! A unit facing vertex `k` has its two front hexes on the hexsides either side of that corner, its
//! two flank hexes next to those, and its two rear hexes opposite (rule 2.1 of the French series).
//! `hexx` carries the axial coordinates, neighbours and distances; the wargame rules on top of them
//! (facing arcs, line of sight along hexsides) are ours.
//!
//! # BAR (see `docs/hex-orientation.md`, section "BAR", and `docs/bar-engine.md`)
//!
//! The BAR series uses the same grid map by map. It adds boards of several lettered maps
//! ([`Board`], [`BoardHex`] "W2119", BAR 1.3b–c), hexside facing beside hexpoint facing
//! ([`Facing`], BAR 8.4c, 9.0–9.1) and multi-hex footprints ([`Footprint`], BAR 8.1, 9.4, 9.6,
//! 11.5). Facings and footprints work on any [`Grid`]: [`Printed`] (plain [`HexId`]) or a
//! [`Board`].
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod facing;
mod footprint;
mod grid;
mod mapid;

pub use facing::Facing;
pub use footprint::{End, Footprint, FootprintError, FootprintKind, Wheel};
pub use grid::{Grid, Printed};
pub use mapid::{BadBoardHex, Board, BoardError, BoardHex, MapPlacement};

use hexx::Hex;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A printed hex number, row-first (`RRCC`): row grows southward, column grows westward.
///
/// `Default` is `0000`, a hex no map prints: it only fills the unused slots of inline vectors of
/// hexes (`tinyvec::ArrayVec` needs a default item).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct HexId {
    /// Printed row (first two digits).
    pub row: u8,
    /// Printed column (last two digits).
    pub col: u8,
}

/// Error parsing a printed hex id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a hex number: {0:?} (expected 3 or 4 digits, row then column, e.g. 1004)")]
pub struct BadHexId(pub String);

impl HexId {
    /// A hex id from its printed row and column.
    pub const fn new(row: u8, col: u8) -> Self {
        Self { row, col }
    }

    /// Axial coordinates of this hex (pointy-top, `y` grows southward, `x` eastward).
    pub fn axial(self) -> Hex {
        printed_to_axial(i32::from(self.row), i32::from(self.col))
    }

    /// The printed id of an axial coordinate, if it lies in the printable range (rows and columns 0..=99).
    pub fn from_axial(h: Hex) -> Option<Self> {
        let (r, b) = axial_to_printed(h);
        if (0..=99).contains(&r) && (0..=99).contains(&b) {
            Some(Self::new(r as u8, b as u8))
        } else {
            None
        }
    }

    /// The neighbouring hex in a direction (it may be off any given map).
    pub fn neighbour(self, d: Dir) -> Option<Self> {
        Self::from_axial(self.axial() + d.offset())
    }

    /// All six neighbours that have a printable id, with their direction.
    pub fn neighbours(self) -> impl Iterator<Item = (Dir, HexId)> {
        Dir::ALL
            .into_iter()
            .filter_map(move |d| self.neighbour(d).map(|h| (d, h)))
    }

    /// Distance in hexes (counting the target hex but not the origin, rule 0.1).
    pub fn distance(self, other: Self) -> u32 {
        self.axial().unsigned_distance_to(other.axial())
    }

    /// Whether two hexes are neighbours (a cheap test first: adjacent hexes differ by at most one
    /// row and one column).
    pub fn is_adjacent(self, other: Self) -> bool {
        self.row.abs_diff(other.row) <= 1
            && self.col.abs_diff(other.col) <= 1
            && self.distance(other) == 1
    }

    /// The direction of an adjacent hex, if `other` is adjacent.
    pub fn direction_to(self, other: Self) -> Option<Dir> {
        let d = other.axial() - self.axial();
        Dir::ALL.into_iter().find(|x| x.offset() == d)
    }

    /// Centre of the hex in a plane with `x` east and `y` north, hexes of unit size (centre to
    /// corner = 1). Used for bearings and drawing.
    pub fn centre(self) -> (f64, f64) {
        centre_of(self.axial())
    }

    /// Compass bearing in degrees (0 = north, clockwise) from this hex's centre to another's.
    pub fn bearing_to(self, other: Self) -> f64 {
        let (x0, y0) = self.centre();
        let (x1, y1) = other.centre();
        (x1 - x0).atan2(y1 - y0).to_degrees().rem_euclid(360.0)
    }
}

/// Axial coordinates of printed row `r`, column `c` (any integers: boards extend the numbering,
/// `mapid`): column grows westward, odd rows shifted east.
fn printed_to_axial(r: i32, c: i32) -> Hex {
    Hex::new(-c - (r - (r & 1)) / 2, r)
}

/// The printed (row, column) of an axial coordinate; the inverse of [`printed_to_axial`].
fn axial_to_printed(h: Hex) -> (i32, i32) {
    (h.y, -h.x - (h.y - (h.y & 1)) / 2)
}

fn centre_of(h: Hex) -> (f64, f64) {
    let s3 = 3f64.sqrt();
    let q = f64::from(h.x);
    let r = f64::from(h.y);
    (s3 * (q + r / 2.0), -1.5 * r)
}

impl fmt::Display for HexId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A board of several maps side by side (BAR 1.3b) places columns past 99 in one grid:
        // those are written with three column digits ("01120"), which `FromStr` reads back.
        if self.col >= 100 {
            write!(f, "{:02}{:03}", self.row, self.col)
        } else {
            write!(f, "{:02}{:02}", self.row, self.col)
        }
    }
}

impl fmt::Debug for HexId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl FromStr for HexId {
    type Err = BadHexId;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        if !(3..=5).contains(&t.len()) || !t.bytes().all(|c| c.is_ascii_digit()) {
            return Err(BadHexId(s.to_string()));
        }
        let n: u32 = t.parse().map_err(|_| BadHexId(s.to_string()))?;
        if t.len() == 5 {
            // Row, then a three-digit column of a board of several maps (see `Display`).
            let (row, col) = (n / 1000, n % 1000);
            if row > 99 || !(100..=255).contains(&col) {
                return Err(BadHexId(s.to_string()));
            }
            return Ok(Self::new(row as u8, col as u8));
        }
        Ok(Self::new((n / 100) as u8, (n % 100) as u8))
    }
}

impl TryFrom<String> for HexId {
    type Error = BadHexId;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<HexId> for String {
    fn from(h: HexId) -> String {
        h.to_string()
    }
}

/// One of the six hexside directions from a hex to its neighbour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Dir {
    /// Bearing 30°.
    NE,
    /// Bearing 90°.
    E,
    /// Bearing 150°.
    SE,
    /// Bearing 210°.
    SW,
    /// Bearing 270°.
    W,
    /// Bearing 330°.
    NW,
}

impl Dir {
    /// All directions clockwise from north-east.
    pub const ALL: [Dir; 6] = [Dir::NE, Dir::E, Dir::SE, Dir::SW, Dir::W, Dir::NW];

    /// Index 0..6 clockwise from north-east.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Direction from an index (taken modulo 6).
    pub const fn from_index(i: usize) -> Self {
        Self::ALL[i % 6]
    }

    /// The opposite direction.
    pub const fn opposite(self) -> Self {
        Self::from_index(self.index() + 3)
    }

    /// Axial offset of the neighbour in this direction.
    pub fn offset(self) -> Hex {
        match self {
            Dir::NE => Hex::new(1, -1),
            Dir::E => Hex::new(1, 0),
            Dir::SE => Hex::new(0, 1),
            Dir::SW => Hex::new(-1, 1),
            Dir::W => Hex::new(-1, 0),
            Dir::NW => Hex::new(0, -1),
        }
    }
}

/// A vertex facing: the corner of the hex the front of the counter points at (rule 2).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Vertex {
    /// Bearing 0°.
    N,
    /// Bearing 60°.
    NE,
    /// Bearing 120°.
    SE,
    /// Bearing 180°.
    S,
    /// Bearing 240°.
    SW,
    /// Bearing 300°.
    NW,
}

/// Where a hex lies relative to a facing unit.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Arc {
    /// In front.
    Front,
    /// On a flank.
    Flank,
    /// Behind.
    Rear,
}

impl Vertex {
    /// All vertices clockwise from north.
    pub const ALL: [Vertex; 6] = [
        Vertex::N,
        Vertex::NE,
        Vertex::SE,
        Vertex::S,
        Vertex::SW,
        Vertex::NW,
    ];

    /// Index 0..6 clockwise from north.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Vertex from an index (modulo 6).
    pub const fn from_index(i: usize) -> Self {
        Self::ALL[i % 6]
    }

    /// Bearing of the corner in degrees.
    pub fn bearing(self) -> f64 {
        60.0 * self.index() as f64
    }

    /// Turned `steps` vertices clockwise (negative: anticlockwise).
    pub fn turned(self, steps: i32) -> Self {
        Self::from_index((self.index() as i32 + steps).rem_euclid(6) as usize)
    }

    /// The vertex opposite (a 180° turn, rule 8.3).
    pub fn reversed(self) -> Self {
        self.turned(3)
    }

    /// Number of vertices between two facings (0..=3).
    pub fn steps_to(self, other: Vertex) -> u32 {
        let d = (other.index() as i32 - self.index() as i32).rem_euclid(6);
        d.min(6 - d) as u32
    }

    /// The two front hexside directions (rule 2.1).
    pub fn front(self) -> [Dir; 2] {
        let k = self.index();
        [Dir::from_index(k + 5), Dir::from_index(k)]
    }

    /// The two flank hexside directions (rule 2.1).
    pub fn flank(self) -> [Dir; 2] {
        let k = self.index();
        [Dir::from_index(k + 4), Dir::from_index(k + 1)]
    }

    /// The two rear hexside directions (rule 2.1).
    pub fn rear(self) -> [Dir; 2] {
        let k = self.index();
        [Dir::from_index(k + 3), Dir::from_index(k + 2)]
    }

    /// The arc an adjacent direction falls in.
    pub fn arc_of_dir(self, d: Dir) -> Arc {
        if self.front().contains(&d) {
            Arc::Front
        } else if self.flank().contains(&d) {
            Arc::Flank
        } else {
            Arc::Rear
        }
    }

    /// The arc any hex falls in, seen from a unit at `from` with this facing. Adjacent hexes follow
    /// rule 2.1 exactly; farther hexes by bearing: within 60° of the facing corner is front, within
    /// 120° flank, beyond that rear (ties go to the arc nearer the front).
    pub fn arc_of(self, from: HexId, to: HexId) -> Arc {
        if let Some(d) = from.direction_to(to) {
            return self.arc_of_dir(d);
        }
        let delta = (from.bearing_to(to) - self.bearing() + 180.0).rem_euclid(360.0) - 180.0;
        let a = delta.abs();
        if a <= 60.0 + 1e-9 {
            Arc::Front
        } else if a <= 120.0 + 1e-9 {
            Arc::Flank
        } else {
            Arc::Rear
        }
    }

    /// Whether `to` lies in the 60° fire wedge that opens through the two front hexes (rule 9.1):
    /// the hexes reachable as `a·front[0] + b·front[1]` with `a, b ≥ 0`.
    pub fn in_fire_arc(self, from: HexId, to: HexId) -> bool {
        let d = to.axial() - from.axial();
        let [f0, f1] = self.front();
        let (u, v) = (f0.offset(), f1.offset());
        // Solve d = a*u + b*v in integers (u, v are adjacent unit directions, so the basis is unimodular).
        let det = u.x * v.y - u.y * v.x;
        if det == 0 {
            return false;
        }
        let a = (d.x * v.y - d.y * v.x) / det;
        let b = (u.x * d.y - u.y * d.x) / det;
        a >= 0 && b >= 0 && a * u.x + b * v.x == d.x && a * u.y + b * v.y == d.y
    }
}

/// One canonical key per hexside: the two hexes it separates, in ascending order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Hexside(pub HexId, pub HexId);

impl Hexside {
    /// The hexside between two hexes, if they are adjacent.
    pub fn between(a: HexId, b: HexId) -> Option<Self> {
        a.direction_to(b)?;
        Some(if a <= b { Self(a, b) } else { Self(b, a) })
    }
}

/// A step of a line of sight: through a hex, or along the hexside between two hexes. Generic over
/// the hex id so a line of sight can cross the map edges of a [`Board`]; plain [`HexId`] by default.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LosStep<H = HexId> {
    /// The line passes through this hex.
    Hex(H),
    /// The line runs exactly along the hexside between these two hexes (rule 9.4: blocked only if
    /// both hexes block).
    Along(H, H),
}

/// The intermediate hexes a line of sight from the centre of `from` to the centre of `to` passes
/// (both ends excluded), in order. Where the line runs along a hexside both hexes are returned as
/// [`LosStep::Along`].
pub fn los_path(from: HexId, to: HexId) -> Vec<LosStep> {
    los_path_on(&Printed, from, to)
}

/// [`los_path`] on any [`Grid`] (a BAR board's line of sight crosses map edges, 1.3b); points off
/// the grid are left out. Empty if either end is off the grid.
pub fn los_path_on<G: Grid>(grid: &G, from: G::Hex, to: G::Hex) -> Vec<LosStep<G::Hex>> {
    let (Some(a), Some(b)) = (grid.axial(from), grid.axial(to)) else {
        return Vec::new();
    };
    let n = a.unsigned_distance_to(b) as i32;
    let mut out = Vec::new();
    for i in 1..n {
        let t = f64::from(i) / f64::from(n);
        let p = cube_round(a, b, t, 1e-6);
        let m = cube_round(a, b, t, -1e-6);
        let (hp, hm) = (grid.at(p), grid.at(m));
        match (hp, hm) {
            (Some(x), Some(y)) if x == y => out.push(LosStep::Hex(x)),
            (Some(x), Some(y)) => out.push(LosStep::Along(x, y)),
            (Some(x), None) | (None, Some(x)) => out.push(LosStep::Hex(x)),
            (None, None) => {}
        }
    }
    out
}

fn cube_round(a: Hex, b: Hex, t: f64, eps: f64) -> Hex {
    let (ax, ay) = (f64::from(a.x) + eps, f64::from(a.y) + eps);
    let az = -ax - ay - 0.0;
    let (bx, by) = (f64::from(b.x) + eps, f64::from(b.y) + eps);
    let bz = -bx - by;
    let x = ax + (bx - ax) * t;
    let y = ay + (by - ay) * t;
    let z = az + (bz - az) * t;
    let (mut rx, mut ry, rz) = (x.round(), y.round(), z.round());
    let (dx, dy, dz) = ((rx - x).abs(), (ry - y).abs(), (rz - z).abs());
    if dx > dy && dx > dz {
        rx = -ry - rz;
    } else if dy > dz {
        ry = -rx - rz;
    }
    Hex::new(rx as i32, ry as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(s: &str) -> HexId {
        s.parse().unwrap() // test literal
    }

    /// BAR 1.3b: maps side by side in one grid put columns past 99; their ids are written with
    /// three column digits and read back (a saved game holds them), and nothing else changes.
    #[test]
    fn r1_3b_board_columns_past_99_round_trip_as_text() {
        for (row, col) in [(1u8, 120u8), (90, 100), (5, 255), (12, 7), (99, 99)] {
            let id = HexId::new(row, col);
            assert_eq!(id.to_string().parse::<HexId>(), Ok(id), "{id}");
        }
        assert_eq!(HexId::new(1, 120).to_string(), "01120");
        assert_eq!(HexId::new(12, 7).to_string(), "1207");
        assert!(
            "01099".parse::<HexId>().is_err(),
            "a 3-digit column below 100 is not written so"
        );
        assert!("123456".parse::<HexId>().is_err());
    }

    #[test]
    fn printed_ids_round_trip_through_axial() {
        for row in 0..30u8 {
            for col in 0..30u8 {
                let id = HexId::new(row, col);
                assert_eq!(HexId::from_axial(id.axial()), Some(id));
            }
        }
        assert_eq!(h("904"), HexId::new(9, 4));
        assert_eq!(h("0904").to_string(), "0904");
        assert!("12a4".parse::<HexId>().is_err());
        assert!("12345".parse::<HexId>().is_err());
    }

    #[test]
    fn rows_run_west_to_east_and_odd_rows_are_shifted_east() {
        // Same row: column + 1 is the western neighbour.
        assert_eq!(h("1310").direction_to(h("1311")), Some(Dir::W));
        // Odd row 13 (shifted east): its northern neighbours are in row 12 at columns 09 and 10.
        assert_eq!(h("1310").direction_to(h("1209")), Some(Dir::NE));
        assert_eq!(h("1310").direction_to(h("1210")), Some(Dir::NW));
        // Even row 12: northern neighbours at columns 10 and 11 of row 11.
        assert_eq!(h("1210").direction_to(h("1110")), Some(Dir::NE));
        assert_eq!(h("1210").direction_to(h("1111")), Some(Dir::NW));
    }

    #[test]
    fn r2_1_two_front_two_flank_two_rear() {
        for v in Vertex::ALL {
            let mut all: Vec<Dir> = v
                .front()
                .into_iter()
                .chain(v.flank())
                .chain(v.rear())
                .collect();
            all.sort();
            assert_eq!(all, Dir::ALL.to_vec(), "{v:?}");
        }
        assert_eq!(Vertex::N.front(), [Dir::NW, Dir::NE]);
        assert_eq!(Vertex::N.flank(), [Dir::W, Dir::E]);
        assert_eq!(Vertex::N.rear(), [Dir::SW, Dir::SE]);
    }

    #[test]
    fn arcs_for_distant_hexes() {
        let o = h("1010");
        assert_eq!(Vertex::N.arc_of(o, h("0710")), Arc::Front);
        assert_eq!(Vertex::N.arc_of(o, h("1310")), Arc::Rear);
        assert_eq!(Vertex::N.arc_of(o, h("1013")), Arc::Flank);
    }

    #[test]
    fn fire_arc_is_the_front_wedge() {
        let o = h("1010");
        assert!(Vertex::N.in_fire_arc(o, h("0910")));
        assert!(Vertex::N.in_fire_arc(o, h("0810")));
        assert!(Vertex::N.in_fire_arc(o, h("0710")));
        assert!(!Vertex::N.in_fire_arc(o, h("1011")));
        assert!(!Vertex::N.in_fire_arc(o, h("1110")));
    }

    #[test]
    fn los_along_a_hexside_is_reported() {
        // Straight north from 1010 two rows: passes between 0910 and 0911? (vertex line)
        let p = los_path(h("1010"), h("0810"));
        assert_eq!(p.len(), 1);
        assert!(matches!(p[0], LosStep::Along(_, _)));
        let q = los_path(h("1010"), h("1013"));
        assert_eq!(q, vec![LosStep::Hex(h("1011")), LosStep::Hex(h("1012"))]);
    }
}
