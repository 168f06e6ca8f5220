//! Movement (11.0) with facing (9.0) and the movement actions disorder check (18.2b), on the
//! drill ground `tests/data/move` with the movement test charts `tests/data/movebox` (the test
//! TEC plus a town without general order and a slope hexside; T10 read as the Prague box's).
//! Each test builds the position the rule talks about and checks every clause it can.
mod common;
use bar::Bar;
use bar::geom::{FacingExt as _, Formation};
use bar::state::{Activation, Phase, State};
use common::*;
use engine::Ruleset;

fn field() -> Bar {
    Bar::from_dir(&data().join("move"), &data()).unwrap() // the fixture is valid
}

fn field_with(file: &str, edit: impl Fn(String) -> String) -> Bar {
    let dir = std::env::temp_dir().join(format!(
        "bar-move-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, std::sync::atomic::Ordering::SeqCst)
    ));
    std::fs::create_dir_all(dir.join("move")).unwrap(); // test set-up
    for f in ["map.toml", "oob.toml", "scenario.toml"] {
        let text = std::fs::read_to_string(data().join("move").join(f)).unwrap(); // fixture
        let text = if f == file { edit(text) } else { text };
        std::fs::write(dir.join("move").join(f), text).unwrap(); // test set-up
    }
    std::fs::create_dir_all(dir.join("movebox")).unwrap(); // test set-up
    copy_dir(&data().join("movebox"), &dir.join("movebox"));
    Bar::from_dir(&dir.join("move"), &dir).unwrap() // the edited fixture is valid
}

static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap(); // test set-up
        let t = to.join(e.file_name());
        if e.path().is_dir() {
            std::fs::create_dir_all(&t).unwrap(); // test set-up
            copy_dir(&e.path(), &t);
        } else {
            std::fs::copy(e.path(), t).unwrap(); // test set-up
        }
    }
}

/// Place a unit: hexes, facing, formation.
fn set(bar: &Bar, st: &mut State, id: &str, hexes: &[&str], facing: &str, formation: &str) {
    let f = Formation::parse(formation).unwrap(); // test formations are well formed
    let u = usize::from(unit(bar, id));
    st.units[u].hexes = hexes.iter().map(|h| hex(h)).collect();
    st.units[u].formation = f;
    st.units[u].facing = bar::scenario::parse_facing(facing, f).unwrap(); // test facings
}

/// The movement phase of an activation of `units` by their side.
fn movement(bar: &Bar, st: &mut State, units: &[&str]) {
    let mut us: Vec<u16> = units.iter().map(|u| unit(bar, u)).collect();
    // A spare battalion far away keeps the phase open after the unit under test has moved.
    if bar.sc.units[usize::from(us[0])].side == 0 {
        us.push(unit(bar, "sp1"));
    }
    let side = bar.sc.units[usize::from(us[0])].side;
    for &u in &us {
        st.units[usize::from(u)].activated = true;
    }
    st.activation = Some(Activation {
        side,
        units: us,
        ..Activation::default()
    });
    st.phase = Phase::Movement;
}

fn hexes_of(bar: &Bar, st: &State, id: &str) -> Vec<String> {
    st.units[usize::from(unit(bar, id))]
        .hexes
        .iter()
        .map(|h| bar.sc.board.label(*h))
        .collect()
}

fn left(st: &State) -> String {
    match &st.phase {
        Phase::Moving(m) => m.left.to_string(),
        p => panic!("not moving: {p:?}"),
    }
}

#[test]
fn r11_movement_fixture_loads_and_a_unit_moves_into_its_front_hexes_only() {
    let bar = field();
    let mut st = fresh(&bar);
    set(&bar, &mut st, "i1", &["0707"], "N", "line");
    movement(&bar, &mut st, &["i1"]);
    act(&bar, &mut st, &["move:i1"], &[]);
    let l = legal(&bar, &st);
    // 11.1a: a line facing north steps only into its two front hexes.
    let steps: Vec<&String> = l.iter().filter(|x| x.starts_with("step:")).collect();
    assert_eq!(steps.len(), 2, "{l:?}");
    for s in &steps {
        let h = hex(&s[5..]);
        assert_eq!(hex("0707").distance(h), 1);
        assert!(
            h.row < 7,
            "a front hex of a unit facing north lies north: {s}"
        );
    }
    assert!(l.contains(&"stop".to_string()));
    assert_eq!(left(&st), "4");
}

/// The cost a step's label shows ("(2 MP)").
fn cost_in(label: &str) -> String {
    let i = label.find('(').expect("a cost in the label");
    let j = label[i..].find(" MP").expect("MP in the label") + i;
    label[i + 1..j].to_string()
}

/// The legal ids beginning with `prefix`.
fn ids(bar: &Bar, st: &State, prefix: &str) -> Vec<String> {
    legal(bar, st)
        .into_iter()
        .filter(|x| x.starts_with(prefix))
        .collect()
}

/// The neighbour of a hex in the direction of another adjacent hex.
fn dir(from: &str, to: &str) -> hexmap::Dir {
    hex(from)
        .direction_to(hex(to))
        .expect("adjacent test hexes")
}

