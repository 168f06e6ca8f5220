//! One test per paragraph of the rule text (names carry the paragraph), and the melee table
//! checked cell by cell.
use engine::Ruleset;
use minis::data::Order;
use minis::{Minis, Options};

const RULES: &str = include_str!("../../../scenarios/minis/rules.toml");

/// A scenario of the given units: (id, side, kind, x, y, facing, extra TOML lines).
fn table(units: &[(&str, u8, &str, f64, f64, f64, &str)], opts: Options) -> Minis {
    let mut t = String::from(
        "[scenario]\nid = \"t\"\nname = \"t\"\nsides = [\"A\", \"B\"]\ntable = [180.0, 120.0]\nmax_turns = 5\nreconstructed = \"test\"\n",
    );
    for (id, side, kind, x, y, f, extra) in units {
        t.push_str(&format!(
            "[[units]]\nid = \"{id}\"\nname = \"{id}\"\nside = {side}\nkind = \"{kind}\"\nsector = \"centre\"\nx = {x}\ny = {y}\nfacing = {f}\n{extra}\nreconstructed = \"test\"\n"
        ));
    }
    Minis::from_text(&t, RULES, opts).expect("test table is valid")
}

fn idx(m: &Minis, id: &str) -> usize {
    m.unit_index(id).expect("unit exists")
}

#[test]
fn melees_table_cell_by_cell() {
    // Rows as printed; columns: heavy cavalry, lancers, light cavalry, infantry in firing order
    // attacked frontally, other infantry, light infantry.
    let rows: [(&str, &str, [f64; 6]); 4] = [
        ("heavy-horse", "", [1.0, 2.0, 2.0, 1.0, 3.0, 2.0]),
        ("lancers", "", [1.0, 1.0, 1.0, 1.5, 4.0, 4.0]),
        ("light-horse", "", [1.0, 2.0, 1.0, 1.0, 2.0, 3.0]),
        ("foot", "", [1.0, 1.0, 1.0, 1.0, 1.0, 1.0]),
    ];
    let cols: [(&str, &str); 6] = [
        ("heavy-horse", ""),
        ("lancers", ""),
        ("light-horse", ""),
        ("foot", "order = \"firing\""),
        ("foot", "order = \"column\""),
        ("light-foot", ""),
    ];
    for (rk, rx, expected) in rows {
        for (c, (ck, cx)) in cols.iter().enumerate() {
            let m = table(
                &[
                    ("me", 0, rk, 90.0, 50.0, 90.0, rx),
                    ("en", 1, ck, 90.0, 57.0, 270.0, cx),
                ],
                Options::default(),
            );
            let mut ev = Vec::new();
            let st = m.start(1, &mut ev);
            let (rate, mods) = m.melee_rate(&st, idx(&m, "me"), idx(&m, "en"), false);
            assert!(mods.is_empty(), "{rk} vs {ck}: {mods:?}");
            assert_eq!(rate, expected[c], "{rk} vs column {c} ({ck} {cx})");
        }
    }
}

#[test]
fn melees_flank_attack_and_light_foot() {
    // Heavy horse on the flank of foot in firing order: "other infantry" 3 + 1 flank.
    let m = table(
        &[
            ("me", 0, "heavy-horse", 80.0, 50.0, 0.0, ""),
            ("en", 1, "foot", 90.5, 50.0, 270.0, ""),
        ],
        Options::default(),
    );
    let mut ev = Vec::new();
    let st = m.start(1, &mut ev);
    let (rate, mods) = m.melee_rate(&st, idx(&m, "me"), idx(&m, "en"), false);
    assert_eq!(rate, 4.0, "{mods:?}");
    // Light foot in the open inflict nothing.
    let m = table(
        &[
            ("lf", 0, "light-foot", 90.0, 50.0, 90.0, ""),
            ("en", 1, "foot", 90.0, 57.0, 270.0, ""),
        ],
        Options::default(),
    );
    let st = m.start(1, &mut ev);
    assert_eq!(
        m.melee_rate(&st, idx(&m, "lf"), idx(&m, "en"), false).0,
        0.0
    );
}

