//! Seeded random playouts of a ruleset, for the `speed` examples: how many decisions a game takes,
//! how long they take, and digests that show whether a change meant only to be faster changed
//! anything. The rules never read anything here; the clocks ([`timed_playouts`], [`cpu_seconds`])
//! time the examples only.
use crate::{Dice, Ruleset};

/// What [`random_playouts`] played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Playouts {
    /// Decisions made in all the games.
    pub decisions: usize,
    /// FNV-1a over every final state's JSON, game after game.
    pub finals: u64,
    /// FNV-1a over every final state's JSON and game length and, with `check`, before each
    /// decision the events so far and the menu's action ids (and the last events at the end).
    pub digest: u64,
}

/// FNV-1a over bytes.
fn fold(digest: &mut u64, bytes: &[u8]) {
    for b in bytes {
        *digest = (*digest ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3);
    }
}

/// Play `games` random games of `rules`, seeds 0 to `games` − 1, each decision a uniform pick
/// among the legal actions by a die seeded with the game's seed ^ 0xabcdef: with `check` the
/// actions are listed (and folded into the digest) and one is drawn; without, the ruleset draws
/// one ([`Ruleset::random_action`]), which may sample without listing them all (BAR's moving
/// units do): the same chances, other draws of the die, so its games then differ from the
/// checked ones.
pub fn random_playouts<R: Ruleset>(rules: &R, games: u64, check: bool) -> Playouts {
    let mut decisions = 0usize;
    let mut ev = Vec::new();
    let mut digest = 0xcbf2_9ce4_8422_2325_u64;
    let mut finals = digest;
    for seed in 0..games {
        ev.clear();
        let mut st = rules.start(seed, &mut ev);
        let mut pick = Dice::new(seed ^ 0xabcdef);
        let mut n = 0u64;
        while rules.decider(&st).is_some() {
            let action = if check {
                let legal = rules.legal_actions(&st);
                for e in &ev {
                    fold(&mut digest, &serde_json::to_vec(e).unwrap_or_default());
                }
                for l in &legal {
                    fold(&mut digest, rules.action_id(l).as_bytes());
                    fold(&mut digest, b"|");
                }
                pick.take(legal)
            } else {
                rules.random_action(&st, &mut pick)
            };
            // A decider with nothing to choose: the ruleset's invariants say it cannot happen.
            let Some(action) = action else {
                break;
            };
            ev.clear();
            rules.apply_legal(&mut st, &action, &mut ev);
            n += 1;
        }
        if check {
            for e in &ev {
                fold(&mut digest, &serde_json::to_vec(e).unwrap_or_default());
            }
        }
        decisions += n as usize;
        let json = serde_json::to_vec(&st).unwrap_or_default();
        fold(&mut finals, &json);
        fold(&mut digest, &json);
        fold(&mut digest, &n.to_le_bytes());
    }
    Playouts {
        decisions,
        finals,
        digest,
    }
}

/// This process's CPU time so far in seconds (Linux `/proc/self/stat`, user + system, at the
/// kernel's 100 ticks a second), so that figures on a shared machine count only our own work;
/// `None` elsewhere.
pub fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// [`random_playouts`] timed: wall-clock seconds and, where the system says, CPU seconds.
#[derive(Clone, Copy, Debug)]
pub struct Timed {
    /// What was played.
    pub playouts: Playouts,
    /// The games asked for.
    pub games: u64,
    /// Wall-clock seconds.
    pub wall: f64,
    /// This process's CPU seconds ([`cpu_seconds`]).
    pub cpu: Option<f64>,
}

/// [`random_playouts`] with its wall-clock and CPU time.
pub fn timed_playouts<R: Ruleset>(rules: &R, games: u64, check: bool) -> Timed {
    let t = std::time::Instant::now();
    let cpu0 = cpu_seconds();
    let playouts = random_playouts(rules, games, check);
    let wall = t.elapsed().as_secs_f64();
    let cpu = match (cpu0, cpu_seconds()) {
        (Some(a), Some(b)) if b > a => Some(b - a),
        _ => None,
    };
    Timed {
        playouts,
        games,
        wall,
        cpu,
    }
}

impl Timed {
    /// "ID: 100 games, 113624 decisions (1136 a game), 12.95 ms a game, 87713 decisions a second
    /// (CPU time: …)".
    pub fn summary(&self, id: &str) -> String {
        let (games, decisions) = (self.games.max(1), self.playouts.decisions);
        let cpu = self.cpu.map_or(String::new(), |c| {
            format!(
                " (CPU time: {:.2} ms a game, {:.0} decisions a second)",
                c * 1000.0 / games as f64,
                decisions as f64 / c
            )
        });
        format!(
            "{id}: {} games, {decisions} decisions ({} a game), {:.2} ms a game, {:.0} decisions a second{cpu}",
            self.games,
            decisions / games as usize,
            self.wall * 1000.0 / games as f64,
            decisions as f64 / self.wall
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fold_is_fnv_1a() {
        // FNV-1a 64 of "a" (the published test vector).
        let mut d = 0xcbf2_9ce4_8422_2325_u64;
        fold(&mut d, b"a");
        assert_eq!(d, 0xaf63_dc4c_8601_ec8c);
    }
}
