//! Issue 12, findings 1, 3, 4 and the set-up part of 11: the positions a player built from edited
//! copies of `scenarios/` to check the engine against the book, rebuilt here hex for hex.
//!
//! - 7.1: a lone redoubt's hex is no way from one enemy ZoC into another.
//! - 3.1 / 2.1: a light unit joining a stack takes the stack's facing (docs/rules-decisions.md 3.1).
//! - 3.1, 3.2, 3.4: a set-up that breaks the stacking limits, puts two sides in a hex or a
//!   commander in an enemy unit's hex is refused, with its file and unit, every problem at once.
mod common;

use common::*;
use engine::Ruleset;
use hexmap::Vertex;
use saxe::Saxe;
use saxe::scenario::{Placement, Side};
use saxe::state::Options;
use std::sync::Arc;

// ------------------------------------------------------------------- 7.1: lone redoubts and ZoCs

/// The finding's position: Picardie 1510 facing N, Von Gilsa 1509 SW, the Wutginau redoubt 1410 S,
/// Von Fürstenberg 2 1310 S, Chevert 1610; Chevert activated, Picardie chosen to move. Only the
/// Allied units named in `allies` are set up.
fn redoubt_position(r: &Saxe, allies: &[&str]) -> saxe::state::State {
    let mut s = empty_board(r);
    place(r, &mut s, "picardie", hx("1510"), Vertex::N);
    for &(id, h, f) in &[
        ("von-gilsa", "1509", Vertex::SW),
        ("wutginau-redoubt-0911", "1410", Vertex::S),
        ("von-fuerstenberg-2", "1310", Vertex::S),
    ] {
        if allies.contains(&id) {
            place(r, &mut s, id, hx(h), f);
        }
    }
    place_cmdr(r, &mut s, "chevert", hx("1610"));
    place_cmdr(r, &mut s, "estrees", hx("1614"));
    place_cmdr(r, &mut s, "contades", hx("1713"));
    activate_auto(r, &mut s, "chevert");
    act(r, &mut s, "move-unit:picardie");
    s
}

#[test]
fn r7_1_no_move_from_zoc_to_zoc_through_a_lone_redoubt() {
    let r = rules();
    let s = redoubt_position(
        &r,
        &["von-gilsa", "wutginau-redoubt-0911", "von-fuerstenberg-2"],
    );
    // The geometry the finding relies on.
    let picardie = unit(&r, "picardie");
    assert!(r.zoc_reaches(&s, unit(&r, "von-gilsa"), hx("1510")));
    assert!(r.zoc_reaches(&s, unit(&r, "wutginau-redoubt-0911"), hx("1510")));
    assert!(r.zoc_reaches(&s, unit(&r, "von-fuerstenberg-2"), hx("1410")));
    let l = ids(&r, &s);
    assert!(
        !l.contains(&"step:NW".to_string()),
        "Picardie may not go from Von Gilsa's ZoC into Von Fürstenberg 2's by the redoubt: {l:?}"
    );
    // 8.4 is still the way out.
    assert!(l.iter().any(|i| i.starts_with("leave-zoc:")), "{l:?}");
    assert_eq!(s.units[usize::from(picardie)].hex, Some(hx("1510")));
}

#[test]
fn r7_1_the_lone_redoubt_lifts_only_its_own_zoc() {
    let r = rules();
    // Von Gilsa pins Picardie: leaving his ZoC is by 8.4 only, even into a redoubt that no other
    // unit covers.
    let s = redoubt_position(&r, &["von-gilsa", "wutginau-redoubt-0911"]);
    let l = ids(&r, &s);
    assert!(!l.contains(&"step:NW".to_string()), "{l:?}");
}

#[test]
fn r7_1_no_move_from_a_redoubts_zoc_into_another_units_zoc() {
    let r = rules();
    // Only the redoubt holds Picardie, but its hex lies in Von Fürstenberg 2's ZoC.
    let s = redoubt_position(&r, &["wutginau-redoubt-0911", "von-fuerstenberg-2"]);
    let l = ids(&r, &s);
    assert!(!l.contains(&"step:NW".to_string()), "{l:?}");
}

#[test]
fn r11_5_a_unit_held_only_by_a_lone_redoubt_may_still_enter_and_destroy_it() {
    let r = rules();
    // rules-decisions 9.5 / 11.5 stands: otherwise a lone redoubt would pin its neighbours.
    let mut s = redoubt_position(&r, &["wutginau-redoubt-0911"]);
    let red = unit(&r, "wutginau-redoubt-0911");
    let ev = act(&r, &mut s, "step:NW");
    assert_eq!(s.units[usize::from(red)].hex, None);
    assert!(logged(&ev, "11.5"), "{ev:?}");
    assert_eq!(
        s.units[usize::from(unit(&r, "picardie"))].hex,
        Some(hx("1410"))
    );
    assert!(r.check_invariants(&s).is_empty());
}

