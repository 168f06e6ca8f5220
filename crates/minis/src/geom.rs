//! Table geometry on `glam` vectors: bases and terrain pieces are oriented rectangles (centre,
//! facing in degrees, width across the front, depth along it). Overlap and contact by separating
//! axes, distances between bases, segments through rectangles, arcs.
//!
//! Angles: 0° points east (+x), counter-clockwise positive; the table's y grows northward.
use glam::DVec2;

/// Penetration (cm) below which two bases only touch.
pub const OVERLAP_EPS: f64 = 0.01;
/// Gap (cm) up to which two bases are in contact.
pub const CONTACT_GAP: f64 = 0.2;

/// An oriented rectangle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Centre.
    pub c: DVec2,
    /// Unit vector of the facing (towards the front edge).
    pub dir: DVec2,
    /// Half the width (across the front).
    pub hw: f64,
    /// Half the depth (along the facing).
    pub hd: f64,
}

/// The unit vector of a facing in degrees.
///
/// A base's rectangle is rebuilt from its facing wherever the rules look at it, and a state holds
/// few facings, so the sine and cosine are remembered per thread in a small direct-mapped table
/// keyed by the exact bits of the angle: the vector returned is the one computed, bit for bit.
pub fn heading(deg: f64) -> DVec2 {
    use std::cell::Cell;
    const SLOTS: usize = 1024;
    thread_local! {
        static MEMO: [Cell<(u64, f64, f64)>; SLOTS] =
            const { [const { Cell::new((EMPTY, 0.0, 0.0)) }; SLOTS] };
    }
    // A NaN bit pattern no computed angle carries (an angle that is NaN is never remembered).
    const EMPTY: u64 = 0x7ff8_dead_beef_0001;
    let bits = deg.to_bits();
    if bits == EMPTY {
        return DVec2::from_angle(deg.to_radians());
    }
    let slot = (bits.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 54) as usize % SLOTS;
    MEMO.with(|m| {
        let (k, x, y) = m[slot].get();
        if k == bits {
            return DVec2::new(x, y);
        }
        let v = DVec2::from_angle(deg.to_radians());
        m[slot].set((bits, v.x, v.y));
        v
    })
}

/// A facing normalised to [0, 360).
pub fn norm_deg(d: f64) -> f64 {
    let r = d.rem_euclid(360.0);
    if r >= 360.0 { 0.0 } else { r }
}

/// The signed angle in degrees from `a` to `b` (counter-clockwise positive), in (−180, 180].
pub fn signed_deg(a: DVec2, b: DVec2) -> f64 {
    a.angle_to(b).to_degrees()
}

