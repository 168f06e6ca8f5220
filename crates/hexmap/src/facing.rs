//! The two kinds of facing of the BAR series (reading notes C5; BAR 8.4c: "the front of the column
//! faces a hexside and the front of the line faces a hexpoint") and their front, flank and rear
//! arcs (BAR 9.0–9.1).
//!
//! ```text
//!   hexpoint facing (line, hook, attack column,     hexside facing (march column, road column,
//!   square, unlimbered artillery): Vertex::N        limbered artillery): Dir::NE
//!
//!           F   F                                             F
//!         fl  ■  fl                                        fl   fl
//!           R   R                                          fl  ■  ...
//!                                                          fl   R     (four flank hexes)
//!   two front, two flank, two rear                  one front, four flank, one rear (8.1f)
//! ```
//!
//! The zone of control is the front hexes (9.1).

use crate::grid::{Grid, Printed};
use crate::{Arc, Dir, HexId, Vertex};
use hexx::Hex;
use serde::{Deserialize, Serialize};

impl Dir {
    /// Bearing of the hexside's middle in degrees (NE = 30°, clockwise).
    pub fn bearing(self) -> f64 {
        30.0 + 60.0 * self.index() as f64
    }

    /// Turned `steps` hexsides clockwise (negative: anticlockwise).
    pub fn turned(self, steps: i32) -> Self {
        Self::from_index((self.index() as i32 + steps).rem_euclid(6) as usize)
    }

    /// Number of hexsides between two directions (0..=3).
    pub fn steps_to(self, other: Dir) -> u32 {
        let d = (other.index() as i32 - self.index() as i32).rem_euclid(6);
        d.min(6 - d) as u32
    }

    /// The two hexpoints at the ends of this hexside, anticlockwise end first: the hexpoints an
    /// attack column formed from a column facing this hexside may face (BAR 8.4d).
    pub fn vertices(self) -> [Vertex; 2] {
        let k = self.index();
        [Vertex::from_index(k), Vertex::from_index(k + 1)]
    }
}

impl Vertex {
    /// The two hexsides that meet at this hexpoint, anticlockwise first (the same as
    /// [`Vertex::front`]): the hexsides a column formed from an attack column facing this hexpoint
    /// may face (BAR 8.4e).
    pub fn sides(self) -> [Dir; 2] {
        self.front()
    }
}

/// A unit's facing: a hexpoint or a hexside (BAR C5, 8.4c).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Facing {
    /// Facing a hexpoint: two front, two flank and two rear hexes (line, hook, attack column,
    /// square, unlimbered artillery; the French series' only facing).
    Point(Vertex),
    /// Facing a hexside: one front hex, four flank hexes and one rear hex (march column, road
    /// column, limbered artillery; BAR 8.1f).
    Side(Dir),
}

impl From<Vertex> for Facing {
    fn from(v: Vertex) -> Self {
        Facing::Point(v)
    }
}

impl From<Dir> for Facing {
    fn from(d: Dir) -> Self {
        Facing::Side(d)
    }
}

impl Facing {
    /// Compass bearing of the facing in degrees: a multiple of 60° for a hexpoint, 30° plus a
    /// multiple of 60° for a hexside.
    pub fn bearing(self) -> f64 {
        match self {
            Facing::Point(v) => v.bearing(),
            Facing::Side(d) => d.bearing(),
        }
    }

    /// The facing as twelfths of a turn clockwise from north (0..12): even for hexpoints, odd for
    /// hexsides.
    pub fn twelfths(self) -> i32 {
        match self {
            Facing::Point(v) => 2 * v.index() as i32,
            Facing::Side(d) => 2 * d.index() as i32 + 1,
        }
    }

    /// The signed turn from this facing to `other` in 30° steps, -5..=6 (positive clockwise, 6 for
    /// a reversal): one hexpoint or one hexside is 2, a change between the two kinds is odd.
    pub fn turn_to(self, other: Facing) -> i32 {
        let d = (other.twelfths() - self.twelfths()).rem_euclid(12);
        if d > 6 { d - 12 } else { d }
    }

    /// Turned `steps` hexpoints (or hexsides) clockwise; negative is anticlockwise.
    pub fn turned(self, steps: i32) -> Self {
        match self {
            Facing::Point(v) => Facing::Point(v.turned(steps)),
            Facing::Side(d) => Facing::Side(d.turned(steps)),
        }
    }

    /// Facing the other way (BAR 9.6b).
    pub fn reversed(self) -> Self {
        self.turned(3)
    }

    /// The hexside directions in an arc (BAR 9.0): a hexpoint has two of each; a hexside one front,
    /// four flank (the nearer pair first) and one rear.
    pub fn dirs(self, arc: Arc) -> Vec<Dir> {
        match (self, arc) {
            (Facing::Point(v), Arc::Front) => v.front().to_vec(),
            (Facing::Point(v), Arc::Flank) => v.flank().to_vec(),
            (Facing::Point(v), Arc::Rear) => v.rear().to_vec(),
            (Facing::Side(d), Arc::Front) => vec![d],
            (Facing::Side(d), Arc::Flank) => {
                vec![d.turned(-1), d.turned(1), d.turned(-2), d.turned(2)]
            }
            (Facing::Side(d), Arc::Rear) => vec![d.opposite()],
        }
    }

