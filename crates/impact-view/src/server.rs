//! The HTTP side: one request per connection, parsed with httparse; the page, its script
//! and style, `/state`, and the WebSocket at `/ws` (tungstenite over the same TcpStream).
//! Every request must carry a `Host` naming the loopback address and port, and any `Origin`
//! must be the page's own ([`guard`]); the WebSocket requires an `Origin`.

use crate::command;
use crate::frame::StateView;
use crate::guard;
use crate::sim::Shared;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::atomic::Ordering;
use std::sync::mpsc::Sender;
use std::sync::{Arc, PoisonError};
use std::time::Duration;
use tungstenite::protocol::{Role, WebSocket, WebSocketConfig};
use tungstenite::{Message, Utf8Bytes};

/// The page, its script and its style, shipped in the binary.
const PAGE: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/view.js");
const STYLE: &str = include_str!("page/view.css");

/// The longest request head read (bytes): the page's requests are a few hundred.
const MAX_HEAD: usize = 16 * 1024;
/// The longest message read from the page (bytes): its commands are under a few hundred; a
/// longer one closes the socket rather than fill memory.
const MAX_MESSAGE: usize = 64 * 1024;

/// What a connection needs.
#[derive(Clone)]
pub struct Context {
    /// The port listened on (for the `Host` and `Origin` checks).
    pub port: u16,
    /// The physics thread's publications.
    pub shared: Arc<Shared>,
    /// The physics thread's commands.
    pub commands: Sender<command::Command>,
}

/// A request head, as far as the server reads it.
#[derive(Debug, Default, PartialEq)]
pub struct Head {
    /// The method.
    pub method: String,
    /// The path, without its query.
    pub path: String,
    /// `Host`.
    pub host: Option<String>,
    /// `Origin`.
    pub origin: Option<String>,
    /// `Upgrade` (lower case).
    pub upgrade: Option<String>,
    /// `Sec-WebSocket-Key`.
    pub ws_key: Option<String>,
}

/// Parses a request head (up to and including the blank line).
///
/// # Errors
/// Why it is not one.
pub fn parse_head(bytes: &[u8]) -> Result<Head, String> {
    let mut headers = [httparse::EMPTY_HEADER; 64];
    let mut req = httparse::Request::new(&mut headers);
    match req.parse(bytes) {
        Ok(httparse::Status::Complete(_)) => {}
        Ok(httparse::Status::Partial) => return Err("incomplete request head".to_owned()),
        Err(e) => return Err(e.to_string()),
    }
    let mut head = Head {
        method: req.method.unwrap_or_default().to_owned(),
        path: req
            .path
            .unwrap_or_default()
            .split('?')
            .next()
            .unwrap_or_default()
            .to_owned(),
        ..Head::default()
    };
    for h in req.headers.iter() {
        let value = String::from_utf8_lossy(h.value).trim().to_owned();
        match h.name.to_ascii_lowercase().as_str() {
            "host" => head.host = Some(value),
            "origin" => head.origin = Some(value),
            "upgrade" => head.upgrade = Some(value.to_ascii_lowercase()),
            "sec-websocket-key" => head.ws_key = Some(value),
            _ => {}
        }
    }
    Ok(head)
}

