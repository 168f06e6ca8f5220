//! 12.3d, 12.4f (T8), 8.1b: a hook's fire. A hook fires as a line through the line's front; its
//! extra front hex (8.1b, `geom::hook_hex`) opens the arm of its hooked end, through which it
//! fires the SPs the hook diagram's reconstruction gives the hook hex (`diagram.hook_hex_fire`,
//! 2 SP), and guns stacked with it do not fire there ('NA'). The diagram is missing from the text:
//! the reading and its reasons are in `docs/bar-formations.md` (row 8.1b) and
//! `docs/bar-combat.md` (row 12.3d). Drill ground `tests/data/move` (Prague fire charts: a
//! fusilier ×3 at one hex, clear defence 4).
pub mod cc;
mod common;
use bar::Bar;
use bar::geom::Formation;
use bar::state::{Activation, Phase, State};
use common::*;
use hexmap::Dir;

fn drill() -> Bar {
    Bar::from_dir(&data().join("move"), &data()).unwrap() // the fixture is valid
}

fn set(bar: &Bar, st: &mut State, id: &str, h: &str, facing: &str, formation: &str) {
    let f = Formation::parse(formation).unwrap(); // test formations are well formed
    let u = usize::from(unit(bar, id));
    st.units[u].hexes = vec![hex(h)].into();
    st.units[u].formation = f;
    st.units[u].facing = bar::scenario::parse_facing(facing, f).unwrap(); // test facings
}

fn fire_phase(bar: &Bar, st: &mut State, id: &str) {
    let u = unit(bar, id);
    st.units[usize::from(u)].activated = true;
    st.activation = Some(Activation {
        side: bar.sc.units[usize::from(u)].side,
        units: vec![u],
        ..Activation::default()
    });
    st.phase = Phase::Fire(Box::default());
}

/// i1's fire phase, its fire at e1 from 0707 resolved with the dice 9, 9, 9, 9: the fire's line.
fn fire_at_e1_from_0707(bar: &Bar, st: &mut State) -> String {
    fire_phase(bar, st, "i1");
    let log = act(
        bar,
        st,
        &["fire:e1:inf", "fire-with:0707", "fire-resolve"],
        &[9, 9, 9, 9],
    );
    let l = log.iter().find(|l| l.contains("Fire (12.1)")); // the fire is logged
    l.expect("a fire").clone()
}

fn next(h: &str, d: Dir) -> String {
    hex(h).neighbour(d).unwrap().to_string() // the drill ground's middle
}

#[test]
fn r12_3d_a_hook_fires_as_a_line_through_the_lines_front_with_the_line_sp_chart() {
    let bar = drill();
    let mut st = fresh(&bar);
    // i1: 6 SP in a one-hex right hook facing N; e1 in its front hex NE.
    set(&bar, &mut st, "i1", "0707", "N", "hook-right");
    set(&bar, &mut st, "e1", &next("0707", Dir::NE), "S", "line");
    let l = fire_at_e1_from_0707(&bar, &mut st);
    // T5 (3 ranks): 6 SP fire 4 from the hex, as a line would; no arm of 2 SP.
    assert!(
        l.contains("IR 1/I right hook, 4 SP (Infantry Line SP chart, 3 ranks) × 3"),
        "{l}"
    );
}

#[test]
fn r12_3d_8_1b_a_hook_fires_through_its_hook_hex_with_the_hook_diagrams_2_sp() {
    let bar = drill();
    // i1: 6 SP in a one-hex right hook facing N; e1 in its right flank hex (E), the hook hex.
    let mut st = fresh(&bar);
    set(&bar, &mut st, "i1", "0707", "N", "hook-right");
    set(&bar, &mut st, "e1", &next("0707", Dir::E), "SW", "line");
    let l = fire_at_e1_from_0707(&bar, &mut st);
    assert!(
        l.contains(
            "IR 1/I right hook, 2 SP (through the hook hex 8.1b: at most 2 SP, hook diagram 12.3d) × 3"
        ),
        "{l}"
    );
}

