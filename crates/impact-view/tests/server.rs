//! The viewer's server over real sockets, without a browser: it listens on loopback only,
//! refuses foreign `Host` and `Origin` headers and every path but its page's, streams scene
//! messages and frames over the WebSocket, obeys commands and ignores malformed ones.
//! (The page itself is tested in a headless browser: `tests/browser/`.)

use impact_view::{Server, ViewConfig};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};
use tungstenite::client::IntoClientRequest;
use tungstenite::{Message, WebSocket};

/// A viewer on a free port, serving from a thread of its own.
fn start() -> SocketAddr {
    let server = Server::bind(ViewConfig::default()).unwrap();
    let addr = server.local_addr().unwrap();
    std::thread::spawn(move || server.run());
    addr
}

/// The raw reply to a raw request.
fn exchange(addr: SocketAddr, request: &str) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(request.as_bytes()).unwrap();
    let mut reply = String::new();
    s.read_to_string(&mut reply).unwrap();
    reply
}

fn get(addr: SocketAddr, path: &str) -> String {
    exchange(
        addr,
        &format!(
            "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n",
            addr.port()
        ),
    )
}

fn state(addr: SocketAddr) -> serde_json::Value {
    let reply = get(addr, "/state");
    let body = reply.split_once("\r\n\r\n").unwrap().1;
    serde_json::from_str(body).unwrap()
}

fn socket(addr: SocketAddr) -> WebSocket<TcpStream> {
    let mut request = format!("ws://127.0.0.1:{}/ws", addr.port())
        .into_client_request()
        .unwrap();
    request.headers_mut().insert(
        "Origin",
        format!("http://127.0.0.1:{}", addr.port()).parse().unwrap(),
    );
    let stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    tungstenite::client(request, stream).unwrap().0
}

/// Polls `f` for up to 5 s.
fn eventually(mut f: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + Duration::from_secs(5);
    while Instant::now() < end {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

#[test]
fn it_listens_on_loopback_only() {
    let addr = start();
    assert!(addr.ip().is_loopback(), "{addr}");
}

#[test]
fn it_serves_its_page_and_state_and_nothing_else() {
    let addr = start();
    assert!(get(addr, "/").starts_with("HTTP/1.1 200"));
    assert!(get(addr, "/").contains("<canvas id=\"canvas\">"));
    assert!(get(addr, "/view.js").starts_with("HTTP/1.1 200"));
    assert!(get(addr, "/state").starts_with("HTTP/1.1 200"));
    for path in [
        "/../Cargo.toml",
        "/%2e%2e/%2e%2e/Cargo.toml",
        "/examples/scenes/rain.json",
        "//etc/passwd",
        "/state/../view.js",
    ] {
        let reply = get(addr, path);
        assert!(reply.starts_with("HTTP/1.1 404"), "{path}: {reply}");
    }
    let post = exchange(
        addr,
        &format!(
            "POST /state HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Length: 0\r\n\r\n",
            addr.port()
        ),
    );
    assert!(post.starts_with("HTTP/1.1 405"), "{post}");
    assert!(exchange(addr, "NONSENSE\r\n\r\n").starts_with("HTTP/1.1 400"));
}

#[test]
fn foreign_hosts_and_origins_are_refused() {
    let addr = start();
    let port = addr.port();
    for request in [
        format!("GET / HTTP/1.1\r\nHost: rebinding.example:{port}\r\n\r\n"),
        format!(
            "GET /state HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n",
            port + 1
        ),
        "GET /state HTTP/1.1\r\n\r\n".to_owned(),
        format!(
            "GET /state HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://evil.example\r\n\r\n"
        ),
        format!(
            "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        ),
        format!(
            "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
             Origin: http://rebinding.example:{port}\r\n\r\n"
        ),
    ] {
        let reply = exchange(addr, &request);
        assert!(reply.starts_with("HTTP/1.1 403"), "{request:?}: {reply}");
    }
}

#[test]
fn the_socket_streams_and_obeys() {
    let addr = start();
    let mut ws = socket(addr);
    let mut kinds = Vec::new();
    while kinds.len() < 2 {
        if let Message::Text(t) = ws.read().unwrap() {
            let v: serde_json::Value = serde_json::from_str(t.as_str()).unwrap();
            kinds.push(v["type"].as_str().unwrap().to_owned());
        }
    }
    assert_eq!(kinds, ["scene", "frame"]);

    // Malformed messages change nothing; a pause and a step do.
    for bad in [
        "not json",
        r#"{"type": "pause", "now": true}"#,
        r#"{"type": "step", "n": 2}"#,
    ] {
        ws.send(Message::text(bad)).unwrap();
    }
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(state(addr)["paused"], false);
    ws.send(Message::text(r#"{"type": "pause"}"#)).unwrap();
    assert!(eventually(|| state(addr)["paused"] == true));
    std::thread::sleep(Duration::from_millis(100));
    let before = state(addr);
    ws.send(Message::text(r#"{"type": "step"}"#)).unwrap();
    assert!(eventually(|| state(addr)["step"] != before["step"]));
    let after = state(addr);
    assert_eq!(
        after["step"].as_u64().unwrap(),
        before["step"].as_u64().unwrap() + 1
    );
    let dt = before["dt"].as_f64().unwrap();
    let time = |s: &serde_json::Value| s["time"].as_f64().unwrap();
    assert!((time(&after) - time(&before) - dt).abs() <= 1e-12);

    // A live switch keeps the state: the same poses after it.
    ws.send(Message::text(r#"{"type": "stepper", "value": "discrete"}"#))
        .unwrap();
    ws.send(Message::text(r#"{"type": "broadphase", "value": "brute"}"#))
        .unwrap();
    assert!(eventually(|| {
        let s = state(addr);
        s["stepper"] == "discrete" && s["broadphase"] == "brute"
    }));
    let switched = state(addr);
    assert_eq!(switched["bodies"], after["bodies"]);
    assert_eq!(switched["step"], after["step"]);

    // A scene that is not in the catalogue: the error names it, the world stays.
    ws.send(Message::text(
        r#"{"type": "load", "scene": "../Cargo.toml"}"#,
    ))
    .unwrap();
    assert!(eventually(
        || state(addr)["error"] == "../Cargo.toml: no such scene"
    ));
    assert_eq!(state(addr)["scene"], "demo");
    ws.send(Message::text(
        r#"{"type": "load", "scene": "dir/../x.json"}"#,
    ))
    .unwrap();
    assert!(eventually(
        || state(addr)["error"] == "dir/../x.json: no --scenes directory was given"
    ));
}

#[test]
fn an_oversized_message_closes_its_socket_only() {
    let addr = start();
    let mut ws = socket(addr);
    let huge = format!(r#"{{"type": "load", "scene": "{}"}}"#, "x".repeat(200_000));
    // The server may close before the whole message is written.
    let _ = ws.send(Message::text(huge));
    let closed = (0..1000).any(|_| match ws.read() {
        Ok(Message::Close(_)) | Err(_) => true,
        Ok(_) => false,
    });
    assert!(closed);
    assert!(get(addr, "/state").starts_with("HTTP/1.1 200"));
    let mut again = socket(addr);
    assert!(matches!(again.read().unwrap(), Message::Text(_)));
}