// ------------------------------------------------------------- 3.1: light units joining a stack

/// Hainaut (light infantry) at `from` facing `hf`, Picardie 1510 facing N, Chevert with Hainaut;
/// Chevert activated, Hainaut chosen to move.
fn light_position(r: &Saxe, from: &str, hf: Vertex) -> saxe::state::State {
    let mut s = empty_board(r);
    place(r, &mut s, "hainaut", hx(from), hf);
    place(r, &mut s, "picardie", hx("1510"), Vertex::N);
    place_cmdr(r, &mut s, "chevert", hx(from));
    place_cmdr(r, &mut s, "estrees", hx("1614"));
    activate_auto(r, &mut s, "chevert");
    act(r, &mut s, "move-unit:hainaut");
    s
}

#[test]
fn r3_1_a_light_unit_joining_a_stack_takes_its_facing() {
    let r = rules();
    // The finding: Hainaut 1610 facing NW steps NE into Picardie's hex (from its rear hex).
    let mut s = light_position(&r, "1610", Vertex::NW);
    act(&r, &mut s, "step:NE");
    let hainaut = unit(&r, "hainaut");
    assert_eq!(s.units[usize::from(hainaut)].hex, Some(hx("1510")));
    assert_eq!(
        s.units[usize::from(hainaut)].facing,
        Vertex::N,
        "3.1: one facing in a stack"
    );
    assert!(
        r.check_invariants(&s).is_empty(),
        "{:?}",
        r.check_invariants(&s)
    );
    // It may go on through the friend's hex and keeps the facing it took.
    act(&r, &mut s, "step:NE");
    assert_eq!(s.units[usize::from(hainaut)].facing, Vertex::N);
}

#[test]
fn r3_1_a_light_unit_joins_from_the_rear_or_the_front_not_the_flank() {
    let r = rules();
    // 1511 is west of 1510: Picardie's (facing N) flank hex. Entering from there is no move
    // along the facing the joining unit takes.
    let s = light_position(&r, "1511", Vertex::NW);
    let l = ids(&r, &s);
    assert!(!l.contains(&"step:E".to_string()), "{l:?}");
    assert!(
        l.contains(&"step:W".to_string()),
        "it still moves anywhere else: {l:?}"
    );
    // 1410 is Picardie's front hex: stepping SE into the stack is a move to the rear (3.1: "front
    // hexes if it's a backward movement").
    let mut s = light_position(&r, "1410", Vertex::S);
    act(&r, &mut s, "step:SE");
    let hainaut = unit(&r, "hainaut");
    assert_eq!(s.units[usize::from(hainaut)].hex, Some(hx("1510")));
    assert_eq!(s.units[usize::from(hainaut)].facing, Vertex::N);
}

#[test]
fn r3_1_fl_a_light_unit_joins_from_any_side() {
    // F/L 3.1 asks only for one facing ("Las unidades tienen que tener la misma orientación"),
    // not Hastenbeck's "from the rear hexes".
    let h = rules();
    let r = Saxe {
        sc: h.sc.clone(),
        options: h.options.clone(),
        edition: saxe::Edition::FontenoyLauffeld,
    };
    let mut s = light_position(&r, "1511", Vertex::NW);
    act(&r, &mut s, "step:E");
    let hainaut = unit(&r, "hainaut");
    assert_eq!(s.units[usize::from(hainaut)].hex, Some(hx("1510")));
    assert_eq!(s.units[usize::from(hainaut)].facing, Vertex::N);
    assert!(
        r.check_invariants(&s).is_empty(),
        "{:?}",
        r.check_invariants(&s)
    );
}

#[test]
fn r3_1_r8_4_a_light_unit_falling_back_into_a_friend_takes_its_facing() {
    let r = rules();
    let mut s = empty_board(&r);
    // Hainaut 1410 facing N with Von Gilsa in its front (1310, facing S: 1410 in his ZoC);
    // Picardie behind it in 1510 facing NW: Hainaut falls back SE, into Picardie's front hex
    // side (SE is a rear direction of NW), a backward move 3.1 allows.
    place(&r, &mut s, "hainaut", hx("1410"), Vertex::N);
    place(&r, &mut s, "von-gilsa", hx("1310"), Vertex::S);
    place(&r, &mut s, "picardie", hx("1510"), Vertex::NW);
    place_cmdr(&r, &mut s, "chevert", hx("1410"));
    place_cmdr(&r, &mut s, "estrees", hx("1614"));
    activate_auto(&r, &mut s, "chevert");
    act(&r, &mut s, "move-unit:hainaut");
    let l = ids(&r, &s);
    let back = l
        .iter()
        .find(|i| i.starts_with("leave-zoc:1510"))
        .unwrap_or_else(|| panic!("8.4 into the friend's hex: {l:?}"))
        .clone();
    act(&r, &mut s, &back);
    let hainaut = unit(&r, "hainaut");
    assert_eq!(s.units[usize::from(hainaut)].hex, Some(hx("1510")));
    assert_eq!(s.units[usize::from(hainaut)].facing, Vertex::NW);
    assert!(
        r.check_invariants(&s).is_empty(),
        "{:?}",
        r.check_invariants(&s)
    );
}

