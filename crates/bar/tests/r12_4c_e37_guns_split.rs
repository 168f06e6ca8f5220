//! 12.4c (E37), 12.3c, 12.2h: a 2-hex line of 7 + 3 infantry SP with 2 artillery SP on top fires 8
//! SP, "2 artillery SPs … and 6 infantry SPs … in any combination. If the line fires at two
//! different hexes, one fire attack could have 1 artillery SP and 4 infantry SPs and the other 1
//! artillery SP and 2 infantry SPs, or any other combination as long as the maximum of 8 stacked
//! SPs is not exceeded. If the stack is disordered, the maximum per hex is 2 SPs or 4 SPs for the
//! entire stack." On the drill ground `tests/data/move` (Prussian fusiliers, 3 ranks: a hex of 5
//! SP fires 4), the order of battle edited so that IR 1/I has the example's 7 SP.
mod common;
use bar::Bar;
use bar::geom::Formation;
use bar::state::{Activation, Phase, State};
use common::*;
use engine::Ruleset;

/// The drill ground with IR 1/I at 7 SP (E37's 7 + 3).
fn drill() -> Bar {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("bar-e37-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("move")).unwrap(); // test set-up
    for f in ["map.toml", "scenario.toml", "oob.toml"] {
        let mut text = std::fs::read_to_string(data().join("move").join(f)).unwrap(); // fixture
        if f == "oob.toml" {
            let at = text.find("id = \"i1\"").expect("i1 in the fixture");
            let sp = at + text[at..].find("sp = 6").expect("i1's SP");
            text.replace_range(sp..sp + "sp = 6".len(), "sp = 7");
        }
        std::fs::write(dir.join("move").join(f), text).unwrap(); // test set-up
    }
    Bar::from_dir(&dir.join("move"), &data()).unwrap() // the edited fixture is valid
}

/// Place a unit: hexes, facing, formation, SP lost.
fn set(bar: &Bar, st: &mut State, id: &str, hexes: &[String], facing: &str, form: &str, lost: u8) {
    let f = Formation::parse(form).unwrap(); // test formations are well formed
    let u = usize::from(unit(bar, id));
    st.units[u].hexes = hexes.iter().map(|h| hex(h)).collect();
    st.units[u].formation = f;
    st.units[u].facing = bar::scenario::parse_facing(facing, f).unwrap(); // test facings
    st.units[u].lost = lost;
}

/// E37's stack: the guns (2 SP) on top of IR 1/I (7 SP) and IR 1/II (3 SP) in a 2-hex line facing
/// N; e1 in front of the first hex, e2 in front of the second; the fire phase of the stack.
/// Returns the two hexes of the line.
fn e37(bar: &Bar, st: &mut State, disordered: bool) -> [String; 2] {
    let fp = hexmap::Footprint::line(&hexmap::Printed, hex("0707"), hexmap::Vertex::N, 2)
        .expect("a two-hex line");
    let hs: Vec<String> = fp.hexes().iter().map(|h| h.to_string()).collect();
    set(bar, st, "g1", &hs, "N", "unlimbered", 0);
    set(bar, st, "i1", &hs, "N", "line", 0);
    set(bar, st, "i2", &hs, "N", "line", 3);
    for (i, u) in ["g1", "i1", "i2"].iter().enumerate() {
        let s = &mut st.units[usize::from(unit(bar, u))];
        s.order = i as u16;
        s.disordered = disordered;
    }
    let front = |h: &str| {
        hex(h)
            .neighbour(hexmap::Vertex::N.front()[0])
            .expect("on the map")
            .to_string()
    };
    let (t1, t2) = (front(&hs[0]), front(&hs[1]));
    assert_ne!(t1, t2);
    set(bar, st, "e1", &[t1], "S", "line", 0);
    set(bar, st, "e2", &[t2], "S", "line", 0);
    let us: Vec<u16> = ["g1", "i1", "i2"].iter().map(|u| unit(bar, u)).collect();
    for &u in &us {
        st.units[usize::from(u)].activated = true;
    }
    st.activation = Some(Activation {
        side: bar.sc.units[usize::from(us[0])].side,
        units: us,
        ..Activation::default()
    });
    st.phase = Phase::Fire(Box::default());
    [hs[0].clone(), hs[1].clone()]
}

/// Dice that hit nothing (d100 10: no loss on any column, no special result).
const QUIET: [u8; 8] = [0, 1, 0, 1, 0, 1, 0, 1];

/// Declare a fire at `target` by `kind` ("art"/"inf"), add the group `with` (an action id) and
/// resolve it: the SPs each firing unit fired, from the fire's log line.
fn fire(bar: &Bar, st: &mut State, target: &str, kind: &str, with: &str) -> Vec<(String, u8)> {
    let at = format!("fire:{target}:{kind}");
    let log = act(bar, st, &[&at, with, "fire-resolve"], &QUIET);
    let l = log
        .iter()
        .find(|l| l.contains("Fire (12.1)"))
        .unwrap_or_else(|| panic!("no fire in {log:#?}"));
    fired(bar, l)
}

/// The (unit name, SP) pairs of a fire's log line ("…: Battery 6-pdr unlimbered, 1 SP (guns…").
fn fired(bar: &Bar, l: &str) -> Vec<(String, u8)> {
    let mut out = Vec::new();
    for u in ["g1", "i1", "i2"] {
        let name = &bar.sc.units[usize::from(unit(bar, u))].name;
        for form in ["unlimbered", "line"] {
            let key = format!("{name} {form}, ");
            if let Some(i) = l.find(&key) {
                let rest = &l[i + key.len()..];
                let n: u8 = rest[..rest.find(' ').unwrap_or(0)]
                    .parse()
                    .expect("an SP count");
                out.push((u.to_string(), n));
            }
        }
    }
    out
}

fn sp(v: &[(String, u8)], who: &str) -> u8 {
    v.iter().filter(|x| x.0 == who).map(|x| x.1).sum()
}

#[test]
fn r12_4c_e37_one_fire_1_art_and_4_inf_sp_the_other_1_art_and_2_inf_sp() {
    let bar = drill();
    let mut st = fresh(&bar);
    let [a, b] = e37(&bar, &mut st, false);
    // The guns may fire whole or give 1 of their 2 SP to this fire (the other kept for another).
    let mut probe = st.clone();
    act(&bar, &mut probe, &["fire:e1:art"], &[]);
    let l = legal(&bar, &probe);
    assert!(l.contains(&format!("fire-with:{a}")), "{l:?}");
    assert!(l.contains(&format!("fire-guns:{a}:1")), "{l:?}");
    assert!(
        !l.iter()
            .any(|x| x.starts_with("fire-guns:") && x.ends_with(":2")),
        "a split keeps at least 1 SP back: {l:?}"
    );
    // First fire attack at e1: 1 artillery SP and 4 infantry SP (the first hex's).
    let f = fire(&bar, &mut st, "e1", "art", &format!("fire-guns:{a}:1"));
    assert_eq!(f, vec![("g1".to_string(), 1)]);
    let f = fire(&bar, &mut st, "e1", "inf", &format!("fire-with:{a}"));
    assert_eq!(sp(&f, "i1") + sp(&f, "i2"), 4, "{f:?}");
    // Second fire attack at e2: the guns' other SP (12.2h: the line fires at two hexes; 12.4e:
    // from either hex) and the infantry's 2 that the 8 leave.
    let l = legal(&bar, &st);
    assert!(l.contains(&"fire:e2:art".to_string()), "{l:?}");
    let f = fire(&bar, &mut st, "e2", "art", &format!("fire-with:{b}"));
    assert_eq!(f, vec![("g1".to_string(), 1)]);
    let f = fire(&bar, &mut st, "e2", "inf", &format!("fire-with:{b}"));
    assert_eq!(sp(&f, "i1") + sp(&f, "i2"), 2, "{f:?}");
    // 1 + 4 + 1 + 2 = 8: nothing of the stack may fire again.
    let l = legal(&bar, &st);
    assert_eq!(l, vec!["fire-done".to_string()], "{l:?}");
}

#[test]
fn r12_4c_e37_the_other_combination_1_art_and_2_inf_sp_then_1_art_and_4_inf_sp() {
    let bar = drill();
    let mut st = fresh(&bar);
    let [a, b] = e37(&bar, &mut st, false);
    // The guns split at e1 from the second hex this time (12.4e: any hex of the line), the second
    // hex's infantry at e2 first, so that the first hex's is left 2 at e1.
    let f = fire(&bar, &mut st, "e1", "art", &format!("fire-guns:{b}:1"));
    assert_eq!(f, vec![("g1".to_string(), 1)]);
    let f = fire(&bar, &mut st, "e2", "inf", &format!("fire-with:{b}"));
    assert_eq!(sp(&f, "i1") + sp(&f, "i2"), 4, "{f:?}");
    let f = fire(&bar, &mut st, "e1", "inf", &format!("fire-with:{a}"));
    assert_eq!(sp(&f, "i1") + sp(&f, "i2"), 2, "{f:?}");
    let f = fire(&bar, &mut st, "e2", "art", &format!("fire-with:{b}"));
    assert_eq!(f, vec![("g1".to_string(), 1)]);
    assert_eq!(legal(&bar, &st), vec!["fire-done".to_string()]);
}

#[test]
fn r12_4c_e37_more_than_the_8_sp_is_refused() {
    let bar = drill();
    let mut st = fresh(&bar);
    let [a, b] = e37(&bar, &mut st, false);
    fire(&bar, &mut st, "e1", "art", &format!("fire-guns:{a}:1"));
    fire(&bar, &mut st, "e1", "inf", &format!("fire-with:{a}"));
    // The guns have 1 SP left: they cannot give 2 (or split 1) to the second target.
    act(&bar, &mut st, &["fire:e2:art"], &[]);
    let l = legal(&bar, &st);
    assert!(!l.iter().any(|x| x.starts_with("fire-guns:")), "{l:?}");
    let mut ev = Vec::new();
    for over in [format!("fire-guns:{b}:2"), format!("fire-guns:{b}:1")] {
        assert!(
            bar.apply_id(&mut st, &over, &mut ev).is_err(),
            "{over} must be refused"
        );
    }
    act(&bar, &mut st, &["fire-cancel"], &[]);
    // The guns whole at one target leave them nothing for another.
    let mut st = fresh(&bar);
    let [a, _] = e37(&bar, &mut st, false);
    let f = fire(&bar, &mut st, "e1", "art", &format!("fire-with:{a}"));
    assert_eq!(f, vec![("g1".to_string(), 2)]);
    let l = legal(&bar, &st);
    assert!(!l.contains(&"fire:e2:art".to_string()), "{l:?}");
}

#[test]
fn r12_4c_e37_disordered_2_sp_a_hex_and_4_for_the_whole_stack() {
    let bar = drill();
    let mut st = fresh(&bar);
    let [a, b] = e37(&bar, &mut st, true);
    // The guns (counted first, 12.4b) split 1 + 1; the infantry fires what the 4 leave: 2.
    let mut total = 0;
    let f = fire(&bar, &mut st, "e1", "art", &format!("fire-guns:{a}:1"));
    assert_eq!(f, vec![("g1".to_string(), 1)]);
    total += sp(&f, "g1");
    let f = fire(&bar, &mut st, "e1", "inf", &format!("fire-with:{a}"));
    let inf_a = sp(&f, "i1") + sp(&f, "i2");
    assert_eq!(inf_a, 2, "2 SP a hex when disordered: {f:?}");
    total += inf_a;
    let l = legal(&bar, &st);
    assert!(l.contains(&"fire:e2:art".to_string()), "{l:?}");
    let f = fire(&bar, &mut st, "e2", "art", &format!("fire-with:{b}"));
    assert_eq!(f, vec![("g1".to_string(), 1)]);
    total += sp(&f, "g1");
    // 4 fired: the second hex's infantry has nothing left.
    let l = legal(&bar, &st);
    assert!(!l.contains(&"fire:e2:inf".to_string()), "{l:?}");
    assert_eq!(total, 4);
    // The guns whole: 2 of the 4, and each hex at most 2.
    let mut st = fresh(&bar);
    let [a, b] = e37(&bar, &mut st, true);
    let f = fire(&bar, &mut st, "e1", "art", &format!("fire-with:{a}"));
    assert_eq!(f, vec![("g1".to_string(), 2)]);
    let f = fire(&bar, &mut st, "e2", "inf", &format!("fire-with:{b}"));
    assert_eq!(sp(&f, "i1") + sp(&f, "i2"), 2, "{f:?}");
    assert_eq!(legal(&bar, &st), vec!["fire-done".to_string()]);
}
