//! What an engine probe can read of the GPU host it runs on, for the run's environment
//! and versions: the AMD GPUs the kernel's DRM subsystem lists, the amdgpu driver's
//! version, the ROCm release, and the ggml backends the engine's own processes loaded.
//! Each only where the machine says it; nothing is guessed.

use std::collections::BTreeMap;
use std::path::Path;

/// PCI vendor id of AMD (ATI).
const AMD: &str = "0x1002";

/// `host_gpus` (each AMD GPU of the host as `product name [pci id]`, `; `-joined: what the
/// machine has, not what the engine ran on) under environment; `amdgpu` and `rocm` under
/// versions.
pub fn gpu_facts(sys: &Path, rocm: &Path) -> (BTreeMap<String, String>, BTreeMap<String, String>) {
    let mut environment = BTreeMap::new();
    let mut versions = BTreeMap::new();
    let read = |p: &Path| {
        std::fs::read_to_string(p)
            .ok()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
    };
    let mut gpus = Vec::new();
    if let Ok(cards) = std::fs::read_dir(sys.join("class/drm")) {
        let mut cards: Vec<_> = cards
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("card") && !n.contains('-'))
            })
            .collect();
        cards.sort();
        for card in cards {
            let dev = card.join("device");
            if read(&dev.join("vendor")).as_deref() != Some(AMD) {
                continue;
            }
            let id = read(&dev.join("device")).unwrap_or_default();
            gpus.push(match read(&dev.join("product_name")) {
                Some(name) => format!("{name} [{AMD}:{id}]"),
                None => format!("AMD [{AMD}:{id}]"),
            });
        }
    }
    if !gpus.is_empty() {
        environment.insert("host_gpus".to_string(), gpus.join("; "));
    }
    if let Some(v) = read(&sys.join("module/amdgpu/version")) {
        versions.insert("amdgpu".to_string(), v);
    }
    if let Some(v) = read(&rocm.join(".info/version")) {
        versions.insert("rocm".to_string(), v);
    }
    (environment, versions)
}

/// Whether the engine at `endpoint` runs on this machine (a loopback address), so that
/// what it says of its files and devices can be read here too.
pub fn is_local(endpoint: &str) -> bool {
    url::Url::parse(endpoint).is_ok_and(|u| match u.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    })
}

/// [`gpu_facts`] of this machine when the engine at `endpoint` runs on it (a loopback
/// address), with the backends its processes loaded ([`engine_backends`]) as
/// `engine_backends`; nothing for an engine elsewhere, whose GPU this machine cannot see.
pub fn engine_host(endpoint: &str) -> (BTreeMap<String, String>, BTreeMap<String, String>) {
    let Some(port) = local_port(endpoint) else {
        return Default::default();
    };
    let (mut environment, versions) = gpu_facts(Path::new("/sys"), Path::new("/opt/rocm"));
    if let Some(b) = engine_backends(Path::new("/proc"), port) {
        environment.insert("engine_backends".to_string(), b);
    }
    (environment, versions)
}

/// The port of `endpoint` when it is on this machine.
fn local_port(endpoint: &str) -> Option<u16> {
    if !is_local(endpoint) {
        return None;
    }
    url::Url::parse(endpoint).ok()?.port_or_known_default()
}

