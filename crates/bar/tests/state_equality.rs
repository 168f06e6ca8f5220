//! The hand-written equalities of the state (`State`, `Activation`, `VoluntaryRout`,
//! `ArmyState`, `Mover`: written out to spare the C library's slow comparison of two empty
//! lists, `state::same`) against an independent judge, the state's JSON: two states are equal
//! exactly when they are written the same, and a change to any one field, nested ones included,
//! makes them unequal.
use bar::Bar;
use bar::state::{Phase, State};
use engine::{Dice, Ruleset};
use serde_json::Value;

/// A state of a sampled `bar-drill` game in a unit's movement, after some decisions.
fn moving_state(bar: &Bar, seed: u64) -> State {
    let mut ev = Vec::new();
    let mut st = bar.start(seed, &mut ev);
    let mut pick = Dice::new(seed ^ 0x5eed);
    let mut n = 0;
    while bar.decider(&st).is_some() {
        let a = bar
            .random_action(&st, &mut pick)
            .expect("a decider has an action");
        ev.clear();
        bar.apply_legal(&mut st, &a, &mut ev);
        n += 1;
        if n > 200 && matches!(st.phase, Phase::Moving(_)) {
            return st;
        }
    }
    panic!("seed {seed}: no unit's movement after 200 decisions");
}

/// A different value of the same kind: numbers +1, flags flipped, a list one item longer (a copy
/// of its first, or each of `fill` tried for an empty one), an absent value set.
fn others(v: &Value, fill: &[Value]) -> Vec<Value> {
    match v {
        Value::Bool(b) => vec![Value::Bool(!b)],
        Value::Number(n) => vec![Value::from(n.as_u64().unwrap_or(0) + 1)],
        Value::String(s) => vec![Value::String(format!("{s}x"))],
        Value::Array(a) => match a.first() {
            Some(x) => {
                let mut b = a.clone();
                b.push(x.clone());
                vec![Value::Array(b)]
            }
            None => fill.iter().map(|f| Value::Array(vec![f.clone()])).collect(),
        },
        // An absent value: a list of one, or a value.
        Value::Null => fill
            .iter()
            .map(|f| Value::Array(vec![f.clone()]))
            .chain(fill.iter().cloned())
            .collect(),
        Value::Object(_) => Vec::new(),
    }
}

/// Every state that differs from `st` in one field of the object at `path` (JSON pointer) —
/// fields absent from the JSON (skipped when empty) named in `absent` — as the field's name and
/// the state; the changes the state cannot read (a value of the wrong kind) are left out.
fn one_field_changes(st: &State, path: &str, absent: &[&str]) -> Vec<(String, State)> {
    // A phase, a job and a route for the lists of those.
    let fill = [
        Value::from(0),
        Value::from(1),
        Value::Bool(true),
        Value::String("0101".into()),
        serde_json::json!({ "Face": 0 }),
        Value::String("Movement".into()),
        serde_json::json!({ "units": [0], "start": "0101", "path": [] }),
    ];
    let whole = serde_json::to_value(st).expect("a state writes");
    let obj = whole
        .pointer(path)
        .and_then(Value::as_object)
        .unwrap_or_else(|| panic!("{path} is an object of the state"))
        .clone();
    let mut keys: Vec<String> = obj.keys().cloned().collect();
    keys.extend(
        absent
            .iter()
            .filter(|k| !obj.contains_key(**k))
            .map(|k| k.to_string()),
    );
    let mut out = Vec::new();
    for key in keys {
        let now = obj.get(&key).cloned().unwrap_or(Value::Null);
        for other in others(&now, &fill) {
            let mut changed = whole.clone();
            changed
                .pointer_mut(path)
                .and_then(Value::as_object_mut)
                .expect("the same object")
                .insert(key.clone(), other);
            if let Ok(s) = serde_json::from_value::<State>(changed) {
                out.push((format!("{path}/{key}"), s));
                break;
            }
        }
    }
    out
}

#[test]
fn the_states_equality_is_the_equality_of_their_json() {
    let bar = Bar::load("bar-drill", &[], None).expect("bar-drill loads");
    let states: Vec<State> = (0..4).map(|s| moving_state(&bar, s)).collect();
    for (i, a) in states.iter().enumerate() {
        assert_eq!(*a, a.clone(), "a copy is equal");
        let back: State =
            serde_json::from_value(serde_json::to_value(a).expect("writes")).expect("reads back");
        assert_eq!(*a, back, "read back from its JSON, equal");
        for b in &states[i + 1..] {
            assert_ne!(*a, *b);
        }
    }
}

#[test]
fn a_change_to_any_one_field_makes_two_states_unequal() {
    let bar = Bar::load("bar-drill", &[], None).expect("bar-drill loads");
    let st = moving_state(&bar, 1);
    let Phase::Moving(_) = &st.phase else {
        unreachable!("moving_state stops in a unit's movement")
    };
    let mut checked = Vec::new();
    let places: [(&str, &[&str]); 6] = [
        ("", &["holders", "rerouted", "loaded", "routes"]),
        (
            "/activation",
            &["voluntary", "restacked", "fired", "reform_failed", "spread"],
        ),
        ("/armies/0", &[]),
        ("/phase/Moving", &["charged_by", "charge_option", "free"]),
        ("/activation/voluntary", &[]),
        ("/armies/1", &[]),
    ];
    let mut st = st;
    // A voluntary rout record with something in it, so that its own fields are written.
    if let Some(act) = st.activation.as_mut() {
        act.voluntary.done = true;
    }
    for (path, absent) in places {
        for (field, changed) in one_field_changes(&st, path, absent) {
            assert_ne!(st, changed, "{field} changed, yet equal");
            assert_ne!(changed, st, "{field} changed, yet equal (other way round)");
            assert_eq!(changed, changed.clone(), "{field}");
            checked.push(field);
        }
    }
    // The dice, whose state is an object: one roll.
    let mut rolled = st.clone();
    rolled.dice.below(10);
    assert_ne!(st, rolled, "the dice rolled, yet equal");
    checked.push("/dice".into());
    // The mover's aspect before its last action, a tuple.
    let mut before = st.clone();
    if let Phase::Moving(m) = &mut before.phase {
        let u = &st.units[usize::from(m.units[0])];
        m.before = match m.before {
            None => Some((u.hexes, u.facing, u.formation)),
            Some(_) => None,
        };
    }
    assert_ne!(st, before, "the mover's aspect before changed, yet equal");
    checked.push("/phase/Moving/before".into());
    // Every field of the hand-written equalities was changed (the decision count and the phase
    // through `State`'s own).
    for f in [
        "/turn",
        "/decisions",
        "/dice",
        "/holders",
        "/rerouted",
        "/loaded",
        "/stack",
        "/routes",
        "/jobs",
        "/activation/moved",
        "/activation/units",
        "/activation/restacked",
        "/activation/fired",
        "/activation/reform_failed",
        "/activation/spread",
        "/activation/voluntary/declared",
        "/activation/voluntary/entitled",
        "/activation/voluntary/routing",
        "/activation/voluntary/passed",
        "/armies/0/reintegrated",
        "/armies/1/morale",
        "/phase/Moving/units",
        "/phase/Moving/path",
        "/phase/Moving/dc_a",
        "/phase/Moving/passed",
        "/phase/Moving/among",
        "/phase/Moving/change_asked",
        "/phase/Moving/stop_why",
        "/phase/Moving/charged_by",
        "/phase/Moving/free",
    ] {
        assert!(
            checked.iter().any(|c| c == f),
            "{f} not changed: {checked:?}"
        );
    }
}
