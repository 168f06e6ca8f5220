//! Boards of several maps (BAR 1.3b–c): a hex id with its map's letter ("W2119" is hex 2119 on the
//! WEST map) and the placement of each map in one axial plane, so neighbours, directions and
//! distances run across map edges.
//!
//! Each map keeps the printed numbering of [`HexId`] (row-first, column growing westward, odd rows
//! shifted east; `docs/hex-orientation.md`). A map's placement says where its hex `rrcc` sits on
//! the board: at board row `rr + row_offset` and board column `cc + col_offset`, as if the board
//! were one large map numbered the same way. The row offset must be even, so that a map's odd rows
//! stay the rows shifted east.
//!
//! ```text
//!   column grows westward:   WEST (col_offset 30)   |   EAST (col_offset 0)
//!                            W1001 ... (board col 31) | E1030 (board col 30) ... E1001
//! ```

use crate::HexId;
use crate::grid::Grid;
use hexx::Hex;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A hex of a board: the letter of its map (BAR 1.3c; none on a one-map board) and its printed
/// number on that map. Written "W2119", or "2119" without a letter.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct BoardHex {
    /// The first letter of the map code (upper case), if the board has several maps.
    pub map: Option<char>,
    /// The printed number on that map.
    pub hex: HexId,
}

impl BoardHex {
    /// A hex on a lettered map.
    pub const fn on(map: char, hex: HexId) -> Self {
        Self {
            map: Some(map),
            hex,
        }
    }
}

impl From<HexId> for BoardHex {
    /// A hex of a one-map board (no letter).
    fn from(hex: HexId) -> Self {
        Self { map: None, hex }
    }
}

/// Error parsing a board hex id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "not a hex id: {0:?} (expected a map letter and four digits, e.g. W2119, or just the digits)"
)]
pub struct BadBoardHex(pub String);

impl FromStr for BoardHex {
    type Err = BadBoardHex;
    /// Reads "W2119", "w2119" (the letter is upper-cased) or "2119".
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let mut chars = t.chars();
        let (map, digits) = match chars.next() {
            Some(c) if c.is_ascii_alphabetic() => (Some(c.to_ascii_uppercase()), chars.as_str()),
            _ => (None, t),
        };
        // A printed map number has four digits at most (1.3c); the five-digit form of `HexId`
        // is a board column, not a printed one.
        if digits.len() > 4 {
            return Err(BadBoardHex(s.to_string()));
        }
        let hex: HexId = digits.parse().map_err(|_| BadBoardHex(s.to_string()))?;
        Ok(Self { map, hex })
    }
}

impl fmt::Display for BoardHex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.map {
            Some(m) => write!(f, "{m}{}", self.hex),
            None => write!(f, "{}", self.hex),
        }
    }
}

impl fmt::Debug for BoardHex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl TryFrom<String> for BoardHex {
    type Error = BadBoardHex;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<BoardHex> for String {
    fn from(h: BoardHex) -> String {
        h.to_string()
    }
}

/// One map of a board and where it lies (BAR 1.3b): its code, its printed extent and its offset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MapPlacement {
    /// The map code ("WEST", "CENTER"); its first letter prefixes the hex numbers (1.3c). `None`
    /// only on a one-map board.
    #[serde(default)]
    pub code: Option<String>,
    /// First and last printed row on the map.
    pub rows: (u8, u8),
    /// First and last printed column on the map.
    pub cols: (u8, u8),
    /// Board row of the map's row 00 (even).
    #[serde(default)]
    pub row_offset: i32,
    /// Board column of the map's column 00.
    #[serde(default)]
    pub col_offset: i32,
}

impl MapPlacement {
    /// The letter of this map's hex ids: the first letter of its code, upper case.
    pub fn letter(&self) -> Option<char> {
        self.code
            .as_deref()
            .and_then(|c| c.chars().next())
            .map(|c| c.to_ascii_uppercase())
    }

    /// Whether the printed number lies within the map's extent.
    pub fn contains(&self, h: HexId) -> bool {
        (self.rows.0..=self.rows.1).contains(&h.row) && (self.cols.0..=self.cols.1).contains(&h.col)
    }