#[test]
fn r12_2b_8_1b_only_the_hooked_side_opens_a_line_and_a_left_hook_fire_into_neither_right_flank() {
    let bar = drill();
    for (formation, fires) in [("hook-right", true), ("line", false), ("hook-left", false)] {
        let mut st = fresh(&bar);
        set(&bar, &mut st, "i1", "0707", "N", formation);
        set(&bar, &mut st, "e1", &next("0707", Dir::E), "SW", "line");
        fire_phase(&bar, &mut st, "i1");
        assert_eq!(
            legal(&bar, &st).contains(&"fire:e1:inf".to_string()),
            fires,
            "{formation}: {:?}",
            legal(&bar, &st)
        );
    }
    // The left hook's hook hex is its left flank hex (W).
    let mut st = fresh(&bar);
    set(&bar, &mut st, "i1", "0707", "N", "hook-left");
    set(&bar, &mut st, "e1", &next("0707", Dir::W), "SE", "line");
    fire_phase(&bar, &mut st, "i1");
    assert!(legal(&bar, &st).contains(&"fire:e1:inf".to_string()));
}

#[test]
fn r12_2b_8_1b_a_hook_fires_at_range_through_its_hook_hex_but_not_into_its_rear() {
    let bar = drill();
    let two_east = next(&next("0707", Dir::E), Dir::E);
    let behind = next(&next("0707", Dir::SE), Dir::SE);
    for (target, fires) in [(two_east.as_str(), true), (behind.as_str(), false)] {
        let mut st = fresh(&bar);
        set(&bar, &mut st, "i1", "0707", "N", "hook-right");
        set(&bar, &mut st, "e1", target, "NW", "line");
        fire_phase(&bar, &mut st, "i1");
        assert_eq!(
            legal(&bar, &st).contains(&"fire:e1:inf".to_string()),
            fires,
            "{target}: {:?}",
            legal(&bar, &st)
        );
    }
}

/// g1 unlimbered on top of i1's right hook at 0707, both facing N, in i1's fire phase, with e1
/// (facing `e1_facing`) at `e1_at`: the legal actions.
fn guns_with_a_hook(bar: &Bar, e1_at: &str, e1_facing: &str) -> Vec<String> {
    let mut st = fresh(bar);
    set(bar, &mut st, "i1", "0707", "N", "hook-right");
    set(bar, &mut st, "g1", "0707", "N", "unlimbered");
    let (i1, g1) = (usize::from(unit(bar, "i1")), usize::from(unit(bar, "g1")));
    st.units[g1].order = 0;
    st.units[i1].order = 1;
    set(bar, &mut st, "e1", e1_at, e1_facing, "line");
    fire_phase(bar, &mut st, "i1");
    if let Some(a) = st.activation.as_mut() {
        a.units.push(g1 as u16);
    }
    st.units[g1].activated = true;
    legal(bar, &st)
}

#[test]
fn r12_4f_guns_stacked_with_a_hook_do_not_fire_through_its_hook_hex() {
    let bar = drill();
    // e1 in the hook hex: the hook fires, the guns do not ('NA').
    let l = guns_with_a_hook(&bar, &next("0707", Dir::E), "SW");
    assert!(l.contains(&"fire:e1:inf".to_string()), "{l:?}");
    assert!(!l.contains(&"fire:e1:art".to_string()), "{l:?}");
    // In the line's front hex the guns fire.
    let l = guns_with_a_hook(&bar, &next("0707", Dir::NE), "S");
    assert!(l.contains(&"fire:e1:art".to_string()), "{l:?}");
}

#[test]
fn r12_4f_guns_fire_through_the_hook_hex_when_the_diagram_marks_no_na() {
    // The drill ground `cc` with its box's fire diagram edited: the hook hex not 'NA'.
    let bar = cc::ground_with("cc", "fire.toml", |t| {
        t.replace("hook_artillery_na = true", "hook_artillery_na = false")
    });
    let l = guns_with_a_hook(&bar, &next("0707", Dir::E), "SW");
    assert!(l.contains(&"fire:e1:art".to_string()), "{l:?}");
    // The same ground as shipped: 'NA'.
    let l = guns_with_a_hook(&cc::field(), &next("0707", Dir::E), "SW");
    assert!(!l.contains(&"fire:e1:art".to_string()), "{l:?}");
}
