//! `evidence probe run NAME`: the probe a site declares in `data/probes/` (see
//! `model::probe_file`), run case by case and recorded as one run.
//!
//! Safe to run: the command runs without a shell (each filled hole is one argument), in
//! the site root, with a cleared environment plus the variables the file names, stdin
//! closed, a time limit and at most [`MAX_OUTPUT`] of stdout. Nothing of the environment
//! is recorded: texts and versions taken from the output have the home folder and the
//! passed variables' values replaced by their names, and a request's URL is recorded
//! without its user and password. Any failure stops the probe with a located error
//! naming the case, the command and the pointer; nothing is written unless every case
//! succeeded.

use super::{ProbeError, Written, md_code, new_id, print_summary, progress_bar, record};
use evidence_core::diagnostics::{Diagnostic, Diagnostics};
use evidence_core::model::fields::Values;
use evidence_core::model::probe_file::{ProbeCase, ProbeFile, UnknownHole};
use evidence_core::model::types::{Case, Id, InputFile, NO_ENGINE, Repeat, Run};
use evidence_core::model::{Located, span_of};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Most bytes of stdout a command may print (one case's output, or a version line's).
pub const MAX_OUTPUT: u64 = 16 * 1024 * 1024;

/// Most bytes of stderr kept to quote in an error (the rest is read and dropped).
const MAX_STDERR: usize = 64 * 1024;

/// `evidence probe run NAME …`
#[derive(clap::Args, Debug, Clone)]
pub struct RunArgs {
    /// The probe: its `probe:` name in a file under data/probes/.
    pub name: String,
    /// Folder holding evidence.yaml; the run goes to ROOT/data/runs/.
    #[arg(long, default_value = ".")]
    pub root: PathBuf,
    /// What the run is taken of: a subject of `data/subjects.yaml`. Without it the run
    /// counts as evidence of the site's own subject.
    #[arg(long)]
    pub subject: Option<String>,
    /// A note recorded with the run and shown with it.
    #[arg(long)]
    pub note: Option<String>,
    /// Run every case N times (recorded as cases `<id>-r1` … `<id>-rN`, round by round).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub repeat: u32,
}