    fn axial_of(&self, h: HexId) -> Hex {
        crate::printed_to_axial(
            i32::from(h.row) + self.row_offset,
            i32::from(h.col) + self.col_offset,
        )
    }

    fn hex_at(&self, a: Hex) -> Option<HexId> {
        let (r, c) = crate::axial_to_printed(a);
        let (lr, lc) = (r - self.row_offset, c - self.col_offset);
        let h = HexId::new(u8::try_from(lr).ok()?, u8::try_from(lc).ok()?);
        self.contains(h).then_some(h)
    }
}

/// A problem with a board's maps.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// No map at all.
    #[error("a board needs at least one map")]
    Empty,
    /// A map of a several-map board without a code, or a code not starting with a letter.
    #[error("map {0}: on a board of several maps every map needs a code starting with a letter")]
    NoLetter(usize),
    /// Two maps whose codes start with the same letter (1.3c names hexes by that letter).
    #[error("maps {0} and {1} share the letter {2:?}")]
    SameLetter(usize, usize, char),
    /// A row offset that would shift the map's even rows instead of its odd rows.
    #[error(
        "map {0}: row_offset {1} is odd (it must be even so the map's odd rows stay shifted east)"
    )]
    OddRowOffset(usize, i32),
    /// First row or column after the last.
    #[error("map {0}: empty extent (first row/column after the last)")]
    EmptyExtent(usize),
}

/// The maps of a scenario placed in one plane (BAR 1.3b). A [`Grid`] of [`BoardHex`]: neighbours,
/// directions and distances cross map edges. Where maps overlap, a point of the plane takes the
/// name of the first map listed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Vec<MapPlacement>", into = "Vec<MapPlacement>")]
pub struct Board {
    maps: Vec<MapPlacement>,
}

impl Board {
    /// A board from its maps, checked.
    pub fn new(maps: Vec<MapPlacement>) -> Result<Self, BoardError> {
        if maps.is_empty() {
            return Err(BoardError::Empty);
        }
        let several = maps.len() > 1;
        for (i, m) in maps.iter().enumerate() {
            if m.rows.0 > m.rows.1 || m.cols.0 > m.cols.1 {
                return Err(BoardError::EmptyExtent(i));
            }
            if m.row_offset % 2 != 0 {
                return Err(BoardError::OddRowOffset(i, m.row_offset));
            }
            let letter = m.letter();
            if let Some(c) = letter {
                if !c.is_ascii_alphabetic() {
                    return Err(BoardError::NoLetter(i));
                }
                if let Some(j) = maps[..i].iter().position(|o| o.letter() == Some(c)) {
                    return Err(BoardError::SameLetter(j, i, c));
                }
            } else if several {
                return Err(BoardError::NoLetter(i));
            }
        }
        Ok(Self { maps })
    }

    /// A one-map board without a letter, rows and columns `1..=rows`, `1..=cols`.
    pub fn single(rows: u8, cols: u8) -> Self {
        Self {
            maps: vec![MapPlacement {
                code: None,
                rows: (1, rows.max(1)),
                cols: (1, cols.max(1)),
                row_offset: 0,
                col_offset: 0,
            }],
        }
    }

    /// The maps in order.
    pub fn maps(&self) -> &[MapPlacement] {
        &self.maps
    }

    fn map_of(&self, letter: Option<char>) -> Option<&MapPlacement> {
        self.maps.iter().find(|m| m.letter() == letter)
    }

    /// Whether the id names a hex of this board (its map exists and the number is on it).
    pub fn contains(&self, h: BoardHex) -> bool {
        self.map_of(h.map).is_some_and(|m| m.contains(h.hex))
    }

    /// The board's own name for a hex: where maps overlap, the first map's (see [`Board`]).
    pub fn canonical(&self, h: BoardHex) -> Option<BoardHex> {
        self.at(self.axial(h)?)
    }

