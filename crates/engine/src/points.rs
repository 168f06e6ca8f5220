//! Numbers as the BAR series counts them: the rounding methods of rule 1.5b and half points for
//! movement and command costs (BAR 7.2b, 7.3b, 11.8a; reading notes C3, C4).
//!
//! Every halving in the BAR text names its method; a ruleset calls [`round_half_up`] ("rounded")
//! or [`drop_fraction`] ("drop fraction") and cites the rule at the call. "Retain fractions" keeps
//! the value as it is: in halves, a [`Half`].

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Sub, SubAssign};
use std::str::FromStr;

/// `numer / denom` "rounded" (BAR 1.5b): add 0.5 to the fraction, keep the whole units and drop
/// any resulting fraction, so 2.5 → 3, 2.7 → 3, 2.2 → 2. A zero denominator is read as 1 (never a
/// panic).
pub const fn round_half_up(numer: u32, denom: u32) -> u32 {
    let d = if denom == 0 { 1 } else { denom as u64 };
    // floor(n/d + 1/2) = floor((2n + d) / 2d), in u64 so no intermediate overflows.
    ((2 * numer as u64 + d) / (2 * d)) as u32
}

/// `numer / denom` with the fraction dropped (BAR 1.5b "drop fraction"): 12.9 → 12. A zero
/// denominator is read as 1 (never a panic).
pub const fn drop_fraction(numer: u32, denom: u32) -> u32 {
    let d = if denom == 0 { 1 } else { denom };
    numer / d
}

/// A non-negative quantity counted in half points: movement points, movement allowances, command
/// costs and command ranges (BAR C4: line-of-command costs of ½ in 7.2b and 7.3b, the skirmisher's
/// +½ in 11.8a). `Half(3)` is 1½. Arithmetic saturates (no panic); [`Half::checked_sub`] says
/// when a cost cannot be paid.
///
/// Written as a number: `1.5`, `2` (TOML and JSON), and read from a number or a string
/// (`"1½"`, `"1.5"`, `"½"`); shown as "1½", "2", "½".
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Debug)]
pub struct Half(pub u16);

impl Half {
    /// Nothing.
    pub const ZERO: Half = Half(0);
    /// One half point.
    pub const HALF: Half = Half(1);
    /// One whole point.
    pub const ONE: Half = Half(2);

    /// A whole number of points (saturating at the largest value).
    pub const fn whole(points: u16) -> Self {
        Half(points.saturating_mul(2))
    }

    /// From a count of halves.
    pub const fn from_halves(halves: u16) -> Self {
        Half(halves)
    }

    /// The count of halves.
    pub const fn halves(self) -> u16 {
        self.0
    }

    /// Whether the value has no half.
    pub const fn is_whole(self) -> bool {
        self.0.is_multiple_of(2)
    }

    /// The whole points with any half dropped (BAR 1.5b "drop fraction"): 2½ → 2.
    pub const fn dropped(self) -> u16 {
        self.0 / 2
    }

    /// The whole points "rounded" (BAR 1.5b): 2½ → 3, 2 → 2.
    pub const fn rounded(self) -> u16 {
        self.0 / 2 + self.0 % 2
    }

    /// The difference, or `None` when `other` is larger (a cost that cannot be paid).
    pub const fn checked_sub(self, other: Half) -> Option<Half> {
        match self.0.checked_sub(other.0) {
            Some(h) => Some(Half(h)),
            None => None,
        }
    }

    /// The difference, never below zero.
    pub const fn saturating_sub(self, other: Half) -> Half {
        Half(self.0.saturating_sub(other.0))
    }

    /// The sum, or `None` on overflow.
    pub const fn checked_add(self, other: Half) -> Option<Half> {
        match self.0.checked_add(other.0) {
            Some(h) => Some(Half(h)),
            None => None,
        }
    }

    /// As a floating-point number (for display and serialisation only; rules stay in halves).
    pub fn as_f64(self) -> f64 {
        f64::from(self.0) / 2.0
    }

    /// From a floating-point number that is a non-negative multiple of ½ within range.
    pub fn from_f64(x: f64) -> Option<Half> {
        let h = x * 2.0;
        if x.is_finite() && h >= 0.0 && h <= f64::from(u16::MAX) && h.fract() == 0.0 {
            Some(Half(h as u16))
        } else {
            None
        }
    }
}

impl From<u16> for Half {
    /// A whole number of points.
    fn from(points: u16) -> Self {
        Half::whole(points)
    }
}

impl Add for Half {
    type Output = Half;
    /// Saturating sum.
    fn add(self, rhs: Half) -> Half {
        Half(self.0.saturating_add(rhs.0))
    }
}

impl AddAssign for Half {
    fn add_assign(&mut self, rhs: Half) {
        *self = *self + rhs;
    }
}

