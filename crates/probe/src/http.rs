//! The HTTP client every probe talks through: ureq 3, one request at a time, a time limit
//! on every request, bounded response sizes, and errors that name the request.
//!
//! Status codes are not errors inside ureq (`http_status_as_error(false)`): a non-2xx
//! reply is read, its `{"error": …}` message (the engines send one) is
//! extracted, and the result is a [`ProbeError`] naming the method, the URL and the case.

use super::ProbeError;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::time::Duration;

/// Largest response body read (an `/api/show` with a tensor list is well under this).
const MAX_BODY: u64 = 64 * 1024 * 1024;

/// A client bound to one server.
pub struct Http {
    agent: ureq::Agent,
    base: String,
    timeout: Duration,
}

/// A reply read in full: status and body text.
pub struct Reply {
    pub status: u16,
    pub body: String,
}

impl Http {
    /// A client for `base` (`http://host:port`, no trailing slash needed). Only plain
    /// `http://` is supported: probes talk to servers on the local network.
    pub fn new(base: &str, timeout: Duration) -> Result<Http, ProbeError> {
        let base = base.trim().trim_end_matches('/').to_string();
        if base.starts_with("https://") {
            return Err(ProbeError::other(
                format!("cannot probe {base}: https is not supported"),
                "probes talk to local servers over plain http; use http://HOST:PORT",
            ));
        }
        if !base.starts_with("http://") || base.len() <= "http://".len() {
            return Err(ProbeError::other(
                format!("`{base}` is not an http URL"),
                "pass --url http://HOST:PORT, e.g. http://127.0.0.1:11434",
            ));
        }
        let config = ureq::Agent::config_builder()
            .timeout_global(Some(timeout))
            .http_status_as_error(false)
            .max_redirects(0)
            .build();
        Ok(Http {
            agent: config.into(),
            base,
            timeout,
        })
    }