#[test]
fn r11_3_e28_a_line_alternating_its_front_hexes_pays_terrain_only_the_same_side_twice_is_oblique() {
    let bar = field();
    let mut st = fresh(&bar);
    set(&bar, &mut st, "i1", &["0707"], "N", "line");
    movement(&bar, &mut st, &["i1"]);
    act(&bar, &mut st, &["move:i1"], &[]);
    let first = ids(&bar, &st, "step:");
    assert_eq!(first.len(), 2);
    // The first step is straight ahead whichever front hex it takes: terrain only (clear, 1).
    for s in &first {
        assert_eq!(cost_in(&label_of(&bar, &st, s)), "1", "{s}");
    }
    act(&bar, &mut st, &[first[0].as_str()], &[]);
    assert_eq!(left(&st), "3");
    let d0 = dir("0707", &first[0][5..]);
    // From there: the other front hex alternates (1 MP), the same side again is oblique (+1).
    let here = first[0][5..].to_string();
    let mut same = None;
    let mut other = None;
    for s in ids(&bar, &st, "step:") {
        if dir(&here, &s[5..]) == d0 {
            same = Some(s);
        } else {
            other = Some(s);
        }
    }
    let (same, other) = (same.unwrap(), other.unwrap()); // a line has two front hexes
    assert_eq!(cost_in(&label_of(&bar, &st, &same)), "2", "oblique (11.3b)");
    assert_eq!(
        cost_in(&label_of(&bar, &st, &other)),
        "1",
        "straight (11.3a)"
    );
    act(&bar, &mut st, &[other.as_str()], &[]);
    assert_eq!(left(&st), "2");
    // 11.3c: straight and oblique combine: the same side as the last step now costs 2.
    let back_to = other[5..].to_string();
    let d1 = dir(&here, &back_to);
    let oblique: Vec<String> = ids(&bar, &st, "step:")
        .into_iter()
        .filter(|s| dir(&back_to, &s[5..]) == d1)
        .collect();
    assert_eq!(cost_in(&label_of(&bar, &st, &oblique[0])), "2");
    let log = act(&bar, &mut st, &[oblique[0].as_str()], &[]);
    assert_logged(&log, "for 2 MP, 0 left (11.1)");
    assert_eq!(
        st.phase,
        Phase::Movement,
        "no MP left: its movement is over"
    );
}

#[test]
fn r11_3d_cavalry_and_skirmishers_move_obliquely_without_penalty() {
    let bar = field();
    for (id, form) in [("k1", "line"), ("jg", "skirmish")] {
        let mut st = fresh(&bar);
        set(&bar, &mut st, id, &["0707"], "N", form);
        movement(&bar, &mut st, &[id]);
        act(&bar, &mut st, &[&format!("move:{id}")], &[]);
        let first = ids(&bar, &st, "step:");
        act(&bar, &mut st, &[first[0].as_str()], &[]);
        for s in ids(&bar, &st, "step:") {
            assert_eq!(cost_in(&label_of(&bar, &st, &s)), "1", "{id} {s}");
        }
    }
}

#[test]
fn r11_4a_e29_rapid_march_gives_6_and_10_mp_and_a_dc_a_at_plus_5() {
    let bar = field();
    for (id, ma, rapid) in [("i1", "4", "6"), ("k1", "7", "10")] {
        let mut st = fresh(&bar);
        set(&bar, &mut st, id, &["0707"], "N", "line");
        movement(&bar, &mut st, &[id]);
        act(&bar, &mut st, &[&format!("move:{id}")], &[]);
        assert_eq!(left(&st), ma);
        act(&bar, &mut st, &["rapid"], &[]);
        assert_eq!(left(&st), rapid, "{id}: MA +50%, fraction dropped");
        assert!(!legal(&bar, &st).contains(&"rapid".to_string()));
        let s = ids(&bar, &st, "step:")[0].clone();
        // DC (A) at the end: 95 passes whatever the ER.
        let log = act(&bar, &mut st, &[s.as_str(), "stop"], &[9, 5]);
        assert_logged(&log, "Movement actions (18.2b, disorder check A)");
        assert_logged(&log, "+ 5 (rapid march, 11.4a)");
    }
}

#[test]
fn r11_4b_no_rapid_march_in_square_disordered_or_out_of_command_nor_for_artillery() {
    let bar = field();
    type Edit = fn(&mut bar::state::UnitState);
    let cases: [(&str, &str, &str, Edit); 4] = [
        ("i1", "square", "N", |_| {}),
        ("i1", "line", "N", |u| u.disordered = true),
        ("i1", "line", "N", |u| u.ooc = true),
        ("g1", "limbered", "NE", |_| {}),
    ];
    for (id, form, facing, edit) in cases {
        let mut st = fresh(&bar);
        set(&bar, &mut st, id, &["0707"], facing, form);
        edit(&mut st.units[usize::from(unit(&bar, id))]);
        movement(&bar, &mut st, &[id]);
        act(&bar, &mut st, &[&format!("move:{id}")], &[]);
        assert!(
            !legal(&bar, &st).contains(&"rapid".to_string()),
            "{id} in {form}: {:?}",
            legal(&bar, &st)
        );
    }
}

#[test]
fn r11_0_a_disordered_or_out_of_command_unit_has_half_its_ma_not_a_quarter() {
    let bar = field();
    for (dis, ooc) in [(true, false), (false, true), (true, true)] {
        let mut st = fresh(&bar);
        set(&bar, &mut st, "k1", &["0707"], "N", "line");
        let u = usize::from(unit(&bar, "k1"));
        st.units[u].disordered = dis;
        st.units[u].ooc = ooc;
        movement(&bar, &mut st, &["k1"]);
        act(&bar, &mut st, &["move:k1"], &[]);
        // 7 halved, rounded: 4 (7.6f: not quartered).
        assert_eq!(left(&st), "4", "disordered {dis}, out of command {ooc}");
    }
}