impl Sub for Half {
    type Output = Half;
    /// Saturating difference (never below zero); use [`Half::checked_sub`] to test payment.
    fn sub(self, rhs: Half) -> Half {
        self.saturating_sub(rhs)
    }
}

impl SubAssign for Half {
    fn sub_assign(&mut self, rhs: Half) {
        *self = *self - rhs;
    }
}

impl Sum for Half {
    fn sum<I: Iterator<Item = Half>>(iter: I) -> Half {
        iter.fold(Half::ZERO, Add::add)
    }
}

impl fmt::Display for Half {
    /// "0", "½", "1½", "2".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.0 / 2, self.0 % 2) {
            (0, 1) => f.write_str("½"),
            (w, 1) => write!(f, "{w}½"),
            (w, _) => write!(f, "{w}"),
        }
    }
}

/// Error reading a half-point value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a number of half points: {0:?} (expected e.g. 2, 1.5, 1½ or ½)")]
pub struct BadHalf(pub String);

impl FromStr for Half {
    type Err = BadHalf;
    /// Reads "2", "1.5", "1½", "½", "0.5" (surrounding spaces allowed).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadHalf(s.to_string());
        let t = s.trim();
        if let Some(w) = t.strip_suffix('½') {
            let whole: u16 = if w.is_empty() {
                0
            } else {
                w.parse().map_err(|_| bad())?
            };
            return Half::whole(whole).checked_add(Half::HALF).ok_or_else(bad);
        }
        if !t.is_empty() && t.bytes().all(|c| c.is_ascii_digit()) {
            let whole: u16 = t.parse().map_err(|_| bad())?;
            return whole.checked_mul(2).map(Half).ok_or_else(bad);
        }
        let x: f64 = t.parse().map_err(|_| bad())?;
        Half::from_f64(x).ok_or_else(bad)
    }
}

impl Serialize for Half {
    /// A whole value as an integer (`2`), otherwise as a float (`1.5`).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.is_whole() {
            s.serialize_u16(self.0 / 2)
        } else {
            s.serialize_f64(self.as_f64())
        }
    }
}

impl<'de> Deserialize<'de> for Half {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(HalfVisitor)
    }
}

struct HalfVisitor;

