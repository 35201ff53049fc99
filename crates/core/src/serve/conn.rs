//! One connection of the preview server, over `std::net`: the request head read with a
//! bound, one response written, the connection closed.
//!
//! The head is read into one buffer of [`MAX_HEAD`] bytes and never more, so a client
//! sending endless header lines costs that buffer and nothing else: past it the request
//! gets 431 (tiny_http, used before, grew its buffer with the input and so took 490 MB for
//! a 400 MB header). httparse parses the head; it is tried only once a blank line has
//! arrived, so that a client trickling bytes does not make every read re-parse the buffer.
//!
//! Each connection carries one request and is closed after the response
//! (`Connection: close`): a preview server gains nothing from keep-alive, and without it
//! there is no request body or pipelining to frame. Closing is a *lingering* close: the
//! write side is shut, then what the client still sends is read and dropped for a bounded
//! time, because closing a socket with unread input resets the connection and the client
//! could lose the response. Not after a 431: a client sending an endless header would
//! keep the connection for the whole lingering time, so it is closed at once.

use std::io::{self, ErrorKind, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

/// The most bytes of request head (request line and header fields) read per connection.
pub const MAX_HEAD: usize = 64 * 1024;

/// The most header fields a request may have (httparse parses into a fixed array).
pub const MAX_HEADERS: usize = 128;

/// How long the lingering close reads and drops input at most, and how long it waits
/// for the next bytes before closing.
const LINGER: Duration = Duration::from_secs(5);
const LINGER_IDLE: Duration = Duration::from_secs(1);

/// The parts of a request head the server uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    /// The method as sent (`GET`).
    pub method: String,
    /// The raw request target (`/ja/?x=1`).
    pub target: String,
    /// Whether the request is HTTP/1.1 (else HTTP/1.0).
    pub http11: bool,
    /// The value of every `Host` field, in order.
    pub hosts: Vec<Vec<u8>>,
}

/// Why no request head was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeadError {
    /// The client closed, failed or stayed silent before sending a byte: nothing to answer.
    Closed,
    /// More than [`MAX_HEAD`] bytes or [`MAX_HEADERS`] fields: 431.
    TooLarge,
    /// The client stopped sending in the middle of the head: 408.
    TimedOut,
    /// Not an HTTP/1.x request head: 400, with the reason.
    Malformed(String),
}

/// Reads one request head from `r`, never more than [`MAX_HEAD`] bytes. The reader's own
/// timeout bounds the wait (a [`Deadline`] on a socket). Bytes after the head (a body) are
/// read into the buffer, if they came with it, and ignored.
pub fn read_head(r: &mut impl Read) -> Result<Head, HeadError> {
    let mut buf = vec![0u8; MAX_HEAD];
    let mut len = 0;
    loop {
        if len == MAX_HEAD {
            return Err(HeadError::TooLarge);
        }
        let n = match r.read(&mut buf[len..]) {
            Ok(0) if len == 0 => return Err(HeadError::Closed),
            Ok(0) => {
                return Err(HeadError::Malformed(
                    "the connection ended in the middle of the request head".into(),
                ));
            }
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) if is_timeout(&e) && len > 0 => return Err(HeadError::TimedOut),
            Err(_) => return Err(HeadError::Closed),
        };
        // A blank line ends the head; it may straddle the previous read.
        let from = len.saturating_sub(2);
        len += n;
        if !has_blank_line(&buf[from..len]) {
            continue;
        }
        if let Some(head) = parse(&buf[..len])? {
            return Ok(head);
        }
    }
}

/// A socket read with one deadline for all its reads: a client trickling a byte at a
/// time cannot hold the connection longer than the head timeout.
pub struct Deadline<'a> {
    stream: &'a TcpStream,
    end: Instant,
}

impl<'a> Deadline<'a> {
    pub fn new(stream: &'a TcpStream, within: Duration) -> Deadline<'a> {
        Deadline {
            stream,
            end: Instant::now() + within,
        }
    }
}

impl Read for Deadline<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.end.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(ErrorKind::TimedOut.into());
        }
        self.stream.set_read_timeout(Some(left))?;
        let mut stream = self.stream;
        stream.read(buf)
    }
}

fn is_timeout(e: &io::Error) -> bool {
    matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut)
}

/// Whether `bytes` hold an empty line (`\n\n` or `\n\r\n`: httparse takes bare LF too).
fn has_blank_line(bytes: &[u8]) -> bool {
    bytes
        .windows(2)
        .enumerate()
        .any(|(i, w)| w == b"\n\n" || (w == b"\n\r" && bytes.get(i + 2) == Some(&b'\n')))
}

