//! 12.3d, 12.4f (T8): a hook's fire. The book defers the distribution to the hook fire strength
//! diagram, which the text does not contain; tricorne fires a hook as a line (the decision and
//! its reasons: `docs/bar-combat.md`, row 12.3d). These tests pin that decision on the drill
//! ground `tests/data/move` (Prague fire charts: a fusilier ×3 at one hex, clear defence 4).
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
    fire_phase(&bar, &mut st, "i1");
    let log = act(
        &bar,
        &mut st,
        &["fire:e1:inf", "fire-with:0707", "fire-resolve"],
        &[9, 9, 9, 9],
    );
    let l = log.iter().find(|l| l.contains("Fire (12.1)")).unwrap(); // the fire is logged
    // T5 (3 ranks): 6 SP fire 4 from the hex, as a line would; no arm of 2 SP.
    assert!(
        l.contains("IR 1/I right hook, 4 SP (Infantry Line SP chart, 3 ranks) × 3"),
        "{l}"
    );
}

#[test]
fn r12_3d_12_4f_a_hook_does_not_fire_into_the_flank_hex_on_its_hook_side() {
    let bar = drill();
    let mut st = fresh(&bar);
    // The right flank hex (E of a hook facing N): the hex 8.1b's extra front hex would be, which
    // the board's arcs do not give a hook (docs/bar-combat.md, row 12.3d).
    set(&bar, &mut st, "i1", "0707", "N", "hook-right");
    set(&bar, &mut st, "e1", &next("0707", Dir::E), "SW", "line");
    fire_phase(&bar, &mut st, "i1");
    assert!(
        !legal(&bar, &st).contains(&"fire:e1:inf".to_string()),
        "{:?}",
        legal(&bar, &st)
    );
}
