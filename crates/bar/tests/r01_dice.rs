//! Dice and rounding (1.5), with the worked example E1 of bar-notes section 3.
use bar::checks::{d10, percentile};
use engine::{Half, drop_fraction, round_half_up};

#[test]
fn r1_5b_example_rounded_drop_fraction_and_retained_fractions() {
    // E1: rounded 2.5 → 3, 2.7 → 3, 2.2 → 2; drop fraction 12.9 → 12; retain 6.5.
    assert_eq!(round_half_up(25, 10), 3);
    assert_eq!(round_half_up(27, 10), 3);
    assert_eq!(round_half_up(22, 10), 2);
    assert_eq!(drop_fraction(129, 10), 12);
    let h = Half::from_halves(13);
    assert_eq!((h.halves(), h.is_whole()), (13, false));
    assert_eq!(bar::command::halves(13), "6½");
    // A leader's wound: a d10 halved, rounded (21.4c): 3 → 2, 5 → 3.
    assert_eq!(round_half_up(3, 2), 2);
    assert_eq!(round_half_up(5, 2), 3);
}

#[test]
fn r1_5a_a_zero_is_zero_and_a_percentile_roll_is_tens_then_units() {
    let bar = bar::Bar::load("bar-drill", &[], None).unwrap(); // the built-in scenario
    let mut ev = Vec::new();
    let mut st = engine::Ruleset::start(&bar, 1, &mut ev);
    st.loaded = vec![0, 3, 7];
    assert_eq!(d10(&mut st), 0);
    let p = percentile(&mut st);
    assert_eq!(p.value(), 37);
    assert_eq!(p.to_string(), "tens 3, units 7 = 37");
    // The seeded dice give faces 0–9 only.
    let faces: Vec<u8> = (0..2000).map(|_| d10(&mut st)).collect();
    assert!(faces.iter().all(|&f| f <= 9));
    assert!(faces.contains(&0) && faces.contains(&9));
}