#[test]
fn melees_who_may_not_initiate_contact() {
    let m = table(
        &[
            ("foot", 0, "foot", 30.0, 50.0, 90.0, ""),
            ("horse", 1, "heavy-horse", 30.0, 60.0, 270.0, ""),
            ("gun", 0, "gun", 60.0, 50.0, 90.0, ""),
            ("lf", 0, "light-foot", 120.0, 50.0, 90.0, ""),
            ("en", 1, "foot", 120.0, 60.0, 270.0, ""),
        ],
        Options::default(),
    );
    let mut ev = Vec::new();
    let st = m.start(1, &mut ev);
    assert!(
        m.contact_allowed(&st, idx(&m, "foot"), idx(&m, "horse"))
            .is_err()
    );
    assert!(
        m.contact_allowed(&st, idx(&m, "gun"), idx(&m, "en"))
            .is_err()
    );
    assert!(
        m.contact_allowed(&st, idx(&m, "lf"), idx(&m, "en"))
            .is_err()
    );
    assert!(
        m.contact_allowed(&st, idx(&m, "horse"), idx(&m, "foot"))
            .is_ok()
    );
}

#[test]
fn melees_guns_guarded_by_close_order_foot_within_4cm() {
    let m = table(
        &[
            ("gun", 0, "gun", 90.0, 50.0, 90.0, ""),
            ("guard", 0, "foot", 90.0, 45.0, 90.0, ""),
            ("horse", 1, "heavy-horse", 90.0, 60.0, 270.0, ""),
        ],
        Options::default(),
    );
    let mut ev = Vec::new();
    let st = m.start(1, &mut ev);
    let e = m
        .contact_allowed(&st, idx(&m, "horse"), idx(&m, "gun"))
        .unwrap_err();
    assert!(e.contains("within 4 cm"), "{e}");
    let m = table(
        &[
            ("gun", 0, "gun", 90.0, 50.0, 90.0, ""),
            ("guard", 0, "foot", 90.0, 40.0, 90.0, ""),
            ("horse", 1, "heavy-horse", 90.0, 60.0, 270.0, ""),
        ],
        Options::default(),
    );
    let st = m.start(1, &mut ev);
    assert!(
        m.contact_allowed(&st, idx(&m, "horse"), idx(&m, "gun"))
            .is_ok()
    );
}

#[test]
fn movement_rates_by_type_and_order() {
    let m = table(
        &[
            ("f", 0, "foot", 20.0, 20.0, 90.0, ""),
            ("l", 0, "light-foot", 40.0, 20.0, 90.0, ""),
            ("h", 0, "heavy-horse", 60.0, 20.0, 90.0, ""),
            ("lh", 0, "light-horse", 80.0, 20.0, 90.0, ""),
            ("g", 1, "gun", 100.0, 90.0, 270.0, ""),
        ],
        Options::default(),
    );
    assert_eq!(m.rate(idx(&m, "f"), Order::Firing), 6.0);
    assert_eq!(m.rate(idx(&m, "f"), Order::Column), 8.0);
    assert_eq!(m.rate(idx(&m, "l"), Order::Column), 8.0);
    assert_eq!(m.rate(idx(&m, "g"), Order::Limbered), 6.0);
    assert_eq!(m.rate(idx(&m, "g"), Order::Unlimbered), 0.0);
    assert_eq!(m.rate(idx(&m, "h"), Order::Mounted), 10.0);
    assert_eq!(m.rate(idx(&m, "lh"), Order::Mounted), 12.0);
}

#[test]
fn movement_refused_move_says_why_and_leaves_state() {
    let m = table(
        &[
            ("a", 0, "foot", 90.0, 20.0, 90.0, ""),
            ("b", 0, "foot", 90.0, 25.0, 90.0, ""),
            ("e", 1, "foot", 90.0, 100.0, 270.0, ""),
        ],
        Options::default(),
    );
    let mut ev = Vec::new();
    let mut st = m.start(1, &mut ev);
    m.apply_id(&mut st, "sector:centre", &mut ev)
        .expect("the centre can be chosen");
    let before = st.clone();
    let e = m
        .apply_id(&mut st, "advance:a:4.0", &mut ev)
        .unwrap_err()
        .to_string();
    assert!(e.contains("path crosses the base of b at"), "{e}");
    assert_eq!(st, before);
    // A valid continuous move not in the menu is accepted.
    assert!(m.apply_id(&mut st, "oblique:b:-12.5:1.3", &mut ev).is_ok());
}