#[test]
fn r11_7_e31_two_backward_moves_in_clear_cost_four_then_a_dc_a_and_no_rapid_march() {
    let bar = field();
    let mut st = fresh(&bar);
    set(&bar, &mut st, "i1", &["0707"], "N", "line");
    movement(&bar, &mut st, &["i1"]);
    act(&bar, &mut st, &["move:i1"], &[]);
    let back = ids(&bar, &st, "back:");
    assert_eq!(back.len(), 2, "the two rear hexes of a line");
    for b in &back {
        assert!(
            hex(&b[5..]).row > 7,
            "rear hexes of a line facing north lie south"
        );
        assert_eq!(cost_in(&label_of(&bar, &st, b)), "2", "clear 1 + 1 (11.7a)");
    }
    act(&bar, &mut st, &[back[0].as_str()], &[]);
    assert_eq!(left(&st), "2");
    assert!(!legal(&bar, &st).contains(&"rapid".to_string()));
    let back2 = ids(&bar, &st, "back:");
    // The second backward move spends the last MPs and ends the movement with its DC (A).
    let log = act(&bar, &mut st, &[back2[0].as_str()], &[9, 5]);
    assert_logged(&log, "Movement actions (18.2b, disorder check A)");
    assert_logged(&log, "+ 5 (backward, 11.7c)");
    assert_eq!(st.phase, Phase::Movement);
}

#[test]
fn r11_7b_a_line_in_a_rapid_march_may_not_move_backward_and_a_hook_or_disordered_line_never() {
    let bar = field();
    let mut st = fresh(&bar);
    set(&bar, &mut st, "i1", &["0707"], "N", "line");
    movement(&bar, &mut st, &["i1"]);
    act(&bar, &mut st, &["move:i1", "rapid"], &[]);
    assert!(ids(&bar, &st, "back:").is_empty());
    for (form, dis) in [("hook-left", false), ("line", true)] {
        let mut st = fresh(&bar);
        set(&bar, &mut st, "i1", &["0707"], "N", form);
        st.units[usize::from(unit(&bar, "i1"))].disordered = dis;
        movement(&bar, &mut st, &["i1"]);
        act(&bar, &mut st, &["move:i1"], &[]);
        assert!(
            ids(&bar, &st, "back:").is_empty(),
            "{form} disordered {dis}"
        );
    }
}

#[test]
fn r11_7d_a_unit_cannot_move_backward_into_an_enemy_zoc() {
    let bar = field();
    let mut st = fresh(&bar);
    set(&bar, &mut st, "i1", &["0707"], "N", "line");
    movement(&bar, &mut st, &["i1"]);
    act(&bar, &mut st, &["move:i1"], &[]);
    let back = ids(&bar, &st, "back:");
    // An enemy line two hexes behind, facing north: its front hexes include i1's rear hex.
    let rear = hex(&back[0][5..]);
    let behind = rear
        .neighbour(hexmap::Vertex::S.front()[0])
        .expect("on the map");
    let mut st = fresh(&bar);
    set(&bar, &mut st, "i1", &["0707"], "N", "line");
    set(&bar, &mut st, "e1", &[&behind.to_string()], "N", "line");
    movement(&bar, &mut st, &["i1"]);
    act(&bar, &mut st, &["move:i1"], &[]);
    assert!(
        !ids(&bar, &st, "back:").contains(&back[0]),
        "{:?}",
        legal(&bar, &st)
    );
}

#[test]
fn r9_4b_e22_a_three_hex_cavalry_line_wheels_one_hexpoint_for_3_mp_4_over_a_slope() {
    let bar = field();
    let line = hexmap::Footprint::line(&hexmap::Printed, hex("0707"), hexmap::Vertex::N, 3)
        .expect("on the map");
    let hexes: Vec<String> = line.hexes().iter().map(|h| h.to_string()).collect();
    let hx: Vec<&str> = hexes.iter().map(String::as_str).collect();
    let mut st = fresh(&bar);
    set(&bar, &mut st, "k1", &hx, "N", "line");
    movement(&bar, &mut st, &["k1"]);
    act(&bar, &mut st, &["move:k1"], &[]);
    let wheels = ids(&bar, &st, "wheel:");
    let one: Vec<&String> = wheels
        .iter()
        .filter(|w| w.ends_with("+1") || w.ends_with("-1"))
        .collect();
    assert_eq!(one.len(), 4, "{wheels:?}");
    for w in &one {
        // 1 for the one-hexpoint pivot + 1 for each of the 2 hexes the end enters.
        assert_eq!(cost_in(&label_of(&bar, &st, w)), "3", "{w}");
    }
    // A slope hexside on the moving end's way adds its cost: 4.
    let w = line
        .wheeled(&hexmap::Printed, hexmap::End::Head, 1)
        .expect("wheels on the map");
    let end_from = line.hexes()[2];
    let first = w.paths[2][0];
    let slope =
        format!("\n[[hexsides]]\nbetween = [\"{end_from}\", \"{first}\"]\nfeature = \"slope\"\n");
    let bar = field_with("map.toml", |t| t + &slope);
    let mut st = fresh(&bar);
    set(&bar, &mut st, "k1", &hx, "N", "line");
    movement(&bar, &mut st, &["k1"]);
    act(&bar, &mut st, &["move:k1"], &[]);
    assert_eq!(cost_in(&label_of(&bar, &st, "wheel:right:+1")), "4");
    act(&bar, &mut st, &["wheel:right:+1"], &[]);
    let now: Vec<String> = w.footprint.hexes().iter().map(|h| h.to_string()).collect();
    assert_eq!(hexes_of(&bar, &st, "k1"), now);
    assert_eq!(left(&st), "3");
}

