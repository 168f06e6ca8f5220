//! The rule text paragraph by paragraph (issue 6): each test sets a small position on the table,
//! fixes the dice where the outcome hangs on them (a seed found for the rolls the test needs) and
//! checks the numbers the paragraph of `shared/rules/command-and-control-miniatures.en.txt` (or a
//! decision of `docs/minis.md`, named) gives. Test names start with the paragraph.
use engine::{Dice, Ruleset, Seat};
use minis::data::{Order, Sector};
use minis::state::Step;
use minis::{Action, Event, Minis, Options, State, Veer};

const RULES: &str = include_str!("../../../scenarios/minis/rules.toml");

/// A unit on the test table: id, side, kind, x, y, facing, extra TOML lines.
type U<'a> = (&'a str, u8, &'a str, f64, f64, f64, &'a str);

/// Far-off reserves, so that a loss in the test does not decide the game (Victory).
const RESERVES: [U<'static>; 4] = [
    ("r0a", 0, "foot", 10.0, 5.0, 90.0, ""),
    ("r0b", 0, "foot", 30.0, 5.0, 90.0, ""),
    ("r1a", 1, "foot", 150.0, 115.0, 270.0, ""),
    ("r1b", 1, "foot", 170.0, 115.0, 270.0, ""),
];

/// A scenario of the given units (all in the centre), then `extra` TOML (terrain, generals).
fn table_with(units: &[U], extra: &str, opts: Options) -> Minis {
    let mut t = String::from(
        "[scenario]\nid = \"t\"\nname = \"t\"\nsides = [\"A\", \"B\"]\ntable = [180.0, 120.0]\nmax_turns = 5\nreconstructed = \"test\"\n",
    );
    for (id, side, kind, x, y, f, extra) in units {
        t.push_str(&format!(
            "[[units]]\nid = \"{id}\"\nname = \"{id}\"\nside = {side}\nkind = \"{kind}\"\nsector = \"centre\"\nx = {x}\ny = {y}\nfacing = {f}\n{extra}\nreconstructed = \"test\"\n"
        ));
    }
    t.push_str(extra);
    Minis::from_text(&t, RULES, opts).expect("test table is valid")
}

/// The units given and the reserves.
fn table(units: &[U]) -> Minis {
    let mut all = units.to_vec();
    all.extend(RESERVES);
    table_with(&all, "", Options::default())
}

fn idx(m: &Minis, id: &str) -> usize {
    m.unit_index(id).expect("unit exists")
}

/// A general of `side` with unit `with`.
fn general(side: u8, with: &str) -> String {
    format!(
        "[[generals]]\nid = \"gen{side}\"\nname = \"gen{side}\"\nside = {side}\nwith = \"{with}\"\nreconstructed = \"test\"\n"
    )
}

/// A terrain piece (centre, width, depth).
fn terrain(kind: &str, x: f64, y: f64, w: f64, h: f64) -> String {
    format!(
        "[[terrain]]\nkind = \"{kind}\"\nname = \"{kind}\"\nx = {x}\ny = {y}\nw = {w}\nh = {h}\nreconstructed = \"test\"\n"
    )
}

/// The first `n` d6 of the dice from `seed`.
fn stream(seed: u64, n: usize) -> Vec<u8> {
    let mut d = Dice::new(seed);
    (0..n).map(|_| d.d6()).collect()
}

/// A seed whose first d6 rolls are exactly `want`.
fn seed_for(want: &[u8]) -> u64 {
    (0..5_000_000u64)
        .find(|&s| {
            let mut d = Dice::new(s);
            want.iter().all(|&w| d.d6() == w)
        })
        .expect("a seed gives these rolls")
}

/// A seed whose first `n` d6 rolls satisfy `pred`, with the rolls.
fn seed_where(n: usize, pred: impl Fn(&[u8]) -> bool) -> (u64, Vec<u8>) {
    (0..5_000_000u64)
        .map(|s| (s, stream(s, n)))
        .find(|(_, r)| pred(r))
        .expect("a seed gives such rolls")
}

/// Start a game, give the centre `pips`, put the dice at `seed`, arrange the position with
/// `setup` and begin the centre sector (Sequence 1). The events from the sector's start on.
fn centre(m: &Minis, pips: u8, seed: u64, setup: impl FnOnce(&mut State)) -> (State, Vec<Event>) {
    let mut ev = Vec::new();
    let mut st = m.start(1, &mut ev);
    assert_eq!(st.step, Step::ChooseSector, "the sectors are offered");
    st.pips = [pips, 0, 0];
    st.dice = Dice::new(seed);
    setup(&mut st);
    let mut ev = Vec::new();
    m.apply_id(&mut st, "sector:centre", &mut ev)
        .expect("the centre can be played");
    (st, ev)
}

fn act(m: &Minis, st: &mut State, ev: &mut Vec<Event>, id: &str) {
    m.apply_id(st, id, ev)
        .unwrap_or_else(|e| panic!("{id} is refused: {e}"));
}

/// The reason an action is refused; the state is left as it was.
fn refused(m: &Minis, st: &mut State, id: &str) -> String {
    let before = st.clone();
    let e = m
        .apply_id(st, id, &mut Vec::new())
        .expect_err("the action is refused")
        .to_string();
    assert_eq!(*st, before, "{id}: a refused action leaves the state");
    e
}

/// Whether the menu offers a move-step action to unit `u`.
fn offered(m: &Minis, st: &State, u: usize) -> bool {
    m.legal_actions(st)
        .iter()
        .any(|a| a.moving_unit() == Some(u))
}

/// The dice rolls of a paragraph: (what, dice, result).
fn rolls<'a>(ev: &'a [Event], para: &str) -> Vec<(&'a str, &'a [u8], &'a str)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Roll {
                rule,
                what,
                dice,
                result,
                ..
            } if rule == para => Some((what.as_str(), dice.as_slice(), result.as_str())),
            _ => None,
        })
        .collect()
}

/// The rolls of a paragraph made by or for unit `name` (the roll's description starts with it).
fn rolls_of<'a>(ev: &'a [Event], para: &str, name: &str) -> Vec<&'a [u8]> {
    rolls(ev, para)
        .into_iter()
        .filter(|(w, ..)| w.starts_with(&format!("{name} ")))
        .map(|(_, d, _)| d)
        .collect()
}

/// The index of the first event of a paragraph.
fn first_event(ev: &[Event], para: &str) -> usize {
    ev.iter()
        .position(|e| match e {
            Event::Roll { rule, .. } | Event::Rule { rule, .. } => rule == para,
        })
        .unwrap_or_else(|| panic!("no {para} event in {ev:#?}"))
}

/// Take every pending retreat straight away from the enemy (the owner's decision).
fn retreat_all(m: &Minis, st: &mut State, ev: &mut Vec<Event>) {
    while let Some(p) = st.retreats.first() {
        let id = m.action_id(&Action::Retreat(p.unit, Veer::Straight));
        act(m, st, ev, &id);
    }
}

fn pos(st: &State, u: usize) -> (f64, f64) {
    (st.units[u].x, st.units[u].y)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.01
}

// ---------------------------------------------------------------------------------------------
// Sequence

