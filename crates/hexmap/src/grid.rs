//! Grids: how a kind of hex id sits in the one axial plane where neighbours, directions, distances
//! and bearings are computed. [`Printed`] is the single printed map of the French series ([`HexId`]
//! as it is); [`crate::Board`] is several BAR maps placed side by side (BAR 1.3b–c).
//!
//! Facings ([`crate::Facing`]) and multi-hex footprints ([`crate::Footprint`]) are written once
//! against this trait, so they work on either.

use crate::{Dir, HexId, centre_of};
use hexx::Hex;
use std::fmt::Debug;
use std::hash::Hash;

/// A kind of hex id placed in the axial plane (pointy-top, `y` grows southward, see
/// `docs/hex-orientation.md`). Only [`Grid::axial`] and [`Grid::at`] are required; the geometry
/// follows from them and is the same for every grid.
pub trait Grid {
    /// The hex id of this grid.
    type Hex: Copy + Eq + Ord + Hash + Debug;

    /// Where a hex lies in the plane, or `None` if the id names no hex of this grid (an unknown
    /// map letter, say).
    fn axial(&self, h: Self::Hex) -> Option<Hex>;

    /// The hex of this grid at a point of the plane, or `None` if the point is off every map.
    fn at(&self, a: Hex) -> Option<Self::Hex>;

    /// The neighbour in a direction, if it is on the grid (across a map edge included).
    fn neighbour(&self, h: Self::Hex, d: Dir) -> Option<Self::Hex> {
        self.at(self.axial(h)? + d.offset())
    }

    /// All neighbours on the grid, with their direction, clockwise from north-east.
    fn neighbours(&self, h: Self::Hex) -> Vec<(Dir, Self::Hex)> {
        Dir::ALL
            .into_iter()
            .filter_map(|d| self.neighbour(h, d).map(|n| (d, n)))
            .collect()
    }

    /// Whether two hexes are adjacent.
    fn is_adjacent(&self, a: Self::Hex, b: Self::Hex) -> bool {
        self.direction_to(a, b).is_some()
    }

    /// The direction from `a` to an adjacent `b`, or `None` if they are not adjacent.
    fn direction_to(&self, a: Self::Hex, b: Self::Hex) -> Option<Dir> {
        let d = self.axial(b)? - self.axial(a)?;
        Dir::ALL.into_iter().find(|x| x.offset() == d)
    }

    /// Distance in hexes (the target counted, the origin not), across map edges.
    fn distance(&self, a: Self::Hex, b: Self::Hex) -> Option<u32> {
        Some(self.axial(a)?.unsigned_distance_to(self.axial(b)?))
    }

    /// Compass bearing in degrees (0 = north, clockwise) from the centre of `a` to that of `b`.
    fn bearing(&self, a: Self::Hex, b: Self::Hex) -> Option<f64> {
        let (x0, y0) = centre_of(self.axial(a)?);
        let (x1, y1) = centre_of(self.axial(b)?);
        Some((x1 - x0).atan2(y1 - y0).to_degrees().rem_euclid(360.0))
    }
}

/// The single printed map of the French series: [`HexId`] with its own numbering (row-first,
/// column westward, odd rows shifted east), rows and columns 00–99.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Printed;

impl Grid for Printed {
    type Hex = HexId;

    fn axial(&self, h: HexId) -> Option<Hex> {
        Some(h.axial())
    }

    fn at(&self, a: Hex) -> Option<HexId> {
        HexId::from_axial(a)
    }
}
