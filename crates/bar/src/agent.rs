//! What the computer knows of BAR beyond the rules (`engine::AgentHooks`): how a position stands
//! (the scenario's own victory margin: the enemy's Current Loss Total minus one's own, plus the
//! objective places held, 23.1 and the scenario's victory table), which actions a player would
//! look at first (fire that can hurt, steps toward the enemy, ending what has nothing left), and
//! which decisions deserve a search: the big ones (which brigade, whether to fire, which unit
//! moves next), not each hex of a move already chosen.
use crate::Bar;
use crate::action::Action;
use crate::state::{Phase, State};
use engine::{AgentHooks, Ruleset, Seat};

impl Bar {
    /// The scenario's victory margin for `side` now (positive: ahead).
    fn margin(&self, st: &State, side: usize) -> f64 {
        let sc = &self.sc;
        let clt = [
            crate::army_morale::clt_total(sc, st, 0),
            crate::army_morale::clt_total(sc, st, 1),
        ];
        let points = |s: usize| -> i64 {
            sc.objectives
                .iter()
                .zip(&st.holders)
                .filter(|(_, h)| usize::from(**h) == s)
                .map(|(o, _)| i64::from(o.points))
                .sum()
        };
        (i64::from(clt[1 - side]) - i64::from(clt[side]) + points(side) - points(1 - side)) as f64
    }

    /// The smallest margin the scenario's victory table asks for (the scale of the evaluation).
    fn victory_scale(&self) -> f64 {
        self.sc
            .victory
            .iter()
            .map(|v| f64::from(v.margin))
            .filter(|m| *m > 0.0)
            .fold(f64::INFINITY, f64::min)
            .clamp(5.0, 50.0)
    }

    /// The nearest enemy's distance from a set of hexes.
    fn enemy_distance(&self, st: &State, side: u8, hexes: &[hexmap::HexId]) -> u32 {
        st.units
            .iter()
            .enumerate()
            .filter(|(i, s)| self.sc.units[*i].side != side && !s.eliminated && !s.routed)
            .flat_map(|(_, s)| s.hexes.iter())
            .flat_map(|e| hexes.iter().map(move |h| h.distance(*e)))
            .min()
            .unwrap_or(u32::MAX)
    }
}

impl AgentHooks for Bar {
    /// The victory margin through a sigmoid scaled by the smallest winning margin: a side a whole
    /// marginal victory ahead stands at about 0.88.
    fn evaluate(&self, st: &State, seat: Seat) -> f64 {
        if let Some(o) = self.outcome(st) {
            return match o.winner {
                Some(w) if w == seat => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
        }
        let m = self.margin(st, usize::from(seat.0 & 1)) / self.victory_scale();
        1.0 / (1.0 + (-2.0 * m).exp())
    }

    fn action_scores(&self, st: &State, actions: &[Action]) -> Vec<f64> {
        let sc = &self.sc;
        let moving = match &st.phase {
            Phase::Moving(m) => Some(m.as_ref()),
            _ => None,
        };
        let side = crate::flow::decider(sc, st).unwrap_or(0);
        // A side behind (or level) on the victory margin must go and get it; a side ahead holds
        // its ground and lets the enemy come into its fire.
        let attacking = self.margin(st, usize::from(side)) <= 0.0;
        let here = moving.map(|m| {
            let u = m.units[0];
            self.enemy_distance(st, m.side, &st.units[usize::from(u)].hexes)
        });
        actions
            .iter()
            .map(|a| match a {
                // Fire whenever it is allowed: a declared fire is offered only at 1:3 or better.
                Action::FireResolve | Action::OppFire(..) | Action::ReturnFire(_) => 3.0,
                Action::FireWith(_) => 2.5,
                Action::FireAt(t, _) => {
                    let s = crate::fire::stack(sc, st, *t);
                    1.0 + f64::from(crate::fire::target_size(sc, st, &s)) / 100.0
                }
                Action::FireCancel => -2.0,
                Action::FireDone => -0.5,
                // Close the distance to the enemy; stop once adjacent.
                Action::Step(h) => match (moving, here) {
                    (Some(m), Some(d)) => {
                        let after = self.enemy_distance(st, m.side, &[*h]);
                        if d <= 1 {
                            -1.0
                        } else if after < d && attacking {
                            1.5
                        } else {
                            0.2
                        }
                    }
                    _ => 0.0,
                },
                Action::Back(_) | Action::Reverse => -0.5,
                Action::Stop => match here {
                    Some(d) if d <= 2 => 1.0,
                    _ => -0.3,
                },
                Action::MoveUnit(_) | Action::MoveStack(_) => 0.5,
                Action::MovementDone if attacking => -1.0,
                Action::MovementDone => 1.0,
                Action::Pass => 0.0,
                _ => 0.0,
            })
            .collect()
    }

    /// Search the big decisions: the initiative, which brigade, the army morale spend, what to
    /// fire at, which unit moves next. Each hex of a move, each answer to a move and the details
    /// of a declared fire are the heuristic's.
    fn worth_searching(&self, st: &State, actions: &[Action]) -> bool {
        actions.len() > 1
            && match &st.phase {
                Phase::InitiativeChoice { .. }
                | Phase::ChooseBrigade { .. }
                | Phase::ArmyMoraleSpend { .. }
                | Phase::Movement => true,
                Phase::Fire(f) => f.decl.is_none() && f.ret.is_none(),
                _ => false,
            }
    }

    /// Activations: the turn and the brigades that have activated in it.
    fn progress(&self, st: &State) -> u32 {
        u32::from(st.turn) * 256 + st.brigades.iter().filter(|b| b.activated).count() as u32
    }
}