#[test]
fn r3_1_a_normal_unit_does_not_join_a_light_unit_of_another_facing() {
    let r = rules();
    // The joining unit conforms: Picardie's facing has effects, so it is not changed for it.
    let mut s = empty_board(&r);
    place(&r, &mut s, "hainaut", hx("1410"), Vertex::NE);
    place(&r, &mut s, "picardie", hx("1510"), Vertex::N);
    place_cmdr(&r, &mut s, "chevert", hx("1510"));
    place_cmdr(&r, &mut s, "estrees", hx("1614"));
    activate_auto(&r, &mut s, "chevert");
    act(&r, &mut s, "move-unit:picardie");
    let l = ids(&r, &s);
    assert!(!l.contains(&"step:NW".to_string()), "{l:?}");
    assert!(l.contains(&"step:NE".to_string()), "{l:?}");
}

#[test]
fn r3_1_invariants_refuse_a_stack_of_two_facings_with_a_light_unit() {
    let r = rules();
    let mut s = empty_board(&r);
    let h = place(&r, &mut s, "hainaut", hx("1510"), Vertex::NW);
    let p = place(&r, &mut s, "picardie", hx("1510"), Vertex::N);
    assert!(!r.stacking_ok(hx("1510"), &[p, h], &s));
    let bad = r.check_invariants(&s);
    assert!(
        bad.iter()
            .any(|b| b.contains("1510") && b.contains("facing")),
        "{bad:?}"
    );
    s.units[usize::from(h)].facing = Vertex::N;
    assert!(r.check_invariants(&s).is_empty());
}

// ----------------------------------------------------------------- 3.1, 3.2, 3.4: set-up checks

/// The ruleset with the set-up of scenario `id` edited by `edit`.
fn with_setup(id: &str, edit: impl FnOnce(&mut saxe::scenario::Scenario)) -> Saxe {
    let r = Saxe::load(id, &[], None).expect("built-in scenario loads");
    let mut sc = (*r.sc).clone();
    edit(&mut sc);
    Saxe {
        sc: Arc::new(sc),
        options: r.options.clone(),
        edition: r.edition,
    }
}

fn move_to(sc: &mut saxe::scenario::Scenario, id: &str, hex: &str, facing: Vertex) {
    let u = sc.unit_by_id(id).expect("unit");
    let p = sc.setup.iter_mut().find(|p| p.unit == u).expect("set up");
    p.hex = hx(hex);
    p.facing = facing;
}

#[test]
fn r3_shipped_set_ups_are_valid_with_every_option() {
    for info in saxe::catalogue() {
        let r = Saxe::load(info.id, &[], None).expect("built-in scenario loads");
        assert_eq!(
            r.setup_problems(&r.options),
            Vec::<String>::new(),
            "{}",
            info.id
        );
        let (ok, report) = r.validation_report();
        assert!(ok, "{}: {report}", info.id);
    }
}

#[test]
fn r3_1_r3_4_an_over_stacked_set_up_is_refused_with_every_unit_named() {
    // The finding: Navarre and Eu added to Mailly + Orleans + Art. 12L in 1309.
    let r = with_setup("hastenbeck", |sc| {
        move_to(sc, "navarre", "1309", Vertex::N);
        move_to(sc, "eu", "1309", Vertex::N);
    });
    let bad = r.setup_problems(&Options::default());
    assert_eq!(bad.len(), 1, "one over-stacked hex: {bad:?}");
    let b = &bad[0];
    assert!(b.starts_with("scenario.toml [[setup]] "), "{b}");
    for id in ["navarre", "eu", "mailly", "orleans", "contades-art-1309"] {
        assert!(b.contains(id), "{id} not named: {b}");
    }
    assert!(b.contains("1309") && b.contains("3.1"), "{b}");
    let (ok, report) = r.validation_report();
    assert!(!ok, "{report}");
    assert!(
        report.contains("navarre") && report.contains("eu"),
        "{report}"
    );
}

#[test]
fn r3_1_a_set_up_stack_of_two_facings_is_refused() {
    let r = with_setup("hastenbeck", |sc| {
        move_to(sc, "orleans", "1309", Vertex::NW);
    });
    let bad = r.setup_problems(&Options::default());
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert!(
        bad[0].contains("orleans") && bad[0].contains("facing"),
        "{bad:?}"
    );
}

