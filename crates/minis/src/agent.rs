//! What agents may ask beyond the rules: an evaluation by points and a preference for closing
//! with the enemy.
use crate::Minis;
use crate::state::{Action, State};
use engine::{AgentHooks, Seat};

impl AgentHooks for Minis {
    fn evaluate(&self, st: &State, seat: Seat) -> f64 {
        if let Some((w, ..)) = &st.over {
            return match w {
                Some(w) if *w == seat.0 => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
        }
        let p = self.points(st);
        let s = self.start_points();
        let me = usize::from(seat.0 & 1);
        let share = |i: usize| f64::from(p[i]) / f64::from(s[i].max(1));
        (0.5 + (share(me) - share(1 - me)) / 2.0).clamp(0.0, 1.0)
    }

    fn action_scores(&self, _st: &State, actions: &[Action]) -> Vec<f64> {
        actions
            .iter()
            .map(|a| match a {
                Action::Fire(..) => 5.0,
                Action::Move(_, 0, d) => 2.0 + f64::from(*d) / 100.0,
                Action::Move(..) => 1.5,
                Action::Wheel(..) | Action::Pivot(..) | Action::Unlimber(..) => 1.8,
                Action::Formation(..) | Action::Mount(..) | Action::Limber(..) => 1.0,
                Action::AboutFace(..) => 1.2,
                Action::Attach(..) => 0.8,
                Action::Retreat(_, v) => match v {
                    crate::Veer::Straight => 1.0,
                    crate::Veer::Left | crate::Veer::Right => 0.5,
                },
                Action::Sector(_) => 1.0,
                Action::GunsDone | Action::MovesDone => 0.0,
            })
            .collect()
    }

    fn progress(&self, st: &State) -> u32 {
        st.turn * 2 + u32::from(st.active)
    }
}