#[test]
fn sequence_rally_guns_move_musketry_melee_within_a_sector() {
    // A retreating unit (rally), a gun with a target 11 cm off (guns), a battalion 3 cm from an
    // enemy (musketry), horse touching an enemy battalion (melee).
    let m = table(&[
        ("r", 0, "foot", 30.0, 30.0, 90.0, ""),
        ("g", 0, "gun", 90.0, 30.0, 90.0, ""),
        ("e", 1, "foot", 90.0, 45.0, 270.0, ""),
        ("f", 0, "foot", 150.0, 30.0, 90.0, ""),
        ("e2", 1, "foot", 150.0, 36.0, 270.0, ""),
        ("h", 0, "heavy-horse", 40.0, 80.0, 90.0, ""),
        ("e3", 1, "foot", 40.0, 85.5, 270.0, "order = \"column\""),
    ]);
    let (r, g, e) = (idx(&m, "r"), idx(&m, "g"), idx(&m, "e"));
    // The rally die is the sector's first roll: a 6 halts.
    let (mut st, mut ev) = centre(&m, 5, seed_for(&[6]), |st| {
        st.units[r].retreating = true;
    });
    // Rally came first, and the guns step now offers fire and nothing else.
    assert_eq!(rolls(&ev, "Morale (rally)").len(), 1);
    assert!(!st.units[r].retreating, "6 halts");
    assert_eq!(st.step, Step::Guns);
    let menu = m.legal_actions(&st);
    assert!(menu.contains(&Action::Fire(g, e)), "{menu:?}");
    assert!(
        menu.iter()
            .all(|a| matches!(a, Action::Fire(..) | Action::GunsDone)),
        "only guns in the guns step: {menu:?}"
    );
    assert!(refused(&m, &mut st, "advance:f:1.0").contains("move step"));
    act(&m, &mut st, &mut ev, "fire:g:e");
    retreat_all(&m, &mut st, &mut ev);
    assert_eq!(st.step, Step::Move);
    assert!(
        m.legal_actions(&st)
            .iter()
            .all(|a| !matches!(a, Action::Fire(..))),
        "no gun fire in the move step"
    );
    // The rallied unit may act in the same phase (Morale: "able to return to normal action").
    act(&m, &mut st, &mut ev, "advance:r:1.0");
    act(&m, &mut st, &mut ev, "moves-done");
    retreat_all(&m, &mut st, &mut ev);
    let order = [
        "Morale (rally)",
        "Artillery",
        "Movement",
        "Musketry",
        "Melees",
    ];
    let at: Vec<usize> = order.iter().map(|p| first_event(&ev, p)).collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{order:?} at {at:?}");
    // Musketry and melee were fought by the right units.
    assert_eq!(rolls_of(&ev, "Musketry", "f").len(), 1);
    assert!(!rolls_of(&ev, "Melees", "h").is_empty());
}

#[test]
fn sequence_each_sector_in_turn_then_the_other_player() {
    // docs P1: the player picks the order of his sectors, the last is played without asking;
    // then the other player rolls his pips (players move alternately).
    let m = table(&[
        ("a", 0, "foot", 90.0, 30.0, 90.0, ""),
        ("e", 1, "foot", 90.0, 100.0, 270.0, ""),
    ]);
    let (mut st, mut ev) = centre(&m, 3, 7, |_| {});
    act(&m, &mut st, &mut ev, "moves-done");
    assert_eq!(
        m.legal_actions(&st),
        [Action::Sector(Sector::Right), Action::Sector(Sector::Left)]
    );
    act(&m, &mut st, &mut ev, "sector:left");
    act(&m, &mut st, &mut ev, "moves-done");
    // The right flank is left: it is played at once.
    assert_eq!((st.sector, st.step), (Some(Sector::Right), Step::Move));
    assert_eq!(st.active, 0);
    act(&m, &mut st, &mut ev, "moves-done");
    assert_eq!((st.active, st.turn), (1, 1));
    let pips = rolls(&ev, "Sequence 1 (pips)");
    assert_eq!(pips.len(), 1);
    assert!(pips[0].0.starts_with("turn 1, B:"), "{}", pips[0].0);
    assert_eq!(st.pips.to_vec(), pips[0].1);
}

// ---------------------------------------------------------------------------------------------
// Movement

/// Whether unit `name` fired in the musketry step.
fn fired(ev: &[Event], name: &str) -> bool {
    !rolls_of(ev, "Musketry", name).is_empty()
}

/// `id` puts unit `name` in `order` for one pip and takes its whole phase: it stays where it
/// was, is offered nothing more and may not move (Movement; docs P2).
fn whole_phase(m: &Minis, st: &mut State, ev: &mut Vec<Event>, id: &str, name: &str, order: Order) {
    let u = idx(m, name);
    let (pips, at) = (st.pips[0], pos(st, u));
    act(m, st, ev, id);
    assert_eq!(st.pips[0], pips - 1, "{id}: one pip");
    assert_eq!(st.units[u].order, order, "{id}");
    assert_eq!(pos(st, u), at, "{id}: no move");
    assert!(!offered(m, st, u), "{id}: nothing more");
    let e = refused(m, st, &format!("advance:{name}:1.0"));
    assert!(e.contains("finished its move"), "{id}: {e}");
}

#[test]
fn movement_adopting_firing_order_costs_a_pip_and_ends_the_phase() {
    // A column 4 cm from an enemy battalion once in line: in range either way.
    let m = table(&[
        ("c", 0, "foot", 90.0, 30.0, 90.0, "order = \"column\""),
        ("e", 1, "foot", 90.0, 37.0, 270.0, ""),
    ]);
    // Left alone, the column fires (6+, half the dice).
    let (mut st, mut ev) = centre(&m, 3, 7, |_| {});
    act(&m, &mut st, &mut ev, "moves-done");
    assert!(fired(&ev, "c"), "in range: the column fires");
    // Adopting firing order: one pip, the line, and nothing else that phase.
    let (mut st, mut ev) = centre(&m, 3, 7, |_| {});
    whole_phase(&m, &mut st, &mut ev, "firing-order:c", "c", Order::Firing);
    assert!(refused(&m, &mut st, "about-face:c").contains("finished its move"));
    act(&m, &mut st, &mut ev, "moves-done");
    assert!(!fired(&ev, "c"), "may not fire that phase");
    // Moving first, then changing formation: refused (the change is the unit's whole phase).
    let (mut st, mut ev) = centre(&m, 3, 7, |_| {});
    act(&m, &mut st, &mut ev, "advance:c:1.0");
    assert!(refused(&m, &mut st, "firing-order:c").contains("whole phase"));
}

#[test]
fn movement_mount_and_dismount_cost_a_pip_and_end_the_phase() {
    // Dragoons 5 cm from an enemy once dismounted (carbines 6 cm).
    let m = table(&[
        ("d", 0, "heavy-horse", 90.0, 30.0, 90.0, "dragoons = true"),
        ("e", 1, "foot", 90.0, 38.0, 270.0, ""),
    ]);
    let d = idx(&m, "d");
    let (mut st, mut ev) = centre(&m, 3, 7, |_| {});
    whole_phase(&m, &mut st, &mut ev, "dismount:d", "d", Order::Dismounted);
    act(&m, &mut st, &mut ev, "moves-done");
    assert!(!fired(&ev, "d"), "may not fire that phase");
    // Dismounted from the start, the same dragoons fire: the range was not the reason.
    let (mut st, mut ev) = centre(&m, 3, 7, |st| st.units[d].order = Order::Dismounted);
    act(&m, &mut st, &mut ev, "moves-done");
    assert!(fired(&ev, "d"));
    // Mounting likewise.
    let (mut st, mut ev) = centre(&m, 3, 7, |st| st.units[d].order = Order::Dismounted);
    whole_phase(&m, &mut st, &mut ev, "mount:d", "d", Order::Mounted);
}

#[test]
fn movement_limber_and_unlimber_cost_a_pip_unlimbering_pivots_free() {
    // Guns with no enemy within roundshot range: no gun step.
    let m = table(&[
        ("g", 0, "gun", 60.0, 30.0, 90.0, "order = \"limbered\""),
        ("h", 0, "gun", 120.0, 30.0, 90.0, ""),
        ("e", 1, "foot", 90.0, 100.0, 270.0, ""),
    ]);
    let g = idx(&m, "g");
    let (mut st, mut ev) = centre(&m, 3, 7, |_| {});
    assert_eq!(st.step, Step::Move);
    // Unlimbering with a pivot of 90° as part of it: one pip in all, and no movement used.
    whole_phase(
        &m,
        &mut st,
        &mut ev,
        "unlimber:g:90.0",
        "g",
        Order::Unlimbered,
    );
    assert_eq!(st.units[g].facing, 180.0);
    assert!(refused(&m, &mut st, "pivot:g:10.0").contains("finished its move"));
    // Limbering: one pip, and the limbered gun may not then move.
    whole_phase(&m, &mut st, &mut ev, "limber:h", "h", Order::Limbered);
}