/// The mover's MPs left set to `n` (the position: a column that has spent the rest).
fn set_left(st: &mut State, n: u16) {
    match &mut st.phase {
        Phase::Moving(m) => m.left = engine::Half(2 * n),
        p => panic!("not moving: {p:?}"),
    }
}

#[test]
fn r9_4_a_column_may_not_turn_when_a_friend_in_the_way_keeps_it_from_straightening() {
    // simulate --check (prague-schwerin, seed 1000049): a 3-hex cavalry march column turned its
    // head with the MPs of one more straight step, but that step entered a hex of a friend it
    // could not stack with and could not leave (10.1a): it stopped bent. 9.4: "A unit cannot
    // make a facing change if it lacks the MPs needed to end the movement phase in a straight
    // line."
    let bar = field();
    let col3 = hexmap::Footprint::march_column(&hexmap::Printed, hex("0707"), hexmap::Dir::NE, 3)
        .expect("on the map");
    let h3: Vec<String> = col3.hexes().iter().map(|h| h.to_string()).collect();
    let h3: Vec<&str> = h3.iter().map(String::as_str).collect();
    // After a turn of one hexside right the head is at C (east of 0707) facing east; the
    // column is straight once the head has stepped on into D, where an infantry line stands.
    let c = hex("0707").neighbour(hexmap::Dir::E).expect("on the map");
    let d = c.neighbour(hexmap::Dir::E).expect("on the map");
    // Beyond D: E, F, G; the 3-hex column is clear of D with its head in G.
    let mut beyond = vec![d];
    for _ in 0..3 {
        let n = beyond.last().unwrap().neighbour(hexmap::Dir::E); // the drill ground is wide
        beyond.push(n.expect("on the map"));
    }
    let beyond: Vec<String> = beyond.iter().map(|h| h.to_string()).collect();
    for (mp, legal_turn) in [(3, false), (5, false), (6, true)] {
        let mut st = fresh(&bar);
        set(&bar, &mut st, "k1", &h3, "NE", "march");
        set(&bar, &mut st, "i2", &[&beyond[0]], "N", "line");
        movement(&bar, &mut st, &["k1"]);
        act(&bar, &mut st, &["move:k1"], &[]);
        set_left(&mut st, mp);
        let ahead = hex("0707").neighbour(hexmap::Dir::NE).expect("on the map");
        assert_eq!(
            cost_in(&label_of(&bar, &st, &format!("step:{ahead}"))),
            "1",
            "clear"
        );
        let turn = ids(&bar, &st, "column-turn:+1");
        if !legal_turn {
            // 2 (turn and C) + 1 (D) = 3 makes it straight, but cavalry cannot stack with the
            // infantry in D (10.2a): it must pass on until its tail has left D, 3 more MP.
            assert!(turn.is_empty(), "{mp} MP: {:?}", legal(&bar, &st));
            continue;
        }
        // With 6 MP it passes through D (MPs left to leave it, 10.1a) and ends straight in G.
        assert_eq!(turn, ["column-turn:+1"], "{mp} MP");
        act(&bar, &mut st, &["column-turn:+1"], &[]);
        for (i, h) in beyond.iter().enumerate() {
            act(&bar, &mut st, &[&format!("step:{h}")], &[]);
            if i < 3 {
                assert!(!legal(&bar, &st).contains(&"stop".to_string()), "step {i}");
            }
        }
        // Its 6 MP spent, it ends straight and clear of D (11.1).
        assert_eq!(
            hexes_of(&bar, &st, "k1"),
            [&beyond[3][..], &beyond[2], &beyond[1]]
        );
        assert!(!matches!(st.phase, Phase::Moving(_)), "{:?}", st.phase);
    }
}