    /// The base URL, as recorded in a run's `endpoint`.
    pub fn base(&self) -> &str {
        &self.base
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// GET `path`, read the whole body.
    pub fn get_raw(&self, path: &str, case: Option<&str>) -> Result<Reply, ProbeError> {
        let url = self.url(path);
        let result = self.agent.get(&url).call();
        self.finish("GET", &url, case, result)
    }

    /// POST `body` as JSON to `path`, read the whole body.
    pub fn post_raw(
        &self,
        path: &str,
        body: &impl Serialize,
        case: Option<&str>,
    ) -> Result<Reply, ProbeError> {
        let url = self.url(path);
        let json = serde_json::to_string(body).map_err(|e| {
            ProbeError::request(
                case,
                "POST",
                &url,
                format!("cannot encode the request: {e}"),
            )
        })?;
        let result = self
            .agent
            .post(&url)
            .header("Content-Type", "application/json")
            .send(json);
        self.finish("POST", &url, case, result)
    }

    /// GET `path` and decode a 2xx JSON reply into `T`.
    pub fn get<T: DeserializeOwned>(
        &self,
        path: &str,
        case: Option<&str>,
    ) -> Result<T, ProbeError> {
        let reply = self.get_raw(path, case)?;
        decode("GET", &self.url(path), case, reply)
    }

    /// POST JSON to `path` and decode a 2xx JSON reply into `T`.
    pub fn post<T: DeserializeOwned>(
        &self,
        path: &str,
        body: &impl Serialize,
        case: Option<&str>,
    ) -> Result<T, ProbeError> {
        let reply = self.post_raw(path, body, case)?;
        decode("POST", &self.url(path), case, reply)
    }

    fn finish(
        &self,
        method: &str,
        url: &str,
        case: Option<&str>,
        result: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
    ) -> Result<Reply, ProbeError> {
        let fail = |e: ureq::Error| {
            let (message, hint) = describe(&e, self.timeout, &self.base);
            let mut err = ProbeError::request(case, method, url, message);
            if let Some(h) = hint {
                err = err.with_hint(h);
            }
            err
        };
        let mut response = result.map_err(fail)?;
        let status = response.status().as_u16();
        let body = response
            .body_mut()
            .with_config()
            .limit(MAX_BODY)
            .lossy_utf8(true)
            .read_to_string()
            .map_err(fail)?;
        Ok(Reply { status, body })
    }
}

/// Decodes a reply: a non-2xx status is an error quoting the server's message; a body
/// that is not the expected JSON is an error saying whether it was cut short.
pub fn decode<T: DeserializeOwned>(
    method: &str,
    url: &str,
    case: Option<&str>,
    reply: Reply,
) -> Result<T, ProbeError> {
    if !(200..300).contains(&reply.status) {
        let err = ProbeError::request(
            case,
            method,
            url,
            format!("HTTP {}{}", reply.status, server_message(&reply.body)),
        );
        return Err(match reply.status {
            503 => err.with_hint("the server is not ready (still loading the model?); try again"),
            404 if reply.body.trim().is_empty() || !reply.body.contains("model") => {
                err.with_hint("no such endpoint: is --url the right server, and the right engine?")
            }
            _ => err,
        });
    }
    parse_json(&reply.body).map_err(|e| ProbeError::request(case, method, url, e.to_string()))
}

/// Parses a JSON document (a response), with an error that tells a truncated document
/// from an invalid one.
pub fn parse_json<T: DeserializeOwned>(text: &str) -> Result<T, JsonError> {
    serde_json::from_str::<T>(text).map_err(|e| {
        use serde_json::error::Category;
        let problem = match e.classify() {
            Category::Eof if text.trim().is_empty() => JsonProblem::Empty,
            Category::Eof => JsonProblem::Truncated { bytes: text.len() },
            Category::Syntax => JsonProblem::Syntax {
                line: e.line(),
                column: e.column(),
                excerpt: excerpt(text),
            },
            Category::Data => JsonProblem::Shape(e),
            Category::Io => JsonProblem::Io(e),
        };
        JsonError {
            document: "the response",
            problem,
        }
    })
}

/// Why a JSON document did not parse, and what the message calls the document.
#[derive(Debug)]
pub struct JsonError {
    /// The document as messages name it: `the response` unless [`JsonError::of`] says.
    pub document: &'static str,
    pub problem: JsonProblem,
}

/// What is wrong with a JSON document.
#[derive(Debug)]
pub enum JsonProblem {
    /// Nothing but white space.
    Empty,
    /// It ends in the middle (`bytes` long).
    Truncated { bytes: usize },
    /// Not JSON: where it goes wrong, and the start of the text.
    Syntax {
        line: usize,
        column: usize,
        excerpt: String,
    },
    /// JSON, but not of the shape expected.
    Shape(serde_json::Error),
    /// Reading it failed.
    Io(serde_json::Error),
}

impl JsonError {
    /// The same error, of a document the message calls `document` (`the output`, `the
    /// capture`, …).
    pub fn of(self, document: &'static str) -> JsonError {
        JsonError { document, ..self }
    }
}

impl std::fmt::Display for JsonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let doc = self.document;
        match &self.problem {
            JsonProblem::Empty => write!(f, "{doc} body is empty"),
            JsonProblem::Truncated { bytes } => write!(
                f,
                "{doc} ends in the middle of its JSON (truncated after {bytes} bytes)"
            ),
            JsonProblem::Syntax {
                line,
                column,
                excerpt,
            } => write!(
                f,
                "{doc} is not valid JSON (line {line}, column {column}): {excerpt}"
            ),
            JsonProblem::Shape(e) => write!(f, "{doc} JSON does not have the expected shape: {e}"),
            JsonProblem::Io(e) => write!(f, "cannot read {doc}: {e}"),
        }
    }
}

impl std::error::Error for JsonError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.problem {
            JsonProblem::Shape(e) | JsonProblem::Io(e) => Some(e),
            _ => None,
        }
    }
}

/// `: <message>` from an `{"error": "..."}` body, or a short excerpt of the body.
fn server_message(body: &str) -> String {
    #[derive(serde::Deserialize)]
    struct ErrorBody {
        error: serde_json::Value,
    }
    if let Ok(b) = serde_json::from_str::<ErrorBody>(body) {
        let msg = match &b.error {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Object(o) => o
                .get("message")
                .and_then(|m| m.as_str())
                .map(String::from)
                .unwrap_or_else(|| b.error.to_string()),
            other => other.to_string(),
        };
        return format!(": {}", one_line(&msg, 300));
    }
    if body.trim().is_empty() {
        String::new()
    } else {
        format!(": {}", excerpt(body))
    }
}