impl Visitor<'_> for HalfVisitor {
    type Value = Half;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a non-negative multiple of 0.5 (e.g. 2, 1.5 or \"1½\")")
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Half, E> {
        u16::try_from(v)
            .ok()
            .and_then(|w| w.checked_mul(2))
            .map(Half)
            .ok_or_else(|| E::invalid_value(de::Unexpected::Unsigned(v), &self))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Half, E> {
        u64::try_from(v)
            .map_err(|_| E::invalid_value(de::Unexpected::Signed(v), &self))
            .and_then(|u| self.visit_u64(u))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Half, E> {
        Half::from_f64(v).ok_or_else(|| E::invalid_value(de::Unexpected::Float(v), &self))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Half, E> {
        v.parse()
            .map_err(|_| E::invalid_value(de::Unexpected::Str(v), &self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn r1_5b_rounded_adds_a_half_and_drops() {
        // The book's examples: 2.5 → 3, 2.7 → 3, 2.2 → 2 (and 3.5 → 4 in 12.5c, 16.2c).
        assert_eq!(round_half_up(25, 10), 3);
        assert_eq!(round_half_up(27, 10), 3);
        assert_eq!(round_half_up(22, 10), 2);
        assert_eq!(round_half_up(7, 2), 4);
        assert_eq!(round_half_up(5, 2), 3);
        assert_eq!(round_half_up(4, 2), 2);
        assert_eq!(round_half_up(0, 2), 0);
        assert_eq!(round_half_up(u32::MAX, 1), u32::MAX);
        assert_eq!(round_half_up(9, 0), 9, "a zero denominator reads as 1");
    }

    #[test]
    fn r1_5b_drop_fraction_keeps_whole_units() {
        assert_eq!(drop_fraction(129, 10), 12);
        // Rapid march (11.4a): MA + 50 %, drop fraction: 5 → 7.
        assert_eq!(drop_fraction(5 * 3, 2), 7);
        assert_eq!(drop_fraction(9, 0), 9);
    }

    #[test]
    fn r1_5b_retain_fractions_keeps_the_half() {
        let h = Half::from_halves(13);
        assert_eq!(h.to_string(), "6½", "6.5 stays 6.5");
        assert_eq!(h.rounded(), 7);
        assert_eq!(h.dropped(), 6);
        assert_eq!(Half::whole(6).rounded(), 6);
    }

    #[test]
    fn c4_half_points_show_as_the_book_writes_them() {
        assert_eq!(Half::ZERO.to_string(), "0");
        assert_eq!(Half::HALF.to_string(), "½");
        assert_eq!(Half(3).to_string(), "1½");
        assert_eq!(Half::whole(2).to_string(), "2");
        for s in ["0", "½", "1½", "2", "12½"] {
            assert_eq!(s.parse::<Half>().map(|h| h.to_string()), Ok(s.to_string()));
        }
        assert_eq!("1.5".parse::<Half>(), Ok(Half(3)));
        assert_eq!(" 0.5 ".parse::<Half>(), Ok(Half(1)));
        for bad in ["", "-1", "1.25", "x", "½½", "NaN", "inf", "40000"] {
            assert!(bad.parse::<Half>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn c4_line_of_command_costs_add_in_halves() {
        // 7.2b/7.3b: ½ per occupied activated hex or road hex, 1 per other hex.
        let path = [Half::HALF, Half::HALF, Half::ONE, Half::HALF];
        let total: Half = path.into_iter().sum();
        assert_eq!(total, Half(5));
        assert_eq!(total.to_string(), "2½");
        assert!(total > Half::whole(2) && total < Half::whole(3));
        assert_eq!(
            Half::whole(2).checked_sub(total),
            None,
            "range 2 cannot pay 2½"
        );
        assert_eq!(Half::whole(3).checked_sub(total), Some(Half::HALF));
        assert_eq!(Half::ONE - Half::whole(5), Half::ZERO, "saturates");
        let mut mp = Half::whole(4);
        mp -= Half(3);
        mp += Half::HALF;
        assert_eq!(mp, Half::whole(3));
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Cost {
        mp: Half,
    }

    #[test]
    fn c4_half_points_are_numbers_in_toml_and_json() {
        let c: Cost = toml::from_str("mp = 1.5").unwrap(); // test literal
        assert_eq!(c.mp, Half(3));
        let c: Cost = toml::from_str("mp = 2").unwrap(); // test literal
        assert_eq!(c.mp, Half(4));
        let c: Cost = toml::from_str("mp = \"1½\"").unwrap(); // test literal
        assert_eq!(c.mp, Half(3));
        assert!(toml::from_str::<Cost>("mp = 1.25").is_err());
        assert!(toml::from_str::<Cost>("mp = -1").is_err());
        assert_eq!(
            toml::to_string(&Cost { mp: Half(3) }).unwrap().trim(), // test
            "mp = 1.5"
        );
        assert_eq!(
            toml::to_string(&Cost { mp: Half(4) }).unwrap().trim(), // test
            "mp = 2"
        );
        assert_eq!(serde_json::to_string(&Half(3)).unwrap(), "1.5"); // test
        assert_eq!(serde_json::to_string(&Half(4)).unwrap(), "2"); // test
        assert_eq!(serde_json::from_str::<Half>("0.5").unwrap(), Half(1)); // test
        assert!(serde_json::from_str::<Half>("0.3").is_err());
    }

    proptest! {
        #[test]
        fn r1_5b_rounded_is_nearest_with_halves_up(n in 0u32..1_000_000, d in 1u32..1000) {
            let r = round_half_up(n, d);
            // −½ ≤ n/d − r < ½: the nearest whole number, a half going up.
            let diff2 = 2 * i64::from(n) - 2 * i64::from(r) * i64::from(d);
            prop_assert!(diff2 >= -i64::from(d) && diff2 < i64::from(d), "{n}/{d} → {r}");
            prop_assert_eq!(drop_fraction(n, d), n / d);
            prop_assert!(r == drop_fraction(n, d) || r == drop_fraction(n, d) + 1);
        }

        #[test]
        fn c4_half_round_trips_through_json_toml_and_text(h in any::<u16>()) {
            let h = Half(h);
            let j = serde_json::to_string(&h).unwrap(); // test
            prop_assert_eq!(serde_json::from_str::<Half>(&j).unwrap(), h); // test
            let t = toml::to_string(&Cost { mp: h }).unwrap(); // test
            prop_assert_eq!(toml::from_str::<Cost>(&t).unwrap().mp, h); // test
            prop_assert_eq!(h.to_string().parse::<Half>(), Ok(h));
            prop_assert_eq!(h.rounded(), round_half_up(u32::from(h.0), 2) as u16);
            prop_assert_eq!(h.dropped(), drop_fraction(u32::from(h.0), 2) as u16);
        }

        #[test]
        fn c4_half_arithmetic_matches_halves(a in any::<u16>(), b in any::<u16>()) {
            let (x, y) = (Half(a), Half(b));
            prop_assert_eq!((x + y).0, a.saturating_add(b));
            prop_assert_eq!((x - y).0, a.saturating_sub(b));
            prop_assert_eq!(x.checked_sub(y).is_some(), a >= b);
            prop_assert_eq!(x.cmp(&y), a.cmp(&b));
        }
    }
}