#[test]
fn r3_1_exception_1_infantry_with_cavalry_is_refused_in_both_editions() {
    // Hastenbeck: Du Roy (cavalry) set up on Mailly + Orleans (1309).
    let r = with_setup("hastenbeck", |sc| {
        move_to(sc, "du-roy", "1309", Vertex::N);
    });
    let bad = r.setup_problems(&Options::default());
    assert!(
        bad.iter()
            .any(|b| b.contains("du-roy") && b.contains("cavalry")),
        "{bad:?}"
    );
    // Fontenoy: the Royal dragoons with the Gardes françaises.
    let r = with_setup("fontenoy", |sc| {
        let g = sc.unit_by_id("gardes-francaises").expect("unit");
        let p = sc.setup.iter().find(|p| p.unit == g).expect("set up");
        let (h, f) = (p.hex, p.facing);
        move_to(sc, "royal-dragons", &h.to_string(), f);
    });
    let bad = r.setup_problems(&Options::default());
    assert!(
        bad.iter()
            .any(|b| b.contains("royal-dragons") && b.contains("cavalry")),
        "{bad:?}"
    );
}

#[test]
fn r3_1_three_counters_in_a_redoubt_hex_are_refused_in_both_editions() {
    // Fontenoy/Lauffeld 3.1: two units a hex, the redoubt (an artillery counter) counting as one:
    // Eu 2 added to Eu 1 + redoubt in 0916.
    let r = with_setup("fontenoy", |sc| {
        move_to(sc, "eu-2", "0916", Vertex::N);
    });
    let bad = r.setup_problems(&Options::default());
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert!(
        bad[0].contains("eu-2") && bad[0].contains("0916"),
        "{bad:?}"
    );
    // Hastenbeck 3.1 exception 2: one infantry unit with the guns in a redoubt, grenadiers excepted.
    let r0 = rules();
    let red = r0.sc.unit_by_id("wutginau-redoubt-0911").expect("redoubt");
    let red_hex = r0
        .sc
        .setup
        .iter()
        .find(|p| p.unit == red)
        .expect("set up")
        .hex;
    let mates: Vec<String> = r0
        .sc
        .setup
        .iter()
        .filter(|p| p.hex == red_hex && p.unit != red)
        .map(|p| r0.sc.units[usize::from(p.unit)].id.clone())
        .collect();
    assert_eq!(mates.len(), 1, "one unit with the redoubt: {mates:?}");
    let f = r0
        .sc
        .setup
        .iter()
        .find(|p| p.hex == red_hex && p.unit != red)
        .expect("mate")
        .facing;
    let r = with_setup("hastenbeck", |sc| {
        move_to(sc, "von-gilsa", &red_hex.to_string(), f);
    });
    let bad = r.setup_problems(&Options::default());
    assert!(
        bad.iter()
            .any(|b| b.contains("von-gilsa") && b.contains("redoubt")),
        "{bad:?}"
    );
}

#[test]
fn r3_2_a_commander_set_up_in_an_enemy_units_hex_is_refused() {
    let r = with_setup("hastenbeck", |sc| {
        let c = sc
            .commanders
            .iter()
            .position(|c| c.id == "chevert")
            .expect("chevert");
        let g = sc.unit_by_id("von-gilsa").expect("unit");
        let h = sc.setup.iter().find(|p| p.unit == g).expect("set up").hex;
        for e in sc.commander_setup.iter_mut() {
            if usize::from(e.0) == c {
                e.1 = h;
            }
        }
    });
    let bad = r.setup_problems(&Options::default());
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert!(
        bad[0].contains("[[commander_setup]] chevert") && bad[0].contains("Von Gilsa"),
        "{bad:?}"
    );
}

#[test]
fn r3_a_set_up_with_two_sides_in_a_hex_is_refused() {
    let r = with_setup("hastenbeck", |sc| {
        let g = sc.unit_by_id("von-gilsa").expect("unit");
        let h = sc.setup.iter().find(|p| p.unit == g).expect("set up").hex;
        let u = sc.unit_by_id("picardie").expect("unit");
        sc.setup.push(Placement {
            unit: u,
            hex: h,
            facing: Vertex::N,
        });
        sc.setup.retain(|p| !(p.unit == u && p.hex != h));
    });
    let bad = r.setup_problems(&Options::default());
    assert!(
        bad.iter()
            .any(|b| b.contains("picardie") && b.contains("both sides")),
        "{bad:?}"
    );
    assert_eq!(
        r.sc.units[usize::from(unit(&r, "picardie"))].side,
        Side::French
    );
}
