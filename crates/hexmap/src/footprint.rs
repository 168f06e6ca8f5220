//! Multi-hex footprints (BAR 8.1, reading notes C6): the hexes a unit or stack occupies, in order,
//! with its facing, and the geometry of moving them: front, flank and rear hexes of the whole
//! formation, wheeling a line (9.4b), turning and advancing a column (9.4a), reversing (9.6),
//! extending and contracting (11.5), shifting one hex.
//!
//! Three shapes (the BAR crate decides which formation uses which, and every cost):
//!
//! ```text
//!  Line, facing a hexpoint (N):        March column, facing a hexside (E):   Road column (any
//!  side by side along the flanks,      one behind another, straight,        length, may bend):
//!  right end first (8.1a SPs):         head first (8.1f SPs):
//!
//!        F   F   F   F                      fl  fl  fl                          head → ■
//!     fl  [2] [1] [0]  fl              R  [2] [1] [0]  F                       ■  ■
//!        R   R   R   R                      fl  fl  fl                    tail ■
//! ```
//!
//! Single-hex formations are footprints of length 1: a hexpoint facing is a one-hex `Line`, a
//! hexside facing a one-hex `MarchColumn`. The hexes of every footprint are in order: a line from
//! its right end to its left end (8.1a distributes SPs "beginning with the hex on the right"), a
//! column from its head to its tail (8.1f: 4 SPs per hex from the head).

use crate::grid::Grid;
use crate::{Arc, Dir, Facing, Vertex};
use hexx::Hex;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The three shapes of a footprint.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Serialize, Deserialize)]
pub enum FootprintKind {
    /// Hexes side by side, facing a hexpoint, 1–3 hexes, always straight (8.1a; also hook, attack
    /// column, square, skirmish, general order and unlimbered artillery as one hex).
    Line,
    /// Hexes one behind another, facing a hexside, 1–3 hexes; straight at the end of a movement
    /// phase (9.4), bent only while its hexes follow the head through a turn (9.4a) (8.1d; also
    /// limbered artillery as one hex, 8.1i).
    MarchColumn,
    /// Hexes one behind another, facing a hexside, any length, bends allowed (8.1f).
    RoadColumn,
}

impl FootprintKind {
    /// The longest footprint of this shape (3 for lines and march columns, 8.1a and 8.1d; none for
    /// road columns, 8.1f). Armies' own limits (2-hex infantry lines) are the ruleset's.
    pub const fn max_len(self) -> Option<usize> {
        match self {
            FootprintKind::Line | FootprintKind::MarchColumn => Some(3),
            FootprintKind::RoadColumn => None,
        }
    }

    const fn is_column(self) -> bool {
        match self {
            FootprintKind::Line => false,
            FootprintKind::MarchColumn | FootprintKind::RoadColumn => true,
        }
    }
}

/// One end of a footprint: the head is the first hex (a line's right end, a column's head), the
/// tail the last (a line's left end, a column's last hex).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum End {
    /// The first hex: a line's right end, a column's head.
    Head,
    /// The last hex: a line's left end, a column's tail.
    Tail,
}

/// Why a footprint or an operation on it is not valid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FootprintError {
    /// No hexes.
    #[error("a footprint needs at least one hex")]
    Empty,
    /// More hexes than the shape allows.
    #[error("{kind:?} of {len} hexes (at most {max})")]
    TooLong {
        /// The shape.
        kind: FootprintKind,
        /// Its length.
        len: usize,
        /// The longest allowed.
        max: usize,
    },
    /// A line must face a hexpoint, a column a hexside (8.4c).
    #[error("a {0:?} cannot face {1:?} (lines face a hexpoint, columns a hexside)")]
    WrongFacing(FootprintKind, Facing),
    /// A hex is off the grid (or an operation would leave it).
    #[error("hex {0} is off the map")]
    OffGrid(usize),
    /// The same hex twice.
    #[error("hex {0} repeats an earlier hex")]
    Repeated(usize),
    /// A line's hexes must be side by side, right to left, across its facing (8.1a).
    #[error("hex {0} of the line is not the left neighbour of the hex before it")]
    NotSideBySide(usize),
    /// A column's hexes must each be adjacent to the one before (8.1d, 8.1f).
    #[error("hex {0} of the column is not adjacent to the hex before it")]
    NotAdjacent(usize),
    /// A multi-hex column's head faces away from the hex behind it.
    #[error("the column head does not face away from the hex behind it")]
    HeadAskew,
    /// A march column must be straight at the end of a movement phase (9.4).
    #[error("the march column is not straight (9.4)")]
    Bent,
    /// The operation is for lines only.
    #[error("only a line can do this")]
    NotALine,
    /// The operation is for columns only.
    #[error("only a column can do this")]
    NotAColumn,
    /// A one-hex footprint cannot contract.
    #[error("a one-hex footprint cannot contract")]
    TooShort,
}

/// A multi-hex (or single-hex) position: a shape, a facing and the hexes in order (see the module
/// documentation). Built checked by [`Footprint::line`], [`Footprint::march_column`],
/// [`Footprint::road_column`] or [`Footprint::new`]; a deserialised footprint should be checked
/// with [`Footprint::check`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Footprint<H> {
    kind: FootprintKind,
    facing: Facing,
    hexes: Vec<H>,
}