#[test]
fn r9_4a_e21_a_two_hex_march_column_turns_in_b_and_pays_the_facing_cost_once_plus_c() {
    let bar = field();
    // Head B at 0707 facing north-east, tail behind it.
    let col = hexmap::Footprint::march_column(&hexmap::Printed, hex("0707"), hexmap::Dir::NE, 2)
        .expect("on the map");
    let hexes: Vec<String> = col.hexes().iter().map(|h| h.to_string()).collect();
    let hx: Vec<&str> = hexes.iter().map(String::as_str).collect();
    let mut st = fresh(&bar);
    set(&bar, &mut st, "i1", &hx, "NE", "march");
    movement(&bar, &mut st, &["i1"]);
    act(&bar, &mut st, &["move:i1"], &[]);
    // Turning one hexside and entering C (clear): 1 (facing) + 1 (terrain) = 2.
    assert_eq!(cost_in(&label_of(&bar, &st, "column-turn:+1")), "2");
    act(&bar, &mut st, &["column-turn:+1"], &[]);
    let c = hex("0707").neighbour(hexmap::Dir::E).expect("on the map");
    assert_eq!(
        hexes_of(&bar, &st, "i1"),
        [c.to_string(), "0707".to_string()],
        "the tail follows into B, where the head turned"
    );
    assert_eq!(left(&st), "2");
    // The tail turned in B where the head turned: the column is straight again and may stop.
    assert!(legal(&bar, &st).contains(&"stop".to_string()));
    // 9.4: a 3-hex column is bent after one turn and may not stop before it is straight.
    let col3 = hexmap::Footprint::march_column(&hexmap::Printed, hex("0707"), hexmap::Dir::NE, 3)
        .expect("on the map");
    let h3: Vec<String> = col3.hexes().iter().map(|h| h.to_string()).collect();
    let h3: Vec<&str> = h3.iter().map(String::as_str).collect();
    let mut st = fresh(&bar);
    set(&bar, &mut st, "k1", &h3, "NE", "march");
    movement(&bar, &mut st, &["k1"]);
    act(&bar, &mut st, &["move:k1", "column-turn:+1"], &[]);
    assert!(!legal(&bar, &st).contains(&"stop".to_string()), "bent");
    act(
        &bar,
        &mut st,
        &[&format!("step:{}", c.neighbour(hexmap::Dir::E).unwrap())],
        &[],
    );
    assert!(
        legal(&bar, &st).contains(&"stop".to_string()),
        "straight again"
    );
    // With woods at C the terrain is the column cost of woods (2): 3.
    let woods = format!("\n[[hexes]]\nids = [\"{c}\"]\nterrain = \"woods\"\ninvented = \"test\"\n");
    let bar = field_with("map.toml", |t| t + &woods);
    let mut st = fresh(&bar);
    set(&bar, &mut st, "i1", &hx, "NE", "march");
    movement(&bar, &mut st, &["i1"]);
    act(&bar, &mut st, &["move:i1"], &[]);
    assert_eq!(cost_in(&label_of(&bar, &st, "column-turn:+1")), "3");
}

#[test]
fn r9_6_reversal_is_the_only_action_of_the_phase_and_a_column_swaps_head_and_tail() {
    let bar = field();
    let col = hexmap::Footprint::march_column(&hexmap::Printed, hex("0707"), hexmap::Dir::NE, 2)
        .expect("on the map");
    let hexes: Vec<String> = col.hexes().iter().map(|h| h.to_string()).collect();
    let hx: Vec<&str> = hexes.iter().map(String::as_str).collect();
    let mut st = fresh(&bar);
    set(&bar, &mut st, "i1", &hx, "NE", "march");
    movement(&bar, &mut st, &["i1"]);
    act(&bar, &mut st, &["move:i1"], &[]);
    assert!(legal(&bar, &st).contains(&"reverse".to_string()));
    let log = act(&bar, &mut st, &["reverse"], &[]);
    assert_logged(&log, "reverses its direction");
    assert_eq!(
        hexes_of(&bar, &st, "i1"),
        [hexes[1].clone(), hexes[0].clone()]
    );
    let s = &st.units[usize::from(unit(&bar, "i1"))];
    assert_eq!(s.facing, bar::geom::Facing::Side(hexmap::Dir::SW));
    // Its movement is over: the phase is back to choosing a unit, and i1 cannot move again.
    assert_eq!(st.phase, Phase::Movement);
    assert!(!legal(&bar, &st).contains(&"move:i1".to_string()));
    // Not after spending MPs, not disordered, not for a hook.
    let mut st = fresh(&bar);
    set(&bar, &mut st, "i1", &["0707"], "N", "line");
    movement(&bar, &mut st, &["i1"]);
    act(&bar, &mut st, &["move:i1", "turn:NE"], &[]);
    assert!(!legal(&bar, &st).contains(&"reverse".to_string()));
    for (form, dis) in [("line", true), ("hook-right", false)] {
        let mut st = fresh(&bar);
        set(&bar, &mut st, "i1", &["0707"], "N", form);
        st.units[usize::from(unit(&bar, "i1"))].disordered = dis;
        movement(&bar, &mut st, &["i1"]);
        act(&bar, &mut st, &["move:i1"], &[]);
        assert!(!legal(&bar, &st).contains(&"reverse".to_string()), "{form}");
    }
}

#[test]
fn r6_8b_in_a_limited_activation_a_road_column_moves_along_the_road_only_and_pays_no_facing() {
    let bar = field();
    // 6 SP in road column: 4 + 2 over two road hexes, head at 0412, tail at 0312.
    let d = dir("0312", "0412");
    let mut st = fresh(&bar);
    set(&bar, &mut st, "i3", &["0412", "0312"], d_name(d), "road");
    set(&bar, &mut st, "i1", &["0707"], "N", "line");
    movement(&bar, &mut st, &["i3", "i1"]);
    st.activation.as_mut().unwrap().limited = true; // the position: a limited activation
    let l = legal(&bar, &st);
    assert!(l.contains(&"move:i3".to_string()));
    assert!(
        !l.contains(&"move:i1".to_string()),
        "a line does not move (6.8b): {l:?}"
    );
    act(&bar, &mut st, &["move:i3"], &[]);
    // The road bends at 0412 → 0512: the head turns onto it with no facing cost (9.4a).
    let along: Vec<String> = legal(&bar, &st)
        .into_iter()
        .filter(|x| x.starts_with("step:") || x.starts_with("column-turn:"))
        .collect();
    assert_eq!(along.len(), 1, "only along the road: {along:?}");
    assert_eq!(cost_in(&label_of(&bar, &st, &along[0])), "½");
    act(&bar, &mut st, &[along[0].as_str()], &[]);
    assert_eq!(hexes_of(&bar, &st, "i3"), ["0512", "0412"]);
    assert!(
        ids(&bar, &st, "form:").is_empty(),
        "no formation change (6.8b)"
    );
    // In a normal activation the same column may leave the road.
    let mut st = fresh(&bar);
    set(&bar, &mut st, "i3", &["0412", "0312"], d_name(d), "road");
    movement(&bar, &mut st, &["i3"]);
    act(&bar, &mut st, &["move:i3"], &[]);
    assert!(
        legal(&bar, &st)
            .iter()
            .filter(|x| x.starts_with("step:") || x.starts_with("column-turn:"))
            .count()
            > 1
    );
}

