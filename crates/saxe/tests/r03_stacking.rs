//! Rule 3: stacking limits, exceptions, order in the stack, commanders.
mod common;

use common::*;
use hexmap::{Dir, Vertex};
use saxe::scenario::Terrain;

#[test]
fn r3_1_two_units_per_hex() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 1);
    let a = place(&r, &mut s, "du-roi", x, Vertex::N);
    let b = place(&r, &mut s, "palatinat-1", x, Vertex::N);
    let c = place(&r, &mut s, "palatinat-2", x, Vertex::N);
    assert!(r.stacking_ok(x, &[a], &s));
    assert!(r.stacking_ok(x, &[a, b], &s));
    assert!(!r.stacking_ok(x, &[a, b, c], &s), "three units");
    let d = place(&r, &mut s, "du-roy", x, Vertex::N);
    let e = place(&r, &mut s, "royal-pologne", x, Vertex::N);
    let f = place(&r, &mut s, "royal-cravatte", x, Vertex::N);
    assert!(r.stacking_ok(x, &[d, e], &s));
    assert!(!r.stacking_ok(x, &[d, e, f], &s), "three cavalry units");
}

#[test]
fn r3_1_units_of_a_stack_share_their_facing() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 1);
    let a = place(&r, &mut s, "du-roi", x, Vertex::N);
    let b = place(&r, &mut s, "palatinat-1", x, Vertex::NE);
    assert!(!r.stacking_ok(x, &[a, b], &s));
    s.units[usize::from(b)].facing = Vertex::N;
    assert!(r.stacking_ok(x, &[a, b], &s));
}

#[test]
fn r3_1_exception_1_arms_and_one_gun() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 1);
    let inf1 = place(&r, &mut s, "du-roi", x, Vertex::N);
    let inf2 = place(&r, &mut s, "palatinat-1", x, Vertex::N);
    let cav1 = place(&r, &mut s, "du-roy", x, Vertex::N);
    let cav2 = place(&r, &mut s, "royal-pologne", x, Vertex::N);
    let gun1 = place(&r, &mut s, "broglie-art-1314", x, Vertex::N);
    let gun2 = place(&r, &mut s, "contades-art-1308", x, Vertex::N);
    assert!(
        !r.stacking_ok(x, &[inf1, cav1], &s),
        "infantry with cavalry"
    );
    assert!(
        r.stacking_ok(x, &[inf1, inf2, gun1], &s),
        "one gun with two infantry"
    );
    assert!(
        r.stacking_ok(x, &[cav1, cav2, gun1], &s),
        "one gun with two cavalry"
    );
    assert!(r.stacking_ok(x, &[inf1, gun1], &s));
    assert!(
        !r.stacking_ok(x, &[inf1, gun1, gun2], &s),
        "two guns with infantry"
    );
    assert!(!r.stacking_ok(x, &[gun1, gun2], &s), "two guns together");
}

#[test]
fn r3_1_exception_2_village_one_infantry_with_guns_except_grenadiers() {
    let r = rules();
    let t =
        r.sc.map
            .hexes()
            .find(|&h| r.sc.map.terrain(h) == Terrain::Town)
            .expect("a town hex");
    let mut s = empty_board(&r);
    let line1 = place(&r, &mut s, "du-roi", t, Vertex::N);
    let line2 = place(&r, &mut s, "palatinat-1", t, Vertex::N);
    let gren1 = place(&r, &mut s, "grenadiers", t, Vertex::N);
    let gren2 = place(&r, &mut s, "grenadiers-reunis", t, Vertex::N);
    let gun = place(&r, &mut s, "broglie-art-1314", t, Vertex::N);
    assert!(
        r.stacking_ok(t, &[line1, line2], &s),
        "two infantry in a village"
    );
    assert!(
        r.stacking_ok(t, &[line1, gun], &s),
        "one infantry with the gun"
    );
    assert!(
        !r.stacking_ok(t, &[line1, line2, gun], &s),
        "two infantry with a gun in a village"
    );
    assert!(
        r.stacking_ok(t, &[gren1, gren2, gun], &s),
        "grenadiers are the exception"
    );
    // The same two line units with a gun in clear terrain are legal (exception 1).
    let x = clear_area(&r, 1);
    for u in [line1, line2, gun] {
        s.units[usize::from(u)].hex = Some(x);
    }
    assert!(r.stacking_ok(x, &[line1, line2, gun], &s));
}

#[test]
fn r3_1_exception_2_redoubt_one_infantry_except_grenadiers() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 1);
    let gilsa = place(&r, &mut s, "von-gilsa", x, Vertex::S);
    let f2 = place(&r, &mut s, "von-fuerstenberg-2", x, Vertex::S);
    let red = place(&r, &mut s, "wutginau-redoubt-0911", x, Vertex::S);
    assert!(r.stacking_ok(x, &[gilsa, red], &s));
    assert!(
        !r.stacking_ok(x, &[gilsa, f2, red], &s),
        "two line infantry in a redoubt"
    );
    let h1 = place(&r, &mut s, "von-hardenberg-1", x, Vertex::S);
    let h2 = place(&r, &mut s, "von-hardenberg-2", x, Vertex::S);
    let red12 = place(&r, &mut s, "hardenberg-redoubt-1008", x, Vertex::S);
    assert!(
        r.stacking_ok(x, &[h1, h2, red12], &s),
        "two grenadier units in a redoubt"
    );
}