/// Parses a head; `None` while it is incomplete.
fn parse(bytes: &[u8]) -> Result<Option<Head>, HeadError> {
    let mut fields = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut req = httparse::Request::new(&mut fields);
    match req.parse(bytes) {
        Ok(httparse::Status::Partial) => Ok(None),
        Ok(httparse::Status::Complete(_)) => {
            let (Some(method), Some(target), Some(version)) = (req.method, req.path, req.version)
            else {
                return Err(HeadError::Malformed("incomplete request line".into()));
            };
            let hosts = req
                .headers
                .iter()
                .filter(|h| h.name.eq_ignore_ascii_case("host"))
                .map(|h| h.value.to_vec())
                .collect();
            Ok(Some(Head {
                method: method.to_string(),
                target: target.to_string(),
                http11: version == 1,
                hosts,
            }))
        }
        Err(httparse::Error::TooManyHeaders) => Err(HeadError::TooLarge),
        Err(e) => Err(HeadError::Malformed(format!(
            "malformed request head ({e})"
        ))),
    }
}

/// A response held in memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    pub status: u16,
    /// Header fields besides `Content-Length` and `Connection`, which are always sent.
    pub headers: Vec<(&'static str, String)>,
    pub body: Vec<u8>,
}

impl Response {
    /// A response with the headers every answer of the server carries.
    pub fn new(status: u16, content_type: &str, body: Vec<u8>) -> Response {
        Response {
            status,
            headers: vec![
                ("Content-Type", content_type.to_string()),
                ("Cache-Control", "no-store".into()),
                ("X-Content-Type-Options", "nosniff".into()),
            ],
            body,
        }
    }

    /// A plain-text response.
    pub fn text(status: u16, text: String) -> Response {
        Response::new(status, "text/plain; charset=utf-8", text.into_bytes())
    }

    /// Adds a header field. `value` must hold no control character (callers pass
    /// constants and percent-encoded paths).
    pub fn with(mut self, name: &'static str, value: String) -> Response {
        self.headers.push((name, value));
        self
    }

    /// The bytes sent: status line, fields and, unless `head_only` (a HEAD request), the
    /// body. `Content-Length` is the body's length either way.
    pub fn to_bytes(&self, head_only: bool) -> Vec<u8> {
        let mut out = format!("HTTP/1.1 {} {}\r\n", self.status, reason(self.status));
        for (name, value) in &self.headers {
            out.push_str(&format!("{name}: {value}\r\n"));
        }
        out.push_str(&format!(
            "Content-Length: {}\r\nConnection: close\r\n\r\n",
            self.body.len()
        ));
        let mut bytes = out.into_bytes();
        if !head_only {
            bytes.extend_from_slice(&self.body);
        }
        bytes
    }
}

/// The reason phrase of the statuses the server sends.
pub fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        302 => "Found",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        421 => "Misdirected Request",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "",
    }
}

/// The answer to a head that could not be read; `None` when there is no one to answer.
pub fn refusal(e: &HeadError) -> Option<Response> {
    let text = match e {
        HeadError::Closed => return None,
        HeadError::TooLarge => (
            431,
            format!("431 request header fields too large: the limit is {MAX_HEAD} bytes\n"),
        ),
        HeadError::TimedOut => (408, "408 request timeout\n".into()),
        HeadError::Malformed(why) => (400, format!("400 bad request: {why}\n")),
    };
    Some(Response::text(text.0, text.1))
}

/// Sends `response` and closes the connection (see the module doc for the lingering).
/// The client may have gone away; there is nothing to do about that.
pub fn finish(mut stream: TcpStream, response: &Response, head_only: bool) {
    if stream.write_all(&response.to_bytes(head_only)).is_ok() {
        let _ = stream.flush();
    }
    linger(stream);
}

/// Sends `response` to a client whose request head overran [`MAX_HEAD`] and closes the
/// connection at once, without the lingering read: such a client may go on sending for
/// as long as it likes, and reading and dropping that would hold the connection (and one
/// of the server's places) for the whole [`LINGER`]. Only what has already arrived is
/// dropped (at most [`MAX_HEAD`] more bytes, without waiting), so that a client that
/// stopped sending gets the response and then the end of the stream, not a reset; one
/// still sending gets a reset once the response is out.
pub fn close_now(mut stream: TcpStream, response: &Response) {
    if stream.write_all(&response.to_bytes(false)).is_err()
        || stream.shutdown(Shutdown::Write).is_err()
        || stream.set_nonblocking(true).is_err()
    {
        return;
    }
    let mut sink = [0u8; 8192];
    let mut dropped = 0;
    while dropped < MAX_HEAD {
        match stream.read(&mut sink) {
            Ok(0) | Err(_) => return,
            Ok(n) => dropped += n,
        }
    }
}

