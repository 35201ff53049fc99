//! Live reload: the server-sent event stream at `/__evidence/events` and the few lines of
//! script injected into served HTML (never into `site/`).
//!
//! Every build the server keeps (a new site or new errors) gets a new *version*. A served
//! page carries the version it was rendered from in its script; the stream sends the
//! current version on connect and after every build, and the page reloads when the two
//! differ. So a build that finished between the page load and the stream connecting
//! still reloads the page, and so does a restarted server (its versions start from a new
//! random-enough prefix).
//!
//! The stream takes the request's socket, writes its own headers and flushes after every
//! event. A client that went away is dropped at the next write; a comment line is sent
//! every few seconds so that this happens even when nothing is rebuilt.

use std::io::Write;
use std::sync::Mutex;

/// The open event streams.
#[derive(Default)]
pub struct Clients {
    writers: Mutex<Vec<Box<dyn Write + Send>>>,
}

impl Clients {
    /// Starts a stream on a socket taken from a request: headers, the reconnect delay and
    /// the current version. A client whose socket fails at once is not kept.
    pub fn add(&self, mut writer: Box<dyn Write + Send>, version: &str) {
        let head = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\n\
             Cache-Control: no-store\r\nConnection: keep-alive\r\n\
             X-Content-Type-Options: nosniff\r\n\r\nretry: 500\n\n{}",
            event(version)
        );
        if writer.write_all(head.as_bytes()).is_ok()
            && writer.flush().is_ok()
            && let Ok(mut w) = self.writers.lock()
        {
            w.push(writer);
        }
    }

    /// Sends a new version to every open page; drops the clients that went away.
    pub fn broadcast(&self, version: &str) {
        self.send(&event(version));
    }

    /// Sends a comment line, to notice closed connections while nothing changes.
    pub fn ping(&self) {
        self.send(": ping\n\n");
    }

    /// How many streams are open.
    pub fn len(&self) -> usize {
        self.writers.lock().map(|w| w.len()).unwrap_or(0)
    }

    /// Whether no stream is open.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Closes every stream (on shutdown).
    pub fn close_all(&self) {
        if let Ok(mut w) = self.writers.lock() {
            w.clear();
        }
    }

    fn send(&self, text: &str) {
        if let Ok(mut writers) = self.writers.lock() {
            writers.retain_mut(|w| w.write_all(text.as_bytes()).is_ok() && w.flush().is_ok());
        }
    }
}

/// One `message` event carrying a version.
fn event(version: &str) -> String {
    format!("data: {version}\n\n")
}

/// The script injected into served HTML pages rendered from `version`.
pub fn script(version: &str) -> String {
    // The version is made of digits and dashes only (see `mod.rs`); no escaping needed,
    // but keep it safe whatever it holds.
    let v: String = version
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    format!(
        "<script>/* evidence serve: live reload */(()=>{{const v=\"{v}\";\
         const s=new EventSource(\"{}\");\
         s.onmessage=e=>{{if(e.data!==v){{s.close();location.reload();}}}};}})();</script>\n",
        super::http::EVENTS_PATH
    )
}

/// Inserts `extra` before the last `</body>` of an HTML page (or at its end).
pub fn inject(html: &[u8], extra: &str) -> Vec<u8> {
    let at = find_last_ci(html, b"</body>").unwrap_or(html.len());
    let mut out = Vec::with_capacity(html.len() + extra.len());
    out.extend_from_slice(&html[..at]);
    out.extend_from_slice(extra.as_bytes());
    out.extend_from_slice(&html[at..]);
    out
}

fn find_last_ci(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.len() > hay.len() {
        return None;
    }
    (0..=hay.len() - needle.len())
        .rev()
        .find(|&i| hay[i..i + needle.len()].eq_ignore_ascii_case(needle))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex as StdMutex};

    #[test]
    fn injects_before_the_last_body_end() {
        let out = inject(b"<html><body><p>x</p></BODY></html>", "<script>s</script>");
        assert_eq!(
            String::from_utf8_lossy(&out),
            "<html><body><p>x</p><script>s</script></BODY></html>"
        );
        let out = inject(b"<p>no body</p>", "<i>");
        assert_eq!(String::from_utf8_lossy(&out), "<p>no body</p><i>");
    }

    #[test]
    fn script_names_the_stream_and_the_version() {
        let s = script("17-3");
        assert!(s.contains("/__evidence/events"));
        assert!(s.contains("const v=\"17-3\""));
        assert!(script("1\"</script>").contains("const v=\"1script\""));
        assert!(s.lines().count() <= 2, "the script stays tiny");
    }

    /// A writer that records what it got, or fails every write.
    struct Probe(Arc<StdMutex<Vec<u8>>>, bool);
    impl Write for Probe {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            if self.1 {
                return Err(std::io::ErrorKind::BrokenPipe.into());
            }
            if let Ok(mut v) = self.0.lock() {
                v.extend_from_slice(b);
            }
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn broadcasts_and_drops_dead_clients() {
        let clients = Clients::default();
        let got = Arc::new(StdMutex::new(Vec::new()));
        clients.add(Box::new(Probe(got.clone(), false)), "1-1");
        clients.add(Box::new(Probe(Arc::default(), true)), "1-1");
        assert_eq!(clients.len(), 1);
        clients.broadcast("1-2");
        clients.ping();
        let text = String::from_utf8(got.lock().map(|g| g.clone()).unwrap_or_default())
            .unwrap_or_default();
        assert!(text.starts_with("HTTP/1.1 200 OK\r\n"));
        assert!(text.contains("text/event-stream"));
        assert!(text.contains("data: 1-1\n\n"));
        assert!(text.ends_with("data: 1-2\n\n: ping\n\n"));
        clients.close_all();
        assert!(clients.is_empty());
    }
}
