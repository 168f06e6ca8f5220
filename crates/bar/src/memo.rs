//! Memos, one per thread, of pure functions of a scenario and part of a state: the answer is
//! given back only when the scenario is the same one (its address and its [`Instance`]) and the
//! parts of the state the function reads are equal to those it was asked about, so it is always
//! the answer the function would give. Used where the same question is asked again and again of
//! an unchanged board — the regimental integrity groups (6.2) and the LOC field (7.1), each keyed
//! on the parts of the units it reads, the targeted LOC map (`command::loc_map_for`, keyed on
//! everything its search reads) and the EZOC set (9.1, `command::ezoc_set`, keyed on the enemies'
//! hexes, facings and formations), each the last question only; the army and wing leaders' LOC
//! maps (7.3, `command::army_wing_map`, keyed on the blocked hexes, the hexes they start from and
//! the range, and given again too where the blocks that differ lie beyond the kept map's reach),
//! the last eight — to save the random playouts' time (issue 15); the moving unit's
//! kept menu (`movement.rs` `Menu`) uses the same scenario key. Deterministic: no clock, no order
//! between threads.
//!
//! A scenario edited in place after a question (only tests do that, through `Arc::make_mut`)
//! must not be asked the same question of an equal state again: load or clone it instead.
use crate::scenario::Scenario;
use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread::LocalKey;

/// The number of a loaded scenario, for the memos' key; equal to every other (two scenarios
/// compare by their data).
#[derive(Clone, Copy, Debug)]
pub struct Instance(u64);

impl Instance {
    /// A number no scenario of this process had before.
    pub fn fresh() -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        Instance(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}

impl Default for Instance {
    fn default() -> Self {
        Instance::fresh()
    }
}

impl PartialEq for Instance {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// The key of a loaded scenario: where it lives and its load's number (a copy lives elsewhere, a
/// new load has a new number).
pub(crate) fn scenario_key(sc: &Scenario) -> (usize, u64) {
    (std::ptr::from_ref(sc) as usize, sc.instance.0)
}

/// Whether a memo's key `k`, the projections by `seen` of the units it was asked about, is the
/// projection of `q` (compared without building it): for memos keyed on the unit fields their
/// function reads.
pub(crate) fn seen_as<S: PartialEq, T>(k: &[S], q: &[T], seen: impl Fn(&T) -> S) -> bool {
    k.len() == q.len() && k.iter().zip(q).all(|(a, b)| *a == seen(b))
}

/// A memo's cells: for each of its last questions (the most recent first) the scenario's key,
/// the question and the answer.
pub(crate) type Cells<K, V> = RefCell<Vec<((usize, u64), K, V)>>;

/// The answer of `compute` for the question `key` in `sc`, from the memo when it was one of the
/// last `n` questions asked of it on this thread (their answers kept, the most recent first).
/// `same(k, v, q)`: whether the kept question `k`, whose answer is `v`, has the answer of `q` —
/// `k` equals `q`, or (`command::army_wing_map`) differs from it only where `v` shows the
/// difference cannot change the answer.
pub(crate) fn cached<K, V, Q>(
    memo: &'static LocalKey<Cells<K, V>>,
    n: usize,
    sc: &Scenario,
    key: &Q,
    own: impl FnOnce(&Q) -> K,
    same: impl Fn(&K, &V, &Q) -> bool,
    compute: impl FnOnce() -> V,
) -> V
where
    V: Clone,
    Q: ?Sized,
{
    let id = scenario_key(sc);
    let hit = memo.with(|m| {
        let mut m = m.borrow_mut();
        let i = m.iter().position(|(i, k, v)| *i == id && same(k, v, key))?;
        let v = m[i].2.clone();
        if i > 0 {
            let e = m.remove(i);
            m.insert(0, e);
        }
        Some(v)
    });
    if let Some(v) = hit {
        return v;
    }
    let v = compute();
    memo.with(|m| {
        let mut m = m.borrow_mut();
        m.insert(0, (id, own(key), v.clone()));
        m.truncate(n);
    });
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        static T: Cells<Vec<u8>, u32> = const { RefCell::new(Vec::new()) };
    }

    fn ask(sc: &Scenario, key: &[u8], answer: u32) -> u32 {
        cached(
            &T,
            1,
            sc,
            key,
            <[u8]>::to_vec,
            |k, _, q| k[..] == *q,
            || answer,
        )
    }

    thread_local! {
        static TN: Cells<Vec<u8>, u32> = const { RefCell::new(Vec::new()) };
    }

    fn ask_among(sc: &Scenario, key: &[u8], answer: u32) -> u32 {
        cached(
            &TN,
            2,
            sc,
            key,
            <[u8]>::to_vec,
            |k, _, q| k[..] == *q,
            || answer,
        )
    }

    #[test]
    fn a_memo_of_n_answers_the_last_n_questions_of_the_same_scenario() {
        let a = crate::Bar::load("bar-drill", &[], None).expect("the shipped scenario loads");
        let b = crate::Bar::load("bar-drill", &[], None).expect("the shipped scenario loads");
        assert_eq!(ask_among(&a.sc, &[1], 10), 10);
        assert_eq!(ask_among(&a.sc, &[2], 20), 20);
        // Both kept: their first answers.
        assert_eq!(ask_among(&a.sc, &[1], 11), 10);
        assert_eq!(ask_among(&a.sc, &[2], 21), 20);
        // A third question pushes out the least recent ([1]).
        assert_eq!(ask_among(&a.sc, &[3], 30), 30);
        assert_eq!(ask_among(&a.sc, &[2], 22), 20);
        assert_eq!(ask_among(&a.sc, &[1], 12), 12);
        // Another load: worked out again.
        assert_eq!(ask_among(&b.sc, &[1], 13), 13);
    }

    #[test]
    fn a_memo_answers_only_the_same_question_of_the_same_scenario() {
        let a = crate::Bar::load("bar-drill", &[], None).expect("the shipped scenario loads");
        let b = crate::Bar::load("bar-drill", &[], None).expect("the shipped scenario loads");
        assert_eq!(*a.sc, *b.sc, "two loads hold the same data");
        assert_eq!(ask(&a.sc, &[1, 2], 10), 10);
        // Asked again: the memo's answer, not the new computation's.
        assert_eq!(ask(&a.sc, &[1, 2], 11), 10);
        // Another question: worked out again.
        assert_eq!(ask(&a.sc, &[1, 3], 12), 12);
        assert_eq!(ask(&a.sc, &[1, 2], 13), 13);
        // The same question of another load (equal data, another instance): worked out again.
        assert_eq!(ask(&b.sc, &[1, 2], 14), 14);
        // A clone lives elsewhere: worked out again.
        let c = (*a.sc).clone();
        assert_eq!(ask(&c, &[1, 2], 15), 15);
    }
}
