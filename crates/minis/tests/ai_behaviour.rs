//! The miniatures agents' hooks from fixed positions (issue 20): each test sets a small table and
//! checks that the rule-aware scores or the evaluation choose what the rule text rewards. Test
//! names start with the paragraph of `shared/rules/command-and-control-miniatures.en.txt` whose
//! reading they test.
use engine::{AgentHooks, Dice, Ruleset, Seat};
use minis::state::Step;
use minis::{Action, Minis, Options, State, Veer};

const RULES: &str = include_str!("../../../scenarios/minis/rules.toml");

/// A unit on the test table: id, side, kind, x, y, facing, extra TOML lines.
type U<'a> = (&'a str, u8, &'a str, f64, f64, f64, &'a str);

/// Far-off reserves, so that no loss in the test decides the game (Victory).
const RESERVES: [U<'static>; 4] = [
    ("r0a", 0, "foot", 10.0, 5.0, 90.0, ""),
    ("r0b", 0, "foot", 30.0, 5.0, 90.0, ""),
    ("r1a", 1, "foot", 150.0, 115.0, 270.0, ""),
    ("r1b", 1, "foot", 170.0, 115.0, 270.0, ""),
];

/// A scenario of the given units and the reserves, all in the centre sector.
fn table(units: &[U]) -> Minis {
    let mut t = String::from(
        "[scenario]\nid = \"t\"\nname = \"t\"\nsides = [\"A\", \"B\"]\ntable = [180.0, 120.0]\nmax_turns = 5\nreconstructed = \"test\"\n",
    );
    for (id, side, kind, x, y, f, extra) in units.iter().chain(RESERVES.iter()) {
        t.push_str(&format!(
            "[[units]]\nid = \"{id}\"\nname = \"{id}\"\nside = {side}\nkind = \"{kind}\"\nsector = \"centre\"\nx = {x}\ny = {y}\nfacing = {f}\n{extra}\nreconstructed = \"test\"\n"
        ));
    }
    Minis::from_text(&t, RULES, Options::default()).expect("test table is valid")
}

/// The centre's move step of side A with `pips` pips (Sequence 1), guns done.
fn moves(m: &Minis, pips: u8) -> State {
    let mut ev = Vec::new();
    let mut st = m.start(1, &mut ev);
    st.pips = [pips, 0, 0];
    m.apply_id(&mut st, "sector:centre", &mut ev)
        .expect("the centre can be played");
    if st.step == Step::Guns {
        m.apply_id(&mut st, "guns-done", &mut ev)
            .expect("the guns may stop");
    }
    assert_eq!(st.step, Step::Move);
    st
}

/// The legal action the hooks score best, as its id.
fn best(m: &Minis, st: &State) -> String {
    let legal = m.legal_actions(st);
    let scores = m.action_scores(st, &legal);
    let i = engine::best_index(&scores, 0);
    m.action_id(&legal[i])
}

/// The state after the action `id`, its dice aside (where the base ends: no variation is
/// rolled, The Variation).
fn after(m: &Minis, st: &State, id: &str) -> State {
    let mut s = st.clone();
    for u in s.units.iter_mut() {
        u.ph.varied = true;
    }
    m.apply_id(&mut s, id, &mut Vec::new())
        .unwrap_or_else(|e| panic!("{id}: {e}"));
    s
}

fn touching(m: &Minis, st: &State, a: usize, b: usize) -> bool {
    m.rect(st, a).touches(&m.rect(st, b))
}

/// Melees: heavy cavalry against other infantry roll 3 dice per 25%, +1 in flank; the infantry
/// roll 1. A cuirassier regiment 45° off a column's flank, out of its straight path, charges it
/// (an oblique into contact) rather than advance past it.
#[test]
fn melees_it_charges_a_flank_it_can_win() {
    let m = table(&[
        ("horse", 0, "heavy-horse", 50.0, 50.0, 90.0, ""),
        ("column", 1, "foot", 58.5, 58.5, 0.0, "order = \"column\""),
    ]);
    let st = moves(&m, 3);
    let id = best(&m, &st);
    let s = after(&m, &st, &id);
    let (h, c) = (
        m.unit_index("horse").expect("unit"),
        m.unit_index("column").expect("unit"),
    );
    assert!(
        touching(&m, &s, h, c) || s.units[c].gone,
        "{id}: the horse does not charge the column's flank"
    );
    // The computer says so (an explanation a player reads).
    let legal = m.legal_actions(&st);
    let a = legal
        .iter()
        .find(|a| m.action_id(a) == id)
        .expect("the best action is legal");
    let said = m.intent(&st, a, engine::Viewer::All).unwrap_or_default();
    assert!(said.contains("charges column"), "{said}");
}

