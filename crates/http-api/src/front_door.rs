//! The front door: each connection's request head is read and checked here before actix-web
//! sees it. actix answers a head it cannot parse (a 64 KiB path, a 200 KB query string, a bad
//! header) with an empty 400 or 431 that no middleware can reach; here the client gets our
//! `{error}` JSON instead, and a head that does not arrive in time gets a 408.
//!
//! A connection carries one request (the server answers with `connection: close`), so every
//! head passes this door. What follows the head is forwarded exactly as far as its
//! Content-Length says; anything a client pipelines after it is discarded.

use actix_http::StatusCode;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::TcpStream;

use crate::error::status_message;
use crate::server::SECURITY_HEADERS;

/// Largest request head (request line and headers). Browsers send a few KiB; cookies of other
/// apps on `localhost` count here too, so there is room.
pub const MAX_HEAD_BYTES: usize = 32 * 1024;
/// Longest request target (path and query).
pub const MAX_TARGET_BYTES: usize = 8 * 1024;
/// Most header fields.
const MAX_HEADERS: usize = 64;
/// How long a client may take to send its whole head.
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
/// How long writing a refusal may take before the connection is dropped.
const REFUSAL_WRITE_TIMEOUT: Duration = Duration::from_secs(5);

/// A connection whose head passed: the bytes read so far, then the rest of its body.
#[derive(Debug)]
pub(crate) struct Admitted {
    stream: TcpStream,
    /// Head and the body bytes that came with it.
    prefix: Vec<u8>,
    prefix_pos: usize,
    /// Body bytes still to forward after the prefix.
    body_left: u64,
}

/// Reads and checks the head; on a refusal answers it with `{error}` and closes.
pub(crate) async fn admit(
    mut stream: TcpStream,
) -> Result<(Admitted, Option<SocketAddr>), io::Error> {
    let peer = stream.peer_addr().ok();
    let verdict = tokio::time::timeout(HEAD_TIMEOUT, read_head(&mut stream))
        .await
        .unwrap_or(Err(Refusal::Status(StatusCode::REQUEST_TIMEOUT)));
    match verdict {
        Ok((prefix, body_left)) => Ok((
            Admitted {
                stream,
                prefix,
                prefix_pos: 0,
                body_left,
            },
            peer,
        )),
        Err(Refusal::Status(status)) => {
            let _ = tokio::time::timeout(REFUSAL_WRITE_TIMEOUT, refuse(&mut stream, status)).await;
            Err(io::Error::other("request refused at the front door"))
        }
        Err(Refusal::Gone) => Err(io::Error::other("connection closed before a request")),
    }
}

#[derive(Debug, PartialEq, Eq)]
enum Refusal {
    Status(StatusCode),
    /// The client closed (or failed) before sending anything: nobody to answer.
    Gone,
}

/// Reads until the head is complete; returns what was read and how much body is still due.
async fn read_head(stream: &mut TcpStream) -> Result<(Vec<u8>, u64), Refusal> {
    let mut buf: Vec<u8> = Vec::with_capacity(4096);
    let mut chunk = [0u8; 4096];
    loop {
        let read = match stream.read(&mut chunk).await {
            Ok(0) | Err(_) if buf.is_empty() => return Err(Refusal::Gone),
            Ok(0) => return Err(Refusal::Status(StatusCode::BAD_REQUEST)),
            Err(_) => return Err(Refusal::Gone),
            Ok(read) => read,
        };
        buf.extend_from_slice(chunk.get(..read).unwrap_or_default());
        if let Some(head) = check_head(&buf)? {
            return Ok(split_body(buf, &head));
        }
        if buf.len() > MAX_HEAD_BYTES {
            return Err(Refusal::Status(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE));
        }
    }
}

/// The bytes to forward first (head and body bytes read with it, nothing past the body) and
/// the body bytes still due.
fn split_body(mut buf: Vec<u8>, head: &Head) -> (Vec<u8>, u64) {
    let have = (buf.len() - head.len) as u64;
    if have >= head.content_length {
        // Pipelined bytes past this request's body are not forwarded.
        let keep = head.len as u64 + head.content_length;
        buf.truncate(usize::try_from(keep).unwrap_or(buf.len()));
        (buf, 0)
    } else {
        (buf, head.content_length - have)
    }
}

/// A complete, acceptable head.
#[derive(Debug, PartialEq, Eq)]
struct Head {
    /// Its length in bytes, blank line included.
    len: usize,
    content_length: u64,
}

