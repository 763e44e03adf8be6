//! What the server refuses: requests whose `Host` is not the loopback address it listens on
//! (a DNS rebinding attack reaches it under a foreign name), cross-site `Origin`s, and scene
//! names that leave the `--scenes` directory (`..`, absolute paths, symlinks that point out).

use std::fmt;
use std::path::{Component, Path, PathBuf};

/// Whether `host` (a `Host` header) names this server: `127.0.0.1`, `localhost` or `[::1]`
/// with the server's `port` (browsers send any port but 80, which they leave out). Anything
/// else is refused, so a page served from another name that resolves to 127.0.0.1 (DNS
/// rebinding) cannot talk to the viewer.
pub fn host_allowed(host: &str, port: u16) -> bool {
    let loopback = |name: &str| matches!(name, "127.0.0.1" | "localhost" | "[::1]");
    // On port 80 a browser leaves the port out.
    if port == 80 && loopback(host) {
        return true;
    }
    let Some((name, p)) = host.rsplit_once(':') else {
        return false;
    };
    p.parse() == Ok(port) && loopback(name)
}

/// Whether `origin` (an `Origin` header) is the viewer's own page: `http://` and a host
/// [`host_allowed`] accepts. `None` (no header: a navigation, or a tool such as curl) is
/// allowed on plain requests; the WebSocket upgrade requires one.
pub fn origin_allowed(origin: Option<&str>, port: u16) -> bool {
    match origin {
        None => true,
        Some(o) => o
            .strip_prefix("http://")
            .is_some_and(|host| host_allowed(host, port)),
    }
}

/// Why a scene name was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathRefused {
    /// Not a plain relative path of normal parts: `..`, `.`, a root, a drive, an empty part.
    NotPlain,
    /// Not a `.json` file.
    NotJson,
    /// The file does not exist (or cannot be resolved).
    Missing(String),
    /// Its real path (symlinks followed) is outside the directory.
    Outside,
}

impl fmt::Display for PathRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotPlain => f.write_str(
                "refused: a scene name is a relative path inside the scenes directory, \
                 without `..`, `.` or a root",
            ),
            Self::NotJson => f.write_str("refused: not a .json file"),
            Self::Missing(e) => write!(f, "cannot read: {e}"),
            Self::Outside => f.write_str("refused: its real path is outside the scenes directory"),
        }
    }
}

/// The real path of scene `name` inside `dir`, or why it is refused. `name` must be a
/// relative path of plain parts ending in `.json`; the file's canonical path (every
/// symlink followed) must lie under `dir`'s canonical path.
///
/// # Errors
/// [`PathRefused`].
pub fn resolve(dir: &Path, name: &str) -> Result<PathBuf, PathRefused> {
    let rel = Path::new(name);
    if name.is_empty()
        || name.contains('\\')
        || name.contains('\0')
        || !rel.components().all(|c| matches!(c, Component::Normal(_)))
        || name.split('/').any(str::is_empty)
    {
        return Err(PathRefused::NotPlain);
    }
    if rel.extension().and_then(|e| e.to_str()) != Some("json") {
        return Err(PathRefused::NotJson);
    }
    let root = dir
        .canonicalize()
        .map_err(|e| PathRefused::Missing(format!("{}: {e}", dir.display())))?;
    let real = root
        .join(rel)
        .canonicalize()
        .map_err(|e| PathRefused::Missing(e.to_string()))?;
    if !real.starts_with(&root) || !real.is_file() {
        return Err(PathRefused::Outside);
    }
    Ok(real)
}

/// The `.json` files directly in `dir` that [`resolve`] accepts, sorted by name (so a
/// symlink out of the directory is not even listed). Nothing if the directory cannot be
/// read.
pub fn list_json(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| resolve(dir, n).is_ok())
        .collect();
    names.sort();
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_the_loopback_names_with_the_port() {
        for ok in ["127.0.0.1:8080", "localhost:8080", "[::1]:8080"] {
            assert!(host_allowed(ok, 8080), "{ok}");
        }
        for bad in [
            "127.0.0.1:8081",
            "127.0.0.1",
            "evil.example:8080",
            "127.0.0.1.evil.example:8080",
            "localhost.:8080",
            "192.168.1.2:8080",
            "0.0.0.0:8080",
            "",
            ":8080",
        ] {
            assert!(!host_allowed(bad, 8080), "{bad}");
        }
        assert!(host_allowed("localhost", 80));
        assert!(host_allowed("127.0.0.1:80", 80));
        assert!(!host_allowed("evil.example", 80));
        assert!(!host_allowed("[::1]", 8080));
    }

    #[test]
    fn origins_are_the_page_itself() {
        assert!(origin_allowed(None, 9000));
        assert!(origin_allowed(Some("http://127.0.0.1:9000"), 9000));
        assert!(origin_allowed(Some("http://localhost:9000"), 9000));
        for bad in [
            "https://127.0.0.1:9000",
            "http://evil.example:9000",
            "http://127.0.0.1:9001",
            "null",
            "file://",
            "http://127.0.0.1:9000/x",
        ] {
            assert!(!origin_allowed(Some(bad), 9000), "{bad}");
        }
    }

    /// A fresh directory with `inside/a.json`, `inside/sub/b.json`, `outside.json` beside
    /// `inside`, and (on Unix) `inside/link.json` pointing at `outside.json`.
    fn tree(tag: &str) -> PathBuf {
        let root =
            std::env::temp_dir().join(format!("impact-view-guard-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("inside/sub")).unwrap();
        std::fs::write(root.join("inside/a.json"), "{}").unwrap();
        std::fs::write(root.join("inside/sub/b.json"), "{}").unwrap();
        std::fs::write(root.join("inside/notes.txt"), "").unwrap();
        std::fs::write(root.join("outside.json"), "{}").unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(root.join("outside.json"), root.join("inside/link.json"))
                .unwrap();
            std::os::unix::fs::symlink(root.join("inside/a.json"), root.join("inside/in.json"))
                .unwrap();
        }
        root
    }

    #[test]
    fn names_inside_resolve() {
        let root = tree("inside");
        let dir = root.join("inside");
        assert!(resolve(&dir, "a.json").is_ok());
        assert!(resolve(&dir, "sub/b.json").is_ok());
        #[cfg(unix)]
        assert!(
            resolve(&dir, "in.json").is_ok(),
            "a symlink that stays inside"
        );
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn dot_dot_absolute_and_odd_names_are_refused() {
        let root = tree("plain");
        let dir = root.join("inside");
        let outside = root.join("outside.json");
        for bad in [
            "../outside.json",
            "sub/../../outside.json",
            "sub/../a.json",
            "./a.json",
            "/etc/passwd",
            outside.to_str().unwrap(),
            "",
            "sub//b.json",
            "a.json/",
            "..\\outside.json",
            "a.json\0",
        ] {
            assert_eq!(resolve(&dir, bad), Err(PathRefused::NotPlain), "{bad:?}");
        }
        assert_eq!(resolve(&dir, "notes.txt"), Err(PathRefused::NotJson));
        assert!(matches!(
            resolve(&dir, "missing.json"),
            Err(PathRefused::Missing(_))
        ));
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_out_are_refused_and_not_listed() {
        let root = tree("link");
        let dir = root.join("inside");
        assert_eq!(resolve(&dir, "link.json"), Err(PathRefused::Outside));
        assert_eq!(list_json(&dir), ["a.json", "in.json"]);
        std::fs::remove_dir_all(&root).unwrap();
    }
}
