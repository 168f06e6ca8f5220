//! Rule 7: zones of control.
mod common;

use common::*;
use hexmap::{Dir, HexId, Vertex};
use saxe::Saxe;
use saxe::scenario::{Side, Terrain, side_bits};
use saxe::state::flag;

/// An adjacent pair of clear level-0 hexes whose hexside has exactly these feature bits
/// (ignoring roads and trails).
fn pair_across(r: &Saxe, want: u8) -> (HexId, HexId, Dir) {
    let map = &r.sc.map;
    for a in map.hexes() {
        for (d, b) in a.neighbours() {
            let sd = map.side(a, b) & !(side_bits::ROAD | side_bits::TRAIL);
            if map.contains(b) && sd == want && plain(r, a) && plain(r, b) {
                return (a, b, d);
            }
        }
    }
    panic!("no hexside with features {want}");
}

#[test]
fn r7_zoc_only_in_front_hexes() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 1);
    let u = place(&r, &mut s, "du-roi", x, Vertex::N);
    let got: Vec<Dir> = x
        .neighbours()
        .filter(|(_, n)| r.zoc_reaches(&s, u, *n))
        .map(|(d, _)| d)
        .collect();
    assert_eq!(got, vec![Dir::NE, Dir::NW]);
    assert!(r.in_zoc_of(&s, go(x, &[Dir::NW]), Side::French));
    assert!(!r.in_zoc_of(&s, go(x, &[Dir::W]), Side::French));
    assert!(!r.in_zoc_of(&s, go(x, &[Dir::SE]), Side::French));
}

#[test]
fn r7_light_units_project_a_zoc_all_around() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 1);
    let u = place(&r, &mut s, "hussards", x, Vertex::N);
    assert!(x.neighbours().all(|(_, n)| r.zoc_reaches(&s, u, n)));
}

#[test]
fn r7_routed_units_and_commanders_have_no_zoc() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 1);
    let u = place(&r, &mut s, "du-roi", x, Vertex::N);
    s.units[usize::from(u)].set(flag::ROUTED, true);
    assert!(!r.in_zoc_of(&s, go(x, &[Dir::NW]), Side::French));
    s.units[usize::from(u)].hex = None;
    place_cmdr(&r, &mut s, "broglie", x);
    assert!(
        x.neighbours()
            .all(|(_, n)| !r.in_zoc_of(&s, n, Side::French))
    );
}

#[test]
fn r7_1_no_zoc_into_woods_except_light_infantry() {
    let r = rules();
    let (a, w, d) = pair_next_to(&r, Terrain::Woods, |h| {
        r.sc.map.terrain(h) == Terrain::Clear
    });
    let mut s = empty_board(&r);
    let inf = place(&r, &mut s, "du-roi", a, facing_toward(d));
    assert!(!r.zoc_reaches(&s, inf, w));
    s.units[usize::from(inf)].hex = None;
    let cav = place(&r, &mut s, "hussards", a, facing_toward(d));
    assert!(!r.zoc_reaches(&s, cav, w), "light cavalry: no ZoC in woods");
    s.units[usize::from(cav)].hex = None;
    let li = place(&r, &mut s, "hainaut", a, facing_toward(d));
    assert!(r.zoc_reaches(&s, li, w), "light infantry: ZoC in woods");
}

#[test]
fn r7_1_no_zoc_into_a_town() {
    let r = rules();
    let (a, t, d) = pair_into(&r, Terrain::Town, |h| plain(&r, h));
    let mut s = empty_board(&r);
    let u = place(&r, &mut s, "du-roi", a, facing_toward(d));
    assert!(r.front_dirs(&s, u).contains(&d));
    assert!(!r.zoc_reaches(&s, u, t));
    s.units[usize::from(u)].hex = None;
    let li = place(&r, &mut s, "hainaut", a, facing_toward(d));
    assert!(!r.zoc_reaches(&s, li, t), "not even light infantry");
}