fn d_name(d: hexmap::Dir) -> &'static str {
    ["NE", "E", "SE", "SW", "W", "NW"][d.index()]
}

#[test]
fn r8_4i_e18_infantry_entering_general_order_terrain_changes_and_stops_then_leaves_it_for_its_whole_ma()
 {
    let bar = field();
    let mut st = fresh(&bar);
    // 1209 is a village (general order). A line south of it facing north.
    let south = hex("1209")
        .neighbour(hexmap::Vertex::S.front()[0])
        .expect("on the map");
    set(&bar, &mut st, "i1", &[&south.to_string()], "N", "line");
    movement(&bar, &mut st, &["i1"]);
    act(&bar, &mut st, &["move:i1"], &[]);
    let log = act(&bar, &mut st, &["step:1209"], &[]);
    assert_logged(&log, "changes to general order (8.4i)");
    let s = &st.units[usize::from(unit(&bar, "i1"))];
    assert_eq!(s.formation, Formation::GeneralOrder);
    assert_eq!(st.phase, Phase::Movement, "its movement ended (8.2b)");
    // Next movement phase: one adjacent hex, and out of general order it adopts any
    // single-hex formation and facing; that ends its movement.
    movement(&bar, &mut st, &["i1"]);
    act(&bar, &mut st, &["move:i1"], &[]);
    let steps = ids(&bar, &st, "step:");
    assert_eq!(steps.len(), 6, "any adjacent hex: {steps:?}");
    assert_eq!(
        ids(&bar, &st, "turn:").len(),
        5,
        "one facing change, any direction (9.3b)"
    );
    act(&bar, &mut st, &[&format!("step:{south}")], &[]);
    let adopt = ids(&bar, &st, "adopt:");
    assert!(adopt.contains(&"adopt:line:S".to_string()), "{adopt:?}");
    assert!(adopt.contains(&"adopt:march_column:SW".to_string()));
    assert_eq!(
        legal(&bar, &st).len(),
        adopt.len(),
        "nothing but the adoption"
    );
    act(&bar, &mut st, &["adopt:line:S"], &[]);
    let s = &st.units[usize::from(unit(&bar, "i1"))];
    assert_eq!(
        (s.formation, s.facing.name().to_string()),
        (Formation::Line, "S".to_string())
    );
    assert_eq!(st.phase, Phase::Movement);
}

#[test]
fn r11_9a_entering_an_enemy_zoc_and_changing_facing_in_one_cost_one_more() {
    let bar = field();
    let mut st = fresh(&bar);
    set(&bar, &mut st, "i1", &["0707"], "N", "line");
    movement(&bar, &mut st, &["i1"]);
    act(&bar, &mut st, &["move:i1"], &[]);
    let steps = ids(&bar, &st, "step:");
    let target = hex(&steps[0][5..]);
    // An enemy line facing south whose front covers the target hex.
    let enemy = target
        .neighbour(hexmap::Vertex::N.front()[0])
        .expect("on the map");
    let mut st = fresh(&bar);
    set(&bar, &mut st, "i1", &["0707"], "N", "line");
    set(&bar, &mut st, "e1", &[&enemy.to_string()], "S", "line");
    movement(&bar, &mut st, &["i1"]);
    act(&bar, &mut st, &["move:i1"], &[]);
    assert_eq!(
        cost_in(&label_of(&bar, &st, &steps[0])),
        "2",
        "clear 1 + EZOC 1"
    );
    act(&bar, &mut st, &[steps[0].as_str()], &[]);
    // Asked or not, the step is taken once the reactive player passes.
    if matches!(st.phase, Phase::Reaction { .. }) {
        act(&bar, &mut st, &["pass"], &[]);
    }
    let turn = ids(&bar, &st, "turn:")
        .into_iter()
        .find(|t| t == "turn:NE" || t == "turn:NW")
        .expect("a one-hexpoint turn");
    assert_eq!(
        cost_in(&label_of(&bar, &st, &turn)),
        "2",
        "1 + EZOC 1 (9.1)"
    );
}

