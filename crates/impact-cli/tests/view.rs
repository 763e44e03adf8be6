//! `impact view` as a user starts it: the address printed on standard output, a scene file
//! that does not load shown on the page (`/state`'s `error`) and printed on standard error
//! as `impact run` prints it, and bad options refused with exit code 2.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// Kills the viewer when the test ends, passed or not.
struct Viewer(Child);

impl Drop for Viewer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_scene_that_fails_to_load_is_shown_and_printed() {
    let dir = std::env::temp_dir().join(format!("impact-cli-view-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let scene = dir.join("bad.json");
    std::fs::write(
        &scene,
        r#"{"bodies": [{"shape": {"type": "circle", "radius": 0}}]}"#,
    )
    .unwrap();
    let mut child = Viewer(
        Command::new(env!("CARGO_BIN_EXE_impact"))
            .args(["view", scene.to_str().unwrap(), "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let mut line = String::new();
    BufReader::new(child.0.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .strip_prefix("impact view: http://")
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("{line}"))
        .to_owned();
    assert!(url.starts_with("127.0.0.1:"), "{url}");

    let expected = format!(
        "{}: bodies[0].shape.radius: must be positive, got 0",
        scene.display()
    );
    let mut stream = TcpStream::connect(&url).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    write!(stream, "GET /state HTTP/1.1\r\nHost: {url}\r\n\r\n").unwrap();
    let mut reply = String::new();
    stream.read_to_string(&mut reply).unwrap();
    let body: serde_json::Value =
        serde_json::from_str(reply.split_once("\r\n\r\n").unwrap().1).unwrap();
    assert_eq!(body["error"], expected.as_str());

    let mut err = BufReader::new(child.0.stderr.take().unwrap());
    let mut first = String::new();
    err.read_line(&mut first).unwrap();
    assert_eq!(first.trim_end(), format!("impact: {expected}"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_options_are_usage_errors() {
    for (args, message) in [
        (
            &["view", "--port", "70000"][..],
            "--port: must be a port number",
        ),
        (&["view", "a.json", "b.json"][..], "unexpected argument"),
        (&["view", "--scenes"][..], "missing argument"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_impact"))
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(message), "{args:?}: {err}");
    }
}
