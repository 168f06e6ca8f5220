//! Capabilities: unguessable tokens (128 random bits, URL-safe base64) and their comparison.
//! The store keeps only their SHA-256 digests: a copy of the database does not give the links.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};

/// The prefix of a stored digest; a stored token without it is a plain token of an older file.
const DIGEST_PREFIX: &str = "sha256:";

/// What the store keeps of a token: `sha256:` and its digest in URL-safe base64.
pub fn digest(token: &str) -> String {
    let d = Sha256::digest(token.as_bytes());
    format!("{DIGEST_PREFIX}{}", URL_SAFE_NO_PAD.encode(d))
}

/// Whether a presented token is the one stored (as a digest, or plain in a file written before
/// digests), in time independent of where they differ.
pub fn matches(presented: &str, stored: &str) -> bool {
    if stored.starts_with(DIGEST_PREFIX) {
        same(&digest(presented), stored)
    } else {
        same(presented, stored)
    }
}

/// A new random token: 128 bits from the operating system's generator, URL-safe base64 (22
/// characters).
pub fn new_token() -> Result<String, getrandom::Error> {
    random_b64::<16>()
}

/// A new game id: 72 random bits, URL-safe base64 (12 characters). Ids are not secrets (the
/// tokens are), but random ids do not tell how many games a server holds.
pub fn new_game_id() -> Result<String, getrandom::Error> {
    random_b64::<9>()
}

/// A random 64-bit seed for the dice.
pub fn new_seed() -> Result<u64, getrandom::Error> {
    let mut b = [0u8; 8];
    getrandom::fill(&mut b)?;
    Ok(u64::from_le_bytes(b))
}

/// A new secret server seed for verifiable dice: 256 bits from the operating system's generator,
/// as 64 lowercase hex digits (`engine::fair`).
pub fn new_server_seed() -> Result<String, getrandom::Error> {
    let mut b = [0u8; 32];
    getrandom::fill(&mut b)?;
    Ok(engine::fair::server_seed_of(b))
}

fn random_b64<const N: usize>() -> Result<String, getrandom::Error> {
    let mut b = [0u8; N];
    getrandom::fill(&mut b)?;
    Ok(URL_SAFE_NO_PAD.encode(b))
}

/// Compare a presented token with a stored one in time independent of where they differ.
pub fn same(presented: &str, stored: &str) -> bool {
    let (a, b) = (presented.as_bytes(), stored.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Whether a string can be a game id (so that junk never reaches the database).
pub fn plausible_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_128_bits_of_url_safe_base64_and_differ() {
        let a = new_token().expect("os random");
        let b = new_token().expect("os random");
        assert_eq!(a.len(), 22);
        assert_ne!(a, b);
        assert!(plausible_id(&a));
        assert_eq!(URL_SAFE_NO_PAD.decode(&a).expect("base64").len(), 16);
    }

    #[test]
    fn the_store_keeps_digests_and_a_presented_token_matches_its_digest() {
        let t = new_token().expect("os random");
        let d = digest(&t);
        assert!(d.starts_with("sha256:") && !d.contains(&t), "{d}");
        assert_eq!(URL_SAFE_NO_PAD.decode(&d[7..]).expect("base64").len(), 32);
        assert!(matches(&t, &d));
        assert!(!matches(&d, &d), "the digest itself is not a token");
        assert!(!matches("other", &d));
        // A plain token stored by an older server still matches.
        assert!(matches(&t, &t));
    }

    #[test]
    fn comparison() {
        assert!(same("abc", "abc"));
        assert!(!same("abd", "abc"));
        assert!(!same("ab", "abc"));
        assert!(!plausible_id(""));
        assert!(!plausible_id("a/b"));
    }
}