/// The result of a line's wheel (9.4b): the new footprint and, for each of its hexes (same index,
/// right to left), the hexes that hex entered on the way, in order (empty for the pivot).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wheel<H> {
    /// The line after the wheel.
    pub footprint: Footprint<H>,
    /// The end that moved (the other is the pivot).
    pub moving_end: End,
    /// Per hex of the line, the hexes it entered (the pivot's list is empty).
    pub paths: Vec<Vec<H>>,
}

impl<H: Copy> Wheel<H> {
    /// The hexes entered by the moving end hex (9.4b(b): 1 MP for each).
    pub fn entered_by_end(&self) -> &[H] {
        let i = match self.moving_end {
            End::Head => 0,
            End::Tail => self.paths.len().saturating_sub(1),
        };
        self.paths.get(i).map_or(&[], Vec::as_slice)
    }
}

/// The right and left flank directions of a hexpoint facing: the directions in which a line's
/// hexes lie (8.1a: side by side).
fn line_dirs(v: Vertex) -> (Dir, Dir) {
    let [left, right] = v.flank();
    (right, left)
}

impl<H: Copy + Eq + Ord + std::hash::Hash + std::fmt::Debug> Footprint<H> {
    /// A checked footprint from its parts.
    pub fn new<G: Grid<Hex = H>>(
        grid: &G,
        kind: FootprintKind,
        facing: Facing,
        hexes: Vec<H>,
    ) -> Result<Self, FootprintError> {
        let f = Self {
            kind,
            facing,
            hexes,
        };
        f.check(grid)?;
        Ok(f)
    }

    /// A line of `len` hexes facing `facing`, from its right end leftward (8.1a).
    pub fn line<G: Grid<Hex = H>>(
        grid: &G,
        right_end: H,
        facing: Vertex,
        len: usize,
    ) -> Result<Self, FootprintError> {
        let (_, left) = line_dirs(facing);
        let hexes = walk(grid, right_end, len, |_| left)?;
        Self::new(grid, FootprintKind::Line, Facing::Point(facing), hexes)
    }

    /// A straight march column of `len` hexes whose head faces `facing` (8.1d).
    pub fn march_column<G: Grid<Hex = H>>(
        grid: &G,
        head: H,
        facing: Dir,
        len: usize,
    ) -> Result<Self, FootprintError> {
        let hexes = walk(grid, head, len, |_| facing.opposite())?;
        Self::new(
            grid,
            FootprintKind::MarchColumn,
            Facing::Side(facing),
            hexes,
        )
    }

    /// A road column along `hexes`, head first, the head facing `facing` (8.1f).
    pub fn road_column<G: Grid<Hex = H>>(
        grid: &G,
        facing: Dir,
        hexes: Vec<H>,
    ) -> Result<Self, FootprintError> {
        Self::new(grid, FootprintKind::RoadColumn, Facing::Side(facing), hexes)
    }

    /// The shape.
    pub fn kind(&self) -> FootprintKind {
        self.kind
    }

    /// The facing (of the head, for a column).
    pub fn facing(&self) -> Facing {
        self.facing
    }

    /// The hexes in order (right to left, head to tail).
    pub fn hexes(&self) -> &[H] {
        &self.hexes
    }

    /// The number of hexes.
    pub fn len(&self) -> usize {
        self.hexes.len()
    }

    /// Whether there are no hexes (never, for a checked footprint).
    pub fn is_empty(&self) -> bool {
        self.hexes.is_empty()
    }

    /// Whether the footprint occupies `h`.
    pub fn contains(&self, h: H) -> bool {
        self.hexes.contains(&h)
    }

    /// The hex at an end, if any.
    pub fn end(&self, end: End) -> Option<H> {
        match end {
            End::Head => self.hexes.first().copied(),
            End::Tail => self.hexes.last().copied(),
        }
    }

    /// The first hex: a column's head, a line's right end.
    pub fn head(&self) -> Option<H> {
        self.end(End::Head)
    }

    /// The last hex: a column's tail, a line's left end.
    pub fn tail(&self) -> Option<H> {
        self.end(End::Tail)
    }

    /// Checks the shape: length, the kind of facing, hexes on the grid and distinct, a line's hexes
    /// side by side right to left, a column's each adjacent to the one before with the head facing
    /// away from the second. A march column may be bent here (between moves, 9.4a); see
    /// [`Footprint::check_at_rest`].
    pub fn check<G: Grid<Hex = H>>(&self, grid: &G) -> Result<(), FootprintError> {
        let n = self.hexes.len();
        if n == 0 {
            return Err(FootprintError::Empty);
        }
        if let Some(max) = self.kind.max_len()
            && n > max
        {
            return Err(FootprintError::TooLong {
                kind: self.kind,
                len: n,
                max,
            });
        }
        for (i, &h) in self.hexes.iter().enumerate() {
            if grid.axial(h).is_none() {
                return Err(FootprintError::OffGrid(i));
            }
            if self.hexes[..i].contains(&h) {
                return Err(FootprintError::Repeated(i));
            }
        }
        match (self.kind, self.facing) {
            (FootprintKind::Line, Facing::Point(v)) => {
                let (_, left) = line_dirs(v);
                for i in 1..n {
                    if grid.direction_to(self.hexes[i - 1], self.hexes[i]) != Some(left) {
                        return Err(FootprintError::NotSideBySide(i));
                    }
                }
            }
            (FootprintKind::MarchColumn | FootprintKind::RoadColumn, Facing::Side(d)) => {
                for i in 1..n {
                    if grid
                        .direction_to(self.hexes[i], self.hexes[i - 1])
                        .is_none()
                    {
                        return Err(FootprintError::NotAdjacent(i));
                    }
                }
                if n > 1 && grid.direction_to(self.hexes[1], self.hexes[0]) != Some(d) {
                    return Err(FootprintError::HeadAskew);
                }
            }
            (kind, facing) => return Err(FootprintError::WrongFacing(kind, facing)),
        }
        Ok(())
    }

