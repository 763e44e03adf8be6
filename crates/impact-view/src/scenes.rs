//! The scenes the viewer offers: its two built-in demos, the example scenes embedded in the
//! binary, the scenes of `--scenes DIR`, and the scene file given on the command line; each
//! loaded through the same loader as `impact run`, with the same error text.

use crate::demo;
use crate::guard::{self, PathRefused};
use impact_scene::Scene;
use std::path::{Path, PathBuf};

/// `(name, text)` of `examples/scenes/NAME.json`.
macro_rules! embed {
    ($name:literal) => {
        (
            concat!("examples/", $name, ".json"),
            include_str!(concat!("../../../examples/scenes/", $name, ".json")),
        )
    };
}
/// The example scenes shipped in the repository, embedded in the binary: `(name, JSON)`.
/// A unit test checks that the list is the directories' contents, so a scene added there and
/// not here fails the tests.
pub(crate) const EMBEDDED: &[(&str, &str)] = &[
    embed!("billiards"),
    embed!("bouncing_discs"),
    embed!("bridge"),
    embed!("bullet_through_paper"),
    embed!("chain"),
    embed!("chain_hill"),
    embed!("destroyed_at_first_hit"),
    embed!("flipper"),
    embed!("l_shapes"),
    embed!("pendulum"),
    embed!("periodic_gas"),
    embed!("ragdoll"),
    embed!("rain"),
    embed!("rounded_boxes"),
    embed!("segment_field"),
    embed!("spinning_box"),
    embed!("trigger_zone"),
    (
        "tests/bounce_past_segment.json",
        include_str!("../../impact-scene/tests/scenes/bounce_past_segment.json"),
    ),
];

/// The name of the default demo: discs and boxes in a walled box under gravity.
pub const DEMO: &str = "demo";
/// The name of the built-in rain of 1,000 discs.
pub const RAIN_1000: &str = "rain_1000";
/// The prefix of the names of `--scenes DIR`'s files.
pub const DIR_PREFIX: &str = "dir/";
/// The name of the scene file given on the command line.
pub const COMMAND_LINE: &str = "file";

/// Where the viewer finds scenes by name.
#[derive(Debug, Clone, Default)]
pub struct Catalogue {
    /// `--scenes DIR`, if given.
    pub dir: Option<PathBuf>,
    /// The scene file of the command line, if given.
    pub file: Option<PathBuf>,
}

/// A scene read and checked, or why not: the message `impact run` prints (without its
/// `impact: ` prefix), `PATH: reason`.
pub type Loaded = Result<Scene, String>;

impl Catalogue {
    /// Every name [`Catalogue::load`] takes, in the order the page lists them: the demos,
    /// the command line's file, the embedded scenes, then the directory's `.json` files
    /// (only those whose real path stays inside it; sorted).
    pub fn names(&self) -> Vec<String> {
        let mut names = vec![DEMO.to_owned(), RAIN_1000.to_owned()];
        if self.file.is_some() {
            names.push(COMMAND_LINE.to_owned());
        }
        names.extend(EMBEDDED.iter().map(|(n, _)| (*n).to_owned()));
        if let Some(dir) = &self.dir {
            names.extend(
                guard::list_json(dir)
                    .into_iter()
                    .map(|n| format!("{DIR_PREFIX}{n}")),
            );
        }
        names
    }

    /// The scene of `name`, read afresh (a file changed on disk is read as it is now).
    ///
    /// # Errors
    /// The message `impact run` would print for the file (`PATH: cannot read: ...`,
    /// `PATH: bodies[3].shape.radius: must be positive, got -1`), or why the name is
    /// refused (unknown, or a path that leaves `--scenes DIR`).
    pub fn load(&self, name: &str) -> Loaded {
        match name {
            DEMO => return parse(DEMO, demo::demo_json().as_bytes()),
            RAIN_1000 => return parse(RAIN_1000, demo::rain_json(1000).as_bytes()),
            COMMAND_LINE => {
                return match &self.file {
                    Some(path) => read_file(path),
                    None => Err(format!(
                        "{name}: no scene file was given on the command line"
                    )),
                };
            }
            _ => {}
        }
        if let Some((_, text)) = EMBEDDED.iter().find(|(n, _)| *n == name) {
            return parse(name, text.as_bytes());
        }
        if let Some(rest) = name.strip_prefix(DIR_PREFIX) {
            let Some(dir) = &self.dir else {
                return Err(format!("{name}: no --scenes directory was given"));
            };
            let path =
                guard::resolve(dir, rest).map_err(|e: PathRefused| format!("{name}: {e}"))?;
            return read_file(&path);
        }
        Err(format!("{name}: no such scene"))
    }
}

/// Reads and parses a scene file, with `impact run`'s messages.
pub fn read_file(path: &Path) -> Loaded {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| format!("{name}: cannot read: {e}"))?;
    parse(&name, &bytes)
}

/// Parses and validates a scene (building checks what parsing cannot: `Scene::build`).
fn parse(name: &str, bytes: &[u8]) -> Loaded {
    let scene = Scene::from_json_slice(bytes).map_err(|e| format!("{name}: {e}"))?;
    scene.validate().map_err(|e| format!("{name}: {e}"))?;
    Ok(scene)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_list_is_the_directories_contents() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut on_disk: Vec<String> = Vec::new();
        for (dir, prefix) in [
            ("examples/scenes", "examples/"),
            ("crates/impact-scene/tests/scenes", "tests/"),
        ] {
            for entry in std::fs::read_dir(root.join(dir)).unwrap() {
                let name = entry.unwrap().file_name().into_string().unwrap();
                if name.ends_with(".json") {
                    on_disk.push(format!("{prefix}{name}"));
                }
            }
        }
        on_disk.sort();
        let mut embedded: Vec<String> = EMBEDDED.iter().map(|(n, _)| (*n).to_owned()).collect();
        embedded.sort();
        assert_eq!(embedded, on_disk);
    }

    #[test]
    fn every_offered_scene_loads_and_builds() {
        let catalogue = Catalogue::default();
        for name in catalogue.names() {
            let scene = catalogue.load(&name).unwrap_or_else(|e| panic!("{e}"));
            scene.build().unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }

    #[test]
    fn errors_read_as_impact_run_prints_them() {
        let dir = std::env::temp_dir().join(format!("impact-view-scenes-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("bad.json"),
            r#"{"bodies": [{"shape": {"type": "circle", "radius": -1}}]}"#,
        )
        .unwrap();
        let catalogue = Catalogue {
            dir: Some(dir.clone()),
            file: Some(dir.join("missing.json")),
        };
        let e = catalogue.load("dir/bad.json").unwrap_err();
        let path = dir.join("bad.json").canonicalize().unwrap();
        assert_eq!(
            e,
            format!(
                "{}: bodies[0].shape.radius: must be positive, got -1",
                path.display()
            )
        );
        let e = catalogue.load(COMMAND_LINE).unwrap_err();
        assert!(
            e.starts_with(&format!(
                "{}: cannot read:",
                dir.join("missing.json").display()
            )),
            "{e}"
        );
        assert_eq!(catalogue.load("nope").unwrap_err(), "nope: no such scene");
        assert!(catalogue.names().contains(&"dir/bad.json".to_owned()));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
