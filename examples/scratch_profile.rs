use evidence::pipeline;
use evidence::render::{MemorySink, Renderer};
use std::collections::BTreeSet;
use std::path::Path;
use std::time::Instant;

fn main() {
    let root = Path::new("/dev/shm/bench/site-10000");
    let checked = pipeline::checked(root).expect("checked");
    let ev = &checked.loaded.evidence;
    let mut a = Vec::new();
    let mut b = Vec::new();
    let mut c = Vec::new();
    for _ in 0..20 {
        let t = Instant::now();
        let r = Renderer::new(
            ev,
            &checked.loaded.derived,
            &checked.loaded.theme,
            checked.messages.clone(),
            checked.values.clone(),
        )
        .expect("r");
        a.push(t.elapsed().as_secs_f64() * 1e3);
        let mut d = Vec::new();
        let t = Instant::now();
        r.render_pages(Some(&BTreeSet::new()), &MemorySink::default(), &mut d);
        b.push(t.elapsed().as_secs_f64() * 1e3);
        let only: BTreeSet<String> = ["docs/p05000".to_string()].into();
        let t = Instant::now();
        r.render_pages(Some(&only), &MemorySink::default(), &mut d);
        c.push(t.elapsed().as_secs_f64() * 1e3);
    }
    for v in [&mut a, &mut b, &mut c] {
        v.sort_by(f64::total_cmp);
    }
    println!(
        "Renderer::new {:.2} · extras {:.2} · page+extras {:.2}",
        a[10], b[10], c[10]
    );
}