#[test]
fn r12_8_the_reactive_player_is_asked_when_a_unit_leaves_a_hex_in_enemy_range_and_once_per_hex_for_changes()
 {
    let bar = field();
    // An Austrian line two hexes north of the Prussian horse, facing south: in its range and front.
    let mut st = fresh(&bar);
    set(&bar, &mut st, "k1", &["0707"], "N", "line");
    set(&bar, &mut st, "e1", &["0507"], "S", "line");
    movement(&bar, &mut st, &["k1"]);
    act(&bar, &mut st, &["move:k1"], &[]);
    let before = hexes_of(&bar, &st, "k1");
    let step = ids(&bar, &st, "step:")[0].clone();
    act(&bar, &mut st, &[step.as_str()], &[]);
    // 12.8d: before the unit leaves, the reactive side decides; the unit has not moved yet.
    assert!(matches!(st.phase, Phase::Reaction { .. }), "{:?}", st.phase);
    assert_eq!(bar.decider(&st), Some(engine::Seat(1)));
    // 12.8a: the line in range may fire (issue 16) or let the move go on.
    assert_eq!(legal(&bar, &st), ["opp-fire:inf", "pass"]);
    assert_eq!(hexes_of(&bar, &st, "k1"), before);
    act(&bar, &mut st, &["pass"], &[]);
    assert_eq!(hexes_of(&bar, &st, "k1"), [step[5..].to_string()]);
    // 12.8c, e: a facing change asks once, a second change in the same hex does not.
    act(&bar, &mut st, &["turn:NE"], &[]);
    assert!(matches!(st.phase, Phase::Reaction { .. }));
    act(&bar, &mut st, &["pass"], &[]);
    act(&bar, &mut st, &["turn:N"], &[]);
    assert!(matches!(st.phase, Phase::Moving(_)), "asked once per hex");
}

#[test]
fn r12_8_nobody_is_asked_when_no_reactive_unit_could_answer_and_the_log_says_why() {
    let bar = field();
    let mut st = fresh(&bar);
    set(&bar, &mut st, "i1", &["0707"], "N", "line");
    // The enemy is far away (set-up rows 14).
    movement(&bar, &mut st, &["i1"]);
    act(&bar, &mut st, &["move:i1"], &[]);
    let step = ids(&bar, &st, "step:")[0].clone();
    let log = act(&bar, &mut st, &[step.as_str()], &[]);
    assert!(matches!(st.phase, Phase::Moving(_)));
    assert_logged(
        &log,
        "leaving the hex in 0707: no enemy unit there could fire or charge",
    );
    // An enemy within range but facing away (its rear towards i1) cannot fire either.
    let mut st = fresh(&bar);
    set(&bar, &mut st, "i1", &["0707"], "N", "line");
    set(&bar, &mut st, "e1", &["0507"], "N", "line");
    movement(&bar, &mut st, &["i1"]);
    act(&bar, &mut st, &["move:i1"], &[]);
    act(&bar, &mut st, &[step.as_str()], &[]);
    assert!(matches!(st.phase, Phase::Moving(_)), "{:?}", st.phase);
}

#[test]
fn r9_3c_an_attack_column_tests_b_before_turning_and_a_failure_disorders_it_and_ends_its_move() {
    let bar = field();
    let mut st = fresh(&bar);
    set(&bar, &mut st, "gr", &["0707"], "N", "attack");
    movement(&bar, &mut st, &["gr"]);
    act(&bar, &mut st, &["move:gr"], &[]);
    // ER 25; 12 is below it: the check fails.
    let log = act(&bar, &mut st, &["turn:NE"], &[1, 2]);
    assert_logged(
        &log,
        "Attack column facing change (9.3c, 18.2c, disorder check B)",
    );
    let s = &st.units[usize::from(unit(&bar, "gr"))];
    assert!(s.disordered);
    assert_eq!(
        s.facing.name().to_string(),
        "N",
        "the facing change is not made"
    );
    assert_eq!(st.phase, Phase::Movement, "its movement is over");
    // Passing (87) turns it.
    let mut st = fresh(&bar);
    set(&bar, &mut st, "gr", &["0707"], "N", "attack");
    movement(&bar, &mut st, &["gr"]);
    act(&bar, &mut st, &["move:gr"], &[]);
    act(&bar, &mut st, &["turn:NE"], &[8, 7]);
    assert_eq!(
        st.units[usize::from(unit(&bar, "gr"))]
            .facing
            .name()
            .to_string(),
        "NE"
    );
}

#[test]
fn r11_2d_e_dc_a_terrain_counts_only_if_the_unit_spends_more_and_each_adds_5() {
    let bar = field();
    // Woods at 1203 and 1204 side by side: a column along row 12 enters both.
    let d = dir("1202", "1203");
    let run = |id: &str| {
        let mut st = fresh(&bar);
        set(&bar, &mut st, id, &["1202"], d_name(d), "march");
        movement(&bar, &mut st, &[id]);
        act(&bar, &mut st, &[&format!("move:{id}")], &[]);
        act(&bar, &mut st, &["step:1203", "step:1204"], &[])
            .into_iter()
            .chain(if matches!(st.phase, Phase::Moving(_)) {
                act(&bar, &mut st, &["step:1205", "stop"], &[9, 5])
            } else {
                Vec::new()
            })
            .collect::<Vec<_>>()
    };
    // Infantry (MA 4): woods 2 + woods 2, no MP left after the second: only the first counts.
    let log = run("i1");
    assert_logged(&log, "+ 5 (non clear, 11.2e)");
    assert!(!logged(&log, "non clear ×2"), "{log:#?}");
    // Cavalry (MA 7): woods, woods, then clear: both woods count, +10.
    let log = run("k1");
    assert_logged(&log, "+ 10 (non clear ×2, 11.2e)");
    // A unit that enters the woods and stops there makes no check.
    let mut st = fresh(&bar);
    set(&bar, &mut st, "i1", &["1202"], d_name(d), "march");
    movement(&bar, &mut st, &["i1"]);
    act(&bar, &mut st, &["move:i1"], &[]);
    let log = act(&bar, &mut st, &["step:1203", "stop"], &[]);
    assert!(!logged(&log, "Movement actions"), "{log:#?}");
}