/// `Ok(None)` while the head is incomplete (and within bounds).
fn check_head(buf: &[u8]) -> Result<Option<Head>, Refusal> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut request = httparse::Request::new(&mut headers);
    let len = match request.parse(buf) {
        Ok(httparse::Status::Complete(len)) => len,
        Ok(httparse::Status::Partial) => {
            // A target too long is known before the head ends.
            if request.path.is_some_and(|p| p.len() > MAX_TARGET_BYTES)
                || (request.path.is_none() && first_line_too_long(buf))
            {
                return Err(Refusal::Status(StatusCode::URI_TOO_LONG));
            }
            return Ok(None);
        }
        Err(httparse::Error::TooManyHeaders) => {
            return Err(Refusal::Status(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE));
        }
        Err(_) => return Err(Refusal::Status(StatusCode::BAD_REQUEST)),
    };
    if request.path.is_some_and(|p| p.len() > MAX_TARGET_BYTES) {
        return Err(Refusal::Status(StatusCode::URI_TOO_LONG));
    }
    if len > MAX_HEAD_BYTES {
        return Err(Refusal::Status(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE));
    }
    let bad = Refusal::Status(StatusCode::BAD_REQUEST);
    // What actix's own parser refuses with an empty 400 is refused here first.
    let target = request.path.unwrap_or_default();
    let method = request.method.unwrap_or_default();
    if actix_http::Uri::try_from(target).is_err()
        || actix_http::Method::from_bytes(method.as_bytes()).is_err()
    {
        return Err(bad);
    }
    let hosts = request
        .headers
        .iter()
        .filter(|h| h.name.eq_ignore_ascii_case("host"))
        .count();
    let http_11 = request.version == Some(1);
    if hosts > 1 || (http_11 && hosts == 0) {
        return Err(bad);
    }
    let content_length = body_length(request.headers)?;
    if !http_11 && method == "POST" && content_length.is_none() {
        return Err(Refusal::Status(StatusCode::LENGTH_REQUIRED));
    }
    let content_length = content_length.unwrap_or(0);
    Ok(Some(Head {
        len,
        content_length,
    }))
}

/// The request line alone is past the target limit (httparse has not finished it yet).
fn first_line_too_long(buf: &[u8]) -> bool {
    !buf.contains(&b'\n') && buf.len() > MAX_TARGET_BYTES + 64
}

/// The body's length from Content-Length (one header, digits only), if given. A chunked body
/// is refused (411): no browser sends one, and a body of known length is what lets this door
/// forward exactly one request.
fn body_length(headers: &[httparse::Header<'_>]) -> Result<Option<u64>, Refusal> {
    let mut length: Option<u64> = None;
    for header in headers {
        if header.name.eq_ignore_ascii_case("transfer-encoding") {
            return Err(Refusal::Status(StatusCode::LENGTH_REQUIRED));
        }
        if header.name.eq_ignore_ascii_case("content-length") {
            let value = std::str::from_utf8(header.value)
                .ok()
                .map(str::trim)
                .filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|v| v.parse::<u64>().ok())
                .ok_or(Refusal::Status(StatusCode::BAD_REQUEST))?;
            if length.is_some() {
                return Err(Refusal::Status(StatusCode::BAD_REQUEST));
            }
            length = Some(value);
        }
    }
    Ok(length)
}

/// Answers a refused head with `{error}` and closes the connection.
async fn refuse(stream: &mut TcpStream, status: StatusCode) -> io::Result<()> {
    stream.write_all(&refusal_bytes(status)).await?;
    stream.shutdown().await
}

/// The refusal, with the security headers every routed response carries.
fn refusal_bytes(status: StatusCode) -> Vec<u8> {
    let body = serde_json::json!({"error": status_message(status)}).to_string();
    let mut head = format!(
        "HTTP/1.1 {} {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         connection: close\r\n",
        status.as_u16(),
        status.canonical_reason().unwrap_or(""),
        body.len(),
    );
    for (name, value) in SECURITY_HEADERS {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    format!("{head}\r\n{body}").into_bytes()
}

impl AsyncRead for Admitted {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if let Some(rest) = this.prefix.get(this.prefix_pos..).filter(|r| !r.is_empty()) {
            let n = rest.len().min(buf.remaining());
            buf.put_slice(rest.get(..n).unwrap_or_default());
            this.prefix_pos += n;
            if this.prefix_pos == this.prefix.len() {
                this.prefix = Vec::new();
                this.prefix_pos = 0;
            }
            return Poll::Ready(Ok(()));
        }
        if this.body_left > 0 {
            let allowed = usize::try_from(this.body_left)
                .unwrap_or(usize::MAX)
                .min(buf.remaining());
            let mut limited = ReadBuf::new(buf.initialize_unfilled_to(allowed));
            let poll = Pin::new(&mut this.stream).poll_read(cx, &mut limited);
            let n = limited.filled().len();
            if let Poll::Ready(Ok(())) = poll {
                buf.advance(n);
                this.body_left -= n as u64;
            }
            return poll;
        }
        // The request is complete. Whatever else arrives is discarded; the end of the
        // stream (or an error) still reaches actix, which then knows the client left.
        let mut scratch = [0u8; 1024];
        loop {
            let mut discard = ReadBuf::new(&mut scratch);
            match Pin::new(&mut this.stream).poll_read(cx, &mut discard) {
                Poll::Ready(Ok(())) if discard.filled().is_empty() => return Poll::Ready(Ok(())),
                Poll::Ready(Ok(())) => {}
                other => return other,
            }
        }
    }
}