#[test]
fn r7_1_no_zoc_across_a_stream_except_by_a_bridge() {
    let r = rules();
    let (a, b, d) = pair_across(&r, side_bits::STREAM);
    let mut s = empty_board(&r);
    let u = place(&r, &mut s, "du-roi", a, facing_toward(d));
    assert!(!r.zoc_reaches(&s, u, b), "stream {a}|{b}");
    let (a, b, d) = pair_across(&r, side_bits::STREAM | side_bits::BRIDGE);
    let mut s = empty_board(&r);
    let u = place(&r, &mut s, "du-roi", a, facing_toward(d));
    assert!(r.zoc_reaches(&s, u, b), "bridge {a}|{b}");
}

#[test]
fn r7_1_entering_an_enemy_zoc_stops_the_unit() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 2);
    let du_roi = place(&r, &mut s, "du-roi", x, Vertex::N);
    place(
        &r,
        &mut s,
        "von-gilsa",
        go(x, &[Dir::NW, Dir::NW]),
        Vertex::S,
    );
    place_cmdr(&r, &mut s, "broglie", x);
    activate_auto(&r, &mut s, "broglie");
    act(&r, &mut s, "move-unit:du-roi");
    let ev = act(&r, &mut s, "step:NW");
    assert_eq!(s.units[usize::from(du_roi)].hex, Some(go(x, &[Dir::NW])));
    assert!(logged(&ev, "enters an enemy ZoC and stops"), "{ev:?}");
    assert!(top_moving(&s).is_none(), "its movement is over");
    assert!(top_activation(&s).is_some());
}

#[test]
fn r7_1_no_move_from_one_enemy_zoc_to_another() {
    let r = rules();
    let x = clear_area(&r, 2);
    // Gilsa on Du Roi's right flank, facing Du Roi: Du Roi is in its ZoC, Gilsa is not in Du Roi's.
    let mut s = empty_board(&r);
    place(&r, &mut s, "du-roi", x, Vertex::N);
    place(&r, &mut s, "von-gilsa", go(x, &[Dir::E]), Vertex::NW);
    // A second enemy covering Du Roi's south-east rear hex.
    place(
        &r,
        &mut s,
        "von-fuerstenberg-2",
        go(x, &[Dir::SE, Dir::SE]),
        Vertex::N,
    );
    place_cmdr(&r, &mut s, "broglie", x);
    assert!(r.in_zoc_of(&s, x, Side::Allies));
    assert!(r.in_zoc_of(&s, go(x, &[Dir::NE]), Side::Allies));
    assert!(r.in_zoc_of(&s, go(x, &[Dir::SE]), Side::Allies));
    assert!(!r.in_zoc_of(&s, go(x, &[Dir::SW]), Side::Allies));
    activate_auto(&r, &mut s, "broglie");
    act(&r, &mut s, "move-unit:du-roi");
    let l = ids(&r, &s);
    assert!(!l.iter().any(|i| i.starts_with("step:")), "{l:?}");
    assert!(
        l.contains(&format!("leave-zoc:{}:0", go(x, &[Dir::SW]))),
        "{l:?}"
    );
    assert!(
        !l.iter()
            .any(|i| i.starts_with(&format!("leave-zoc:{}", go(x, &[Dir::SE])))),
        "not into another enemy ZoC: {l:?}"
    );
}

#[test]
fn r7_2_enemy_flank_hexes_do_not_hinder_movement() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 2);
    let du_roi = place(&r, &mut s, "du-roi", x, Vertex::N);
    // Gilsa faces south; the hex Du Roi enters is Gilsa's east flank hex.
    let y = go(x, &[Dir::NW]);
    let g = place(&r, &mut s, "von-gilsa", go(y, &[Dir::W]), Vertex::S);
    place_cmdr(&r, &mut s, "broglie", x);
    assert_eq!(r.arc_toward(&s, g, y), hexmap::Arc::Flank);
    activate_auto(&r, &mut s, "broglie");
    act(&r, &mut s, "move-unit:du-roi");
    act(&r, &mut s, "step:NW");
    assert_eq!(s.units[usize::from(du_roi)].hex, Some(y));
    let m = top_moving(&s).expect("still moving");
    assert_eq!(m.mp, vec![3]);
    assert!(ids(&r, &s).iter().any(|i| i.starts_with("step:")));
}