#[test]
fn r11_1b_a_stack_moves_together_and_a_unit_whose_movement_ended_does_not_move_again() {
    let bar = field();
    let mut st = fresh(&bar);
    set(&bar, &mut st, "i1", &["0707"], "N", "line");
    set(&bar, &mut st, "i2", &["0707"], "N", "line");
    movement(&bar, &mut st, &["i1", "i2"]);
    let l = legal(&bar, &st);
    assert!(l.contains(&"move-stack:i1".to_string()), "{l:?}");
    assert!(l.contains(&"move:i1".to_string()) && l.contains(&"move:i2".to_string()));
    act(&bar, &mut st, &["move-stack:i1"], &[]);
    let step = ids(&bar, &st, "step:")[0].clone();
    act(&bar, &mut st, &[step.as_str(), "stop"], &[]);
    assert_eq!(hexes_of(&bar, &st, "i1"), hexes_of(&bar, &st, "i2"));
    assert_eq!(hexes_of(&bar, &st, "i1"), [step[5..].to_string()]);
    let l = legal(&bar, &st);
    assert!(
        !l.iter().any(|x| x.starts_with("move") && x.contains(":i")),
        "their movement is over: {l:?}"
    );
}

#[test]
fn r11_9c_a_skirmisher_rolls_its_er_or_better_to_enter_an_enemy_zoc_and_stops_on_a_failure() {
    let bar = field();
    let mut st = fresh(&bar);
    set(&bar, &mut st, "jg", &["0707"], "N", "skirmish");
    movement(&bar, &mut st, &["jg"]);
    act(&bar, &mut st, &["move:jg"], &[]);
    let steps = ids(&bar, &st, "step:");
    let target = hex(&steps[0][5..]);
    let enemy = target
        .neighbour(hexmap::Vertex::N.front()[0])
        .expect("on the map");
    for (dice, enters) in [([2u8, 9u8], false), ([3, 0], true)] {
        let mut st = fresh(&bar);
        set(&bar, &mut st, "jg", &["0707"], "N", "skirmish");
        set(&bar, &mut st, "e1", &[&enemy.to_string()], "S", "line");
        movement(&bar, &mut st, &["jg"]);
        act(&bar, &mut st, &["move:jg"], &[]);
        // +1 MP for the EZOC (11.9c, 11.9a).
        assert_eq!(cost_in(&label_of(&bar, &st, &steps[0])), "2");
        let mut log = act(&bar, &mut st, &[steps[0].as_str()], &dice);
        if matches!(st.phase, Phase::Reaction { .. }) {
            log.extend(act(&bar, &mut st, &["pass"], &dice));
        }
        // ER 30: 29 fails, 30 enters.
        if enters {
            assert_logged(
                &log,
                "d100 tens 3, units 0 = 30 ≥ ER 30 — it enters (11.9c)",
            );
            assert_eq!(hexes_of(&bar, &st, "jg"), [target.to_string()]);
        } else {
            assert_logged(&log, "d100 tens 2, units 9 = 29 < ER 30 — it cannot enter");
            assert_eq!(hexes_of(&bar, &st, "jg"), ["0707"]);
            assert_eq!(st.phase, Phase::Movement, "its movement ended");
        }
    }
}

#[test]
fn r10_1a_r10_1c_a_lone_unit_s_formation_changes_meet_each_new_hex_s_stacking_limit() {
    // 12 SP of cavalry in march column beside the village 1209 (test TEC: cavalry 12 a hex in
    // the clear, 4 in the village). A line through its head hex (8.4c) of two hexes puts 6 SP in
    // each: legal in the clear, too many in the village; one of three hexes puts 4 in each, legal
    // there too. The menu offers exactly the lines whose every hex holds its SPs (10.1a, 10.1c),
    // though many lines share their formation and length.
    let bar = field();
    let mut st = fresh(&bar);
    set(&bar, &mut st, "k1", &["1208"], "NE", "march");
    movement(&bar, &mut st, &["k1"]);
    act(&bar, &mut st, &["move:k1"], &[]);
    let village = hex("1209");
    let lines: Vec<Vec<hexmap::HexId>> = bar
        .legal_actions(&st)
        .into_iter()
        .filter_map(|a| match a {
            bar::action::Action::Form(fs, _, hexes, _) if fs == [Formation::Line] => Some(hexes),
            _ => None,
        })
        .collect();
    let with_village = |n: usize| {
        lines
            .iter()
            .filter(|h| h.len() == n && h.contains(&village))
            .count()
    };
    let in_clear = |n: usize| {
        lines
            .iter()
            .filter(|h| h.len() == n && !h.contains(&village))
            .count()
    };
    assert_eq!(with_village(2), 0, "6 SP in the village: {lines:?}");
    assert!(in_clear(2) > 0, "6 SP a clear hex: {lines:?}");
    assert!(with_village(3) > 0, "4 SP in the village: {lines:?}");
    assert!(in_clear(3) > 0, "{lines:?}");
    assert!(in_clear(1) > 0, "12 SP in the clear head hex: {lines:?}");
}