impl Rect {
    /// A rectangle from centre, facing (degrees), width and depth.
    pub fn new(c: DVec2, facing: f64, w: f64, d: f64) -> Rect {
        Rect {
            c,
            dir: heading(facing),
            hw: w / 2.0,
            hd: d / 2.0,
        }
    }
    /// The left-hand unit vector (facing turned 90° counter-clockwise).
    pub fn left(&self) -> DVec2 {
        self.dir.perp()
    }
    /// The four corners: front-left, front-right, rear-right, rear-left.
    pub fn corners(&self) -> [DVec2; 4] {
        let f = self.dir * self.hd;
        let l = self.left() * self.hw;
        [
            self.c + f + l,
            self.c + f - l,
            self.c - f - l,
            self.c - f + l,
        ]
    }
    /// The middle of the front edge.
    pub fn front_centre(&self) -> DVec2 {
        self.c + self.dir * self.hd
    }
    /// Radius of the circumscribed circle.
    pub fn radius(&self) -> f64 {
        (self.hw * self.hw + self.hd * self.hd).sqrt()
    }
    /// The same rectangle grown by `m` on every side.
    pub fn grown(&self, m: f64) -> Rect {
        Rect {
            hw: (self.hw + m).max(0.0),
            hd: (self.hd + m).max(0.0),
            ..*self
        }
    }
    /// Whether a point lies inside (edges included).
    pub fn contains(&self, p: DVec2) -> bool {
        let d = p - self.c;
        d.dot(self.dir).abs() <= self.hd + 1e-9 && d.dot(self.left()).abs() <= self.hw + 1e-9
    }
    /// Distance from a point to the rectangle (0 inside).
    pub fn point_distance(&self, p: DVec2) -> f64 {
        let d = p - self.c;
        let x = (d.dot(self.left()).abs() - self.hw).max(0.0);
        let y = (d.dot(self.dir).abs() - self.hd).max(0.0);
        DVec2::new(x, y).length()
    }
    fn project(&self, axis: DVec2) -> (f64, f64) {
        let centre = self.c.dot(axis);
        let r = self.hw * self.left().dot(axis).abs() + self.hd * self.dir.dot(axis).abs();
        (centre - r, centre + r)
    }
    /// The depth of the overlap along the separating axes (negative: the gap when apart).
    pub fn penetration(&self, o: &Rect) -> f64 {
        let mut least = f64::INFINITY;
        for axis in [self.dir, self.left(), o.dir, o.left()] {
            let (a0, a1) = self.project(axis);
            let (b0, b1) = o.project(axis);
            least = least.min(a1.min(b1) - a0.max(b0));
        }
        least
    }
    /// Whether two rectangles overlap by more than [`OVERLAP_EPS`] (touching is not overlapping).
    pub fn overlaps(&self, o: &Rect) -> bool {
        if self.c.distance(o.c) > self.radius() + o.radius() {
            return false;
        }
        // `penetration(o) > OVERLAP_EPS`: the least overlap exceeds it iff every axis's does, so
        // the first axis that separates the two (or nearly) answers.
        for axis in [self.dir, self.left(), o.dir, o.left()] {
            let (a0, a1) = self.project(axis);
            let (b0, b1) = o.project(axis);
            if a1.min(b1) - a0.max(b0) <= OVERLAP_EPS {
                return false;
            }
        }
        true
    }
    /// The distance between two rectangles (0 when they touch or overlap).
    pub fn distance(&self, o: &Rect) -> f64 {
        if self.penetration(o) >= 0.0 {
            return 0.0;
        }
        let a = self
            .corners()
            .iter()
            .map(|p| o.point_distance(*p))
            .fold(f64::INFINITY, f64::min);
        let b = o
            .corners()
            .iter()
            .map(|p| self.point_distance(*p))
            .fold(f64::INFINITY, f64::min);
        a.min(b)
    }
    /// Whether two bases are in contact: within [`CONTACT_GAP`] of each other.
    pub fn touches(&self, o: &Rect) -> bool {
        self.c.distance(o.c) <= self.radius() + o.radius() + CONTACT_GAP
            && self.distance(o) <= CONTACT_GAP
    }
    /// Whether the segment from `p` to `q` passes through the rectangle (Liang–Barsky clipping in
    /// the rectangle's own frame).
    pub fn hit_by_segment(&self, p: DVec2, q: DVec2) -> bool {
        let to_local = |v: DVec2| DVec2::new(v.dot(self.left()), v.dot(self.dir));
        let a = to_local(p - self.c);
        let d = to_local(q - p);
        let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
        for (dp, ap, h) in [(d.x, a.x, self.hw), (d.y, a.y, self.hd)] {
            for (pp, qq) in [(-dp, ap + h), (dp, h - ap)] {
                if pp.abs() < 1e-12 {
                    if qq < 0.0 {
                        return false;
                    }
                } else {
                    let r = qq / pp;
                    if pp < 0.0 {
                        t0 = t0.max(r);
                    } else {
                        t1 = t1.min(r);
                    }
                }
            }
        }
        t0 <= t1
    }
    /// Whether a point is within `half_arc` degrees either side of straight ahead, seen from the
    /// middle of the front edge.
    pub fn in_arc(&self, p: DVec2, half_arc: f64) -> bool {
        let v = p - self.front_centre();
        if v.length() < 1e-9 {
            return true;
        }
        signed_deg(self.dir, v).abs() <= half_arc + 1e-9
    }
    /// Whether a point lies in the frontal zone of the base (Melees, "attacked frontally";
    /// docs/minis.md C2): before the front edge, and no further beyond either end of it than
    /// `half_arc` degrees off straight ahead — the arc is measured from the nearest point of the
    /// front edge, so that anything squarely in front of a wide line is in front of it.
    pub fn in_front_zone(&self, p: DVec2, half_arc: f64) -> bool {
        let d = p - self.c;
        let ahead = d.dot(self.dir) - self.hd;
        if ahead < -1e-9 {
            return false;
        }
        let beyond = (d.dot(self.left()).abs() - self.hw).max(0.0);
        beyond <= ahead * half_arc.to_radians().tan() + 1e-9
    }
    /// Whether any part of `o` (a corner, its centre or the middle of an edge) is within the arc.
    pub fn sees_in_arc(&self, o: &Rect, half_arc: f64) -> bool {
        let cs = o.corners();
        let mids = [
            (cs[0] + cs[1]) / 2.0,
            (cs[1] + cs[2]) / 2.0,
            (cs[2] + cs[3]) / 2.0,
            (cs[3] + cs[0]) / 2.0,
        ];
        std::iter::once(o.c)
            .chain(cs)
            .chain(mids)
            .any(|p| self.in_arc(p, half_arc))
    }
    /// The point of `o` nearest to this rectangle's front centre (its centre if inside).
    pub fn nearest_point_of(&self, o: &Rect) -> DVec2 {
        let p = self.front_centre() - o.c;
        let x = p.dot(o.left()).clamp(-o.hw, o.hw);
        let y = p.dot(o.dir).clamp(-o.hd, o.hd);
        o.c + o.left() * x + o.dir * y
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlap_contact_and_distance() {
        let a = Rect::new(DVec2::new(0.0, 0.0), 90.0, 12.0, 3.0);
        let b = Rect::new(DVec2::new(0.0, 3.0), 270.0, 12.0, 3.0);
        assert!(!a.overlaps(&b));
        assert!(a.touches(&b));
        let c = Rect::new(DVec2::new(0.0, 5.0), 270.0, 12.0, 3.0);
        assert!((a.distance(&c) - 2.0).abs() < 1e-9);
        assert!(!a.touches(&c));
        let d = Rect::new(DVec2::new(1.0, 2.0), 45.0, 12.0, 3.0);
        assert!(a.overlaps(&d));
    }

    #[test]
    fn segments_and_arcs() {
        let r = Rect::new(DVec2::new(10.0, 10.0), 0.0, 4.0, 4.0);
        assert!(r.hit_by_segment(DVec2::new(0.0, 10.0), DVec2::new(20.0, 10.0)));
        assert!(!r.hit_by_segment(DVec2::new(0.0, 0.0), DVec2::new(20.0, 0.0)));
        let f = Rect::new(DVec2::new(0.0, 0.0), 90.0, 12.0, 3.0);
        assert!(f.in_arc(DVec2::new(0.0, 10.0), 45.0));
        assert!(!f.in_arc(DVec2::new(10.0, 1.6), 45.0));
        // The front zone: anything before the front edge (at y 1.5), then 45° out from its ends.
        assert!(f.in_front_zone(DVec2::new(5.9, 1.6), 45.0));
        assert!(!f.in_front_zone(DVec2::new(5.9, 1.4), 45.0));
        assert!(f.in_front_zone(DVec2::new(8.0, 3.5), 45.0));
        assert!(!f.in_front_zone(DVec2::new(8.1, 3.5), 45.0));
    }
}