    /// The front arc's directions, as [`Facing::dirs`] gives them, without allocating.
    pub fn front_dirs(self) -> impl Iterator<Item = Dir> {
        let (dirs, n) = match self {
            Facing::Point(v) => (v.front(), 2),
            Facing::Side(d) => ([d, d], 1),
        };
        dirs.into_iter().take(n)
    }

    /// The arc of the neighbour in direction `d`.
    pub fn arc_of_dir(self, d: Dir) -> Arc {
        match self {
            Facing::Point(v) => v.arc_of_dir(d),
            Facing::Side(s) => match s.steps_to(d) {
                0 => Arc::Front,
                3 => Arc::Rear,
                _ => Arc::Flank,
            },
        }
    }

    /// The arc of a hex at axial offset `delta` from the unit; `None` for the unit's own hex.
    /// Adjacent hexes follow the arcs exactly ([`Facing::arc_of_dir`]); farther hexes go by bearing
    /// from the facing: for a hexpoint within 60° is front, within 120° flank (as
    /// [`Vertex::arc_of`]); for a hexside within 30° is front, within 150° flank; beyond is rear.
    /// Ties go to the arc nearer the front.
    pub fn arc_of_offset(self, delta: Hex) -> Option<Arc> {
        if delta == Hex::ZERO {
            return None;
        }
        if let Some(d) = Dir::ALL.into_iter().find(|x| x.offset() == delta) {
            return Some(self.arc_of_dir(d));
        }
        let (x, y) = crate::centre_of(delta);
        let bearing = x.atan2(y).to_degrees();
        let off = ((bearing - self.bearing() + 180.0).rem_euclid(360.0) - 180.0).abs();
        let (front, flank) = match self {
            Facing::Point(_) => (60.0, 120.0),
            Facing::Side(_) => (30.0, 150.0),
        };
        Some(if off <= front + 1e-9 {
            Arc::Front
        } else if off <= flank + 1e-9 {
            Arc::Flank
        } else {
            Arc::Rear
        })
    }

    /// The arc `to` lies in, seen from a unit at `from` with this facing, on any grid; `None` for
    /// the unit's own hex or a hex off the grid.
    pub fn arc_on<G: Grid>(self, grid: &G, from: G::Hex, to: G::Hex) -> Option<Arc> {
        self.arc_of_offset(grid.axial(to)? - grid.axial(from)?)
    }

    /// [`Facing::arc_on`] for the French series' printed hex ids.
    pub fn arc_of(self, from: HexId, to: HexId) -> Option<Arc> {
        self.arc_on(&Printed, from, to)
    }

    /// The adjacent hexes in an arc of a unit at `at` (those on the grid), in the order of
    /// [`Facing::dirs`].
    pub fn hexes_in<G: Grid>(self, grid: &G, at: G::Hex, arc: Arc) -> Vec<G::Hex> {
        self.dirs(arc)
            .into_iter()
            .filter_map(|d| grid.neighbour(at, d))
            .collect()
    }

    /// The front hexes of a unit at `at` (BAR 9.0).
    pub fn front_hexes<G: Grid>(self, grid: &G, at: G::Hex) -> Vec<G::Hex> {
        self.hexes_in(grid, at, Arc::Front)
    }

