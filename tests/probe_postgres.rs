//! `evidence probe run` against a real PostgreSQL: a cluster of its own (initdb, pg_ctl)
//! in a temporary folder, listening only on a Unix socket there, with a generated
//! `orders` table; the example site `examples/postgres-planner` (a git repository copy)
//! re-runs its declared probe `explain-analyze` with `--repeat 3`, and the new run loads,
//! lands in the zones of the site's map, shows in the build with its versions and is a
//! new run for `diff`.
//!
//! Debian's `postgresql` package provides the server (scripts/test.sh installs it). Run as
//! root, the server runs as the package's `postgres` user (`runuser`). Outside CI a
//! missing server is a skip with a message; with `CI=true` it is a failure.

mod common;

use common::{copy_dir, evidence, manifest_dir};
use evidence::model::types::Run;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The folder of `initdb` and `pg_ctl` (the newest under /usr/lib/postgresql), when the
/// server and `psql` are installed; otherwise a skip, or a failure under CI.
fn server_bin() -> Option<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path().join("bin"))
        .filter(|b| b.join("initdb").is_file() && b.join("pg_ctl").is_file())
        .collect();
    found.sort();
    let psql = Command::new("psql").arg("--version").output().is_ok();
    match found.pop() {
        Some(bin) if psql => Some(bin),
        _ => {
            let msg = "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb or no psql); \
                       apt-get install postgresql";
            common::skip("probe_postgres", msg);
            None
        }
    }
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// `program args…`, as the `postgres` user when this test runs as root (the server
/// refuses to run as root).
fn as_server_user(program: &Path) -> Command {
    if is_root() {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(program);
        c
    } else {
        Command::new(program)
    }
}

/// A running cluster, stopped on drop.
struct Cluster {
    bin: PathBuf,
    data: PathBuf,
    socket: PathBuf,
}

impl Cluster {
    fn start(bin: PathBuf, dir: &Path) -> Cluster {
        if is_root() {
            // The server user must reach its folders inside this root-owned one.
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o777)).unwrap();
        }
        let data = dir.join("data");
        let ok = as_server_user(&bin.join("initdb"))
            .args(["-A", "trust", "-U", "postgres", "--no-sync", "-D"])
            .arg(&data)
            .output()
            .expect("initdb runs");
        assert!(
            ok.status.success(),
            "initdb: {}",
            String::from_utf8_lossy(&ok.stderr)
        );
        let cluster = Cluster {
            bin,
            data,
            socket: dir.to_path_buf(),
        };
        let out = as_server_user(&cluster.bin.join("pg_ctl"))
            .arg("-D")
            .arg(&cluster.data)
            .arg("-l")
            .arg(dir.join("server.log"))
            .arg("-o")
            .arg(format!(
                "-c listen_addresses='' -k {} -c fsync=off",
                dir.display()
            ))
            .args(["-w", "start"])
            .output()
            .expect("pg_ctl runs");
        let log = std::fs::read_to_string(dir.join("server.log")).unwrap_or_default();
        assert!(out.status.success(), "pg_ctl start: {log}");
        cluster
    }

    fn psql(&self, sql: &str) {
        let out = Command::new("psql")
            .args(["-X", "-q", "-v", "ON_ERROR_STOP=1", "-U", "postgres", "-h"])
            .arg(&self.socket)
            .args(["-d", "postgres", "-c", sql])
            .output()
            .expect("psql runs");
        assert!(
            out.status.success(),
            "psql: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = as_server_user(&self.bin.join("pg_ctl"))
            .arg("-D")
            .arg(&self.data)
            .args(["-m", "immediate", "-w", "stop"])
            .output();
    }
}

#[test]
fn the_example_re_runs_its_probe_against_a_real_postgres() {
    evidence::packs::register();
    let Some(bin) = server_bin() else { return };
    let db = tempfile::tempdir().expect("tempdir");
    let cluster = Cluster::start(bin, db.path());
    cluster.psql(
        "CREATE TABLE orders AS SELECT g AS id, date '2026-01-01' + (g / 560) AS created_at, \
         (g * 7919 % 1000) AS amount FROM generate_series(1, 100000) g; \
         CREATE INDEX orders_created_at ON orders (created_at); ANALYZE orders;",
    );

    let work = tempfile::tempdir().expect("tempdir");
    let site = work.path().join("site");
    copy_dir(&manifest_dir().join("examples/postgres-planner"), &site);
    common::git(&site, &["init", "-q"]);
    common::git(&site, &["add", "-A"]);
    common::git(&site, &["commit", "-q", "-m", "the example as committed"]);
    let before: Vec<_> = std::fs::read_dir(site.join("data/runs"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();

    let out = evidence()
        .env("PGHOST", db.path())
        .env("PGUSER", "postgres")
        .env("PGDATABASE", "postgres")
        .args(["probe", "run", "explain-analyze", "--repeat", "3", "--root"])
        .arg(&site)
        .output()
        .expect("probe");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let new: Vec<PathBuf> = std::fs::read_dir(site.join("data/runs"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| !before.contains(p))
        .collect();
    assert_eq!(new.len(), 1, "{new:?}");
    let text = std::fs::read_to_string(&new[0]).unwrap();
    let run: Run = serde_saphyr::from_str(&text).expect("the new run loads");
    assert_eq!(run.cases.len(), 12, "four cases, three rounds");
    assert!(
        !text.contains(&db.path().display().to_string()),
        "no socket path: {text}"
    );
    let server = run.versions.get("server").expect("the server's version");
    assert!(server.starts_with(char::is_numeric), "{server}");

    // The zones the map gives (index scans below the sequential scan's cost of 1791),
    // and the plan PostgreSQL printed agrees with each.
    for c in &run.cases {
        let cost = c.measurement("total_cost").expect("a cost");
        let node = c.text("plan_node").expect("a plan node");
        let seq = c.key() == "d150";
        assert_eq!(cost >= 1791.0, seq, "{}: cost {cost}", c.id.value);
        assert_eq!(
            node,
            if seq { "Seq Scan" } else { "Index Scan" },
            "{}",
            c.id.value
        );
    }
    let loaded = evidence::pipeline::evidence(&site).expect("the site loads");
    let map = loaded.evidence.maps.get("scan_by_cost").expect("the map");
    for c in &run.cases {
        let cost = c.measurement("total_cost").unwrap();
        let want = if c.key() == "d150" {
            "seq_scan"
        } else {
            "index_scan"
        };
        assert_eq!(
            evidence::derive::zone(map, cost),
            Some(want),
            "{}",
            c.id.value
        );
    }

    // The build shows the run with its versions; check is clean.
    let out_dir = work.path().join("out");
    evidence()
        .arg("build")
        .arg("--root")
        .arg(&site)
        .arg("--out")
        .arg(&out_dir)
        .assert()
        .success();
    evidence()
        .arg("check")
        .arg("--root")
        .arg(&site)
        .assert()
        .success();
    let page = std::fs::read_to_string(out_dir.join("en/index.html")).expect("the home page");
    assert!(
        page.contains(&run.id.value),
        "the latest run is the new one"
    );
    assert!(
        page.contains(server.as_str()),
        "the run's table shows the server version"
    );

    // diff: the new run against the committed example.
    let diff = evidence()
        .args(["diff", "HEAD", "--root"])
        .arg(&site)
        .output()
        .expect("diff");
    let said = String::from_utf8_lossy(&diff.stdout);
    assert!(said.contains("1 run added"), "{said}");
    assert!(said.contains(&format!("+ {}", run.id.value)), "{said}");
    drop(cluster);
}