    /// [`Footprint::check`] plus 9.4: a march column ends its movement phase in a straight line
    /// (lines are always straight; road columns may bend).
    pub fn check_at_rest<G: Grid<Hex = H>>(&self, grid: &G) -> Result<(), FootprintError> {
        self.check(grid)?;
        match self.kind {
            FootprintKind::MarchColumn if !self.is_straight(grid) => Err(FootprintError::Bent),
            FootprintKind::Line | FootprintKind::MarchColumn | FootprintKind::RoadColumn => Ok(()),
        }
    }

    /// Whether every hex lies in one straight row of hexes (a line always; a column when each hex
    /// is directly behind the one before, 8.4a's "same row of hexes as the column head").
    pub fn is_straight<G: Grid<Hex = H>>(&self, grid: &G) -> bool {
        let dirs: Vec<Option<Dir>> = self
            .hexes
            .windows(2)
            .map(|w| grid.direction_to(w[1], w[0]))
            .collect();
        dirs.windows(2).all(|w| w[0] == w[1]) && dirs.iter().all(Option::is_some)
    }

    /// The facing each hex looks with: a line's facing for all; a column's head faces the column's
    /// facing and every other hex faces the hex ahead of it.
    pub fn local_facings<G: Grid<Hex = H>>(&self, grid: &G) -> Vec<Facing> {
        (0..self.hexes.len())
            .map(|i| {
                if i == 0 || !self.kind.is_column() {
                    self.facing
                } else {
                    grid.direction_to(self.hexes[i], self.hexes[i - 1])
                        .map_or(self.facing, Facing::Side)
                }
            })
            .collect()
    }

    /// Every hex adjacent to the footprint (its own hexes left out) with its arc, in hex order.
    ///
    /// A line: each hex classifies its neighbours with the line's facing (a straight line sees no
    /// hex two ways): n + 1 front, 2 flank and n + 1 rear hexes for n hexes. A column (8.1f: "one
    /// front hex and one rear hex. Its number of flank hexes depends on its length"): the front
    /// hex is the head's, the rear hex the one behind the tail (away from the hex ahead of it), and
    /// every other adjacent hex is a flank hex, bends included (2n + 2 flank hexes when straight).
    /// A hex that is both front and rear (a coiled road column) is front.
    pub fn adjacent<G: Grid<Hex = H>>(&self, grid: &G) -> Vec<(H, Arc)> {
        let mut out: BTreeMap<H, Arc> = BTreeMap::new();
        let facings = self.local_facings(grid);
        for (&h, f) in self.hexes.iter().zip(&facings) {
            for d in Dir::ALL {
                let Some(n) = grid.neighbour(h, d) else {
                    continue;
                };
                if self.contains(n) {
                    continue;
                }
                let arc = if self.kind.is_column() {
                    Arc::Flank
                } else {
                    f.arc_of_dir(d)
                };
                out.entry(n).or_insert(arc);
            }
        }
        if self.kind.is_column() {
            let rear = match (self.tail(), facings.last()) {
                (Some(t), Some(Facing::Side(d))) => grid.neighbour(t, d.opposite()),
                _ => None,
            };
            let front = match (self.head(), self.facing) {
                (Some(hd), Facing::Side(d)) => grid.neighbour(hd, d),
                _ => None,
            };
            for (x, arc) in [(rear, Arc::Rear), (front, Arc::Front)] {
                if let Some(slot) = x.and_then(|x| out.get_mut(&x)) {
                    *slot = arc;
                }
            }
        }
        out.into_iter().collect()
    }

    /// The adjacent hexes in one arc, in hex order.
    pub fn hexes_in<G: Grid<Hex = H>>(&self, grid: &G, arc: Arc) -> Vec<H> {
        self.adjacent(grid)
            .into_iter()
            .filter(|&(_, a)| a == arc)
            .map(|(h, _)| h)
            .collect()
    }

    /// The front hexes of the whole formation (9.0).
    pub fn front_hexes<G: Grid<Hex = H>>(&self, grid: &G) -> Vec<H> {
        self.hexes_in(grid, Arc::Front)
    }

    /// The flank hexes of the whole formation (9.0).
    pub fn flank_hexes<G: Grid<Hex = H>>(&self, grid: &G) -> Vec<H> {
        self.hexes_in(grid, Arc::Flank)
    }

