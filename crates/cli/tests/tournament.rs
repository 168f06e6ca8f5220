//! `tricorne tournament`: sides swapped every other game, the table per agent and side, bad input.
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_tricorne");

#[test]
fn tournament_swaps_sides_and_counts_every_game() {
    let out = Command::new(BIN)
        .args([
            "tournament",
            "hastenbeck",
            "--agents",
            "heuristic,random",
            "--games",
            "4",
            "--seed",
            "3",
            "--json",
        ])
        .output()
        .expect("run tricorne");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["games"], 4);
    let rows = v["results"].as_array().expect("rows");
    // Each agent held each side in two games.
    for r in rows {
        let n = r["wins"].as_u64().unwrap_or(0)
            + r["draws"].as_u64().unwrap_or(0)
            + r["losses"].as_u64().unwrap_or(0);
        assert_eq!(n, 2, "{r}");
    }
    let levels: u64 = v["levels"]
        .as_array()
        .expect("levels")
        .iter()
        .map(|l| l["games"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(levels, 4);
}

#[test]
fn tournament_refuses_unknown_agents_in_one_line() {
    let out = Command::new(BIN)
        .args(["tournament", "hastenbeck", "--agents", "heuristic,oracle"])
        .output()
        .expect("run tricorne");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unknown agent") && err.lines().count() == 1,
        "{err}"
    );
}