/// Sends `response` and drops the connection without reading anything: for a refusal
/// made before the request was read, on a thread that must not wait.
pub fn reject(mut stream: TcpStream, response: &Response) {
    let _ = stream.write_all(&response.to_bytes(false));
}

/// Shuts the write side, then reads and drops input until the client closes, goes quiet
/// for [`LINGER_IDLE`] or [`LINGER`] has passed.
fn linger(mut stream: TcpStream) {
    if stream.shutdown(Shutdown::Write).is_err()
        || stream.set_read_timeout(Some(LINGER_IDLE)).is_err()
    {
        return;
    }
    let end = Instant::now() + LINGER;
    let mut sink = [0u8; 8192];
    while Instant::now() < end {
        match stream.read(&mut sink) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader handing out `data` in pieces of at most `step` bytes, then endless `a`s
    /// if `endless`; it counts what it handed out.
    struct Feed {
        data: Vec<u8>,
        step: usize,
        endless: bool,
        given: usize,
    }

    impl Feed {
        fn new(data: &[u8], step: usize) -> Feed {
            Feed {
                data: data.to_vec(),
                step,
                endless: false,
                given: 0,
            }
        }
    }

    impl Read for Feed {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = out.len().min(self.step);
            let left = self.data.len().saturating_sub(self.given);
            let n = if self.endless { n } else { n.min(left) };
            for (i, b) in out[..n].iter_mut().enumerate() {
                *b = self.data.get(self.given + i).copied().unwrap_or(b'a');
            }
            self.given += n;
            Ok(n)
        }
    }

    fn head(text: &[u8]) -> Result<Head, HeadError> {
        read_head(&mut Feed::new(text, 7))
    }

    #[test]
    fn reads_a_head_in_pieces() {
        let got = head(b"GET /ja/?x=1 HTTP/1.1\r\nHost: localhost:1111\r\nAccept: */*\r\n\r\n");
        assert_eq!(
            got,
            Ok(Head {
                method: "GET".into(),
                target: "/ja/?x=1".into(),
                http11: true,
                hosts: vec![b"localhost:1111".to_vec()],
            })
        );
        let got = head(b"HEAD / HTTP/1.0\n\n");
        assert!(got.is_ok_and(|h| !h.http11 && h.hosts.is_empty() && h.method == "HEAD"));
        let got = head(b"GET / HTTP/1.1\r\nhost: a\r\nHOST: b\r\n\r\n");
        assert_eq!(
            got.map(|h| h.hosts.len()),
            Ok(2),
            "every Host field is kept"
        );
    }

    #[test]
    fn refuses_what_is_not_a_head() {
        for bad in [
            &b"GET / HTTP/2.0\r\n\r\n"[..],
            b"GET\r\n\r\n",
            b"GET / HTTP/1.1\r\nno colon\r\n\r\n",
            b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\n\n",
        ] {
            assert!(
                matches!(head(bad), Err(HeadError::Malformed(_))),
                "{bad:?} → {:?}",
                head(bad)
            );
        }
        assert!(matches!(
            head(b"GET / HTTP/1.1\r\nHost: a\r\n"),
            Err(HeadError::Malformed(_))
        ));
        assert_eq!(head(b""), Err(HeadError::Closed));
    }

    #[test]
    fn stops_reading_at_the_bound() {
        // An endless header line: refused after MAX_HEAD bytes, and no byte more read.
        let mut feed = Feed::new(b"GET / HTTP/1.1\r\nX-Pad: ", 4096);
        feed.endless = true;
        assert_eq!(read_head(&mut feed), Err(HeadError::TooLarge));
        assert_eq!(feed.given, MAX_HEAD);
        // Endless short fields, blank lines nowhere: the same.
        let fields = [&b"GET / HTTP/1.1\r\n"[..], &b"a: b\r\n".repeat(MAX_HEAD)].concat();
        let mut feed = Feed::new(&fields, 1000);
        assert_eq!(read_head(&mut feed), Err(HeadError::TooLarge));
        assert_eq!(feed.given, MAX_HEAD);
        // A head that ends right at the bound is read.
        let start = b"GET / HTTP/1.1\r\nX-Pad: ";
        let pad = MAX_HEAD - start.len() - 4;
        let exact = [&start[..], &b"a".repeat(pad), b"\r\n\r\n"].concat();
        assert_eq!(exact.len(), MAX_HEAD);
        assert!(read_head(&mut Feed::new(&exact, 4096)).is_ok());
    }

    #[test]
    fn too_many_fields_are_too_large() {
        let many = [
            &b"GET / HTTP/1.1\r\n"[..],
            &b"a: b\r\n".repeat(MAX_HEADERS + 1),
            b"\r\n",
        ]
        .concat();
        assert_eq!(head(&many), Err(HeadError::TooLarge));
    }

    #[test]
    fn blank_lines_are_found_across_reads() {
        assert!(has_blank_line(b"x\r\n\r\n"));
        assert!(has_blank_line(b"\n\n"));
        assert!(has_blank_line(b"\n\r\n"));
        assert!(!has_blank_line(b"a\r\nb\r\n"));
        assert!(!has_blank_line(b"\r\n\r"));
        // Byte by byte: the end is still seen.
        let text = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n";
        assert!(read_head(&mut Feed::new(text, 1)).is_ok());
    }

    #[test]
    fn responses_are_framed() {
        let r = Response::text(421, "421 misdirected\n".into()).with("Allow", "GET".into());
        let text = String::from_utf8(r.to_bytes(false)).unwrap_or_default();
        assert!(text.starts_with("HTTP/1.1 421 Misdirected Request\r\n"));
        assert!(text.contains("\r\nContent-Type: text/plain; charset=utf-8\r\n"));
        assert!(text.contains("\r\nAllow: GET\r\n"));
        assert!(text.contains("\r\nContent-Length: 16\r\nConnection: close\r\n\r\n"));
        assert!(text.ends_with("\r\n\r\n421 misdirected\n"));
        let head = String::from_utf8(r.to_bytes(true)).unwrap_or_default();
        assert!(head.ends_with("Content-Length: 16\r\nConnection: close\r\n\r\n"));
    }

    /// A reader handing out `data`, then failing with `then`.
    struct Stalls(Option<Vec<u8>>, ErrorKind);

    impl Read for Stalls {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            match self.0.take() {
                Some(d) => {
                    out[..d.len()].copy_from_slice(&d);
                    Ok(d.len())
                }
                None => Err(self.1.into()),
            }
        }
    }

    #[test]
    fn a_client_stalling_mid_head_times_out() {
        let mut r = Stalls(Some(b"GET / HTTP/1.1\r\n".to_vec()), ErrorKind::TimedOut);
        assert_eq!(read_head(&mut r), Err(HeadError::TimedOut));
        let mut r = Stalls(Some(b"GET / H".to_vec()), ErrorKind::WouldBlock);
        assert_eq!(read_head(&mut r), Err(HeadError::TimedOut));
        let mut r = Stalls(None, ErrorKind::WouldBlock);
        assert_eq!(
            read_head(&mut r),
            Err(HeadError::Closed),
            "no byte: no answer"
        );
        let mut r = Stalls(Some(b"GET / H".to_vec()), ErrorKind::ConnectionReset);
        assert_eq!(read_head(&mut r), Err(HeadError::Closed));
    }

    #[test]
    fn a_deadline_bounds_every_read() {
        let (client, server) = match socket_pair() {
            Ok(p) => p,
            Err(e) => panic!("loopback socket pair: {e}"),
        };
        // Nothing sent: the read ends with a timeout, however late it starts.
        let err = Deadline::new(&server, Duration::from_millis(1)).read(&mut [0; 8]);
        assert!(err.is_err_and(|e| is_timeout(&e)));
        // Sent: read well within a generous deadline.
        let mut sent = &client;
        let _ = sent.write_all(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
        let got = read_head(&mut Deadline::new(&server, Duration::from_secs(60)));
        assert!(got.is_ok_and(|h| h.target == "/"));
    }

    fn socket_pair() -> io::Result<(TcpStream, TcpStream)> {
        let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
        let client = TcpStream::connect(listener.local_addr()?)?;
        let (server, _) = listener.accept()?;
        Ok((client, server))
    }

    #[test]
    fn refusals() {
        let status = |e| refusal(&e).map(|r| r.status);
        assert_eq!(status(HeadError::TooLarge), Some(431));
        assert_eq!(status(HeadError::TimedOut), Some(408));
        assert_eq!(status(HeadError::Malformed("x".into())), Some(400));
        assert_eq!(status(HeadError::Closed), None);
    }
}