/// A column "c" (8 cm) at (90, 30) facing north, the enemy 70 cm off.
fn lone_column() -> (Minis, usize) {
    let m = table(&[
        ("c", 0, "foot", 90.0, 30.0, 90.0, "order = \"column\""),
        ("e", 1, "foot", 90.0, 100.0, 270.0, ""),
    ]);
    let c = idx(&m, "c");
    (m, c)
}

#[test]
fn movement_first_about_face_free_second_halves_the_move() {
    // A column: 8 cm.
    let (m, c) = lone_column();
    // One about-face costs no movement: the whole 8 cm remain.
    let (mut st, mut ev) = centre(&m, 3, 7, |_| {});
    act(&m, &mut st, &mut ev, "about-face:c");
    assert_eq!(st.units[c].facing, 270.0);
    assert_eq!((m.allowance(&st, c), st.units[c].ph.used), (8.0, 0.0));
    act(&m, &mut st, &mut ev, "advance:c:5.9");
    assert!(close(st.units[c].y, 30.0 - 5.9));
    // 5.9 cm used is more than half of 8: a second about-face is refused.
    assert!(refused(&m, &mut st, "about-face:c").contains("halves"));
    // Two about-faces at once: the allowance is 4 cm.
    let (mut st, mut ev) = centre(&m, 3, 7, |_| {});
    act(&m, &mut st, &mut ev, "about-face:c");
    act(&m, &mut st, &mut ev, "about-face:c");
    assert_eq!(st.units[c].facing, 90.0);
    assert_eq!(m.allowance(&st, c), 4.0);
    assert!(refused(&m, &mut st, "advance:c:4.1").contains("4.0 cm"));
    // 2.9 cm is under 3/4 of the halved move: no variation.
    act(&m, &mut st, &mut ev, "advance:c:2.9");
    assert!(close(st.units[c].y, 32.9));
    assert_eq!(st.pips[0], 2, "one pip for the unit's whole order");
    // Exactly half used: the second about-face is still allowed, and nothing is left.
    let (mut st, mut ev) = centre(&m, 3, 7, |_| {});
    act(&m, &mut st, &mut ev, "advance:c:4.0");
    act(&m, &mut st, &mut ev, "about-face:c");
    act(&m, &mut st, &mut ev, "about-face:c");
    assert!(refused(&m, &mut st, "advance:c:0.1").contains("more than 0.0 cm"));
}

/// Movement: "One about-face of 180 degrees is free, but a second in the same phase reduces
/// movement by half." The text prices two and no more: a third in the phase is refused (docs/
/// minis.md M4), however little of the halved move is used.
#[test]
fn movement_a_third_about_face_in_the_phase_is_refused() {
    let (m, c) = lone_column();
    let (mut st, mut ev) = centre(&m, 3, 7, |_| {});
    act(&m, &mut st, &mut ev, "about-face:c");
    act(&m, &mut st, &mut ev, "about-face:c");
    assert_eq!(st.units[c].ph.about_faces, 2);
    assert!(refused(&m, &mut st, "about-face:c").contains("third"));
    // Nothing used: the halved move is still whole, and the unit still moves it.
    act(&m, &mut st, &mut ev, "advance:c:1.0");
    assert!(refused(&m, &mut st, "about-face:c").contains("third"));
    // The next phase of the sector counts afresh: one free about-face again.
    let (mut st, mut ev) = centre(&m, 3, 7, |st| {
        st.units[c].ph.about_faces = 2;
    });
    act(&m, &mut st, &mut ev, "about-face:c");
    assert_eq!((st.units[c].ph.about_faces, m.allowance(&st, c)), (1, 8.0));
}

/// Movement: the second about-face halves the move for the rest of the phase, however many
/// about-faces are tried after it (the issue 12 position: 3,000 were accepted and the count, a
/// byte, wrapped at 256 to give back the full move).
#[test]
fn movement_the_second_about_face_halves_the_move_for_the_whole_phase() {
    let (m, c) = lone_column();
    let (mut st, mut ev) = centre(&m, 3, 7, |_| {});
    act(&m, &mut st, &mut ev, "about-face:c");
    act(&m, &mut st, &mut ev, "about-face:c");
    let mut accepted = 0;
    for _ in 0..300 {
        if m.apply_id(&mut st, "about-face:c", &mut ev).is_ok() {
            accepted += 1;
        }
        assert_eq!(m.allowance(&st, c), 4.0, "the move stays halved");
    }
    assert_eq!(accepted, 0);
    // A saved game carrying any count keeps the halving and refuses the about-face.
    st.units[c].ph.about_faces = u8::MAX;
    assert_eq!(m.allowance(&st, c), 4.0);
    assert!(refused(&m, &mut st, "about-face:c").contains("third"));
}

#[test]
fn movement_interpenetration_of_friendly_light_infantry() {
    // Light horse (12 cm) 0 cm behind friendly light infantry: 8 cm takes it beyond.
    let m = table(&[
        ("lh", 0, "light-horse", 60.0, 30.0, 90.0, ""),
        ("li", 0, "light-foot", 60.0, 34.0, 90.0, ""),
        ("far", 0, "light-horse", 120.0, 30.0, 90.0, ""),
        ("li2", 0, "light-foot", 120.0, 39.0, 90.0, ""),
        ("e", 1, "foot", 90.0, 100.0, 270.0, ""),
    ]);
    let (lh, far) = (idx(&m, "lh"), idx(&m, "far"));
    let (mut st, mut ev) = centre(&m, 3, 7, |_| {});
    // Ending on the light infantry is refused; passing beyond it is not.
    assert!(refused(&m, &mut st, "advance:lh:5.0").contains("must go beyond"));
    act(&m, &mut st, &mut ev, "advance:lh:8.0");
    assert!(close(st.units[lh].y, 38.0));
    // Light infantry 5 cm ahead: beyond it is 13 cm off, more than the 12 cm move.
    assert!(refused(&m, &mut st, "advance:far:12.0").contains("must go beyond"));
    assert_eq!(pos(&st, far), (120.0, 30.0));
}

#[test]
fn movement_light_infantry_passes_through_friends_never_enemies() {
    let m = table(&[
        ("li", 0, "light-foot", 60.0, 30.0, 90.0, ""),
        ("f", 0, "foot", 60.0, 33.0, 90.0, ""),
        ("h", 0, "heavy-horse", 120.0, 30.0, 90.0, ""),
        ("eli", 1, "light-foot", 120.0, 36.0, 270.0, ""),
        ("e", 1, "foot", 90.0, 100.0, 270.0, ""),
    ]);
    let li = idx(&m, "li");
    // 6 cm is 3/4 of the light infantry's 8: the variation is rolled; a 3 leaves the move be.
    let (mut st, mut ev) = centre(&m, 3, seed_for(&[3]), |_| {});
    // 5.9 cm would leave it on the battalion.
    assert!(refused(&m, &mut st, "advance:li:5.9").contains("must go beyond"));
    act(&m, &mut st, &mut ev, "advance:li:6.0");
    assert!(close(st.units[li].y, 36.0));
    // Enemy light infantry is no friend: the horse runs into it.
    let e = refused(&m, &mut st, "advance:h:8.0");
    assert!(e.contains("runs into the base of eli"), "{e}");
}

#[test]
fn movement_the_variation_from_three_quarters_of_the_move() {
    // A column: 8 cm; 3/4 is 6 cm; 25% is 2 cm.
    let (m, c) = lone_column();
    for (die, y) in [(6u8, 38.0), (1, 34.0), (2, 36.0), (5, 36.0)] {
        let (mut st, mut ev) = centre(&m, 3, seed_for(&[die]), |_| {});
        act(&m, &mut st, &mut ev, "advance:c:6.0");
        let v = rolls(&ev, "The Variation");
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].1, [die]);
        assert!(close(st.units[c].y, y), "{die}: {}", st.units[c].y);
    }
    // Under 3/4: no die, the move as asked.
    let (mut st, mut ev) = centre(&m, 3, seed_for(&[6]), |_| {});
    act(&m, &mut st, &mut ev, "advance:c:5.9");
    assert!(rolls(&ev, "The Variation").is_empty());
    assert!(close(st.units[c].y, 35.9));
    // 5 cm, then 1 cm: the second reaches 3/4 and a 1 takes back at most that move (docs M5).
    let (mut st, mut ev) = centre(&m, 3, seed_for(&[1]), |_| {});
    act(&m, &mut st, &mut ev, "advance:c:5.0");
    act(&m, &mut st, &mut ev, "advance:c:1.0");
    assert!(close(st.units[c].y, 35.0), "{}", st.units[c].y);
    // Two moves of 3 cm: the second brings the distance to 3/4 and rolls (docs M5).
    let (mut st, mut ev) = centre(&m, 3, seed_for(&[6]), |_| {});
    act(&m, &mut st, &mut ev, "advance:c:3.0");
    assert!(rolls(&ev, "The Variation").is_empty());
    act(&m, &mut st, &mut ev, "advance:c:3.0");
    assert_eq!(rolls(&ev, "The Variation").len(), 1);
    assert!(close(st.units[c].y, 38.0));
}