/// What the server answers a request head with (the WebSocket aside).
#[derive(Debug, PartialEq, Eq)]
pub enum Route {
    /// A file of the page: its content type and text.
    Static(&'static str, &'static str),
    /// `/state`.
    State,
    /// `/ws`, an upgrade.
    WebSocket,
    /// Refused: status and reason.
    Refuse(u16, &'static str),
}

/// Routes a parsed head: the checks of [`guard`] first, then the path.
pub fn route(head: &Head, port: u16) -> Route {
    if !head
        .host
        .as_deref()
        .is_some_and(|h| guard::host_allowed(h, port))
    {
        return Route::Refuse(
            403,
            "Host must be 127.0.0.1, localhost or [::1] with the port",
        );
    }
    if !guard::origin_allowed(head.origin.as_deref(), port) {
        return Route::Refuse(403, "cross-origin requests are refused");
    }
    if head.method != "GET" {
        return Route::Refuse(405, "only GET");
    }
    match head.path.as_str() {
        "/" | "/index.html" => Route::Static("text/html; charset=utf-8", PAGE),
        "/view.js" => Route::Static("text/javascript; charset=utf-8", SCRIPT),
        "/view.css" => Route::Static("text/css; charset=utf-8", STYLE),
        "/state" => Route::State,
        "/ws" if head.upgrade.as_deref() == Some("websocket") => {
            if head.origin.is_none() {
                Route::Refuse(403, "a WebSocket needs the page's Origin")
            } else if head.ws_key.is_none() {
                Route::Refuse(400, "no Sec-WebSocket-Key")
            } else {
                Route::WebSocket
            }
        }
        _ => Route::Refuse(404, "not found"),
    }
}

/// Serves one connection.
pub fn serve_connection(mut stream: TcpStream, ctx: &Context) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let head = match read_head(&mut stream) {
        Ok(bytes) => parse_head(&bytes),
        Err(e) => Err(e),
    };
    let head = match head {
        Ok(h) => h,
        Err(e) => {
            respond(&mut stream, 400, "text/plain", e.as_bytes());
            return;
        }
    };
    match route(&head, ctx.port) {
        Route::Static(kind, text) => respond(&mut stream, 200, kind, text.as_bytes()),
        Route::State => {
            let p = ctx
                .shared
                .published
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            let (frame, scene) = (p.frame.clone(), p.scene.clone());
            drop(p);
            let body = serde_json::to_vec(&StateView::new(&frame, &scene)).unwrap_or_default();
            respond(&mut stream, 200, "application/json", &body);
        }
        Route::WebSocket => websocket(stream, &head, ctx),
        Route::Refuse(404, why) => respond(&mut stream, 404, "text/plain", why.as_bytes()),
        Route::Refuse(status, why) => {
            eprintln!(
                "impact view: refused {} {} (Host {:?}, Origin {:?}): {why}",
                head.method, head.path, head.host, head.origin
            );
            respond(&mut stream, status, "text/plain", why.as_bytes());
        }
    }
}

/// Reads up to the blank line that ends a request head.
fn read_head(stream: &mut TcpStream) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::with_capacity(1024);
    let mut buf = [0u8; 1024];
    while !bytes.windows(4).any(|w| w == b"\r\n\r\n") {
        if bytes.len() > MAX_HEAD {
            return Err("request head too long".to_owned());
        }
        let n = stream.read(&mut buf).map_err(|e| e.to_string())?;
        if n == 0 {
            return Err("connection closed in the request head".to_owned());
        }
        bytes.extend_from_slice(&buf[..n]);
    }
    Ok(bytes)
}

fn respond(stream: &mut TcpStream, status: u16, kind: &str, body: &[u8]) {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        _ => "Method Not Allowed",
    };
    let head = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\
         Content-Security-Policy: default-src 'self'; connect-src 'self' ws://127.0.0.1:* ws://localhost:*\r\n\
         Connection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body);
    let _ = stream.flush();
    let _ = stream.shutdown(Shutdown::Write);
}

