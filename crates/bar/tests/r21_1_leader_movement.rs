//! Leader movement (21.1a, 21.1c) on the drill ground `tests/data/move`: his own terrain costs
//! (the TEC's leader column: clear 1, woods 2, ponds closed), his MA, enemy ZOCs closed unless
//! friends are there, enemy hexes closed, one move an activation, only when activated.
mod common;
use bar::Bar;
use bar::geom::Formation;
use bar::state::{Activation, Phase, State};
use common::*;
use hexmap::{Dir, HexId};
use std::path::Path;

/// The drill ground, with `woods` (hex ids) turned into woods in a copy of its map.
fn field_with_woods(woods: &[HexId]) -> Bar {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("bar-r21-1-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap(); // test set-up
    let src = data().join("move");
    for f in ["map.toml", "oob.toml", "scenario.toml"] {
        let mut text = std::fs::read_to_string(src.join(f)).unwrap(); // the fixture exists
        if f == "map.toml" && !woods.is_empty() {
            let ids: Vec<String> = woods.iter().map(|h| format!("\"{h}\"")).collect();
            text.push_str(&format!(
                "\n[[hexes]]\nids = [{}]\nterrain = \"woods\"\ninvented = \"test: a belt of woods\"\n",
                ids.join(", ")
            ));
        }
        std::fs::write(Path::new(&dir).join(f), text).unwrap(); // test set-up
    }
    Bar::from_dir(&dir, &data()).unwrap() // the edited fixture is valid
}

fn nb(h: HexId, d: Dir) -> HexId {
    h.neighbour(d).expect("on the map")
}

/// Everyone off the map but the Blue infantry brigadier L1 at `at`; Blue brigade b1 (his)
/// activated, in its movement phase with no unit to move.
fn alone(bar: &Bar, at: &str) -> State {
    let mut st = fresh(bar);
    for u in st.units.iter_mut() {
        u.hexes = Default::default();
    }
    put_leader(bar, &mut st, "L1", at);
    st.activation = Some(Activation {
        side: 0,
        brigades: vec![brigade(bar, "b1")],
        ..Activation::default()
    });
    st.phase = Phase::Movement;
    st
}

fn set(bar: &Bar, st: &mut State, id: &str, h: HexId, facing: &str) {
    let u = usize::from(unit(bar, id));
    st.units[u].hexes = vec![h].into();
    st.units[u].formation = Formation::Line;
    st.units[u].facing = bar::scenario::parse_facing(facing, Formation::Line).unwrap(); // test facings
}

/// The hexes the moving leader is offered (`lead:L1:HEX`).
fn offered(bar: &Bar, st: &State) -> Vec<HexId> {
    legal(bar, st)
        .iter()
        .filter_map(|a| a.strip_prefix("lead:L1:"))
        .map(hex)
        .collect()
}

fn west(h: HexId, n: usize) -> HexId {
    (0..n).fold(h, |h, _| nb(h, Dir::W))
}

#[test]
fn r21_1a_a_leader_moves_his_ma_in_his_own_terrain_costs() {
    let s = hex("0707");
    // Open ground (leader cost 1 a clear hex, MA 8): eight hexes west he reaches, nine not.
    let bar = field_with_woods(&[]);
    let mut st = alone(&bar, "0707");
    assert!(legal(&bar, &st).contains(&"move-leader:L1".to_string()));
    act(&bar, &mut st, &["move-leader:L1"], &[]);
    let open = offered(&bar, &st);
    assert_eq!(s.distance(west(s, 8)), 8);
    assert!(open.contains(&west(s, 8)), "{open:?}");
    assert!(!open.contains(&west(s, 9)), "beyond his MA of 8");
    assert!(open.iter().all(|h| h.distance(s) <= 8));
    assert!(!open.contains(&s), "his own hex is not a move");
    // A ring of woods two hexes round him (leader cost 2): every way out costs one more, so
    // the hex eight away is out of reach and seven away is the limit; the woods themselves
    // cost 1 + 2.
    let ring: Vec<HexId> = (1..=14)
        .flat_map(|r| (1..=16).map(move |c| hex(&format!("{r:02}{c:02}"))))
        .filter(|h| h.distance(s) == 2)
        .collect();
    assert_eq!(ring.len(), 12);
    let bar = field_with_woods(&ring);
    let mut st = alone(&bar, "0707");
    act(&bar, &mut st, &["move-leader:L1"], &[]);
    let wooded = offered(&bar, &st);
    assert!(wooded.contains(&west(s, 2)), "the woods at cost 3");
    assert!(wooded.contains(&west(s, 7)), "1 + 2 + 5 = 8 MP");
    assert!(
        !wooded.contains(&west(s, 8)),
        "1 + 2 + 6 = 9 MP: {wooded:?}"
    );
    assert!(wooded.len() < open.len());
    // A pond is closed to leaders (the TEC's leader column: prohibited), even within reach.
    let pond = hex("0303");
    assert!(pond.distance(s) <= 8);
    assert!(!open.contains(&pond));
}

#[test]
fn r21_1a_a_leader_enters_an_enemy_zoc_only_where_friends_stand() {
    let bar = field_with_woods(&[]);
    let s = hex("0707");
    // A Red battalion two hexes off, in line facing S: its front (ZOC, 9.1) is its two southern
    // neighbours, one of them the leader's NE neighbour.
    let x = nb(nb(s, Dir::NE), Dir::NE);
    let zoc = nb(s, Dir::NE);
    assert_eq!(nb(x, Dir::SW), zoc);
    let mut st = alone(&bar, "0707");
    set(&bar, &mut st, "e1", x, "S");
    act(&bar, &mut st, &["move-leader:L1"], &[]);
    let alone_there = offered(&bar, &st);
    assert!(!alone_there.contains(&zoc), "an enemy ZOC without friends");
    assert!(!alone_there.contains(&x), "the enemy's own hex");
    assert!(
        alone_there.contains(&nb(s, Dir::E)),
        "a hex beside it, outside the ZOC"
    );
    // A Blue battalion in that ZOC hex: he may join it there.
    let mut st = alone(&bar, "0707");
    set(&bar, &mut st, "e1", x, "S");
    set(&bar, &mut st, "i2", zoc, "N");
    act(&bar, &mut st, &["move-leader:L1"], &[]);
    let with_friends = offered(&bar, &st);
    assert!(with_friends.contains(&zoc), "{with_friends:?}");
    assert!(!with_friends.contains(&x));
}

#[test]
fn r21_1c_only_an_activated_leader_moves_and_once_an_activation() {
    let bar = field_with_woods(&[]);
    let mut st = alone(&bar, "0707");
    put_leader(&bar, &mut st, "L2", "0709");
    let first = legal(&bar, &st);
    assert!(first.contains(&"move-leader:L1".to_string()));
    assert!(
        !first.contains(&"move-leader:L2".to_string()),
        "L2's brigade is not activated (21.1c)"
    );
    // He may decline to move: he stays, the log says so, and he is not offered again.
    let log = act(&bar, &mut st, &["move-leader:L1", "stop"], &[]);
    assert_logged(&log, "Blue infantry brigadier stays in 0707 (21.1a)");
    assert_eq!(
        st.leaders[usize::from(leader(&bar, "L1"))].hex,
        Some(hex("0707"))
    );
    assert!(!legal(&bar, &st).contains(&"move-leader:L1".to_string()));
    // Or move, once: then he is where he went and not offered again either.
    let mut st = alone(&bar, "0707");
    let to = west(hex("0707"), 3);
    let log = act(
        &bar,
        &mut st,
        &["move-leader:L1", &format!("lead:L1:{to}")],
        &[],
    );
    assert_logged(
        &log,
        &format!("Blue infantry brigadier moves to {to} (21.1a)"),
    );
    assert_eq!(st.leaders[usize::from(leader(&bar, "L1"))].hex, Some(to));
    assert!(!legal(&bar, &st).contains(&"move-leader:L1".to_string()));
}