#[test]
fn musketry_minimum_scores_and_dice() {
    let m = table(
        &[
            ("fo", 0, "foot", 20.0, 20.0, 90.0, ""),
            ("col", 0, "foot", 40.0, 20.0, 90.0, "order = \"column\""),
            ("lf", 0, "light-foot", 60.0, 20.0, 90.0, ""),
            (
                "dr",
                0,
                "heavy-horse",
                80.0,
                20.0,
                90.0,
                "dragoons = true\norder = \"dismounted\"",
            ),
            ("e", 1, "foot", 90.0, 100.0, 270.0, ""),
        ],
        Options::default(),
    );
    let mut ev = Vec::new();
    let st = m.start(1, &mut ev);
    assert_eq!(
        m.musketry_profile(&st, idx(&m, "fo"))
            .map(|p| (p.0, p.1, p.2)),
        Some((8.0, 4, 4))
    );
    assert_eq!(
        m.musketry_profile(&st, idx(&m, "col")).map(|p| (p.1, p.2)),
        Some((6, 2))
    );
    assert_eq!(m.musketry_profile(&st, idx(&m, "lf")).map(|p| p.1), Some(5));
    assert_eq!(
        m.musketry_profile(&st, idx(&m, "dr")).map(|p| (p.0, p.1)),
        Some((6.0, 6))
    );
}

#[test]
fn musketry_arc_45_degrees_either_side_or_narrow() {
    let m = table(
        &[
            ("a", 0, "foot", 90.0, 20.0, 90.0, ""),
            ("e", 1, "foot", 90.0, 100.0, 270.0, ""),
        ],
        Options::default(),
    );
    assert_eq!(m.half_arc(), 45.0);
    let m = table(
        &[
            ("a", 0, "foot", 90.0, 20.0, 90.0, ""),
            ("e", 1, "foot", 90.0, 100.0, 270.0, ""),
        ],
        Options {
            narrow_arc: true,
            ..Options::default()
        },
    );
    assert_eq!(m.half_arc(), 22.5);
}

#[test]
fn sequence_d10_centre_and_two_d6_flanks() {
    let m = table(
        &[
            ("a", 0, "foot", 90.0, 20.0, 90.0, ""),
            ("e", 1, "foot", 90.0, 100.0, 270.0, ""),
        ],
        Options::default(),
    );
    for seed in 0..30 {
        let mut ev = Vec::new();
        let st = m.start(seed, &mut ev);
        assert!((1..=10).contains(&st.pips[0]) || st.step != minis::state::Step::ChooseSector);
        assert!(
            ev[0].to_string().starts_with("Sequence 1 (pips): turn 1"),
            "{}",
            ev[0]
        );
    }
}

#[test]
fn morale_support_from_the_rear() {
    let m = table(
        &[
            ("a", 0, "foot", 90.0, 30.0, 90.0, ""),
            ("s", 0, "heavy-horse", 90.0, 15.0, 90.0, ""),
            ("e", 1, "foot", 90.0, 100.0, 270.0, ""),
        ],
        Options::default(),
    );
    let mut ev = Vec::new();
    let st = m.start(1, &mut ev);
    assert_eq!(m.supported(&st, idx(&m, "a")), Some(idx(&m, "s")));
}

#[test]
fn victory_points_general_3_battalion_2_other_1() {
    let m = table(
        &[
            ("a", 0, "foot", 90.0, 30.0, 90.0, ""),
            ("g", 0, "gun", 60.0, 30.0, 90.0, ""),
            ("e", 1, "heavy-horse", 90.0, 100.0, 270.0, ""),
        ],
        Options::default(),
    );
    assert_eq!(m.start_points(), [3, 1]);
}
