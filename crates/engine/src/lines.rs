//! Log lines rendered for each viewer. A ruleset's events are structured (unit ids, hexes,
//! numbers, the rule); [`crate::Ruleset::render_events`] writes them for one [`Viewer`], and
//! [`Lines`] keeps what every viewer reads of one action, so that a server sends each seat the
//! lines written for it and never a text written for everyone and patched afterwards.
use crate::Seat;
use serde::{Deserialize, Serialize};

/// Who reads a log line, a view or a label.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Viewer {
    /// Everything: the players at one screen, the record of a finished game, the tests.
    All,
    /// One seat: what that side may know.
    Seat(Seat),
    /// A spectator: what neither side hides from the public.
    Spectator,
}

impl Viewer {
    /// The three viewers of a game in play that may be told less than everything.
    pub const RESTRICTED: [Viewer; 3] = [
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(1)),
        Viewer::Spectator,
    ];

    /// The viewer of a seat, or the spectator for `None`.
    pub fn of(seat: Option<Seat>) -> Viewer {
        seat.map_or(Viewer::Spectator, Viewer::Seat)
    }
}

/// The log lines of one action (or of a game's start) for every viewer. When no viewer is told
/// less than everyone, one list is kept.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lines {
    /// What [`Viewer::All`] reads.
    all: Vec<String>,
    /// What seat 0, seat 1 and the spectators read, when it differs from `all`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    restricted: Option<Box<[Vec<String>; 3]>>,
}

impl Lines {
    /// Render for every viewer with `render`.
    pub fn render(mut render: impl FnMut(Viewer) -> Vec<String>) -> Lines {
        let all = render(Viewer::All);
        let each = Viewer::RESTRICTED.map(&mut render);
        if each.iter().all(|l| *l == all) {
            Lines {
                all,
                restricted: None,
            }
        } else {
            Lines {
                all,
                restricted: Some(Box::new(each)),
            }
        }
    }

    /// Lines every viewer reads alike (a ruleset without hidden information, a server's notice).
    pub fn public(all: Vec<String>) -> Lines {
        Lines {
            all,
            restricted: None,
        }
    }

    /// What `viewer` reads.
    pub fn for_viewer(&self, viewer: Viewer) -> &[String] {
        let i = match viewer {
            Viewer::All => return &self.all,
            Viewer::Seat(s) => usize::from(s.0 & 1),
            Viewer::Spectator => 2,
        };
        match &self.restricted {
            Some(each) => &each[i],
            None => &self.all,
        }
    }

    /// Append `more` after these lines, viewer by viewer.
    pub fn extend(&mut self, more: Lines) {
        match (&mut self.restricted, more.restricted) {
            (None, None) => {}
            (mine, theirs) => {
                let mut each = mine
                    .take()
                    .unwrap_or_else(|| Box::new([0, 1, 2].map(|_| self.all.clone())));
                let theirs =
                    theirs.unwrap_or_else(|| Box::new([0, 1, 2].map(|_| more.all.clone())));
                for (m, t) in each.iter_mut().zip(theirs.iter()) {
                    m.extend(t.iter().cloned());
                }
                *mine = Some(each);
            }
        }
        self.all.extend(more.all);
    }

    /// Whether there is no line for anyone.
    pub fn is_empty(&self) -> bool {
        self.all.is_empty()
            && self
                .restricted
                .as_ref()
                .is_none_or(|e| e.iter().all(|l| l.is_empty()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_keep_one_list_when_every_viewer_reads_the_same() {
        let l = Lines::render(|_| vec!["a".into()]);
        assert!(l.restricted.is_none());
        for v in Viewer::RESTRICTED {
            assert_eq!(l.for_viewer(v), ["a".to_string()]);
        }
    }

    #[test]
    fn lines_give_each_viewer_its_own_and_extend_viewer_by_viewer() {
        let mut l = Lines::render(|v| match v {
            Viewer::All => vec!["X + Y move".into()],
            Viewer::Seat(Seat(0)) => vec!["X + Y move".into()],
            _ => vec!["X + hidden units move".into()],
        });
        l.extend(Lines::public(vec!["turn 2".into()]));
        assert_eq!(l.for_viewer(Viewer::All), ["X + Y move", "turn 2"]);
        assert_eq!(
            l.for_viewer(Viewer::Seat(Seat(1))),
            ["X + hidden units move", "turn 2"]
        );
        assert_eq!(
            l.for_viewer(Viewer::Spectator),
            ["X + hidden units move", "turn 2"]
        );
        assert_eq!(
            l.for_viewer(Viewer::Seat(Seat(0))),
            ["X + Y move", "turn 2"]
        );
    }
}