    /// The zone of control of a non-routed unit at `at`: its front hexes (BAR 9.1).
    pub fn zoc_hexes<G: Grid>(self, grid: &G, at: G::Hex) -> Vec<G::Hex> {
        self.front_hexes(grid, at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn h(s: &str) -> HexId {
        s.parse().unwrap() // test literal
    }

    #[test]
    fn r9_0_front_dirs_are_the_front_arc_dirs_in_order() {
        let all = Dir::ALL
            .map(Facing::Side)
            .into_iter()
            .chain(crate::Vertex::ALL.map(Facing::Point));
        for f in all {
            assert_eq!(f.front_dirs().collect::<Vec<_>>(), f.dirs(Arc::Front));
        }
    }

    #[test]
    fn r8_1f_a_hexside_facing_has_one_front_one_rear_and_four_flank_hexes() {
        for d in Dir::ALL {
            let f = Facing::Side(d);
            assert_eq!(f.dirs(Arc::Front), vec![d]);
            assert_eq!(f.dirs(Arc::Rear), vec![d.opposite()]);
            assert_eq!(f.dirs(Arc::Flank).len(), 4);
            let mut all: Vec<Dir> = [Arc::Front, Arc::Flank, Arc::Rear]
                .into_iter()
                .flat_map(|a| f.dirs(a))
                .collect();
            all.sort();
            assert_eq!(all, Dir::ALL.to_vec());
            for x in Dir::ALL {
                assert!(f.dirs(f.arc_of_dir(x)).contains(&x));
            }
        }
        // A column at 1010 facing east: front 1009, rear 1011, the four others flank.
        let f = Facing::Side(Dir::E);
        assert_eq!(f.front_hexes(&Printed, h("1010")), vec![h("1009")]);
        assert_eq!(f.hexes_in(&Printed, h("1010"), Arc::Rear), vec![h("1011")]);
        assert_eq!(f.arc_of(h("1010"), h("0910")), Some(Arc::Flank));
        assert_eq!(f.arc_of(h("1010"), h("1111")), Some(Arc::Flank));
    }

    #[test]
    fn r9_1_zoc_is_the_front_hexes_for_both_kinds_of_facing() {
        let at = h("1010");
        assert_eq!(
            Facing::Point(Vertex::N).zoc_hexes(&Printed, at),
            vec![h("0911"), h("0910")]
        );
        assert_eq!(
            Facing::Side(Dir::NE).zoc_hexes(&Printed, at),
            vec![h("0910")]
        );
    }

    #[test]
    fn r2_1_hexpoint_facing_arcs_are_the_french_series_arcs() {
        let o = h("1010");
        for v in Vertex::ALL {
            for d in Dir::ALL {
                assert_eq!(Facing::Point(v).arc_of_dir(d), v.arc_of_dir(d));
            }
            for t in ["0710", "1310", "1013", "0812", "1207", "1510", "0505"] {
                assert_eq!(Facing::Point(v).arc_of(o, h(t)), Some(v.arc_of(o, h(t))));
            }
        }
        assert_eq!(Facing::Point(Vertex::N).arc_of(o, o), None);
    }

    #[test]
    fn r8_4c_column_faces_a_hexside_line_a_hexpoint_so_the_change_turns() {
        let col = Facing::Side(Dir::NE);
        // A line facing either hexpoint of the column's front hexside is a half turn of a hexside.
        assert_eq!(col.turn_to(Facing::Point(Vertex::N)), -1);
        assert_eq!(col.turn_to(Facing::Point(Vertex::NE)), 1);
        // 8.4c's "turning right": the line faces across the column's old direction.
        assert_eq!(col.turn_to(Facing::Point(Vertex::SE)), 3);
        assert_eq!(col.turn_to(col.reversed()), 6);
        assert_eq!(
            Facing::Point(Vertex::N).turn_to(Facing::Point(Vertex::NW)),
            -2
        );
    }

    #[test]
    fn r8_4d_e_attack_column_and_march_column_face_neighbouring_point_and_side() {
        // 8.4d: from a column facing a hexside, an attack column faces one of its two hexpoints.
        assert_eq!(Dir::NE.vertices(), [Vertex::N, Vertex::NE]);
        assert_eq!(Dir::NW.vertices(), [Vertex::NW, Vertex::N]);
        // 8.4e: from an attack column facing a hexpoint, the column faces one of its two hexsides.
        assert_eq!(Vertex::N.sides(), [Dir::NW, Dir::NE]);
        for d in Dir::ALL {
            for v in d.vertices() {
                assert!(v.sides().contains(&d));
                assert_eq!(Facing::Side(d).turn_to(Facing::Point(v)).abs(), 1);
            }
        }
    }

    #[test]
    fn distant_hexes_of_a_hexside_facing() {
        let o = h("1010");
        let f = Facing::Side(Dir::E);
        assert_eq!(f.arc_of(o, h("1007")), Some(Arc::Front));
        assert_eq!(f.arc_of(o, h("1013")), Some(Arc::Rear));
        assert_eq!(f.arc_of(o, h("0810")), Some(Arc::Flank));
        assert_eq!(f.arc_of(o, h("1210")), Some(Arc::Flank));
    }

    fn any_facing() -> impl Strategy<Value = Facing> {
        prop_oneof![
            (0usize..6).prop_map(|i| Facing::Point(Vertex::from_index(i))),
            (0usize..6).prop_map(|i| Facing::Side(Dir::from_index(i))),
        ]
    }

    proptest! {
        #[test]
        fn r9_0_every_hex_around_has_exactly_one_arc(f in any_facing(), q in -8i32..8, r in -8i32..8) {
            let delta = Hex::new(q, r);
            let arc = f.arc_of_offset(delta);
            prop_assert_eq!(arc.is_none(), delta == Hex::ZERO);
            // No hex is in front both ways.
            let back = f.reversed().arc_of_offset(delta);
            if let (Some(a), Some(b)) = (arc, back) {
                prop_assert!(!(a == Arc::Front && b == Arc::Front));
            }
        }

        #[test]
        fn r9_0_turning_rotates_the_arcs(f in any_facing(), steps in -6i32..6, d in 0usize..6) {
            let d = Dir::from_index(d);
            prop_assert_eq!(f.turned(steps).arc_of_dir(d.turned(steps)), f.arc_of_dir(d));
            prop_assert_eq!(f.turn_to(f.turned(steps)), {
                let t = (2 * steps).rem_euclid(12);
                if t > 6 { t - 12 } else { t }
            });
        }
    }
}
