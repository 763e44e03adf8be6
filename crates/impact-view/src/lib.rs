//! # impact-view
//!
//! A live viewer in the browser for [impact](https://docs.rs/impact2d): `impact view
//! [SCENE]` starts a local web server, serves one page (HTML, CSS and JavaScript shipped in
//! the binary, no build step), runs the world natively in real time and streams every
//! frame to the page over a WebSocket. On the page: play, pause, single step, slow motion;
//! switch the stepper and broadphase live (the state is kept: the world goes through its
//! snapshot); the solver's settings; restart; load any embedded example scene or one of
//! `--scenes DIR`; pan and zoom; grab a body through a mouse joint and throw it; shift-drag
//! to fire a bullet at up to 10,000 units/s; overlays for the swept course of every CCD
//! body over the last step, each impact's point, normal and time, contact points and
//! normals, broadphase boxes, sleeping bodies, and live figures. The controls are listed
//! in `docs/guides/viewer.md`.
//!
//! ```text
//! impact view [SCENE] [--port N] [--open] [--scenes DIR]
//! ```
//!
//! ## Routes
//!
//! - `/` (and `/view.js`, `/view.css`): the page.
//! - `/ws`: the WebSocket. The server sends JSON messages: a scene message (every body's
//!   shapes, the scene list, settings, a load error) whenever the bodies change, and a
//!   frame after each step or change (`frame.rs` documents both). The page sends commands
//!   (`command.rs`); a malformed one is dropped and logged with its reason.
//! - `/state`: the last frame as JSON with named fields: `step`, `time`, `dt`, `paused`,
//!   `stepper`, `broadphase`, `bodies` (`id`, `x`, `y`, `angle`, `linvel`, `angvel` of
//!   every body that is not static), `impacts`, `stats`, `grab`, `settings`, `scene`,
//!   `error`.
//!
//! Anything else is a 404.
//!
//! ## What it refuses
//!
//! It listens on 127.0.0.1 only. Every request must carry a `Host` of `127.0.0.1`,
//! `localhost` or `[::1]` with its port, so a page on another name that resolves to the
//! loopback address (DNS rebinding) is refused; an `Origin`, when sent, must be the page's
//! own, and the WebSocket needs one. Scenes are loaded by name from the catalogue only: the
//! two built-in demos, the example scenes embedded in the binary, the file given on the
//! command line, and the `.json` files of `--scenes DIR`, whose names must be relative
//! paths without `..` and whose real paths (symlinks followed) must stay in the directory.
//! A scene that fails to load shows its error on the page and on standard error as
//! `impact run` prints it: `impact: PATH: reason`.
//!
//! ## Why tungstenite and httparse
//!
//! The WebSocket is [tungstenite](https://docs.rs/tungstenite): a blocking, stream-based
//! implementation over std's `TcpStream`, so the server is a thread per connection and one
//! physics thread, with no async runtime (tokio and an async web framework would add a
//! hundred crates and minutes to a cold CI build on two cores). Its `handshake` feature
//! brings httparse and sha1; the server parses its GET requests with that same httparse
//! (one request per connection, no bodies) and answers the upgrade with tungstenite's
//! accept key, so the HTTP side adds no crate of its own: a full HTTP server crate would
//! hide the `TcpStream` the WebSocket needs.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod command;
mod demo;
pub mod frame;
pub mod guard;
pub mod scenes;
pub mod server;
mod sim;
mod sleeping;
mod world_ops;

use scenes::Catalogue;
use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The most connections served at once; more wait in the listen queue.
const MAX_CONNECTIONS: usize = 64;

/// What `impact view` was asked for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ViewConfig {
    /// The scene file to open (`None`: the default demo).
    pub scene: Option<PathBuf>,
    /// The port (`0`: one the system picks).
    pub port: u16,
    /// Whether to launch the system's browser on the page.
    pub open: bool,
    /// `--scenes DIR`: a directory of scene files the page may load.
    pub scenes: Option<PathBuf>,
}

/// A viewer bound to its port, not yet serving.
pub struct Server {
    listener: TcpListener,
    config: ViewConfig,
}