    /// The rear hexes of the whole formation (9.0).
    pub fn rear_hexes<G: Grid<Hex = H>>(&self, grid: &G) -> Vec<H> {
        self.hexes_in(grid, Arc::Rear)
    }

    /// The zone of control of the formation: its front hexes (9.1).
    pub fn zoc_hexes<G: Grid<Hex = H>>(&self, grid: &G) -> Vec<H> {
        self.front_hexes(grid)
    }

    /// The arc of any hex: `None` for an own hex or one off the grid; an adjacent hex as in
    /// [`Footprint::adjacent`]. A farther hex goes by bearing ([`Facing::arc_of_offset`]): for a
    /// line, as seen from the nearest own hex (the most frontal answer when several are nearest);
    /// for a column, front if it is in front of the head, rear if it is behind the tail (seen with
    /// the tail's facing), flank otherwise, as the column's adjacent hexes are.
    pub fn arc_of<G: Grid<Hex = H>>(&self, grid: &G, to: H) -> Option<Arc> {
        if self.contains(to) {
            return None;
        }
        let target = grid.axial(to)?;
        if let Some(&(_, a)) = self.adjacent(grid).iter().find(|(h, _)| *h == to) {
            return Some(a);
        }
        let facings = self.local_facings(grid);
        let seen = |i: usize| -> Option<(u32, Arc)> {
            let delta = target - grid.axial(*self.hexes.get(i)?)?;
            Some((
                Hex::ZERO.unsigned_distance_to(delta),
                facings.get(i)?.arc_of_offset(delta)?,
            ))
        };
        if self.kind.is_column() {
            let n = self.hexes.len();
            return Some(match (seen(0)?.1, seen(n - 1)?.1) {
                (Arc::Front, _) => Arc::Front,
                (_, Arc::Rear) => Arc::Rear,
                (Arc::Flank | Arc::Rear, Arc::Front | Arc::Flank) => Arc::Flank,
            });
        }
        let rank = |a: Arc| match a {
            Arc::Front => 0,
            Arc::Flank => 1,
            Arc::Rear => 2,
        };
        (0..self.hexes.len())
            .filter_map(seen)
            .min_by_key(|&(dist, a)| (dist, rank(a)))
            .map(|(_, a)| a)
    }

    /// The footprint moved one hex in direction `d`, facing unchanged (a line stepping into its
    /// front hexes, 11.3; backward movement, 11.7; a skirmisher's flank step, 11.8).
    pub fn shifted<G: Grid<Hex = H>>(&self, grid: &G, d: Dir) -> Result<Self, FootprintError> {
        let hexes = self
            .hexes
            .iter()
            .enumerate()
            .map(|(i, &h)| grid.neighbour(h, d).ok_or(FootprintError::OffGrid(i)))
            .collect::<Result<Vec<H>, _>>()?;
        Self::new(grid, self.kind, self.facing, hexes)
    }

    /// A column's move of one hex (9.4a): the head turns `turn` hexsides (positive clockwise, 0 to
    /// go straight) and enters its new front hex; every other hex moves into the hex ahead of it,
    /// so each turns where the head turned. The result of a turn may be bent; a march column must
    /// be straight again by the end of the phase ([`Footprint::check_at_rest`]).
    pub fn advanced<G: Grid<Hex = H>>(&self, grid: &G, turn: i32) -> Result<Self, FootprintError> {
        let Facing::Side(d) = self.facing else {
            return Err(FootprintError::NotAColumn);
        };
        if !self.kind.is_column() {
            return Err(FootprintError::NotAColumn);
        }
        let d = d.turned(turn);
        let head = self.head().ok_or(FootprintError::Empty)?;
        let new_head = grid.neighbour(head, d).ok_or(FootprintError::OffGrid(0))?;
        let mut hexes = Vec::with_capacity(self.hexes.len());
        hexes.push(new_head);
        hexes.extend_from_slice(&self.hexes[..self.hexes.len() - 1]);
        Self::new(grid, self.kind, Facing::Side(d), hexes)
    }