/// The WebSocket: a reader thread forwards the page's messages to the physics thread; this
/// thread sends the latest scene message and frame as they change (frames the page has not
/// had time to take are skipped, never queued).
fn websocket(mut stream: TcpStream, head: &Head, ctx: &Context) {
    let key = head.ws_key.as_deref().unwrap_or_default();
    let reply = format!(
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Accept: {}\r\n\r\n",
        tungstenite::handshake::derive_accept_key(key.as_bytes())
    );
    if stream.write_all(reply.as_bytes()).is_err() {
        return;
    }
    let _ = stream.set_read_timeout(None);
    // A page that stops reading without closing is let go rather than hold a thread.
    let _ = stream.set_write_timeout(Some(Duration::from_secs(30)));
    let _ = stream.set_nodelay(true);
    let Ok(read_half) = stream.try_clone() else {
        return;
    };
    let commands = ctx.commands.clone();
    let reader = std::thread::spawn(move || read_commands(read_half, &commands));
    let mut ws = WebSocket::from_raw_socket(stream, Role::Server, None);
    let (mut scene_seq, mut frame_seq) = (u64::MAX, u64::MAX);
    while !ctx.shared.stop.load(Ordering::Relaxed) && !reader.is_finished() {
        let mut p = ctx
            .shared
            .published
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if p.frame_seq == frame_seq && p.scene_seq == scene_seq {
            p = ctx
                .shared
                .changed
                .wait_timeout(p, Duration::from_millis(200))
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        let scene = (p.scene_seq != scene_seq).then(|| p.scene.clone());
        let frame = (p.frame_seq != frame_seq).then(|| p.frame.clone());
        (scene_seq, frame_seq) = (p.scene_seq, p.frame_seq);
        drop(p);
        let texts = [
            scene.map(|s| serde_json::to_string(&*s)),
            frame.map(|f| serde_json::to_string(&*f)),
        ];
        for text in texts.into_iter().flatten().flatten() {
            if ws.send(Message::Text(Utf8Bytes::from(text))).is_err() {
                return;
            }
        }
    }
    let _ = ws.close(None);
}

/// Reads the page's messages until the socket closes; each is parsed and checked
/// ([`command::parse`]), and a refused one is logged with its reason and dropped.
fn read_commands(stream: TcpStream, commands: &Sender<command::Command>) {
    let config = WebSocketConfig::default()
        .max_message_size(Some(MAX_MESSAGE))
        .max_frame_size(Some(MAX_MESSAGE));
    let mut ws = WebSocket::from_raw_socket(stream, Role::Server, Some(config));
    loop {
        match ws.read() {
            Ok(Message::Text(text)) => match command::parse(text.as_str()) {
                Ok(c) => {
                    if commands.send(c).is_err() {
                        return;
                    }
                }
                Err(why) => eprintln!(
                    "impact view: ignored a message from the page ({why}): {}",
                    abbreviate(text.as_str())
                ),
            },
            Ok(Message::Binary(_)) => {
                eprintln!("impact view: ignored a binary message from the page");
            }
            Ok(Message::Close(_)) => return,
            Err(e) => {
                if !matches!(
                    e,
                    tungstenite::Error::ConnectionClosed | tungstenite::Error::AlreadyClosed
                ) {
                    eprintln!("impact view: closed the page's socket: {e}");
                }
                return;
            }
            Ok(_) => {}
        }
    }
}

/// The first 200 characters of a message, for the log.
fn abbreviate(text: &str) -> String {
    let mut s: String = text.chars().take(200).collect();
    if s.len() < text.len() {
        s.push('…');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(path: &str, host: &str, extra: &str) -> Head {
        parse_head(format!("GET {path} HTTP/1.1\r\nHost: {host}\r\n{extra}\r\n").as_bytes())
            .unwrap()
    }

    #[test]
    fn only_its_own_page_is_served() {
        let h = |p| route(&head(p, "127.0.0.1:7000", ""), 7000);
        assert!(matches!(h("/"), Route::Static(..)));
        assert!(matches!(h("/view.js?x=1"), Route::Static(..)));
        assert_eq!(h("/state"), Route::State);
        for bad in [
            "/../Cargo.toml",
            "/examples/rain.json",
            "/etc/passwd",
            "//etc/passwd",
            "/view.js/../../secret",
            "/%2e%2e/Cargo.toml",
            "/ws",
        ] {
            assert_eq!(h(bad), Route::Refuse(404, "not found"), "{bad}");
        }
    }

    #[test]
    fn host_and_origin_are_checked() {
        assert!(matches!(
            route(&head("/", "evil.example:7000", ""), 7000),
            Route::Refuse(403, _)
        ));
        assert!(matches!(
            route(
                &head(
                    "/state",
                    "127.0.0.1:7000",
                    "Origin: http://evil.example\r\n"
                ),
                7000
            ),
            Route::Refuse(403, _)
        ));
        let ws = "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
        assert!(matches!(
            route(&head("/ws", "127.0.0.1:7000", ws), 7000),
            Route::Refuse(403, _)
        ));
        let with_origin = format!("{ws}Origin: http://127.0.0.1:7000\r\n");
        assert_eq!(
            route(&head("/ws", "127.0.0.1:7000", &with_origin), 7000),
            Route::WebSocket
        );
        let no_host = parse_head(b"GET / HTTP/1.1\r\n\r\n").unwrap();
        assert!(matches!(route(&no_host, 7000), Route::Refuse(403, _)));
        let post = parse_head(b"POST /state HTTP/1.1\r\nHost: localhost:7000\r\n\r\n").unwrap();
        assert_eq!(route(&post, 7000), Route::Refuse(405, "only GET"));
    }
}
