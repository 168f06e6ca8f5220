//! Dice anyone can verify ("provably fair", docs/server.md): the server draws a secret seed and
//! publishes its commitment, each person at the table adds a client seed, and the dice's seed is
//! derived from all of them. Everything here can be checked with any SHA-256 tool:
//!
//! - the server seed is 64 lowercase hexadecimal characters (256 random bits);
//! - its commitment is the SHA-256 of those 64 characters (as text), in lowercase hexadecimal:
//!   `printf '%s' "$SERVER" | sha256sum`;
//! - the dice's seed is the SHA-256 of the text `tricorne-dice-v1`, the server seed, seat 0's
//!   client seed and seat 1's client seed, each followed by a newline (a seat the computer plays
//!   adds none: an empty line): `printf 'tricorne-dice-v1\n%s\n%s\n%s\n' "$SERVER" "$SEAT0"
//!   "$SEAT1" | sha256sum`; its first 16 hexadecimal digits, read as one unsigned 64-bit number
//!   (big-endian), are the seed of [`crate::Dice`]: `printf '%u\n' 0x<16 digits>`.
//!
//! The dice themselves are rolled as in every game ([`crate::Dice::new`] over that seed).

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The name of the scheme above; a record names it so a later scheme cannot be confused with it.
pub const SCHEME: &str = "tricorne-dice-v1";

/// Longest client seed, in characters.
pub const CLIENT_SEED_MAX: usize = 64;

/// What a record of a game with verifiable dice carries about them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceProof {
    /// Always [`SCHEME`].
    pub scheme: String,
    /// SHA-256 (hex) of the server seed, published when the game was created.
    pub commitment: String,
    /// The server seed, revealed when the game ends (`null` before).
    pub server_seed: Option<String>,
    /// Each seat's client seed in seat order; "" for a seat the computer plays.
    pub client_seeds: [String; 2],
}

/// Why a record's dice do not check.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum FairError {
    /// Another scheme.
    #[error("unknown dice scheme {0:?} (this tricorne checks {SCHEME:?})")]
    Scheme(String),
    /// The server seed is not in the record.
    #[error("the server seed is not revealed in this record (it is revealed when the game ends)")]
    NotRevealed,
    /// The server seed is not 64 lowercase hex digits.
    #[error("the server seed {0:?} is not 64 lowercase hexadecimal digits")]
    ServerSeedShape(String),
    /// The revealed server seed is not the one committed to.
    #[error(
        "the server seed does not match the commitment: SHA-256 of the seed is {actual}, the commitment is {committed}"
    )]
    Commitment {
        /// SHA-256 of the revealed seed.
        actual: String,
        /// The published commitment.
        committed: String,
    },
    /// A client seed that the server would not have accepted.
    #[error("client seed of seat {seat}: {reason}")]
    ClientSeed {
        /// Seat index.
        seat: usize,
        /// Why.
        reason: String,
    },
    /// The dice's seed is not the one derived from the seeds.
    #[error("the dice seed {recorded} does not follow from the seeds (they give {derived})")]
    DiceSeed {
        /// The record's seed.
        recorded: u64,
        /// What the seeds give.
        derived: u64,
    },
}