/// Melees: light cavalry against heavy cavalry roll 1 die per 25% and take 2: a hussar regiment
/// ten centimetres before cuirassiers, within its move, does not ride into them.
#[test]
fn melees_it_does_not_walk_into_a_losing_melee() {
    let m = table(&[
        ("hussars", 0, "light-horse", 90.0, 50.0, 90.0, ""),
        ("cuirassiers", 1, "heavy-horse", 90.0, 65.0, 270.0, ""),
    ]);
    let st = moves(&m, 3);
    let id = best(&m, &st);
    let s = after(&m, &st, &id);
    let (h, c) = (
        m.unit_index("hussars").expect("unit"),
        m.unit_index("cuirassiers").expect("unit"),
    );
    assert!(
        !touching(&m, &s, h, c),
        "{id}: the hussars ride into the cuirassiers"
    );
}

/// Artillery and Victory: a unit counts whole until eliminated, so a hit on a unit with 25% left
/// is worth a whole unit — the gun fires at the weakened battalion, not at the nearer fresh one.
#[test]
fn artillery_it_fires_at_the_target_a_hit_can_eliminate() {
    let m = table(&[
        ("gun", 0, "gun", 90.0, 40.0, 90.0, ""),
        ("fresh", 1, "foot", 86.0, 55.0, 270.0, ""),
        ("weak", 1, "foot", 100.0, 58.0, 270.0, ""),
    ]);
    let mut ev = Vec::new();
    let mut st = m.start(1, &mut ev);
    st.pips = [3, 0, 0];
    let weak = m.unit_index("weak").expect("unit");
    st.units[weak].eff = 1;
    m.apply_id(&mut st, "sector:centre", &mut ev)
        .expect("the centre can be played");
    assert_eq!(st.step, Step::Guns);
    let legal = m.legal_actions(&st);
    let scores = m.action_scores(&st, &legal);
    let score = |t: &str| {
        let t = m.unit_index(t).expect("unit");
        legal
            .iter()
            .position(|a| matches!(a, Action::Fire(_, x) if *x == t))
            .map(|i| scores[i])
            .expect("the gun may fire at it")
    };
    assert!(
        score("weak") > score("fresh"),
        "weak {} fresh {}",
        score("weak"),
        score("fresh")
    );
}

/// Morale (retreat): a retreat whose first move is obstructed by regular foot eliminates the
/// unit; its owner veers 30° round the friend behind it.
#[test]
fn morale_a_retreat_veers_round_a_friend_behind() {
    let m = table(&[
        ("front", 0, "foot", 90.0, 50.0, 90.0, "order = \"column\""),
        ("behind", 0, "foot", 90.0, 42.0, 90.0, ""),
        ("enemy", 1, "heavy-horse", 90.0, 56.0, 270.0, ""),
    ]);
    let mut ev = Vec::new();
    let mut st = m.start(1, &mut ev);
    let front = m.unit_index("front").expect("unit");
    st.retreats.push(minis::state::PendingRetreat {
        unit: front,
        from: [90.0, 56.0],
        first: true,
    });
    let legal = m.legal_actions(&st);
    assert_eq!(legal.len(), 3, "three directions");
    let scores = m.action_scores(&st, &legal);
    let i = engine::best_index(&scores, 0);
    assert_ne!(
        legal[i],
        Action::Retreat(front, Veer::Straight),
        "straight back runs into the friend behind"
    );
}

/// Victory and Morale: a unit counts whole until eliminated, but one with 25% left is one hit
/// from it — the evaluation counts lost effectiveness, not only units gone.
#[test]
fn victory_the_evaluation_counts_lost_effectiveness() {
    let m = table(&[
        ("a", 0, "foot", 60.0, 50.0, 90.0, ""),
        ("b", 1, "foot", 120.0, 70.0, 270.0, ""),
    ]);
    let mut ev = Vec::new();
    let st = m.start(1, &mut ev);
    let mut worn = st.clone();
    let b = m.unit_index("b").expect("unit");
    worn.units[b].eff = 1;
    assert!(
        m.evaluate(&worn, Seat(0)) > m.evaluate(&st, Seat(0)) + 0.01,
        "{} against {}",
        m.evaluate(&worn, Seat(0)),
        m.evaluate(&st, Seat(0))
    );
}

/// Sequence 1 and the search: a search plays on copies whose dice are re-seeded, so that it
/// never reads the rolls to come.
#[test]
fn sequence_a_search_never_reads_the_dice_to_come() {
    let m = table(&[("a", 0, "foot", 60.0, 50.0, 90.0, "")]);
    let mut ev = Vec::new();
    let st = m.start(1, &mut ev);
    let d = m.determinize(&st, Seat(0), 99);
    assert_ne!(d.dice, st.dice);
    assert_eq!(d.dice, Dice::new(99));
    assert_eq!(d.units, st.units);
}
