//! Redaction of hidden information (rule 3.6 and its kind in other rulesets): before anything is
//! sent to a seat, every name or id the ruleset says that seat may not learn now is replaced by
//! "a hidden unit", longest first, in every string (and object key) of what is sent.
//!
//! One Aho-Corasick automaton per redactor finds every name in one pass over a string, and
//! leftmost-longest matching replaces "Von Block 2" whole rather than a shorter name inside it;
//! JSON is redacted in place, touching only the strings that hold a name.

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};
use serde_json::Value;

/// What a hidden name becomes.
pub const HIDDEN: &str = "a hidden unit";

/// Replaces hidden names in text and JSON.
#[derive(Clone, Debug, Default)]
pub struct Redactor {
    names: Vec<String>,
    finder: Option<AhoCorasick>,
}

impl Redactor {
    /// A redactor for these names (empty strings are ignored; duplicates merged).
    pub fn new<I: IntoIterator<Item = String>>(names: I) -> Self {
        let mut names: Vec<String> = names.into_iter().filter(|n| !n.is_empty()).collect();
        names.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        names.dedup();
        // Building fails only beyond limits far above a few hundred short names; should it
        // fail, every string is then replaced whole (see `text`), which hides too much but never
        // too little.
        let finder = if names.is_empty() {
            None
        } else {
            // A contiguous NFA: quick to build for a few dozen names (a redactor lives for one
            // answer), and quick enough to run over the short strings of a view.
            AhoCorasick::builder()
                .kind(Some(AhoCorasickKind::ContiguousNFA))
                .match_kind(MatchKind::LeftmostLongest)
                .build(&names)
                .ok()
        };
        Self { names, finder }
    }

    /// Whether there is nothing to hide.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The names, longest first.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Whether a string holds a hidden name.
    pub fn hits(&self, s: &str) -> bool {
        match &self.finder {
            Some(f) => f.is_match(s),
            None => !self.names.is_empty(),
        }
    }

    /// A string with every hidden name replaced.
    pub fn text(&self, s: &str) -> String {
        match &self.finder {
            Some(f) => {
                let mut out = String::with_capacity(s.len());
                f.replace_all_with(s, &mut out, |_, _, dst| {
                    dst.push_str(HIDDEN);
                    true
                });
                out
            }
            None if self.names.is_empty() => s.to_string(),
            None => HIDDEN.to_string(),
        }
    }

    /// Redact every string and object key of a JSON value in place.
    pub fn json_in_place(&self, v: &mut Value) {
        if self.is_empty() {
            return;
        }
        match v {
            Value::String(s) => {
                if self.hits(s) {
                    *s = self.text(s);
                }
            }
            Value::Array(a) => a.iter_mut().for_each(|x| self.json_in_place(x)),
            Value::Object(o) => {
                if o.keys().any(|k| self.hits(k)) {
                    let old = std::mem::take(o);
                    for (k, x) in old {
                        o.insert(self.text(&k), x);
                    }
                }
                o.values_mut().for_each(|x| self.json_in_place(x));
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
    }

    /// A JSON value redacted.
    pub fn json(&self, mut v: Value) -> Value {
        self.json_in_place(&mut v);
        v
    }

    /// A list of lines redacted.
    pub fn lines<'a, I: IntoIterator<Item = &'a String>>(&self, lines: I) -> Vec<String> {
        lines
            .into_iter()
            .map(|l| {
                if self.hits(l) {
                    self.text(l)
                } else {
                    l.clone()
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn longest_first_and_everywhere() {
        let r = Redactor::new(["Von Block".to_string(), "Von Block 2".to_string()]);
        assert_eq!(
            r.text("Von Block 2 and Von Block"),
            "a hidden unit and a hidden unit"
        );
        let v = r.json(json!({"Von Block 2": ["x Von Block 2 y", 3, null], "n": "Von Block"}));
        let s = v.to_string();
        assert!(!s.contains("Von Block"), "{s}");
        assert_eq!(v["n"], HIDDEN);
        assert_eq!(v[HIDDEN][0], "x a hidden unit y");
    }

    #[test]
    fn no_replacement_inside_a_replacement() {
        let r = Redactor::new(["unit".to_string(), "Orleans".to_string()]);
        assert_eq!(r.text("Orleans, unit"), format!("{HIDDEN}, {HIDDEN}"));
        assert!(Redactor::new(Vec::new()).is_empty());
        assert_eq!(Redactor::new(Vec::new()).text("Orleans"), "Orleans");
    }

    #[test]
    fn overlapping_names() {
        let r = Redactor::new(
            [
                "Erbprinz von Brunswick 2",
                "erbprinz-von-brunswick-2",
                "Brunswick",
            ]
            .map(String::from),
        );
        let t = r.text("Erbprinz von Brunswick 2 (erbprinz-von-brunswick-2) of Brunswick");
        assert_eq!(t, "a hidden unit (a hidden unit) of a hidden unit");
        let lines = r.lines(&["plain".to_string(), "Brunswick".to_string()]);
        assert_eq!(lines, ["plain", HIDDEN]);
    }
}