impl AsyncWrite for Admitted {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(buf: &[u8]) -> Result<Option<Head>, Refusal> {
        check_head(buf)
    }

    #[test]
    fn a_good_head_passes_with_its_body_length() {
        let head = b"POST /api/session HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello";
        assert_eq!(
            status(b"GET / HTTP/1.0\r\n\r\n")
                .unwrap()
                .unwrap()
                .content_length,
            0
        );
        let checked = status(head).unwrap().unwrap();
        assert_eq!(checked.content_length, 5);
        assert_eq!(checked.len, head.len() - 5);
        assert_eq!(status(b"GET / HTTP/1.1\r\nHost: x\r\n").unwrap(), None);
    }

    #[test]
    fn bad_heads_get_statuses() {
        let long_path = format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(MAX_TARGET_BYTES + 1));
        let many: String = (0..MAX_HEADERS + 1)
            .map(|i| format!("X-{i}: 1\r\n"))
            .collect();
        let many = format!("GET / HTTP/1.1\r\n{many}\r\n");
        for (head, expected) in [
            (b"GARBAGE\r\n\r\n".to_vec(), StatusCode::BAD_REQUEST),
            (b"GET / HTTP/1.1\r\n\r\n".to_vec(), StatusCode::BAD_REQUEST),
            (
                b"GET http://[bad/ HTTP/1.1\r\nHost: x\r\n\r\n".to_vec(),
                StatusCode::BAD_REQUEST,
            ),
            (
                b"GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n".to_vec(),
                StatusCode::BAD_REQUEST,
            ),
            (
                b"POST / HTTP/1.0\r\n\r\n".to_vec(),
                StatusCode::LENGTH_REQUIRED,
            ),
            (
                b"GET / HTTP/1.1\r\nBad Header\r\n\r\n".to_vec(),
                StatusCode::BAD_REQUEST,
            ),
            (long_path.into_bytes(), StatusCode::URI_TOO_LONG),
            (
                many.into_bytes(),
                StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            ),
            (
                b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec(),
                StatusCode::LENGTH_REQUIRED,
            ),
            (
                b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\n"
                    .to_vec(),
                StatusCode::BAD_REQUEST,
            ),
            (
                b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n".to_vec(),
                StatusCode::BAD_REQUEST,
            ),
        ] {
            assert_eq!(
                status(&head),
                Err(Refusal::Status(expected)),
                "{}",
                String::from_utf8_lossy(&head)
            );
        }
    }

    #[test]
    fn a_long_request_line_is_refused_before_it_ends() {
        let partial = format!("GET /{}", "a".repeat(MAX_TARGET_BYTES + 100));
        assert_eq!(
            status(partial.as_bytes()),
            Err(Refusal::Status(StatusCode::URI_TOO_LONG))
        );
    }

    #[test]
    fn pipelined_bytes_past_the_body_are_dropped() {
        let buf =
            b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nokGET / HTTP/1.1\r\n\r\n"
                .to_vec();
        let head = check_head(&buf).unwrap().unwrap();
        let (prefix, left) = split_body(buf, &head);
        assert!(prefix.ends_with(b"\r\n\r\nok"));
        assert_eq!(left, 0);
        let buf = b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nok".to_vec();
        let head = check_head(&buf).unwrap().unwrap();
        assert_eq!(split_body(buf, &head).1, 8);
    }

    #[test]
    fn refusals_are_json() {
        let bytes = String::from_utf8(refusal_bytes(StatusCode::URI_TOO_LONG)).unwrap();
        let (head, body) = bytes.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 414 URI Too Long"));
        assert!(head.contains("content-type: application/json"));
        for (name, value) in SECURITY_HEADERS {
            let line = format!("{name}: {value}");
            assert!(head.lines().any(|l| l == line), "{name}");
        }
        let json: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(json["error"].is_string());
    }
}