/// SHA-256 of a text, lowercase hex.
pub fn sha256_hex(text: &str) -> String {
    let d = Sha256::digest(text.as_bytes());
    let mut s = String::with_capacity(64);
    for b in d {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

/// The commitment to a server seed: SHA-256 of its text, lowercase hex.
pub fn commitment(server_seed: &str) -> String {
    sha256_hex(server_seed)
}

/// A server seed from 32 random bytes: 64 lowercase hex digits.
pub fn server_seed_of(bytes: [u8; 32]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether a text is a well-formed server seed.
pub fn is_server_seed(s: &str) -> bool {
    s.len() == 64
        && s.bytes()
            .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c))
}

/// The text hashed to derive the dice's seed (see the module's documentation).
pub fn derivation_text(server_seed: &str, client_seeds: &[String; 2]) -> String {
    format!(
        "{SCHEME}\n{server_seed}\n{}\n{}\n",
        client_seeds[0], client_seeds[1]
    )
}

/// The dice's seed: the first 8 bytes of SHA-256 of [`derivation_text`], big-endian.
pub fn dice_seed(server_seed: &str, client_seeds: &[String; 2]) -> u64 {
    let d = Sha256::digest(derivation_text(server_seed, client_seeds).as_bytes());
    let mut b = [0u8; 8];
    b.copy_from_slice(&d[..8]);
    u64::from_be_bytes(b)
}

/// Check a client seed a person typed: 1 to [`CLIENT_SEED_MAX`] characters, none of them a
/// control character (a newline would make the derivation text ambiguous), not starting or
/// ending with a space.
pub fn check_client_seed(s: &str) -> Result<(), String> {
    let n = s.chars().count();
    if n == 0 {
        return Err("a client seed is 1 to 64 characters, not empty".into());
    }
    if n > CLIENT_SEED_MAX {
        return Err(format!(
            "a client seed is at most {CLIENT_SEED_MAX} characters, not {n}"
        ));
    }
    if s.chars().any(char::is_control) {
        return Err("a client seed holds no control characters (newlines, tabs)".into());
    }
    if s.trim() != s {
        return Err("a client seed neither starts nor ends with a space".into());
    }
    Ok(())
}

impl DiceProof {
    /// Check the proof against the seed a record's dice use: the scheme, the revealed server seed
    /// against its commitment, the client seeds' form (a seat may have added none: the
    /// computer's), and the dice's seed against the one derived.
    pub fn check(&self, seed: u64) -> Result<(), FairError> {
        if self.scheme != SCHEME {
            return Err(FairError::Scheme(self.scheme.clone()));
        }
        let server = self.server_seed.as_deref().ok_or(FairError::NotRevealed)?;
        if !is_server_seed(server) {
            return Err(FairError::ServerSeedShape(server.to_string()));
        }
        let actual = commitment(server);
        if actual != self.commitment {
            return Err(FairError::Commitment {
                actual,
                committed: self.commitment.clone(),
            });
        }
        for (seat, c) in self.client_seeds.iter().enumerate() {
            if !c.is_empty() {
                check_client_seed(c).map_err(|reason| FairError::ClientSeed { seat, reason })?;
            }
        }
        let derived = dice_seed(server, &self.client_seeds);
        if derived != seed {
            return Err(FairError::DiceSeed {
                recorded: seed,
                derived,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_of_a_known_text() {
        // printf '%s' abc | sha256sum
        assert_eq!(
            sha256_hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn the_dice_seed_follows_from_every_seed() {
        let server = server_seed_of([7; 32]);
        assert!(is_server_seed(&server));
        let seeds = ["a".to_string(), "b".to_string()];
        let s = dice_seed(&server, &seeds);
        assert_ne!(s, dice_seed(&server, &["a".into(), "c".into()]));
        assert_ne!(s, dice_seed(&server, &["b".into(), "a".into()]));
        assert_ne!(s, dice_seed(&server_seed_of([8; 32]), &seeds));
        let proof = DiceProof {
            scheme: SCHEME.into(),
            commitment: commitment(&server),
            server_seed: Some(server.clone()),
            client_seeds: seeds,
        };
        assert_eq!(proof.check(s), Ok(()));
        assert!(matches!(
            proof.check(s ^ 1),
            Err(FairError::DiceSeed { .. })
        ));
        let mut p = proof.clone();
        p.commitment = commitment("other");
        assert!(matches!(p.check(s), Err(FairError::Commitment { .. })));
        let mut p = proof.clone();
        p.server_seed = None;
        assert_eq!(p.check(s), Err(FairError::NotRevealed));
    }

    /// The recipe of docs/server.md, run in a shell, gives the same numbers:
    /// `S=7777…77 (64 sevens)`; `printf '%s' "$S" | sha256sum` → c0b6…8386;
    /// `printf 'tricorne-dice-v1\n%s\n%s\n%s\n' "$S" "my seed" "" | sha256sum` → 05d4186a4678c409…;
    /// `printf '%u\n' 0x05d4186a4678c409` → 419987509980218377.
    #[test]
    fn the_documented_shell_recipe_gives_the_same_seeds() {
        let server = "7".repeat(64);
        assert_eq!(
            commitment(&server),
            "c0b6304bd6ce9b3e65150392c91a3aa76803a59c29e46f9fb2b9aac235e58386"
        );
        assert_eq!(
            dice_seed(&server, &["my seed".into(), String::new()]),
            419_987_509_980_218_377
        );
    }

    #[test]
    fn client_seeds_are_one_line_of_at_most_64_characters() {
        assert!(check_client_seed("my lucky seed 42").is_ok());
        assert!(check_client_seed("").is_err());
        assert!(check_client_seed("a\nb").is_err());
        assert!(check_client_seed(" a").is_err());
        assert!(check_client_seed(&"x".repeat(65)).is_err());
        assert!(check_client_seed(&"é".repeat(64)).is_ok());
    }
}