    /// Every hex of the board once (overlaps named by the first map), map by map, row by row.
    pub fn hexes(&self) -> Vec<BoardHex> {
        let mut out = Vec::new();
        for m in &self.maps {
            for row in m.rows.0..=m.rows.1 {
                for col in m.cols.0..=m.cols.1 {
                    let h = BoardHex {
                        map: m.letter(),
                        hex: HexId::new(row, col),
                    };
                    if self.canonical(h) == Some(h) {
                        out.push(h);
                    }
                }
            }
        }
        out
    }
}

impl TryFrom<Vec<MapPlacement>> for Board {
    type Error = BoardError;
    fn try_from(maps: Vec<MapPlacement>) -> Result<Self, Self::Error> {
        Self::new(maps)
    }
}

impl From<Board> for Vec<MapPlacement> {
    fn from(b: Board) -> Self {
        b.maps
    }
}

impl Grid for Board {
    type Hex = BoardHex;

    fn axial(&self, h: BoardHex) -> Option<Hex> {
        let m = self.map_of(h.map)?;
        m.contains(h.hex).then(|| m.axial_of(h.hex))
    }

    fn at(&self, a: Hex) -> Option<BoardHex> {
        self.maps.iter().find_map(|m| {
            m.hex_at(a).map(|hex| BoardHex {
                map: m.letter(),
                hex,
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Dir;
    use proptest::prelude::*;

    fn b(s: &str) -> BoardHex {
        s.parse().unwrap() // test literal
    }

    /// WEST and EAST side by side (columns grow westward), CENTER south of both.
    fn three_maps() -> Board {
        let m = |code: &str, row_offset, col_offset| MapPlacement {
            code: Some(code.to_string()),
            rows: (1, 20),
            cols: (1, 30),
            row_offset,
            col_offset,
        };
        Board::new(vec![m("EAST", 0, 0), m("WEST", 0, 30), m("CENTER", 20, 15)]).unwrap() // test
    }

    #[test]
    fn r1_3c_a_hex_is_named_by_its_map_letter_and_number() {
        let h = b("W2119");
        assert_eq!(h, BoardHex::on('W', HexId::new(21, 19)));
        assert_eq!(h.to_string(), "W2119");
        assert_eq!(b("w2119"), h);
        assert_eq!(b("2119"), BoardHex::from(HexId::new(21, 19)));
        assert_eq!(b("2119").to_string(), "2119");
        for bad in ["", "W", "WW2119", "W21190", "W21a9", "-2119", "Ü2119"] {
            assert!(bad.parse::<BoardHex>().is_err(), "{bad:?}");
        }
        let j = serde_json::to_string(&h).unwrap(); // test
        assert_eq!(j, "\"W2119\"");
        assert_eq!(serde_json::from_str::<BoardHex>(&j).unwrap(), h); // test
    }

    #[test]
    fn r1_3b_neighbours_and_distances_cross_map_edges() {
        let board = three_maps();
        // EAST's westernmost column 30 touches WEST's easternmost column 01.
        assert_eq!(board.neighbour(b("E1030"), Dir::W), Some(b("W1001")));
        assert_eq!(board.neighbour(b("W1001"), Dir::E), Some(b("E1030")));
        assert_eq!(board.direction_to(b("E1030"), b("W1001")), Some(Dir::W));
        assert_eq!(board.distance(b("E1025"), b("W1005")), Some(10));
        // CENTER's row 01 lies below EAST's row 20 (board row 21, odd: shifted east).
        assert_eq!(board.distance(b("E2010"), b("C0101")), Some(6));
        assert!(
            board
                .neighbour(b("E2016"), Dir::SE)
                .is_some_and(|h| h.map == Some('C'))
        );
        // Off the board.
        assert_eq!(board.neighbour(b("E1001"), Dir::E), None);
        assert_eq!(board.axial(b("X1001")), None);
        assert_eq!(board.axial(b("E2130")), None);
    }

    #[test]
    fn r1_3c_board_checks_its_maps() {
        let m = |code: Option<&str>, row_offset| MapPlacement {
            code: code.map(str::to_string),
            rows: (1, 10),
            cols: (1, 10),
            row_offset,
            col_offset: 0,
        };
        assert_eq!(Board::new(vec![]), Err(BoardError::Empty));
        assert_eq!(
            Board::new(vec![m(Some("WEST"), 0), m(Some("west2"), 20)]),
            Err(BoardError::SameLetter(0, 1, 'W'))
        );
        assert_eq!(
            Board::new(vec![m(Some("WEST"), 0), m(None, 20)]),
            Err(BoardError::NoLetter(1))
        );
        assert_eq!(
            Board::new(vec![m(Some("WEST"), 0), m(Some("EAST"), 11)]),
            Err(BoardError::OddRowOffset(1, 11))
        );
        assert!(Board::new(vec![m(None, 0)]).is_ok());
        let toml_text = r#"
            [[maps]]
            code = "WEST"
            rows = [1, 20]
            cols = [1, 30]
            col_offset = 30
            [[maps]]
            code = "EAST"
            rows = [1, 20]
            cols = [1, 30]
        "#;
        #[derive(Deserialize)]
        struct Data {
            maps: Board,
        }
        let d: Data = toml::from_str(toml_text).unwrap(); // test literal
        assert_eq!(d.maps.maps().len(), 2);
        assert!(toml::from_str::<Data>(&toml_text.replace("EAST", "WAST")).is_err());
    }

    #[test]
    fn r1_3b_line_of_sight_crosses_map_edges() {
        let board = three_maps();
        let path = crate::los_path_on(&board, b("E1028"), b("W1003"));
        assert_eq!(
            path,
            vec![
                crate::LosStep::Hex(b("E1029")),
                crate::LosStep::Hex(b("E1030")),
                crate::LosStep::Hex(b("W1001")),
                crate::LosStep::Hex(b("W1002")),
            ]
        );
        // On one map the board's line of sight is the printed map's.
        let single = Board::single(30, 30);
        let (x, y) = (HexId::new(10, 10), HexId::new(4, 13));
        let plain: Vec<_> = crate::los_path(x, y)
            .into_iter()
            .map(|s| match s {
                crate::LosStep::Hex(h) => crate::LosStep::Hex(BoardHex::from(h)),
                crate::LosStep::Along(h, k) => {
                    crate::LosStep::Along(BoardHex::from(h), BoardHex::from(k))
                }
            })
            .collect();
        assert_eq!(crate::los_path_on(&single, x.into(), y.into()), plain);
        assert!(board.is_adjacent(b("E1030"), b("W1001")));
        assert_eq!(
            board.neighbours(b("E1001")).len(),
            5,
            "only the east neighbour is off the board"
        );
    }

    #[test]
    fn a_one_map_board_is_the_printed_map() {
        let board = Board::single(20, 30);
        let h = b("1010");
        assert_eq!(board.axial(h), Some(HexId::new(10, 10).axial()));
        assert_eq!(board.hexes().len(), 600);
        assert_eq!(three_maps().hexes().len(), 1800);
    }

    proptest! {
        #[test]
        fn r1_3b_every_board_hex_round_trips_through_the_plane(
            map in 0usize..3, row in 1u8..=20, col in 1u8..=30, d in 0usize..6
        ) {
            let board = three_maps();
            let letter = ['E', 'W', 'C'][map];
            let h = BoardHex::on(letter, HexId::new(row, col));
            let a = board.axial(h).unwrap(); // test: on the board by construction
            prop_assert_eq!(board.at(a), Some(h));
            prop_assert_eq!(h.to_string().parse::<BoardHex>(), Ok(h));
            let dir = Dir::from_index(d);
            if let Some(n) = board.neighbour(h, dir) {
                prop_assert_eq!(board.distance(h, n), Some(1));
                prop_assert_eq!(board.neighbour(n, dir.opposite()), Some(h));
                prop_assert_eq!(board.direction_to(h, n), Some(dir));
            }
            // Within one map the board agrees with the printed map.
            let o = BoardHex::on(letter, HexId::new(10, 15));
            prop_assert_eq!(board.distance(h, o), Some(h.hex.distance(o.hex)));
        }
    }
}
