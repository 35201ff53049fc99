//! What an engine probe can read of the GPU host it runs on, for the run's environment
//! and versions: the AMD GPUs the kernel's DRM subsystem lists, the amdgpu driver's
//! version and the ROCm release. Each only where the machine says it; nothing is guessed.

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
/// address); nothing for an engine elsewhere, whose GPU this machine cannot see.
pub fn engine_host(endpoint: &str) -> (BTreeMap<String, String>, BTreeMap<String, String>) {
    if is_local(endpoint) {
        gpu_facts(Path::new("/sys"), Path::new("/opt/rocm"))
    } else {
        Default::default()
    }
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
}