    /// A line's wheel about one end (9.4b): the `pivot` end stays, the facing turns `steps`
    /// hexpoints (positive clockwise), the other hexes swing round the pivot. A one-hex line simply
    /// turns. The paths say which hexes each moving hex entered (the end's count is 9.4b(b)).
    pub fn wheeled<G: Grid<Hex = H>>(
        &self,
        grid: &G,
        pivot: End,
        steps: i32,
    ) -> Result<Wheel<H>, FootprintError> {
        let (FootprintKind::Line, Facing::Point(v)) = (self.kind, self.facing) else {
            return Err(FootprintError::NotALine);
        };
        let n = self.hexes.len();
        let p = self.end(pivot).ok_or(FootprintError::Empty)?;
        let pa = grid.axial(p).ok_or(FootprintError::OffGrid(0))?;
        let nv = v.turned(steps);
        // The direction from the pivot to the other hexes, before and after.
        let away = |v: Vertex| {
            let (right, left) = line_dirs(v);
            match pivot {
                End::Head => left,
                End::Tail => right,
            }
        };
        let (a0, sign) = (away(v), steps.signum());
        let mut paths = Vec::with_capacity(n);
        let mut hexes = Vec::with_capacity(n);
        for i in 0..n {
            let r = match pivot {
                End::Head => i,
                End::Tail => n - 1 - i,
            } as i32;
            let mut pos = pa + a0.offset() * r;
            let mut path = Vec::new();
            if r > 0 {
                for s in 0..steps.abs() {
                    // Along the ring of radius r from one corner to the next (60° per hexpoint).
                    let corner = a0.turned(sign * s);
                    let step = corner.turned(2 * sign).offset();
                    for _ in 0..r {
                        pos += step;
                        path.push(grid.at(pos).ok_or(FootprintError::OffGrid(i))?);
                    }
                }
            }
            debug_assert_eq!(pos, pa + away(nv).offset() * r);
            hexes.push(grid.at(pos).ok_or(FootprintError::OffGrid(i))?);
            paths.push(path);
        }
        let footprint = Self::new(grid, FootprintKind::Line, Facing::Point(nv), hexes)?;
        let moving_end = match pivot {
            End::Head => End::Tail,
            End::Tail => End::Head,
        };
        Ok(Wheel {
            footprint,
            moving_end,
            paths,
        })
    }

    /// Reversing direction (9.6b): a column swaps head and tail (the new head faces away from the
    /// hex behind it; a one-hex column turns about); a line turns 180° in place (its left end
    /// becomes its right end, so the hex order flips).
    pub fn reversed<G: Grid<Hex = H>>(&self, grid: &G) -> Result<Self, FootprintError> {
        let mut hexes = self.hexes.clone();
        hexes.reverse();
        let facing = match (self.kind.is_column(), hexes.as_slice()) {
            (true, [a, b, ..]) => Facing::Side(
                grid.direction_to(*b, *a)
                    .ok_or(FootprintError::NotAdjacent(1))?,
            ),
            _ => self.facing.reversed(),
        };
        Self::new(grid, self.kind, facing, hexes)
    }

    /// One more hex at an end (11.5): a line adds it beside its right (`Head`) or left (`Tail`)
    /// end (11.5c); a column behind its tail (11.5d) or, at the `Head`, in front of its head.
    pub fn extended<G: Grid<Hex = H>>(&self, grid: &G, end: End) -> Result<Self, FootprintError> {
        let n = self.hexes.len();
        let at = self.end(end).ok_or(FootprintError::Empty)?;
        let facings = self.local_facings(grid);
        let d = match (self.facing, end) {
            (Facing::Point(v), End::Head) => line_dirs(v).0,
            (Facing::Point(v), End::Tail) => line_dirs(v).1,
            (Facing::Side(d), End::Head) => d,
            (Facing::Side(_), End::Tail) => match facings.last() {
                Some(Facing::Side(t)) => t.opposite(),
                Some(Facing::Point(_)) | None => return Err(FootprintError::Empty),
            },
        };
        let new = grid.neighbour(at, d).ok_or(FootprintError::OffGrid(n))?;
        let mut hexes = self.hexes.clone();
        match end {
            End::Head => hexes.insert(0, new),
            End::Tail => hexes.push(new),
        }
        Self::new(grid, self.kind, self.facing, hexes)
    }

    /// One hex less at an end (11.5c–d): the end hex leaves. A column that drops its head takes
    /// the facing of the hex that becomes the head.
    pub fn contracted<G: Grid<Hex = H>>(&self, grid: &G, end: End) -> Result<Self, FootprintError> {
        if self.hexes.len() < 2 {
            return Err(FootprintError::TooShort);
        }
        let mut hexes = self.hexes.clone();
        let mut facing = self.facing;
        match end {
            End::Head => {
                if self.kind.is_column() {
                    facing = self.local_facings(grid)[1];
                }
                hexes.remove(0);
            }
            End::Tail => {
                hexes.pop();
            }
        }
        Self::new(grid, self.kind, facing, hexes)
    }
}