/// The ggml backends that the process listening on `port` and the processes it started
/// have loaded, by library (`libggml-hip.so` → `hip`, `libggml-cpu-haswell.so` →
/// `cpu-haswell`), sorted and `, `-joined: which backend the engine really runs on,
/// where `host_gpus` says only what the machine has. Ollama runs a model in a runner it
/// starts, hence the children. `None` where /proc does not tell (another user's
/// process, an engine built with its backends linked in).
pub fn engine_backends(proc_root: &Path, port: u16) -> Option<String> {
    let inodes = listening_inodes(proc_root, port);
    if inodes.is_empty() {
        return None;
    }
    let pids: Vec<u32> = std::fs::read_dir(proc_root)
        .ok()?
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse().ok())
        .collect();
    let mut engine: Vec<u32> = pids
        .iter()
        .copied()
        .filter(|pid| holds_socket(proc_root, *pid, &inodes))
        .collect();
    // Descendants, by each process's parent: a runner may start a runner.
    let parents: Vec<(u32, u32)> = pids
        .iter()
        .filter_map(|pid| Some((*pid, parent_of(proc_root, *pid)?)))
        .collect();
    let mut i = 0;
    while i < engine.len() {
        let p = engine[i];
        engine.extend(
            parents
                .iter()
                .filter(|(child, parent)| *parent == p && !engine.contains(child))
                .map(|(child, _)| *child)
                .collect::<Vec<_>>(),
        );
        i += 1;
    }
    let mut backends: Vec<String> = engine
        .iter()
        .filter_map(|pid| std::fs::read_to_string(proc_root.join(format!("{pid}/maps"))).ok())
        .flat_map(|maps| {
            maps.lines()
                .filter_map(|l| backend_of(l.rsplit('/').next()?))
                .collect::<Vec<_>>()
        })
        .collect();
    backends.sort();
    backends.dedup();
    (!backends.is_empty()).then(|| backends.join(", "))
}

/// `hip` for `libggml-hip.so` (or `libggml-hip.so.0`); `None` for ggml's own base
/// library and anything else.
fn backend_of(file: &str) -> Option<String> {
    let name = file.strip_prefix("libggml-")?;
    let name = &name[..name.find(".so")?];
    (name != "base" && !name.is_empty()).then(|| name.to_string())
}

/// Inodes of the TCP sockets listening on `port` (IPv4 and IPv6).
fn listening_inodes(proc_root: &Path, port: u16) -> Vec<String> {
    const LISTEN: &str = "0A";
    let mut out = Vec::new();
    for table in ["net/tcp", "net/tcp6"] {
        let Ok(text) = std::fs::read_to_string(proc_root.join(table)) else {
            continue;
        };
        for line in text.lines().skip(1) {
            let cols: Vec<&str> = line.split_whitespace().collect();
            let (Some(local), Some(state), Some(inode)) = (cols.get(1), cols.get(3), cols.get(9))
            else {
                continue;
            };
            let listens_here = local
                .rsplit_once(':')
                .and_then(|(_, p)| u16::from_str_radix(p, 16).ok())
                == Some(port);
            if listens_here && *state == LISTEN && *inode != "0" {
                out.push(format!("socket:[{inode}]"));
            }
        }
    }
    out
}

/// Whether process `pid` has one of `sockets` open.
fn holds_socket(proc_root: &Path, pid: u32, sockets: &[String]) -> bool {
    let Ok(fds) = std::fs::read_dir(proc_root.join(format!("{pid}/fd"))) else {
        return false;
    };
    fds.flatten().any(|fd| {
        std::fs::read_link(fd.path())
            .ok()
            .and_then(|t| t.to_str().map(|t| sockets.iter().any(|s| s == t)))
            .unwrap_or(false)
    })
}