// ---------------------------------------------------------------------------------------------
// Musketry

#[test]
fn musketry_minus_one_if_the_unit_moved_that_phase() {
    // A battalion in firing order 3 cm from an enemy battalion: 4 dice, 4+ (Musketry).
    let m = table(&[
        ("f", 0, "foot", 90.0, 30.0, 90.0, ""),
        ("e", 1, "foot", 90.0, 36.0, 270.0, ""),
    ]);
    let e = idx(&m, "e");
    // Four musket dice 4, 4, 5, 3, then e's morale die 6 (passes).
    let seed = seed_for(&[4, 4, 5, 3, 6]);
    let (mut st, mut ev) = centre(&m, 3, seed, |_| {});
    act(&m, &mut st, &mut ev, "moves-done");
    assert_eq!(rolls_of(&ev, "Musketry", "f"), [[4u8, 4, 5, 3].as_slice()]);
    assert_eq!(st.units[e].eff, 4 - 3, "three dice of 4 or more");
    // The same dice after a move of 1 cm: only the 5 scores 4 after −1.
    let (mut st, mut ev) = centre(&m, 3, seed, |_| {});
    act(&m, &mut st, &mut ev, "advance:f:1.0");
    act(&m, &mut st, &mut ev, "moves-done");
    assert_eq!(st.units[e].eff, 4 - 1);
    assert!(ev.iter().any(|x| matches!(x, Event::Roll { rule, mods, .. }
        if rule == "Musketry" && mods == &[("moved this phase".to_string(), -1)])));
    // An about-face is not a move (docs M4): the three hits again.
    let (mut st, mut ev) = centre(&m, 3, seed, |_| {});
    act(&m, &mut st, &mut ev, "about-face:f");
    act(&m, &mut st, &mut ev, "about-face:f");
    act(&m, &mut st, &mut ev, "moves-done");
    assert_eq!(st.units[e].eff, 4 - 3);
}

#[test]
fn musketry_a_moving_column_cannot_hit() {
    // Foot not in firing order need 6; moved, a 6 scores 5 (docs F2).
    let m = table(&[
        ("f", 0, "foot", 90.0, 30.0, 90.0, "order = \"column\""),
        ("e", 1, "foot", 90.0, 38.0, 270.0, ""),
    ]);
    let e = idx(&m, "e");
    let (mut st, mut ev) = centre(&m, 3, seed_for(&[6, 6]), |_| {});
    act(&m, &mut st, &mut ev, "advance:f:1.0");
    act(&m, &mut st, &mut ev, "moves-done");
    assert_eq!(rolls_of(&ev, "Musketry", "f"), [[6u8, 6].as_slice()]);
    assert_eq!(st.units[e].eff, 4);
}

#[test]
fn musketry_carbines_6cm_muskets_8cm() {
    // Dismounted dragoons (front edge at 31.5) and a battalion (front at 31.5), each with an
    // enemy battalion straight ahead at the given gap.
    let fire = |carbine_gap: f64, musket_gap: f64| {
        let m = table(&[
            (
                "d",
                0,
                "heavy-horse",
                30.0,
                30.0,
                90.0,
                "dragoons = true\norder = \"dismounted\"",
            ),
            ("e1", 1, "foot", 30.0, 33.0 + carbine_gap, 270.0, ""),
            ("f", 0, "foot", 90.0, 30.0, 90.0, ""),
            ("e2", 1, "foot", 90.0, 33.0 + musket_gap, 270.0, ""),
        ]);
        let (mut st, mut ev) = centre(&m, 3, 7, |_| {});
        act(&m, &mut st, &mut ev, "moves-done");
        (fired(&ev, "d"), fired(&ev, "f"))
    };
    assert_eq!(fire(6.0, 8.0), (true, true));
    assert_eq!(fire(7.0, 7.0), (false, true));
    assert_eq!(fire(6.1, 8.1), (false, false));
}

#[test]
fn musketry_one_die_per_quarter_remaining_in_a_single_line() {
    // Column: two lines of bases, half the dice rounded up (docs F2).
    for (order, eff, dice) in [
        ("firing", 4u8, 4usize),
        ("firing", 3, 3),
        ("firing", 1, 1),
        ("column", 4, 2),
        ("column", 3, 2),
        ("column", 1, 1),
    ] {
        let m = table(&[
            (
                "f",
                0,
                "foot",
                90.0,
                30.0,
                90.0,
                &format!("order = \"{order}\""),
            ),
            ("e", 1, "foot", 90.0, 38.0, 270.0, ""),
        ]);
        let f = idx(&m, "f");
        let (mut st, mut ev) = centre(&m, 3, 7, |st| st.units[f].eff = eff);
        act(&m, &mut st, &mut ev, "moves-done");
        let r = rolls_of(&ev, "Musketry", "f");
        assert_eq!(r.len(), 1, "{order} {eff}");
        assert_eq!(r[0].len(), dice, "{order} at {}%", 25 * eff);
    }
}

// ---------------------------------------------------------------------------------------------
// Artillery

/// A gun "g" of side 0 at (90, 30) facing north (front edge at 32.5), with `others`.
fn battery(others: &[U], extra: &str, opts: Options) -> Minis {
    let mut all = vec![("g", 0, "gun", 90.0, 30.0, 90.0, "")];
    all.extend_from_slice(others);
    all.extend(RESERVES);
    table_with(&all, extra, opts)
}

/// The gun fires at "t" with dice from `seed`, after `setup`.
fn gun_fires(m: &Minis, seed: u64, setup: impl FnOnce(&mut State)) -> (State, Vec<Event>) {
    let (mut st, mut ev) = centre(m, 3, seed, setup);
    assert_eq!(st.step, Step::Guns);
    act(m, &mut st, &mut ev, "fire:g:t");
    (st, ev)
}

/// The number of potential hits rolled for (the dice of the second Artillery roll).
fn potential_hits(ev: &[Event]) -> usize {
    rolls(ev, "Artillery")
        .iter()
        .find(|(w, ..)| w.contains("potential hit(s)"))
        .map_or(0, |(_, d, _)| d.len())
}

/// A battalion "t" of side 1 facing the gun, `gap` cm from its front.
fn target_foot(gap: f64) -> U<'static> {
    ("t", 1, "foot", 90.0, 34.0 + gap, 270.0, "")
}