fn excerpt(text: &str) -> String {
    format!("`{}`", one_line(text, 120))
}

fn one_line(text: &str, max: usize) -> String {
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let flat = flat.trim();
    if flat.chars().count() > max {
        let cut: String = flat.chars().take(max).collect();
        format!("{cut}…")
    } else {
        flat.to_string()
    }
}

/// A human message (and a hint) for a transport error.
fn describe(e: &ureq::Error, timeout: Duration, base: &str) -> (String, Option<String>) {
    use std::io::ErrorKind;
    match e {
        ureq::Error::Io(io) if io.kind() == ErrorKind::ConnectionRefused => (
            "connection refused".into(),
            Some(format!("is the server running and listening at {base}?")),
        ),
        ureq::Error::Io(io) if io.kind() == ErrorKind::TimedOut => timed_out(timeout),
        ureq::Error::Io(io)
            if matches!(
                io.kind(),
                ErrorKind::UnexpectedEof
                    | ErrorKind::ConnectionReset
                    | ErrorKind::ConnectionAborted
            ) =>
        {
            (
                format!("the server closed the connection before the response was complete ({io})"),
                Some("the server may have crashed or been stopped; see its log".into()),
            )
        }
        ureq::Error::Timeout(_) => timed_out(timeout),
        ureq::Error::ConnectionFailed => (
            "cannot connect".into(),
            Some(format!("is the server running and listening at {base}?")),
        ),
        ureq::Error::HostNotFound => (
            "host not found".into(),
            Some("check the host name in --url".into()),
        ),
        ureq::Error::BodyExceedsLimit(n) => {
            (format!("the response is larger than {n} bytes"), None)
        }
        ureq::Error::BadUri(u) => (
            format!("bad URL: {u}"),
            Some("pass --url http://HOST:PORT".into()),
        ),
        other => (other.to_string(), None),
    }
}

fn timed_out(timeout: Duration) -> (String, Option<String>) {
    (
        format!("no complete response within {} s", timeout.as_secs_f64()),
        Some("a slow first load or a long prompt may need a larger --timeout".into()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, Debug)]
    struct T {
        #[allow(dead_code)]
        a: u32,
    }

    #[test]
    fn json_errors_say_what_went_wrong() {
        assert!(
            parse_json::<T>("{\"a\": 1")
                .unwrap_err()
                .to_string()
                .contains("truncated")
        );
        assert!(
            parse_json::<T>("")
                .unwrap_err()
                .to_string()
                .contains("empty")
        );
        assert!(
            parse_json::<T>("<html>")
                .unwrap_err()
                .to_string()
                .contains("not valid JSON")
        );
        assert!(
            parse_json::<T>("{\"a\": \"x\"}")
                .unwrap_err()
                .to_string()
                .contains("shape")
        );
        assert!(parse_json::<T>("{\"a\": 1}").is_ok());
    }

    #[test]
    fn a_json_error_says_the_message_of_old_and_names_its_document() {
        let cut = parse_json::<T>("{\"a\": 1").unwrap_err();
        assert_eq!(
            cut.to_string(),
            "the response ends in the middle of its JSON (truncated after 7 bytes)"
        );
        assert_eq!(
            parse_json::<T>(" ")
                .unwrap_err()
                .of("the output")
                .to_string(),
            "the output body is empty"
        );
    }

    #[test]
    fn server_messages_are_quoted() {
        assert_eq!(
            server_message("{\"error\":\"model 'x' not found\"}"),
            ": model 'x' not found"
        );
        assert_eq!(
            server_message("{\"error\":{\"code\":500,\"message\":\"boom\"}}"),
            ": boom"
        );
        assert_eq!(server_message(""), "");
    }

    #[test]
    fn only_http_urls() {
        let t = Duration::from_secs(1);
        assert!(Http::new("https://x", t).is_err());
        assert!(Http::new("localhost:1", t).is_err());
        assert_eq!(
            Http::new("http://127.0.0.1:1/", t)
                .map(|h| h.base)
                .ok()
                .as_deref(),
            Some("http://127.0.0.1:1")
        );
    }
}