#[test]
fn r3_1_stacking_limits_bind_movement() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 2);
    let nw = go(x, &[Dir::NW]);
    let ne = go(x, &[Dir::NE]);
    place(&r, &mut s, "du-roi", x, Vertex::N);
    place(&r, &mut s, "poitou", nw, Vertex::N);
    place(&r, &mut s, "palatinat-1", ne, Vertex::N);
    place(&r, &mut s, "palatinat-2", ne, Vertex::N);
    place_cmdr(&r, &mut s, "broglie", x);
    activate_auto(&r, &mut s, "broglie");
    act(&r, &mut s, "move-unit:du-roi");
    let l = ids(&r, &s);
    assert!(
        l.contains(&"step:NW".to_string()),
        "may join one unit: {l:?}"
    );
    assert!(
        !l.contains(&"step:NE".to_string()),
        "may not make three: {l:?}"
    );

    // Infantry may not join cavalry, nor a unit with another facing.
    let mut s = empty_board(&r);
    place(&r, &mut s, "du-roi", x, Vertex::N);
    place(&r, &mut s, "royal-pologne", nw, Vertex::N);
    place(&r, &mut s, "poitou", ne, Vertex::NE);
    place_cmdr(&r, &mut s, "broglie", x);
    activate_auto(&r, &mut s, "broglie");
    act(&r, &mut s, "move-unit:du-roi");
    let l = ids(&r, &s);
    assert!(
        !l.contains(&"step:NW".to_string()),
        "infantry onto cavalry: {l:?}"
    );
    assert!(
        !l.contains(&"step:NE".to_string()),
        "different facing: {l:?}"
    );
}

#[test]
fn r3_5_2_a_unit_ending_its_move_goes_under() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 2);
    let nw = go(x, &[Dir::NW]);
    let du_roi = place(&r, &mut s, "du-roi", x, Vertex::N);
    let poitou = place(&r, &mut s, "poitou", nw, Vertex::N);
    place_cmdr(&r, &mut s, "broglie", x);
    activate_auto(&r, &mut s, "broglie");
    act(&r, &mut s, "move-unit:du-roi");
    act(&r, &mut s, "step:NW");
    act(&r, &mut s, "stop");
    assert_eq!(r.units_at(&s, nw), vec![poitou, du_roi]);
}

#[test]
fn r3_5_3_the_gun_is_on_top_of_the_stack() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 1);
    let poitou = place(&r, &mut s, "poitou", x, Vertex::N);
    let gun = place(&r, &mut s, "broglie-art-1314", x, Vertex::N);
    assert_eq!(s.units[usize::from(gun)].order, 1, "placed under");
    assert_eq!(r.units_at(&s, x), vec![gun, poitou]);
    // For losses and morale the first combat unit is the infantry.
    assert_eq!(r.combat_units_at(&s, x), vec![poitou]);
}

#[test]
fn r3_5_1_changing_the_order_costs_half_the_mp_and_marks_a_zoc_change() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 2);
    let p1 = place(&r, &mut s, "palatinat-1", x, Vertex::N);
    let p2 = place(&r, &mut s, "palatinat-2", x, Vertex::N);
    place_cmdr(&r, &mut s, "broglie", go(x, &[Dir::SE]));
    activate_auto(&r, &mut s, "broglie");
    act(&r, &mut s, &format!("move-stack:{x}"));
    assert_eq!(top_moving(&s).expect("moving").mp, vec![4, 4]);
    act(&r, &mut s, "change-order");
    assert_eq!(r.combat_units_at(&s, x), vec![p2, p1]);
    assert_eq!(
        top_moving(&s).expect("moving").mp,
        vec![2, 2],
        "half of 4 MP"
    );
    assert!(!r.has(&s, p1, saxe::state::flag::ORDER_IN_ZOC));

    // The same in an enemy ZoC: the stack will fight at -2 (10.3).
    let mut s = empty_board(&r);
    let p1 = place(&r, &mut s, "palatinat-1", x, Vertex::N);
    place(&r, &mut s, "palatinat-2", x, Vertex::N);
    let y = go(x, &[Dir::NW]);
    place(&r, &mut s, "von-gilsa", y, Vertex::S);
    place_cmdr(&r, &mut s, "broglie", go(x, &[Dir::SE]));
    activate_auto(&r, &mut s, "broglie");
    act(&r, &mut s, &format!("move-stack:{x}"));
    act(&r, &mut s, "change-order");
    assert!(r.has(&s, p1, saxe::state::flag::ORDER_IN_ZOC));
    let c = combat_of(&r, &s, &[x], &[y]);
    let (_, mods) = r.combat_modifiers(&s, &c);
    assert_eq!(
        modifier(&mods, "attacker changed order"),
        Some(-2),
        "{mods:?}"
    );
}

#[test]
fn r3_2_a_lone_commander_overrun_rejoins_his_formation() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 2);
    let y = go(x, &[Dir::NW]);
    place(&r, &mut s, "du-roi", x, Vertex::N);
    place_cmdr(&r, &mut s, "broglie", x);
    let far = go(x, &[Dir::NW, Dir::NW, Dir::NW, Dir::W, Dir::W]);
    place(&r, &mut s, "von-gilsa", far, Vertex::S);
    let w = place_cmdr(&r, &mut s, "wutginau", y);
    activate_auto(&r, &mut s, "broglie");
    act(&r, &mut s, "move-unit:du-roi");
    let ev = act(&r, &mut s, "step:NW");
    assert_eq!(
        s.commanders[usize::from(w)].hex,
        Some(far),
        "repositioned on Gilsa"
    );
    assert!(logged(&ev, "3.2"));
}