impl Server {
    /// Binds 127.0.0.1 on the configured port.
    ///
    /// # Errors
    /// A message naming the port if it cannot be bound.
    pub fn bind(config: ViewConfig) -> Result<Self, String> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, config.port))
            .map_err(|e| format!("cannot listen on 127.0.0.1:{}: {e}", config.port))?;
        Ok(Self { listener, config })
    }

    /// Where it listens.
    ///
    /// # Errors
    /// The system's, if the socket has no address.
    pub fn local_addr(&self) -> Result<SocketAddr, String> {
        self.listener.local_addr().map_err(|e| e.to_string())
    }

    /// Loads the first scene, starts the physics thread and serves until the process ends.
    /// The first scene's load error, if any, is printed on standard error and shown on the
    /// page.
    ///
    /// # Errors
    /// A message if the listening socket fails.
    pub fn run(self) -> Result<(), String> {
        let port = self.local_addr()?.port();
        let catalogue = Catalogue {
            dir: self.config.scenes.clone(),
            file: self.config.scene.clone(),
        };
        let first = if self.config.scene.is_some() {
            scenes::COMMAND_LINE
        } else {
            scenes::DEMO
        };
        let (commands, receiver) = std::sync::mpsc::channel();
        // A world is not `Send` (its hooks need not be): the physics thread builds its own
        // and hands back what it shares.
        let (give, take) = std::sync::mpsc::sync_channel(1);
        std::thread::Builder::new()
            .name("impact-view-physics".to_owned())
            .spawn(move || {
                let (sim, shared) = sim::Sim::new(catalogue, first);
                if give.send(Arc::clone(&shared)).is_ok() {
                    sim.run(&receiver, &shared);
                }
            })
            .map_err(|e| format!("cannot start the physics thread: {e}"))?;
        let shared = take
            .recv()
            .map_err(|_| "the physics thread stopped at its start".to_owned())?;
        let ctx = server::Context {
            port,
            shared,
            commands,
        };
        let open = Arc::new(AtomicUsize::new(0));
        for stream in self.listener.incoming() {
            let stream = stream.map_err(|e| format!("cannot accept a connection: {e}"))?;
            if open.load(Ordering::Relaxed) >= MAX_CONNECTIONS {
                continue;
            }
            open.fetch_add(1, Ordering::Relaxed);
            let (ctx, open) = (ctx.clone(), Arc::clone(&open));
            let spawned = std::thread::Builder::new()
                .name("impact-view-connection".to_owned())
                .spawn(move || {
                    server::serve_connection(stream, &ctx);
                    open.fetch_sub(1, Ordering::Relaxed);
                });
            if spawned.is_err() {
                eprintln!("impact view: cannot start a connection's thread");
            }
        }
        Ok(())
    }
}

/// `impact view`: binds, prints the address (`impact view: http://127.0.0.1:PORT/`) on
/// standard output, launches the browser if asked, and serves until the process ends.
///
/// # Errors
/// A message if the port cannot be bound or the socket fails.
pub fn serve(config: ViewConfig) -> Result<(), String> {
    let open = config.open;
    let server = Server::bind(config)?;
    let url = format!("http://{}/", server.local_addr()?);
    println!("impact view: {url} (Ctrl-C to stop)");
    if open {
        open_browser(&url);
    }
    server.run()
}

/// Launches the system's browser on `url`, if one can be found; says so if not.
fn open_browser(url: &str) {
    let candidates: &[(&str, &[&str])] = if cfg!(target_os = "macos") {
        &[("open", &[])]
    } else if cfg!(windows) {
        &[("cmd", &["/C", "start", ""])]
    } else {
        &[
            ("xdg-open", &[]),
            ("sensible-browser", &[]),
            ("chromium", &[]),
        ]
    };
    for (program, args) in candidates {
        let spawned = std::process::Command::new(program)
            .args(*args)
            .arg(url)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn();
        if spawned.is_ok() {
            return;
        }
    }
    eprintln!("impact view: no browser found to open; open {url} yourself");
}