/// The parent of process `pid`, from `stat` (the field after the state, which follows
/// the command name's closing parenthesis).
fn parent_of(proc_root: &Path, pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(proc_root.join(format!("{pid}/stat"))).ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn put(root: &Path, rel: &str, text: &str) {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    #[test]
    fn reads_amd_gpus_and_versions_and_nothing_else() {
        let d = tempfile::tempdir().unwrap();
        let (sys, rocm) = (d.path().join("sys"), d.path().join("rocm"));
        put(&sys, "class/drm/card0/device/vendor", "0x8086\n");
        put(&sys, "class/drm/card0/device/device", "0x46a6\n");
        put(&sys, "class/drm/card1/device/vendor", "0x1002\n");
        put(&sys, "class/drm/card1/device/device", "0x7550\n");
        put(&sys, "class/drm/card1-DP-1/status", "connected\n");
        put(&sys, "class/drm/card2/device/vendor", "0x1002\n");
        put(&sys, "class/drm/card2/device/device", "0x744c\n");
        put(
            &sys,
            "class/drm/card2/device/product_name",
            "Radeon RX 7900 XTX\n",
        );
        put(&rocm, ".info/version", "6.4.1-120\n");
        let (env, versions) = gpu_facts(&sys, &rocm);
        assert_eq!(
            env.get("host_gpus").map(String::as_str),
            Some("AMD [0x1002:0x7550]; Radeon RX 7900 XTX [0x1002:0x744c]")
        );
        assert_eq!(versions.get("rocm").map(String::as_str), Some("6.4.1-120"));
        assert!(!versions.contains_key("amdgpu"), "not said, not guessed");
        let empty = d.path().join("none");
        assert_eq!(gpu_facts(&empty, &empty), Default::default());
        assert_eq!(
            engine_host("http://gpu-box.example:11434"),
            Default::default()
        );
    }

    #[test]
    fn backends_are_named_by_their_library() {
        assert_eq!(backend_of("libggml-hip.so").as_deref(), Some("hip"));
        assert_eq!(
            backend_of("libggml-cpu-haswell.so").as_deref(),
            Some("cpu-haswell")
        );
        assert_eq!(backend_of("libggml-vulkan.so.0").as_deref(), Some("vulkan"));
        assert_eq!(backend_of("libggml-base.so"), None);
        assert_eq!(backend_of("libggml.so"), None);
        assert_eq!(backend_of("libhipblas.so.2"), None);
    }

    /// A fake /proc: the server (pid 10) listens on 11434 and started a runner (pid 11)
    /// that loaded the HIP and a CPU backend; an unrelated process (pid 20) loaded
    /// Vulkan and listens elsewhere.
    #[test]
    fn backends_of_the_listening_process_and_its_children() {
        let d = tempfile::tempdir().unwrap();
        let proc_root = d.path();
        put(
            proc_root,
            "net/tcp",
            "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n\
             0: 0100007F:2CAA 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 4242 1 0000000000000000 100 0 0 10 0\n\
             1: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 5151 1 0000000000000000 100 0 0 10 0\n",
        );
        let socket = |pid: u32, inode: u32| {
            let fd = proc_root.join(format!("{pid}/fd"));
            std::fs::create_dir_all(&fd).unwrap();
            std::os::unix::fs::symlink(format!("socket:[{inode}]"), fd.join("3")).unwrap();
        };
        socket(10, 4242);
        socket(20, 5151);
        put(proc_root, "10/stat", "10 (ollama) S 1 10 10 0");
        put(proc_root, "11/stat", "11 (ollama runner) S 10 10 10 0");
        put(proc_root, "20/stat", "20 (other) S 1 20 20 0");
        put(
            proc_root,
            "10/maps",
            "7f00 r-xp 00000000 08:01 1 /usr/lib/ollama/libggml-base.so\n",
        );
        put(
            proc_root,
            "11/maps",
            "7f00 r-xp 00000000 08:01 2 /usr/lib/ollama/rocm/libggml-hip.so\n\
             7f01 r-xp 00000000 08:01 3 /usr/lib/ollama/libggml-cpu-haswell.so\n\
             7f02 rw-p 00000000 00:00 0 [heap]\n",
        );
        put(
            proc_root,
            "20/maps",
            "7f00 r-xp 00000000 08:01 4 /opt/libggml-vulkan.so\n",
        );
        assert_eq!(
            engine_backends(proc_root, 0x2CAA).as_deref(),
            Some("cpu-haswell, hip")
        );
        assert_eq!(
            engine_backends(proc_root, 0x1F90).as_deref(),
            Some("vulkan")
        );
        assert_eq!(engine_backends(proc_root, 9999), None);
    }

    /// On the real /proc, a listener of this very process is found by its port.
    #[test]
    fn finds_its_own_listening_socket_on_the_real_proc() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let inodes = listening_inodes(Path::new("/proc"), port);
        assert_eq!(inodes.len(), 1, "{inodes:?}");
        assert!(holds_socket(
            Path::new("/proc"),
            std::process::id(),
            &inodes
        ));
        // This test binary loads no ggml backend: nothing is said.
        assert_eq!(engine_backends(Path::new("/proc"), port), None);
    }
}