/// Runs the declared probe `args.name` and records the run.
pub fn run(args: &RunArgs) -> Result<Written, ProbeError> {
    let site = record::RunStore::open(&args.root)?;
    let probe = find(&args.root, &args.name)?;
    let p = &probe.value;
    let file = probe.file.to_string();
    let runner = Runner::new(p, &file, &args.root);
    let started = record::Clock::now();
    let mut versions = BTreeMap::new();
    for (name, argv) in &p.versions {
        let out = runner.command(None, argv)?;
        let line = String::from_utf8_lossy(&out)
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .map(|l| runner.scrub(l))
            .ok_or_else(|| {
                runner.located(&argv[0], None, argv, "printed nothing on stdout".into())
            })?;
        versions.insert(name.clone(), line);
    }
    versions.insert("evidence".into(), env!("CARGO_PKG_VERSION").into());
    let plan = plan(&p.cases, args.repeat);
    let bar = progress_bar(plan.len() as u64, &p.probe.value);
    let mut cases = Vec::with_capacity(plan.len());
    for (id, case, repeat) in &plan {
        bar.set_message(id.clone());
        match runner.case(id, case) {
            Ok(mut c) => {
                c.repeat = repeat.clone();
                cases.push(c);
            }
            Err(e) => {
                bar.abandon();
                return Err(e);
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let run = Run {
        id: new_id(""),
        probe: p.probe.value.clone(),
        date: Some(new_id(&started.rfc3339())),
        subject: args.subject.as_deref().map(new_id),
        engine: p
            .engine
            .as_ref()
            .filter(|e| e.value != NO_ENGINE)
            .map(|e| new_id(&e.value)),
        versions,
        conditions: Default::default(),
        // Where its requests went is a fact of what ran, beside the machine's.
        environment: {
            let mut e = record::this_machine();
            if let Some(at) = p.request.as_ref().and_then(|r| endpoint(&r.url.value)) {
                e.insert("endpoint".into(), at);
            }
            e
        },
        origin: site.text(
            "probe-origin",
            &[
                ("command", format!("evidence probe run {}", p.probe.value)),
                ("cases", md_code(&file)),
            ],
        )?,
        note: site.note(args.note.as_deref()),
        phase: None,
        assessed_against: None,
        cases,
        input: Some(input_file(&args.root, &file)?),
        values: Values::default(),
    };
    let written = site.write_run(run, &p.probe.value, &started)?;
    print_summary(&written);
    Ok(written)
}

/// The declared probe called `name`, checked against the site's vocabulary; the site's
/// problems in its probe files when there is none (a file that does not parse).
fn find(root: &Path, name: &str) -> Result<Located<ProbeFile>, ProbeError> {
    let loaded = evidence_core::pipeline::evidence(root).map_err(ProbeError::Input)?;
    let ev = &loaded.evidence;
    let Some(p) = ev.probes.iter().find(|p| p.probe.value == name) else {
        let mut in_probes = Diagnostics::default();
        in_probes.extend(
            loaded
                .diagnostics
                .iter()
                .filter(|d| d.span.file.starts_with("data/probes/"))
                .cloned(),
        );
        if !in_probes.is_empty() {
            return Err(ProbeError::Input(in_probes));
        }
        let names: Vec<String> = ev
            .probes
            .iter()
            .map(|p| format!("`{}`", p.probe.value))
            .collect();
        return Err(ProbeError::other(
            format!("the site declares no probe `{name}`"),
            match names.is_empty() {
                true => {
                    "declare one in data/probes/NAME.yaml (see \"Probes\" in the README)".into()
                }
                false => format!("declared: {}", names.join(", ")),
            },
        ));
    };
    let problems = evidence_core::check::declared_probe(ev, p);
    if !problems.is_empty() {
        let mut d = Diagnostics::default();
        d.extend(problems);
        return Err(ProbeError::Input(d));
    }
    Ok(p.clone())
}

/// Every case once, or with `repeat > 1` round by round (`a-r1 b-r1 a-r2 b-r2`).
fn plan(cases: &[ProbeCase], repeat: u32) -> Vec<(String, &ProbeCase, Option<Repeat>)> {
    let mut out = Vec::new();
    for k in 1..=repeat.max(1) {
        for c in cases {
            out.push(match repeat > 1 {
                true => (
                    format!("{}-r{k}", c.id.value),
                    c,
                    Some(Repeat {
                        of: c.id.value.clone(),
                        index: k,
                    }),
                ),
                false => (c.id.value.clone(), c, None),
            });
        }
    }
    out
}

/// The probe file as a run's input: its name, size and hash (which version of it ran).
fn input_file(root: &Path, file: &str) -> Result<InputFile, ProbeError> {
    use sha2::{Digest, Sha256};
    let path = root.join(file);
    let bytes = evidence_core::load::read::read_bytes(&path, evidence_core::load::read::SOURCE)
        .map_err(|e| ProbeError::other(format!("cannot read {}", e.at(&path)), ""))?;
    let hash = Sha256::digest(&bytes);
    Ok(InputFile {
        name: file.to_string(),
        size: bytes.len() as u64,
        sha256: Some(hash.iter().map(|b| format!("{b:02x}")).collect()),
        package: None,
    })
}

/// `http://host:port` of a URL, without user, password, path or query.
fn endpoint(url: &str) -> Option<String> {
    let u = url::Url::parse(url).ok()?;
    let host = u.host_str()?;
    Some(match u.port() {
        Some(p) => format!("{}://{host}:{p}", u.scheme()),
        None => format!("{}://{host}", u.scheme()),
    })
}

/// What running a probe's cases needs: the file, where it is, the environment passed.
struct Runner<'a> {
    probe: &'a ProbeFile,
    file: &'a str,
    root: &'a Path,
    /// The variables passed through, as set in this process.
    env: Vec<(String, String)>,
    timeout: Duration,
}

impl<'a> Runner<'a> {
    fn new(probe: &'a ProbeFile, file: &'a str, root: &'a Path) -> Runner<'a> {
        let env = probe
            .env
            .iter()
            .filter_map(|n| Some((n.value.clone(), std::env::var(&n.value).ok()?)))
            .collect();
        Runner {
            probe,
            file,
            root,
            env,
            timeout: probe.time_limit(),
        }
    }

    /// A located error: `case` (when one runs) and the command, at `at` in the file.
    fn located(&self, at: &Id, case: Option<&str>, argv: &[Id], message: String) -> ProbeError {
        let cmd = shown(argv.iter().map(|a| a.value.as_str()));
        self.at(at, case, &cmd, message)
    }

    fn at(&self, at: &Id, case: Option<&str>, cmd: &str, message: String) -> ProbeError {
        let who = match case {
            Some(c) => format!("case `{c}`: "),
            None => String::new(),
        };
        let mut d = Diagnostics::default();
        d.push(Diagnostic::error(
            "probe-run",
            span_of(self.file, at),
            format!("{who}{cmd}: {message}"),
        ));
        ProbeError::Input(d)
    }

    /// One case: the command or request with its holes filled, its output read as JSON,
    /// its measurements and texts taken by their pointers.
    fn case(&self, id: &str, case: &ProbeCase) -> Result<Case, ProbeError> {
        let (output, shown_cmd, place) = match (&self.probe.command, &self.probe.request) {
            (Some(argv), _) => {
                let filled: Vec<Id> = argv
                    .iter()
                    .map(|a| {
                        evidence_core::model::probe_file::fill(&a.value, &case.params).map(|v| Id {
                            value: v,
                            referenced: a.referenced,
                        })
                    })
                    .collect::<Result<_, _>>()
                    .map_err(|h| {
                        self.located(&argv[0], Some(id), argv, UnknownHole::from(h).to_string())
                    })?;
                let out = self.command(Some(id), &filled)?;
                let cmd = shown(filled.iter().map(|a| a.value.as_str()));
                (out, cmd, &argv[0])
            }
            (None, Some(r)) => {
                let (out, cmd) = self.request(id, case)?;
                (out, cmd, &r.url)
            }
            (None, None) => {
                return Err(self.at(&self.probe.probe, Some(id), "", "nothing to run".into()));
            }
        };
        let json: serde_json::Value = super::http::parse_json(&String::from_utf8_lossy(&output))
            .map_err(|e| self.at(place, Some(id), &shown_cmd, e.of("the output").to_string()))?;
        let mut c = Case::new(id);
        for (name, pointer) in &self.probe.measurements {
            let v = self.number(&json, pointer, id, &shown_cmd)?;
            c.measurements.insert(name, v);
        }
        let mut texts = BTreeMap::new();
        for (name, pointer) in &self.probe.texts {
            match json.pointer(&pointer.value) {
                Some(serde_json::Value::String(s)) => {
                    texts.insert(name.clone(), self.scrub(s));
                }
                Some(other) => {
                    return Err(self.at(
                        pointer,
                        Some(id),
                        &shown_cmd,
                        format!("`{}` is {}, not a string", pointer.value, excerpt(other)),
                    ));
                }
                None => return Err(self.missing(pointer, id, &shown_cmd)),
            }
        }
        c.texts = (!texts.is_empty()).then(|| Box::new(texts));
        Ok(c)
    }

    fn missing(&self, pointer: &Id, id: &str, cmd: &str) -> ProbeError {
        self.at(
            pointer,
            Some(id),
            cmd,
            format!("the output has nothing at `{}`", pointer.value),
        )
    }

    /// The number at `pointer`, as the output wrote it (an integer beyond 2^53 is
    /// refused: it would not be recorded exactly).
    fn number(
        &self,
        json: &serde_json::Value,
        pointer: &Id,
        id: &str,
        cmd: &str,
    ) -> Result<f64, ProbeError> {
        const EXACT: u64 = 1 << 53;
        match json.pointer(&pointer.value) {
            Some(serde_json::Value::Number(n)) => {
                let exact = n.as_u64().is_none_or(|u| u <= EXACT)
                    && n.as_i64().is_none_or(|i| i.unsigned_abs() <= EXACT);
                match n.as_f64().filter(|v| exact && v.is_finite()) {
                    Some(v) => Ok(v),
                    None => Err(self.at(
                        pointer,
                        Some(id),
                        cmd,
                        format!(
                            "`{}` is {n}, which cannot be recorded exactly",
                            pointer.value
                        ),
                    )),
                }
            }
            Some(other) => Err(self.at(
                pointer,
                Some(id),
                cmd,
                format!("`{}` is {}, not a number", pointer.value, excerpt(other)),
            )),
            None => Err(self.missing(pointer, id, cmd)),
        }
    }

    /// Sends the case's request: the reply's body, and the request as shown in errors.
    fn request(&self, id: &str, case: &ProbeCase) -> Result<(Vec<u8>, String), ProbeError> {
        let Some(r) = &self.probe.request else {
            return Err(self.at(&self.probe.probe, Some(id), "", "no request".into()));
        };
        let fail = |m: String, cmd: &str| self.at(&r.url, Some(id), cmd, m);
        let url = evidence_core::model::probe_file::fill(&r.url.value, &case.params)
            .map_err(|h| fail(UnknownHole::from(h).to_string(), &r.url.value))?;
        let cmd = format!("{} {}", r.method.value, shown_url(&url));
        let parsed = url::Url::parse(&url).map_err(|e| fail(format!("not a URL: {e}"), &cmd))?;
        let origin = parsed.origin().ascii_serialization();
        let path = &url[url.find(&origin).map_or(0, |i| i + origin.len())..];
        let path = match path.find('/') {
            Some(i) => &path[i..],
            None => "/",
        };
        let http =
            super::http::Http::new(&origin, self.timeout).map_err(|e| fail(e.to_string(), &cmd))?;
        let reply = match &r.json {
            Some(body) => {
                let body = evidence_core::model::probe_file::fill_json(body, &case.params)
                    .map_err(|h| fail(h.to_string(), &cmd))?;
                http.post_raw(path, &body, Some(id))
            }
            None => http.get_raw(path, Some(id)),
        }
        .map_err(|e| fail(e.to_string(), &cmd))?;
        if !(200..300).contains(&reply.status) {
            return Err(fail(format!("HTTP {}", reply.status), &cmd));
        }
        Ok((reply.body.into_bytes(), cmd))
    }

    /// Runs `argv` without a shell, in the site root, with the probe's environment, time
    /// limit and output bound: its stdout, or a located error.
    fn command(&self, case: Option<&str>, argv: &[Id]) -> Result<Vec<u8>, ProbeError> {
        let Some(first) = argv.first() else {
            return Err(self.at(&self.probe.probe, case, "", "the command is empty".into()));
        };
        let fail = |m: String| self.located(first, case, argv, m);
        let program = self.program(&first.value).ok_or_else(|| {
            fail(format!(
                "no program `{}` on PATH (or under the site root)",
                first.value
            ))
        })?;
        use std::os::unix::process::CommandExt;
        let mut child = Command::new(&program)
            // The program sees the name it was given, not the path it was found at.
            .arg0(&first.value)
            .args(argv[1..].iter().map(|a| &a.value))
            .current_dir(self.root)
            .env_clear()
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| fail(format!("cannot start: {e}")))?;
        let over = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stdout = child.stdout.take().map(|mut out| {
            let over = over.clone();
            std::thread::spawn(move || {
                let mut buf = Vec::new();
                let _ = (&mut out).take(MAX_OUTPUT + 1).read_to_end(&mut buf);
                if buf.len() as u64 > MAX_OUTPUT {
                    over.store(true, std::sync::atomic::Ordering::SeqCst);
                }
                buf
            })
        });
        let stderr = child.stderr.take().map(|mut err| {
            std::thread::spawn(move || {
                let mut buf = Vec::new();
                let _ = (&mut err).take(MAX_STDERR as u64).read_to_end(&mut buf);
                // The rest is drained so that the command never blocks on a full pipe.
                let _ = std::io::copy(&mut err, &mut std::io::sink());
                buf
            })
        });
        let deadline = Instant::now() + self.timeout;
        let status = loop {
            if over.load(std::sync::atomic::Ordering::SeqCst) {
                let _ = child.kill();
                let _ = child.wait();
                return Err(fail(format!(
                    "printed more than {} MiB on stdout",
                    MAX_OUTPUT / (1024 * 1024)
                )));
            }
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if Instant::now() >= deadline => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(fail(format!(
                        "did not finish within the time limit ({})",
                        limit_text(self.timeout)
                    ))
                    .with_hint(
                        "raise `timeout:` in the probe file, or check what the command waits for",
                    ));
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                Err(e) => return Err(fail(format!("cannot wait for it: {e}"))),
            }
        };
        let out = stdout.and_then(|t| t.join().ok()).unwrap_or_default();
        let err = stderr.and_then(|t| t.join().ok()).unwrap_or_default();
        if out.len() as u64 > MAX_OUTPUT {
            return Err(fail(format!(
                "printed more than {} MiB on stdout",
                MAX_OUTPUT / (1024 * 1024)
            )));
        }
        if !status.success() {
            let said = String::from_utf8_lossy(&err);
            let last = said.lines().map(str::trim).rfind(|l| !l.is_empty());
            let code = match status.code() {
                Some(c) => format!("exited with status {c}"),
                None => "was stopped by a signal".to_string(),
            };
            return Err(fail(match last {
                Some(l) => format!("{code}: {}", self.scrub(&clip(l, 300))),
                None => code,
            }));
        }
        Ok(out)
    }

    /// Where the program is: a path with a `/` from the site root, otherwise the first
    /// executable file of that name on this process's PATH (the command's own
    /// environment has none unless the probe passes it).
    fn program(&self, name: &str) -> Option<PathBuf> {
        if name.contains('/') {
            let p = self.root.join(name);
            return p.is_file().then_some(p);
        }
        let path = std::env::var_os("PATH")?;
        std::env::split_paths(&path)
            .map(|d| d.join(name))
            .find(|p| is_executable(p))
    }

    /// `s` with nothing of this machine's environment: the home folder becomes `~`, and
    /// the value of each variable passed through becomes `$NAME`.
    fn scrub(&self, s: &str) -> String {
        let mut out = s.to_string();
        for (k, v) in &self.env {
            if v.len() >= 4 {
                out = out.replace(v.as_str(), &format!("${k}"));
            }
        }
        if let Ok(home) = std::env::var("HOME")
            && home.len() > 1
        {
            out = out.replace(home.trim_end_matches('/'), "~");
        }
        scrub_homes(&out)
    }
}

/// Paths under `/home/NAME` or `/root` written as `~`.
fn scrub_homes(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    loop {
        let at = [rest.find("/home/"), rest.find("/root/")]
            .into_iter()
            .flatten()
            .min();
        let Some(i) = at else {
            out.push_str(rest);
            return out;
        };
        out.push_str(&rest[..i]);
        let after = if rest[i..].starts_with("/home/") {
            let user = &rest[i + 6..];
            let end = user.find('/').unwrap_or(user.len());
            &user[end..]
        } else {
            &rest[i + 5..]
        };
        out.push('~');
        rest = after;
    }
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// A command as shown in an error: its arguments, quoted when they hold a space, each
/// cut short.
fn shown<'s>(argv: impl Iterator<Item = &'s str>) -> String {
    let parts: Vec<String> = argv
        .map(|a| {
            let a = clip(a, 80);
            match a.contains(char::is_whitespace) || a.is_empty() {
                true => format!("'{a}'"),
                false => a,
            }
        })
        .collect();
    format!("`{}`", parts.join(" "))
}

/// A URL as shown in an error, without its user and password.
fn shown_url(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut u) => {
            let _ = u.set_username("");
            let _ = u.set_password(None);
            u.to_string()
        }
        Err(_) => url.to_string(),
    }
}

fn clip(s: &str, n: usize) -> String {
    match s.char_indices().nth(n) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// A JSON value as said in an error.
fn excerpt(v: &serde_json::Value) -> String {
    use serde_json::Value;
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("`{b}`"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string \"{}\"", clip(s, 40)),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// A time limit as said in an error (`60 s`, `250 ms`).
fn limit_text(d: Duration) -> String {
    match d.subsec_millis() {
        0 => format!("{} s", d.as_secs()),
        _ => format!("{} ms", d.as_millis()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn home_folders_become_a_tilde() {
        assert_eq!(
            scrub_homes("psql (PostgreSQL) 15.8 /home/ann/x and /root/y, /usr/bin"),
            "psql (PostgreSQL) 15.8 ~/x and ~/y, /usr/bin"
        );
        assert_eq!(scrub_homes("/home/bob"), "~");
    }

    #[test]
    fn endpoints_keep_no_password() {
        assert_eq!(
            endpoint("http://u:secret@127.0.0.1:8080/x?q=1").as_deref(),
            Some("http://127.0.0.1:8080")
        );
        assert_eq!(shown_url("http://u:secret@h:1/p"), "http://h:1/p");
    }
}
