//! A throwaway PostgreSQL server for the storage tests: Debian's server binaries
//! (`/usr/lib/postgresql/*/bin`), `initdb` into a temporary directory (as the `postgres` user when
//! run as root), started on a free port of 127.0.0.1 with its socket in that directory, a fresh
//! database, and `pg_ctl stop` when dropped. Missing binaries fail the test with a clear message:
//! the PostgreSQL storage must never pass untested.
//!
//! It uses nothing but the standard library and `tempfile` (the databases are made by
//! `createdb`), so that the command line's tests include it too (`#[path]`, in
//! `crates/cli/tests/serve.rs`).

use std::path::PathBuf;
use std::process::Command;

pub struct Postgres {
    dir: tempfile::TempDir,
    bin: PathBuf,
    as_postgres: bool,
    port: u16,
    /// `postgres://postgres@127.0.0.1:PORT/tricorne_test`
    pub url: String,
}

fn server_bin_dir() -> PathBuf {
    if let Some(p) = std::env::var_os("TRICORNE_PG_BIN") {
        let bin = PathBuf::from(p);
        assert!(
            ["initdb", "pg_ctl", "createdb"]
                .iter()
                .all(|t| bin.join(t).is_file()),
            "TRICORNE_PG_BIN={} holds no initdb, pg_ctl and createdb",
            bin.display()
        );
        return bin;
    }
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let v: u32 = e.file_name().to_str()?.parse().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").is_file().then_some((v, bin))
        })
        .collect();
    found.sort();
    match found.pop() {
        Some((_, bin)) => bin,
        None => panic!(
            "PostgreSQL's server binaries (initdb, pg_ctl) are not installed: looked in \
             /usr/lib/postgresql/*/bin. Install Debian's package `postgresql` (./scripts/test does \
             it) or point TRICORNE_PG_BIN at a directory holding initdb, pg_ctl and createdb. The storage \
             tests must run against PostgreSQL, so this test fails rather than skip."
        ),
    }
}

fn output(cmd: &mut Command, what: &str) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn is_root() -> bool {
    output(Command::new("id").arg("-u"), "id -u") == "0"
}

impl Postgres {
    /// Start a server and create the database `tricorne_test`.
    pub fn start() -> Postgres {
        let bin = server_bin_dir();
        let as_postgres = is_root();
        let dir = tempfile::Builder::new()
            .prefix("tricorne-pg-")
            .tempdir()
            .expect("temp dir");
        if as_postgres {
            // PostgreSQL refuses to run as root: the cluster belongs to the `postgres` user.
            let uid: u32 = output(
                Command::new("id").args(["-u", "postgres"]),
                "id -u postgres",
            )
            .parse()
            .expect("uid");
            let gid: u32 = output(
                Command::new("id").args(["-g", "postgres"]),
                "id -g postgres",
            )
            .parse()
            .expect("gid");
            std::os::unix::fs::chown(dir.path(), Some(uid), Some(gid)).expect("chown temp dir");
        }
        let port = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").expect("free port");
            l.local_addr().expect("addr").port()
        };
        let pg = Postgres {
            url: format!("postgres://postgres@127.0.0.1:{port}/tricorne_test"),
            dir,
            bin,
            as_postgres,
            port,
        };
        let data = pg.data();
        output(
            &mut pg.command(
                "initdb",
                &[
                    "-D",
                    &data,
                    "-U",
                    "postgres",
                    "--auth=trust",
                    "-E",
                    "UTF8",
                    "--no-sync",
                ],
            ),
            "initdb",
        );
        let opts = format!(
            "-p {port} -k {} -c listen_addresses=127.0.0.1",
            pg.dir.path().display()
        );
        let log = pg.dir.path().join("server.log").display().to_string();
        output(
            &mut pg.command(
                "pg_ctl",
                &["-D", &data, "-l", &log, "-o", &opts, "-w", "start"],
            ),
            "pg_ctl start",
        );
        pg.create_database("tricorne_test");
        pg
    }

    /// Create another database; its URL.
    pub fn create_database(&self, name: &str) -> String {
        let port = self.port.to_string();
        output(
            &mut self.command(
                "createdb",
                &["-h", "127.0.0.1", "-p", &port, "-U", "postgres", name],
            ),
            "createdb",
        );
        format!("postgres://postgres@127.0.0.1:{port}/{name}")
    }

    fn data(&self) -> String {
        self.dir.path().join("data").display().to_string()
    }

    fn command(&self, tool: &str, args: &[&str]) -> Command {
        let exe = self.bin.join(tool);
        let mut c = if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&exe);
            c
        } else {
            Command::new(&exe)
        };
        c.args(args).current_dir(self.dir.path());
        c
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let data = self.data();
        let _ = self
            .command("pg_ctl", &["-D", &data, "-m", "immediate", "-w", "stop"])
            .output();
    }
}