/// Heavy horse (`extra`: cuirassiers) "t" of side 1 facing the gun, 5 cm off.
fn target_horse(extra: &'static str) -> U<'static> {
    ("t", 1, "heavy-horse", 90.0, 40.0, 270.0, extra)
}

#[test]
fn artillery_canister_halves_the_die() {
    let m = battery(&[target_foot(5.0)], "", Options::default());
    let t = idx(&m, "t");
    // Die 4, halved: 2 potential hits; 4 hits, 3 misses; morale 6.
    let (st, ev) = gun_fires(&m, seed_for(&[4, 4, 3, 6]), |_| {});
    assert!(rolls(&ev, "Artillery")[0].0.contains("canister"));
    assert_eq!(potential_hits(&ev), 2);
    assert_eq!(st.units[t].eff, 3);
}

#[test]
fn artillery_roundshot_quarters_the_die_to_24cm() {
    let m = battery(&[target_foot(10.0)], "", Options::default());
    let t = idx(&m, "t");
    // 4 / 4 = 1; 3 / 4 = 0.75, nearest 1; 1 / 4 = 0.25, nearest 0.
    for (die, potential) in [(4u8, 1usize), (3, 1), (1, 0)] {
        let (st, ev) = gun_fires(&m, seed_for(&[die, 6, 6]), |_| {});
        assert!(rolls(&ev, "Artillery")[0].0.contains("roundshot"));
        assert_eq!(potential_hits(&ev), potential, "die {die}");
        assert_eq!(st.units[t].eff, 4 - potential as u8, "die {die}");
    }
    // 24 cm is in range, 24.1 is not: the gun step is skipped.
    let m = battery(&[target_foot(24.0)], "", Options::default());
    let (st, _) = centre(&m, 3, 7, |_| {});
    assert!(
        m.legal_actions(&st)
            .contains(&Action::Fire(0, idx(&m, "t")))
    );
    let m = battery(&[target_foot(24.1)], "", Options::default());
    let (st, _) = centre(&m, 3, 7, |_| {});
    assert_eq!(st.step, Step::Move);
}

#[test]
fn artillery_canister_to_6cm_then_roundshot() {
    // A die of 2: canister 1 potential hit; roundshot 0.5, an exact half (a 50:50 roll).
    let m = battery(&[target_foot(6.0)], "", Options::default());
    let (_, ev) = gun_fires(&m, seed_for(&[2, 6, 6]), |_| {});
    assert_eq!(potential_hits(&ev), 1);
    assert!(!rolls(&ev, "Artillery")[1].0.contains("exact half"));
    let m = battery(&[target_foot(6.1)], "", Options::default());
    let (_, ev) = gun_fires(&m, seed_for(&[2, 6, 6, 6]), |_| {});
    assert!(rolls(&ev, "Artillery")[0].0.contains("roundshot"));
    assert!(rolls(&ev, "Artillery")[1].0.contains("exact half"));
}

#[test]
fn artillery_halved_again_at_50_percent_or_under() {
    let m = battery(&[target_foot(5.0)], "", Options::default());
    // Die 4, canister 2; at 75% not halved, at 50% halved to 1.
    for (eff, potential) in [(3u8, 2usize), (2, 1)] {
        let (_, ev) = gun_fires(&m, seed_for(&[4, 6, 6, 6]), |st| st.units[0].eff = eff);
        assert_eq!(potential_hits(&ev), potential, "gun at {}%", 25 * eff);
    }
}

#[test]
fn artillery_an_exact_half_has_a_50_50_chance() {
    let m = battery(&[target_foot(5.0)], "", Options::default());
    let t = idx(&m, "t");
    // Die 3, canister 1.5: a 4 on the 50:50 makes 2 potential hits, a 3 makes 1.
    for (coin, potential) in [(4u8, 2usize), (3, 1)] {
        let (st, ev) = gun_fires(&m, seed_for(&[3, coin, 6, 6, 6]), |_| {});
        assert_eq!(rolls(&ev, "Artillery")[1].1, [coin]);
        assert_eq!(potential_hits(&ev), potential);
        assert_eq!(st.units[t].eff, 4 - potential as u8);
    }
    // At 50%: die 2, canister 1, halved 0.5: the 50:50 again.
    let (_, ev) = gun_fires(&m, seed_for(&[2, 5, 6, 6]), |st| st.units[0].eff = 2);
    assert!(rolls(&ev, "Artillery")[1].0.contains("exact half"));
    assert_eq!(potential_hits(&ev), 1);
}

#[test]
fn artillery_four_to_hit_troops_six_to_hit_guns() {
    // Die 6, canister 3 potential hits: dice 4, 5, 6; then a morale die of 6.
    let seed = seed_for(&[6, 4, 5, 6, 6]);
    let m = battery(&[target_foot(5.0)], "", Options::default());
    let (st, _) = gun_fires(&m, seed, |_| {});
    assert_eq!(st.units[idx(&m, "t")].eff, 4 - 3);
    let m = battery(&[target_horse("")], "", Options::default());
    let (st, _) = gun_fires(&m, seed, |_| {});
    assert_eq!(st.units[idx(&m, "t")].eff, 4 - 3);
    let m = battery(
        &[("t", 1, "gun", 90.0, 40.0, 270.0, "")],
        "",
        Options::default(),
    );
    let (st, _) = gun_fires(&m, seed, |_| {});
    assert_eq!(st.units[idx(&m, "t")].eff, 4 - 1, "only the 6 hits a gun");
}

#[test]
fn artillery_a_gun_that_fired_cannot_pivot_limber_or_move() {
    let m = battery(&[target_foot(10.0)], "", Options::default());
    let (mut st, _) = gun_fires(&m, seed_for(&[1]), |_| {});
    assert_eq!(st.step, Step::Move);
    assert!(!offered(&m, &st, 0));
    for id in ["pivot:g:10.0", "limber:g"] {
        assert!(refused(&m, &mut st, id).contains("fired"), "{id}");
    }
}

#[test]
fn artillery_each_gun_fired_costs_a_pip_unless_free_gun_fire() {
    // docs/minis.md P2.
    let m = battery(&[target_foot(10.0)], "", Options::default());
    let (st, _) = gun_fires(&m, seed_for(&[1]), |_| {});
    assert_eq!(st.pips[0], 2);
    let (st, _) = centre(&m, 0, 7, |_| {});
    assert_eq!(st.step, Step::Move, "no pip, no fire");
    let free = Options {
        free_gun_fire: true,
        ..Options::default()
    };
    let m = battery(&[target_foot(10.0)], "", free);
    let (st, _) = gun_fires(&m, seed_for(&[1]), |_| {});
    assert_eq!(st.pips[0], 3);
    let (st, _) = centre(&m, 0, 7, |_| {});
    assert!(
        m.legal_actions(&st)
            .contains(&Action::Fire(0, idx(&m, "t")))
    );
}

// ---------------------------------------------------------------------------------------------
// Saving throws

/// A wood around the target 5 cm from the gun (y 35 to 55).
fn wood() -> String {
    terrain("woods", 90.0, 45.0, 40.0, 20.0)
}

#[test]
fn saving_throws_behind_cover_4_or_more() {
    let m = battery(&[target_foot(5.0)], &wood(), Options::default());
    let t = idx(&m, "t");
    assert!(m.in_cover(&m.start(1, &mut Vec::new()), t));
    // Die 4: 2 potential hits, both hit; saves 5 and 2: one cancelled; morale 6.
    let (st, ev) = gun_fires(&m, seed_for(&[4, 4, 4, 5, 2, 6]), |_| {});
    let saves = rolls(&ev, "Saving throws");
    assert_eq!(saves.len(), 1);
    assert!(saves[0].0.contains("4+"), "{}", saves[0].0);
    assert_eq!(st.units[t].eff, 4 - 1);
}

#[test]
fn saving_throws_cuirassiers_6() {
    let cuirassiers = target_horse("cuirassiers = true");
    let m = battery(&[cuirassiers], "", Options::default());
    let t = idx(&m, "t");
    // Two hits; saves 5 and 6: only the 6 cancels.
    let (st, ev) = gun_fires(&m, seed_for(&[4, 4, 4, 5, 6, 6]), |_| {});
    assert!(rolls(&ev, "Saving throws")[0].0.contains("6+"));
    assert_eq!(st.units[t].eff, 4 - 1);
    // Other horse have no save: both hits stand.
    let m = battery(&[target_horse("")], "", Options::default());
    let (st, ev) = gun_fires(&m, seed_for(&[4, 4, 4, 5, 6, 6]), |_| {});
    assert!(rolls(&ev, "Saving throws").is_empty());
    assert_eq!(st.units[t].eff, 4 - 2);
}

#[test]
fn saving_throws_the_better_one_only() {
    // Cuirassiers in a wood: one roll a hit, at 4+ (docs F4), not a second at 6.
    let cuirassiers = target_horse("cuirassiers = true");
    let m = battery(&[cuirassiers], &wood(), Options::default());
    let t = idx(&m, "t");
    let (st, ev) = gun_fires(&m, seed_for(&[4, 4, 4, 5, 2, 6]), |_| {});
    let saves = rolls(&ev, "Saving throws");
    assert_eq!(saves.len(), 1);
    assert_eq!(saves[0].1, [5, 2]);
    assert_eq!(st.units[t].eff, 4 - 1, "the 5 saves at 4+");
}

// ---------------------------------------------------------------------------------------------
// Morale

/// The gun hits "t" (10 cm off, roundshot: die 4, one potential hit, a 6) and t tests with
/// `morale`; then `after` more dice.
fn one_hit_then_morale(morale: u8, after: &[u8]) -> u64 {
    let mut want = vec![4, 6, morale];
    want.extend_from_slice(after);
    seed_for(&want)
}

/// Whether t passed: effectiveness 3 and no retreat; failed: a further 25% and a retreat.
fn passed(m: &Minis, st: &State) -> bool {
    let t = idx(m, "t");
    let retreats = st.retreats.iter().any(|r| r.unit == t);
    match st.units[t].eff {
        3 => {
            assert!(!retreats);
            true
        }
        2 => {
            assert!(retreats, "a failed test retreats");
            assert_eq!(
                m.decider(st),
                Some(Seat(1)),
                "t's owner decides its retreat"
            );
            false
        }
        e => panic!("t at {}%", 25 * e),
    }
}

#[test]
fn morale_minimum_score_by_quality() {
    for (quality, need) in [("elite", 3u8), ("regular", 4), ("poor", 5)] {
        let q = format!("quality = \"{quality}\"");
        let m = battery(
            &[("t", 1, "foot", 90.0, 44.0, 270.0, &q)],
            "",
            Options::default(),
        );
        let (st, _) = gun_fires(&m, one_hit_then_morale(need, &[]), |_| {});
        assert!(passed(&m, &st), "{quality} passes on {need}");
        let (st, _) = gun_fires(&m, one_hit_then_morale(need - 1, &[]), |_| {});
        assert!(!passed(&m, &st), "{quality} fails on {}", need - 1);
    }
}

#[test]
fn morale_one_test_at_the_end_of_the_phase() {
    // Two guns hit t in the same gun step: one test, after both have fired.
    let m = battery(
        &[target_foot(10.0), ("g2", 0, "gun", 80.0, 30.0, 90.0, "")],
        "",
        Options::default(),
    );
    let t = idx(&m, "t");
    let (mut st, mut ev) = gun_fires(&m, seed_for(&[4, 6, 4, 6, 6]), |_| {});
    assert!(rolls_of(&ev, "Morale", "t").is_empty(), "not yet");
    act(&m, &mut st, &mut ev, "fire:g2:t");
    assert_eq!(rolls_of(&ev, "Morale", "t"), [[6u8].as_slice()]);
    assert_eq!(st.units[t].eff, 4 - 2);
}

#[test]
fn morale_plus_one_for_a_general_attached() {
    let m = battery(&[target_foot(10.0)], &general(1, "t"), Options::default());
    let (st, ev) = gun_fires(&m, one_hit_then_morale(3, &[]), |_| {});
    assert!(passed(&m, &st), "3 + 1 general passes 4+");
    assert!(ev.iter().any(|x| matches!(x, Event::Roll { rule, mods, .. }
        if rule == "Morale" && mods == &[("general attached".to_string(), 1)])));
}

#[test]
fn morale_plus_one_for_support_from_the_rear() {
    // t's rear edge is at y 45.5. Horse 4 cm behind t supports; light infantry and guns do
    // not; heavy horse (10 cm) reach 20 cm in two moves; a unit alongside, even 1 cm back, is
    // not to the rear; one whose centre is behind t's rear edge is (docs R1).
    for (kind, x, y, supports) in [
        ("heavy-horse", 90.0, 52.0, true),
        ("light-foot", 90.0, 52.0, false),
        ("gun", 90.0, 52.0, false),
        ("heavy-horse", 90.0, 45.5 + 20.0 + 2.5, true),
        ("heavy-horse", 90.0, 45.5 + 20.2 + 2.5, false),
        ("heavy-horse", 101.0, 44.0, false),
        ("heavy-horse", 101.0, 45.0, false),
        ("heavy-horse", 101.0, 48.5, true),
    ] {
        let m = battery(
            &[target_foot(10.0), ("s", 1, kind, x, y, 270.0, "")],
            "",
            Options::default(),
        );
        let (st, _) = gun_fires(&m, one_hit_then_morale(3, &[]), |_| {});
        assert_eq!(passed(&m, &st), supports, "{kind} at ({x}, {y})");
    }
}

#[test]
fn morale_the_general_is_eliminated_with_his_unit() {
    let m = battery(&[target_foot(10.0)], &general(1, "t"), Options::default());
    let t = idx(&m, "t");
    let (st, _) = gun_fires(&m, one_hit_then_morale(6, &[]), |st| st.units[t].eff = 1);
    assert!(st.units[t].gone);
    assert!(st.generals[0].gone);
    // A battalion 2 points, a general 3.
    assert_eq!(m.points(&st)[1], m.start_points()[1] - 2 - 3);
}

// ---------------------------------------------------------------------------------------------
// Retreats (Morale)

/// The gun's hit makes t (a battalion in firing order 10 cm off) fail its morale; its owner
/// retreats it straight with the variation die `variation`, then `after` more dice.
fn retreat_after_fire(others: &[U], variation: u8, after: &[u8]) -> (Minis, State, Vec<Event>) {
    retreat_of_after_fire(target_foot(10.0), others, variation, after)
}

/// The same with another target "t", 10 cm off.
fn retreat_of_after_fire(
    target: U,
    others: &[U],
    variation: u8,
    after: &[u8],
) -> (Minis, State, Vec<Event>) {
    let mut all = vec![target];
    all.extend_from_slice(others);
    let m = battery(&all, "", Options::default());
    let mut want = vec![variation];
    want.extend_from_slice(after);
    let (mut st, mut ev) = gun_fires(&m, one_hit_then_morale(1, &want), |_| {});
    let t = idx(&m, "t");
    assert_eq!(
        m.legal_actions(&st),
        [Veer::Straight, Veer::Left, Veer::Right].map(|v| Action::Retreat(t, v))
    );
    act(&m, &mut st, &mut ev, "retreat:t:straight");
    (m, st, ev)
}

#[test]
fn retreats_a_full_move_with_the_variation_back_to_the_enemy() {
    // Regular foot lose firing order: 8 cm; 6 adds 25%, 1 takes 25% off.
    for (die, dist) in [(3u8, 8.0), (6, 10.0), (1, 6.0)] {
        let (m, st, _) = retreat_after_fire(&[], die, &[]);
        let u = &st.units[idx(&m, "t")];
        assert_eq!(u.order, Order::Column, "firing order lost");
        assert!(u.retreating);
        // The gun is due south: the back to it is facing north.
        assert_eq!(u.facing, 90.0);
        assert!(
            close(u.x, 90.0) && close(u.y, 44.0 + dist),
            "{die}: {}",
            u.y
        );
    }
}

#[test]
fn retreats_obstructed_by_regular_foot_or_horse_eliminated() {
    // A friendly battalion behind: t is eliminated, the battalion tests (a 1: fails).
    let (m, st, ev) = retreat_after_fire(&[("b", 1, "foot", 90.0, 51.0, 270.0, "")], 3, &[1]);
    assert!(st.units[idx(&m, "t")].gone);
    assert_eq!(rolls_of(&ev, "Morale", "b"), [[1u8].as_slice()]);
    assert_eq!(st.units[idx(&m, "b")].eff, 3);
    // Friendly horse retreated into by foot: no test.
    let (m, st, ev) =
        retreat_after_fire(&[("b", 1, "heavy-horse", 90.0, 51.0, 270.0, "")], 3, &[1]);
    assert!(st.units[idx(&m, "t")].gone);
    assert!(rolls_of(&ev, "Morale", "b").is_empty());
    assert_eq!(st.units[idx(&m, "b")].eff, 4);
    // Enemy horse: eliminated, and the enemy tests nothing.
    let (m, st, ev) =
        retreat_after_fire(&[("b", 0, "heavy-horse", 90.0, 51.0, 270.0, "")], 3, &[1]);
    assert!(st.units[idx(&m, "t")].gone);
    assert!(rolls_of(&ev, "Morale", "b").is_empty());
}

#[test]
fn retreats_horse_blocking_a_gun_tests_blocking_dismounted_dragoons_not() {
    // "Unless its horse retreated into by foot": a limbered gun is not foot, so the horse tests
    // (a 1: it fails); dismounted dragoons are foot (docs R2), so it does not.
    let limbered = ("t", 1, "gun", 90.0, 46.5, 270.0, "order = \"limbered\"");
    let horse = ("b", 1, "heavy-horse", 90.0, 53.0, 270.0, "");
    let (m, st, ev) = retreat_of_after_fire(limbered, &[horse], 3, &[1]);
    assert!(st.units[idx(&m, "t")].gone);
    assert_eq!(rolls_of(&ev, "Morale", "b"), [[1u8].as_slice()]);
    assert_eq!(st.units[idx(&m, "b")].eff, 3);
    let dismounted = (
        "t",
        1,
        "heavy-horse",
        90.0,
        44.0,
        270.0,
        "dragoons = true\norder = \"dismounted\"",
    );
    let horse = ("b", 1, "heavy-horse", 90.0, 48.0, 270.0, "");
    let (m, st, ev) = retreat_of_after_fire(dismounted, &[horse], 3, &[1]);
    assert!(st.units[idx(&m, "t")].gone);
    assert!(rolls_of(&ev, "Morale", "b").is_empty());
    assert_eq!(st.units[idx(&m, "b")].eff, 4);
}

#[test]
fn retreats_pass_through_light_foot_and_guns() {
    // docs R2: the retreat goes on until the base is clear. The column (6 cm deep) clears the
    // far edge of what it passes through with its rear edge.
    for (kind, far_edge) in [("light-foot", 51.5), ("gun", 52.5)] {
        let (m, st, _) = retreat_after_fire(&[("b", 1, kind, 90.0, 50.0, 270.0, "")], 3, &[]);
        let u = &st.units[idx(&m, "t")];
        assert!(!u.gone, "{kind}");
        assert!(close(u.y, far_edge + 3.0), "{kind}: {}", u.y);
    }
}

#[test]
fn retreats_off_the_table_eliminate() {
    // The gun near the north edge fires north at t 10 cm off; t's 8 cm retreat would end 3 cm
    // over the edge (the table is 120 cm deep).
    let m = table(&[
        ("g", 0, "gun", 90.0, 98.0, 90.0, ""),
        ("t", 1, "foot", 90.0, 112.0, 270.0, ""),
    ]);
    let (mut st, mut ev) = centre(&m, 3, one_hit_then_morale(1, &[3]), |_| {});
    act(&m, &mut st, &mut ev, "fire:g:t");
    act(&m, &mut st, &mut ev, "retreat:t:straight");
    assert!(st.units[idx(&m, "t")].gone);
}

#[test]
fn retreats_unlimbered_guns_are_abandoned() {
    // A gun hit by a gun (6), failing its morale: it cannot retreat.
    let m = battery(
        &[("t", 1, "gun", 90.0, 45.0, 270.0, "")],
        "",
        Options::default(),
    );
    let t = idx(&m, "t");
    let (mut st, mut ev) = gun_fires(&m, one_hit_then_morale(1, &[]), |_| {});
    assert_eq!(st.units[t].eff, 2);
    act(&m, &mut st, &mut ev, "retreat:t:straight");
    assert!(st.units[t].gone);
}

// ---------------------------------------------------------------------------------------------
// Rally (Morale)

/// A retreating column "r" (its back to the enemy 30 cm north) with `others` and `extra`.
fn rally_table(others: &[U], extra: &str) -> Minis {
    let mut all = vec![
        ("r", 0, "foot", 90.0, 30.0, 270.0, "order = \"column\""),
        ("e", 1, "foot", 90.0, 60.0, 270.0, ""),
    ];
    all.extend_from_slice(others);
    all.extend(RESERVES);
    table_with(&all, extra, Options::default())
}

fn rally(m: &Minis, rolls: &[u8]) -> (State, Vec<Event>) {
    let r = idx(m, "r");
    centre(m, 3, seed_for(rolls), |st| st.units[r].retreating = true)
}

#[test]
fn rally_five_or_better_halts_and_the_unit_may_act_at_once() {
    let m = rally_table(&[], "");
    let r = idx(&m, "r");
    for die in [5u8, 6] {
        let (mut st, mut ev) = rally(&m, &[die]);
        assert_eq!(rolls(&ev, "Morale (rally)")[0].1, [die]);
        assert!(!st.units[r].retreating, "{die} halts");
        assert!(
            offered(&m, &st, r),
            "a halted unit may act in the same phase"
        );
        act(&m, &mut st, &mut ev, "about-face:r");
        act(&m, &mut st, &mut ev, "advance:r:1.0");
        assert!(close(st.units[r].y, 31.0));
    }
    let (st, _) = rally(&m, &[4]);
    assert!(st.units[r].retreating, "4 does not halt");
    assert_eq!(st.retreats.len(), 1);
    // No pips in the sector: the rally is still rolled (docs P3).
    let (st, ev) = centre(&m, 0, seed_for(&[5]), |st| st.units[r].retreating = true);
    assert_eq!(rolls(&ev, "Morale (rally)").len(), 1);
    assert!(!st.units[r].retreating);
}

#[test]
fn rally_plus_one_with_a_general() {
    let m = rally_table(&[], &general(0, "r"));
    let (st, _) = rally(&m, &[4]);
    assert!(!st.units[idx(&m, "r")].retreating, "4 + 1 halts");
}

#[test]
fn rally_a_failed_rally_retreats_another_move() {
    // Away from the enemy (south), a full 8 cm with the variation (a 3).
    let m = rally_table(&[], "");
    let r = idx(&m, "r");
    let (mut st, mut ev) = rally(&m, &[4, 3]);
    act(&m, &mut st, &mut ev, "retreat:r:straight");
    assert!(close(st.units[r].y, 22.0) && st.units[r].facing == 270.0);
    // A later retreat stops at an obstruction (docs R2): the battalion behind (its edge at
    // 23.5) stops the column's rear edge there, and it is not eliminated.
    let m = rally_table(&[("b", 0, "foot", 90.0, 22.0, 90.0, "")], "");
    let (mut st, mut ev) = rally(&m, &[4, 3]);
    act(&m, &mut st, &mut ev, "retreat:r:straight");
    assert!(!st.units[r].gone);
    assert!(close(st.units[r].y, 23.5 + 3.0), "{}", st.units[r].y);
}

// ---------------------------------------------------------------------------------------------
// Victory

/// Horse "h1" (and "h2") of side 0 charge guns 3 cm ahead: guns so contacted are eliminated.
fn charge(m: &Minis, ids: &[&str]) -> State {
    let (mut st, mut ev) = centre(m, 3, 7, |_| {});
    for id in ids {
        act(m, &mut st, &mut ev, &format!("advance:{id}:3.0"));
    }
    st
}

#[test]
fn victory_exactly_half_is_not_defeat_below_half_is() {
    // Side 1: a gun and a light horse regiment, 2 points; one gun lost leaves exactly half.
    let units = [
        ("h1", 0, "heavy-horse", 60.0, 30.0, 90.0, ""),
        ("h2", 0, "heavy-horse", 120.0, 30.0, 90.0, ""),
        ("g1", 1, "gun", 60.0, 38.0, 270.0, ""),
        ("lh", 1, "light-horse", 150.0, 110.0, 270.0, ""),
    ];
    let m = table_with(&units, "", Options::default());
    assert_eq!(m.start_points()[1], 2);
    let st = charge(&m, &["h1"]);
    assert!(st.units[idx(&m, "g1")].gone);
    assert_eq!(m.points(&st)[1], 1);
    assert!(m.outcome(&st).is_none(), "exactly half is not defeat");
    // Side 1: two guns and the horse, 3 points: one gun lost leaves 2, two leave 1 (below 1.5).
    let mut units = units.to_vec();
    units.push(("g2", 1, "gun", 120.0, 38.0, 270.0, ""));
    let m = table_with(&units, "", Options::default());
    let st = charge(&m, &["h1"]);
    assert!(m.outcome(&st).is_none());
    let st = charge(&m, &["h1", "h2"]);
    let o = m.outcome(&st).expect("side 1 is defeated");
    assert_eq!((o.winner, o.rule.as_str()), (Some(Seat(0)), "Victory"));
}

#[test]
fn victory_both_armies_at_once_the_smaller_share_loses() {
    // docs V1. Two battalions at 25% in contact, each rolls one die (infantry row: 1 per 25%);
    // both hit, both are eliminated in the same melee.
    let both_hit = seed_for(&[4, 4]);
    let play = |extra: &str| {
        let m = table_with(
            &[
                ("a", 0, "foot", 90.0, 50.0, 90.0, ""),
                ("far0", 0, "gun", 10.0, 10.0, 90.0, ""),
                ("b", 1, "foot", 90.0, 53.0, 270.0, ""),
                ("far1", 1, "light-horse", 170.0, 110.0, 270.0, ""),
            ],
            extra,
            Options::default(),
        );
        let (a, b) = (idx(&m, "a"), idx(&m, "b"));
        let (mut st, mut ev) = centre(&m, 3, both_hit, |st| {
            st.units[a].eff = 1;
            st.units[b].eff = 1;
        });
        act(&m, &mut st, &mut ev, "moves-done");
        assert!(st.units[a].gone && st.units[b].gone);
        (m.points(&st), m.start_points(), m.outcome(&st))
    };
    // Each general with the battalion: each side keeps 1 of 6.
    let (now, start, o) = play(&format!("{}{}", general(0, "a"), general(1, "b")));
    assert_eq!((now, start), ([1, 1], [6, 6]));
    // Equal shares: the side not moving (side 1) loses.
    assert_eq!(o.expect("decided").winner, Some(Seat(0)));
    // Side 0 keeps 1 of 6, side 1 1 of 3: side 0, moving, has the smaller share and loses.
    let (now, start, o) = play(&general(0, "a"));
    assert_eq!((now, start), ([1, 1], [6, 3]));
    assert_eq!(o.expect("decided").winner, Some(Seat(1)));
}

/// Horse "h" at 25% and "e", a battalion at 50% in `order`, touch (e to the north); the horse
/// scores one hit, the battalion none, e passes its morale test; the next die (the variation of
/// e's retreat) is a 3. The melee is fought; e's retreat waits for its owner.
fn melee_lost(order: &str) -> (Minis, State, Vec<Event>) {
    // A line is 3 cm deep, a column 6: e's rear edge touches h's front at 32.5.
    let (y, horse_dice) = match order {
        "firing" => (34.0, 1),
        _ => (35.5, 3),
    };
    let m = table(&[
        ("h", 0, "heavy-horse", 90.0, 30.0, 90.0, ""),
        (
            "e",
            1,
            "foot",
            90.0,
            y,
            270.0,
            &format!("order = \"{order}\""),
        ),
    ]);
    let (h, e) = (idx(&m, "h"), idx(&m, "e"));
    // The table: 1 die per 25% against firing order attacked frontally, 3 against other foot;
    // foot roll 1 per 25%. Then e's morale die, then the variation.
    let n = horse_dice;
    let (seed, _) = seed_where(n + 4, |r| {
        let hits = |d: &[u8]| d.iter().filter(|&&x| x >= 4).count();
        hits(&r[..n]) == 1 && hits(&r[n..n + 2]) == 0 && r[n + 2] >= 4 && r[n + 3] == 3
    });
    let (mut st, mut ev) = centre(&m, 3, seed, |st| {
        st.units[h].eff = 1;
        st.units[e].eff = 2;
    });
    act(&m, &mut st, &mut ev, "moves-done");
    (m, st, ev)
}

#[test]
fn retreats_the_melee_loser_retreats_whatever_its_morale_roll() {
    let (m, st, ev) = melee_lost("column");
    let e = idx(&m, "e");
    let morale = rolls_of(&ev, "Morale", "e");
    assert!(morale.len() == 1 && morale[0][0] >= 4, "passed: {morale:?}");
    assert_eq!(st.units[e].eff, 2 - 1, "one hit, no further loss");
    assert_eq!(st.units[idx(&m, "h")].eff, 1, "no hit on the horse");
    assert!(
        st.retreats.iter().any(|p| p.unit == e),
        "the loser retreats"
    );
}

/// e loses the melee and retreats `veer`.
fn melee_lost_and_retreat(order: &str, veer: &str) -> (Minis, State) {
    let (m, mut st, mut ev) = melee_lost(order);
    act(&m, &mut st, &mut ev, &format!("retreat:e:{veer}"));
    (m, st)
}

#[test]
fn retreats_the_enemy_left_behind_is_no_obstruction() {
    // A line losing a melee becomes a column (deeper, over the horse it touched) and goes 8 cm
    // north: the horse behind it does not obstruct the retreat (docs R2).
    let (m, st) = melee_lost_and_retreat("firing", "straight");
    let e = &st.units[idx(&m, "e")];
    assert!(!e.gone);
    assert!(close(e.x, 90.0) && close(e.y, 34.0 + 8.0), "{e:?}");
    // Veering 30° turns the column's corner over the horse: still no obstruction; 8 cm at 120°
    // or 60°.
    for (veer, deg) in [("left", 120.0f64), ("right", 60.0)] {
        let (m, st) = melee_lost_and_retreat("column", veer);
        let e = &st.units[idx(&m, "e")];
        assert!(!e.gone, "{veer}");
        let (dx, dy) = (8.0 * deg.to_radians().cos(), 8.0 * deg.to_radians().sin());
        assert!(
            close(e.x, 90.0 + dx) && close(e.y, 35.5 + dy),
            "{veer}: {e:?}"
        );
        assert_eq!(e.facing, deg);
    }
}

/// Movement, docs/minis.md M9: every move uses movement, so a phase and a game have a bounded
/// number of actions — rule tables with a base under 1 cm or a rate of nothing, and a scenario
/// with no turn limit, are refused; the bound of the built-in tables is stated.
#[test]
fn movement_every_action_uses_movement_so_a_phase_is_bounded() {
    let m = table(&[]);
    // The narrowest base (a limbered gun, 3 cm) wheeling a tenth of a degree uses 5/1024 cm:
    // 12 cm of light horse take at most 2,458 such wheels, with two about-faces and one ending action.
    assert_eq!(m.max_unit_actions_per_phase(), 2458 + 1 + 2 + 1);
    let scenario = "[scenario]\nid = \"t\"\nname = \"t\"\nsides = [\"A\", \"B\"]\ntable = [180.0, 120.0]\nmax_turns = 5\nreconstructed = \"test\"\n[[units]]\nid = \"a\"\nname = \"a\"\nside = 0\nkind = \"foot\"\nsector = \"centre\"\nx = 50.0\ny = 50.0\nfacing = 90.0\nreconstructed = \"test\"\n[[units]]\nid = \"b\"\nname = \"b\"\nside = 1\nkind = \"foot\"\nsector = \"centre\"\nx = 50.0\ny = 90.0\nfacing = 270.0\nreconstructed = \"test\"\n";
    assert!(Minis::from_text(scenario, RULES, Options::default()).is_ok());
    for (from, to, what) in [
        (
            "gun_limbered = [3.0, 8.0]",
            "gun_limbered = [0.001, 8.0]",
            "gun_limbered",
        ),
        ("light_horse = 12.0", "light_horse = 0.0", "light_horse"),
    ] {
        assert!(RULES.contains(from));
        let e = Minis::from_text(scenario, &RULES.replacen(from, to, 1), Options::default())
            .expect_err("refused")
            .join("; ");
        assert!(e.contains(what), "{e}");
    }
    let e = Minis::from_text(
        &scenario.replacen("max_turns = 5", "max_turns = 0", 1),
        RULES,
        Options::default(),
    )
    .expect_err("refused")
    .join("; ");
    assert!(e.contains("max_turns"), "{e}");
}