/// `len` hexes from `start`, each the neighbour of the one before in `dir(i)`.
fn walk<G: Grid>(
    grid: &G,
    start: G::Hex,
    len: usize,
    dir: impl Fn(usize) -> Dir,
) -> Result<Vec<G::Hex>, FootprintError> {
    if len == 0 {
        return Err(FootprintError::Empty);
    }
    let mut hexes = vec![start];
    for i in 1..len {
        let prev = hexes[i - 1];
        hexes.push(
            grid.neighbour(prev, dir(i))
                .ok_or(FootprintError::OffGrid(i))?,
        );
    }
    Ok(hexes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{HexId, Printed};
    use proptest::prelude::*;

    fn h(s: &str) -> HexId {
        s.parse().unwrap() // test literal
    }

    fn hs(v: &[&str]) -> Vec<HexId> {
        v.iter().map(|s| h(s)).collect()
    }

    const G: Printed = Printed;

    #[test]
    fn r8_1a_a_line_stands_side_by_side_from_its_right_end() {
        // Facing north, the right is east; columns grow westward, so leftward is column + 1.
        let l = Footprint::line(&G, h("1010"), Vertex::N, 3).unwrap(); // test
        assert_eq!(l.hexes(), hs(&["1010", "1011", "1012"]).as_slice());
        assert_eq!(
            l.head(),
            Some(h("1010")),
            "right end first (8.1a SPs from the right)"
        );
        assert_eq!(l.tail(), Some(h("1012")));
        // Facing south the right is west.
        let s = Footprint::line(&G, h("1010"), Vertex::S, 2).unwrap(); // test
        assert_eq!(s.hexes(), hs(&["1010", "1009"]).as_slice());
        assert!(Footprint::line(&G, h("1010"), Vertex::N, 4).is_err());
        assert_eq!(
            Footprint::new(
                &G,
                FootprintKind::Line,
                Facing::Point(Vertex::N),
                hs(&["1010", "1009"])
            ),
            Err(FootprintError::NotSideBySide(1)),
            "left of the right end, not right of it"
        );
    }

    #[test]
    fn r9_0_a_line_has_front_and_rear_across_its_length_and_a_flank_at_each_end() {
        let l = Footprint::line(&G, h("1010"), Vertex::N, 2).unwrap(); // test
        // Row 10 is even: the northern neighbours of 10cc are 09cc (NE) and 09cc+1 (NW).
        assert_eq!(l.front_hexes(&G), hs(&["0910", "0911", "0912"]));
        assert_eq!(l.flank_hexes(&G), hs(&["1009", "1012"]));
        assert_eq!(l.rear_hexes(&G), hs(&["1110", "1111", "1112"]));
        assert_eq!(
            l.zoc_hexes(&G),
            l.front_hexes(&G),
            "9.1: ZOC in the front hexes"
        );
        assert_eq!(l.arc_of(&G, h("1010")), None);
        assert_eq!(l.arc_of(&G, h("0711")), Some(Arc::Front));
        assert_eq!(l.arc_of(&G, h("1006")), Some(Arc::Flank));
        assert_eq!(l.arc_of(&G, h("1411")), Some(Arc::Rear));
    }

    #[test]
    fn r8_1d_a_march_column_stands_one_behind_another_from_its_head() {
        let c = Footprint::march_column(&G, h("1010"), Dir::E, 3).unwrap(); // test
        assert_eq!(c.hexes(), hs(&["1010", "1011", "1012"]).as_slice());
        assert_eq!(c.front_hexes(&G), hs(&["1009"]));
        assert_eq!(c.rear_hexes(&G), hs(&["1013"]));
        assert_eq!(c.flank_hexes(&G).len(), 8);
        assert_eq!(c.zoc_hexes(&G), hs(&["1009"]));
        assert_eq!(c.arc_of(&G, h("1006")), Some(Arc::Front));
        assert_eq!(c.arc_of(&G, h("1016")), Some(Arc::Rear));
        assert_eq!(c.arc_of(&G, h("0811")), Some(Arc::Flank));
        assert!(Footprint::march_column(&G, h("1010"), Dir::E, 4).is_err());
        assert_eq!(
            Footprint::new(
                &G,
                FootprintKind::MarchColumn,
                Facing::Side(Dir::W),
                hs(&["1010", "1011"])
            ),
            Err(FootprintError::HeadAskew)
        );
        assert_eq!(
            Footprint::new(
                &G,
                FootprintKind::MarchColumn,
                Facing::Point(Vertex::N),
                hs(&["1010"])
            ),
            Err(FootprintError::WrongFacing(
                FootprintKind::MarchColumn,
                Facing::Point(Vertex::N)
            )),
            "8.4c: a column faces a hexside"
        );
    }

    #[test]
    fn r8_1f_a_bent_road_column_has_one_front_and_one_rear_hex() {
        // Head 1010 facing east; behind it 1011 (W of the head), then the road bends south-west.
        let rc = Footprint::road_column(&G, Dir::E, hs(&["1010", "1011", "1112", "1212"])).unwrap(); // test
        assert!(!rc.is_straight(&G));
        assert!(
            rc.check_at_rest(&G).is_ok(),
            "a road column may end bent (8.1f)"
        );
        assert_eq!(rc.front_hexes(&G), hs(&["1009"]));
        assert_eq!(rc.rear_hexes(&G).len(), 1);
        let adj = rc.adjacent(&G);
        assert_eq!(
            adj.iter().filter(|(_, a)| *a == Arc::Flank).count(),
            adj.len() - 2
        );
        assert!(
            Footprint::road_column(&G, Dir::E, hs(&["1010", "1011", "1013"])).is_err(),
            "each hex adjacent to the next"
        );
    }

    #[test]
    fn r9_4a_a_column_turns_at_its_head_and_the_followers_turn_there() {
        // 9.4a example: a 2-hex column turns in its head hex B and moves into C.
        let c = Footprint::march_column(&G, h("1010"), Dir::E, 2).unwrap(); // test
        let t = c.advanced(&G, 1).unwrap(); // test
        assert_eq!(t.facing(), Facing::Side(Dir::SE));
        assert_eq!(t.hexes(), hs(&["1110", "1010"]).as_slice());
        assert!(t.is_straight(&G), "the second hex turned in B");
        // A 3-hex column is bent after the turn and straight one hex later.
        let c3 = Footprint::march_column(&G, h("1010"), Dir::E, 3).unwrap(); // test
        let t3 = c3.advanced(&G, 1).unwrap(); // test
        assert_eq!(t3.hexes(), hs(&["1110", "1010", "1011"]).as_slice());
        assert_eq!(t3.check_at_rest(&G), Err(FootprintError::Bent), "9.4");
        let s3 = t3.advanced(&G, 0).unwrap(); // test
        assert_eq!(s3.hexes(), hs(&["1209", "1110", "1010"]).as_slice());
        assert!(s3.check_at_rest(&G).is_ok());
        assert_eq!(
            Footprint::line(&G, h("1010"), Vertex::N, 1)
                .unwrap() // test
                .advanced(&G, 0),
            Err(FootprintError::NotAColumn)
        );
    }

    #[test]
    fn r9_4b_a_line_wheels_about_an_end_and_the_far_end_enters_a_hex_per_hex_of_length() {
        // 9.4b example: a 3-hex cavalry line A-B wheels one hexpoint about A: the far end enters
        // 2 hexes (1 MP each) and the middle hex 1.
        let l = Footprint::line(&G, h("1010"), Vertex::N, 3).unwrap(); // test
        let w = l.wheeled(&G, End::Head, 1).unwrap(); // test
        assert_eq!(w.footprint.facing(), Facing::Point(Vertex::NE));
        assert_eq!(w.footprint.head(), Some(h("1010")), "the pivot stays");
        assert_eq!(w.moving_end, End::Tail);
        assert_eq!(w.entered_by_end().len(), 2);
        assert_eq!(w.paths[1].len(), 1);
        assert!(w.paths[0].is_empty());
        assert_eq!(w.entered_by_end().last().copied(), w.footprint.tail());
        // Facing north-east, leftward is north-west: 1010 → 0911 → 0811.
        assert_eq!(
            w.footprint.hexes(),
            hs(&["1010", "0911", "0811"]).as_slice()
        );
        // Wheeling back restores the line.
        let back = w.footprint.wheeled(&G, End::Head, -1).unwrap(); // test
        assert_eq!(back.footprint, l);
        // About the other end, turning the other way.
        let w2 = l.wheeled(&G, End::Tail, -1).unwrap(); // test
        assert_eq!(w2.footprint.tail(), Some(h("1012")));
        assert_eq!(w2.footprint.facing(), Facing::Point(Vertex::NW));
        assert_eq!(w2.entered_by_end().len(), 2);
        let c = Footprint::march_column(&G, h("1010"), Dir::E, 2).unwrap(); // test
        assert!(matches!(
            c.wheeled(&G, End::Head, 1),
            Err(FootprintError::NotALine)
        ));
    }

    #[test]
    fn r9_6b_columns_swap_head_and_tail_lines_turn_in_place() {
        let c = Footprint::march_column(&G, h("1010"), Dir::E, 3).unwrap(); // test
        let r = c.reversed(&G).unwrap(); // test
        assert_eq!(r.head(), Some(h("1012")));
        assert_eq!(r.facing(), Facing::Side(Dir::W));
        assert_eq!(r.front_hexes(&G), hs(&["1013"]));
        let l = Footprint::line(&G, h("1010"), Vertex::N, 2).unwrap(); // test
        let rl = l.reversed(&G).unwrap(); // test
        assert_eq!(rl.facing(), Facing::Point(Vertex::S));
        assert_eq!(
            rl.head(),
            Some(h("1011")),
            "the old left end is the new right end"
        );
        let mut own = rl.hexes().to_vec();
        own.sort();
        assert_eq!(own, l.hexes());
        // A bent road column reverses along its own hexes.
        let rc = Footprint::road_column(&G, Dir::E, hs(&["1010", "1011", "1112"])).unwrap(); // test
        let rr = rc.reversed(&G).unwrap(); // test
        assert_eq!(rr.hexes(), hs(&["1112", "1011", "1010"]).as_slice());
        assert_eq!(rr.reversed(&G).unwrap(), rc); // test
    }

    #[test]
    fn r11_5_lines_extend_either_side_columns_at_the_rear() {
        let l = Footprint::line(&G, h("1010"), Vertex::N, 1).unwrap(); // test
        assert_eq!(
            l.extended(&G, End::Head).unwrap().hexes(), // test
            hs(&["1009", "1010"]).as_slice(),
            "11.5c: on either side"
        );
        assert_eq!(
            l.extended(&G, End::Tail).unwrap().hexes(), // test
            hs(&["1010", "1011"]).as_slice()
        );
        let c = Footprint::march_column(&G, h("1010"), Dir::E, 2).unwrap(); // test
        let e = c.extended(&G, End::Tail).unwrap(); // test
        assert_eq!(
            e.hexes(),
            hs(&["1010", "1011", "1012"]).as_slice(),
            "11.5d: at the rear"
        );
        assert!(
            e.extended(&G, End::Tail).is_err(),
            "a march column has at most 3 hexes"
        );
        assert_eq!(e.contracted(&G, End::Tail).unwrap(), c); // test
        assert_eq!(
            c.contracted(&G, End::Tail)
                .unwrap() // test
                .contracted(&G, End::Tail),
            Err(FootprintError::TooShort)
        );
        // A road column extends without limit.
        let mut rc = Footprint::road_column(&G, Dir::E, hs(&["1010"])).unwrap(); // test
        for _ in 0..5 {
            rc = rc.extended(&G, End::Tail).unwrap(); // test
        }
        assert_eq!(rc.len(), 6);
    }

    #[test]
    fn shifting_moves_every_hex() {
        let l = Footprint::line(&G, h("1010"), Vertex::N, 2).unwrap(); // test
        let s = l.shifted(&G, Dir::NE).unwrap(); // test
        assert_eq!(s.hexes(), hs(&["0910", "0911"]).as_slice());
        assert!(
            Footprint::line(&G, h("0001"), Vertex::N, 1)
                .unwrap() // test
                .shifted(&G, Dir::NE)
                .is_err()
        );
    }

    fn any_footprint() -> impl Strategy<Value = Footprint<HexId>> {
        (
            0usize..3,
            0usize..6,
            1usize..=3,
            10u8..40,
            10u8..40,
            proptest::collection::vec(-1i32..=1, 0..6),
        )
            .prop_map(|(k, f, len, row, col, turns)| {
                let at = HexId::new(row, col);
                let build = || -> Result<Footprint<HexId>, FootprintError> {
                    match k {
                        0 => Footprint::line(&G, at, Vertex::from_index(f), len),
                        1 => Footprint::march_column(&G, at, Dir::from_index(f), len),
                        _ => {
                            // A road column that wandered: advance with turns, extending as it goes.
                            let mut rc = Footprint::road_column(&G, Dir::from_index(f), vec![at])?;
                            for t in turns {
                                rc = rc.advanced(&G, t)?.extended(&G, End::Tail)?;
                            }
                            Ok(rc)
                        }
                    }
                };
                build().unwrap() // test: well inside the printable range
            })
    }

    proptest! {
        #[test]
        fn r9_0_arcs_cover_every_neighbour_once(fp in any_footprint()) {
            let adj = fp.adjacent(&G);
            let mut all: Vec<HexId> = fp
                .hexes()
                .iter()
                .flat_map(|&h| h.neighbours().map(|(_, n)| n))
                .filter(|n| !fp.contains(*n))
                .collect();
            all.sort();
            all.dedup();
            prop_assert_eq!(adj.iter().map(|(h, _)| *h).collect::<Vec<_>>(), all);
            let count = |a: Arc| adj.iter().filter(|(_, x)| *x == a).count();
            let n = fp.len();
            match fp.kind() {
                FootprintKind::Line => {
                    prop_assert_eq!((count(Arc::Front), count(Arc::Flank), count(Arc::Rear)), (n + 1, 2, n + 1));
                }
                FootprintKind::MarchColumn => {
                    prop_assert_eq!((count(Arc::Front), count(Arc::Flank), count(Arc::Rear)), (1, 2 * n + 2, 1));
                }
                FootprintKind::RoadColumn => {
                    prop_assert!(count(Arc::Front) <= 1 && count(Arc::Rear) <= 1);
                    if fp.is_straight(&G) {
                        prop_assert_eq!((count(Arc::Front), count(Arc::Flank), count(Arc::Rear)), (1, 2 * n + 2, 1));
                    }
                }
            }
        }

        #[test]
        fn r9_6b_reversing_twice_is_the_same(fp in any_footprint()) {
            let r = fp.reversed(&G).unwrap(); // test
            prop_assert_eq!(r.len(), fp.len());
            prop_assert_eq!(r.reversed(&G).unwrap(), fp); // test
        }

        #[test]
        fn r9_4b_wheels_keep_the_pivot_and_undo(len in 1usize..=3, f in 0usize..6, steps in -3i32..=3, head in any::<bool>()) {
            let l = Footprint::line(&G, HexId::new(20, 20), Vertex::from_index(f), len).unwrap(); // test
            let pivot = if head { End::Head } else { End::Tail };
            let w = l.wheeled(&G, pivot, steps).unwrap(); // test
            prop_assert_eq!(w.footprint.end(pivot), l.end(pivot));
            prop_assert_eq!(w.entered_by_end().len(), (len - 1) * steps.unsigned_abs() as usize);
            // Every path is a walk of adjacent hexes ending on the new hex.
            for (i, path) in w.paths.iter().enumerate() {
                let mut prev = l.hexes()[i];
                for &x in path {
                    prop_assert!(prev.is_adjacent(x));
                    prev = x;
                }
                prop_assert_eq!(prev, w.footprint.hexes()[i]);
            }
            let back = w.footprint.wheeled(&G, pivot, -steps).unwrap(); // test
            prop_assert_eq!(back.footprint, l);
        }

        #[test]
        fn r9_4a_a_column_advancing_keeps_its_shape(fp in any_footprint(), turn in -2i32..=2) {
            if fp.kind() != FootprintKind::Line {
                let a = fp.advanced(&G, turn).unwrap(); // test
                prop_assert_eq!(a.len(), fp.len());
                prop_assert_eq!(&a.hexes()[1..], &fp.hexes()[..fp.len() - 1]);
                prop_assert!(a.check(&G).is_ok());
            }
        }
    }
}
