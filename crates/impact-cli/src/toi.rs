//! `impact toi`: one time-of-impact query, answered.

use impact_geometry::{Isometry, Real};
use impact_narrowphase::Toi;
use impact_scene::ToiQuery;
use serde::Serialize;
use std::fmt;

/// A pose as the answer reports it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PoseOut {
    /// Position of the body frame's origin.
    pub x: Real,
    /// Position of the body frame's origin.
    pub y: Real,
    /// Angle (radians, in `(-pi, pi]`).
    pub angle: Real,
}

impl From<Isometry> for PoseOut {
    fn from(p: Isometry) -> Self {
        Self {
            x: p.translation.x,
            y: p.translation.y,
            angle: p.rotation.angle(),
        }
    }
}

/// What `impact toi` prints: the query's answer, or with `--json` the same as JSON.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum ToiAnswer {
    /// The shapes come within the target separation.
    Hit {
        /// When, as a fraction of the query's `dt`.
        fraction: Real,
        /// When, in seconds (`fraction * dt`).
        time: Real,
        /// Where: midway between the surfaces.
        point: [Real; 2],
        /// The unit normal from A toward B.
        normal: [Real; 2],
        /// Where A is then.
        a: PoseOut,
        /// Where B is then.
        b: PoseOut,
    },
    /// The shapes overlap at the start.
    Overlapping,
    /// The shapes never come within the target separation.
    Separated,
    /// The iterative method reached its cap; up to `safe_fraction` the shapes stay apart.
    NotConverged {
        /// The last fraction known to be safe.
        safe_fraction: Real,
        /// The same in seconds.
        safe_time: Real,
    },
}

impl ToiAnswer {
    /// Answers `query`.
    pub fn of(query: &ToiQuery) -> Self {
        match query.answer() {
            Toi::Hit(hit) => Self::Hit {
                fraction: hit.fraction,
                time: hit.fraction * query.dt,
                point: [hit.point.x, hit.point.y],
                normal: [hit.normal.x, hit.normal.y],
                a: query.a.sweep.pose_at(hit.fraction).into(),
                b: query.b.sweep.pose_at(hit.fraction).into(),
            },
            Toi::Overlapping => Self::Overlapping,
            Toi::Separated => Self::Separated,
            Toi::NotConverged { safe_fraction } => Self::NotConverged {
                safe_fraction,
                safe_time: safe_fraction * query.dt,
            },
        }
    }
}

impl fmt::Display for ToiAnswer {
    /// The text answer `impact toi` prints.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Hit {
                fraction,
                time,
                point,
                normal,
                a,
                b,
            } => {
                writeln!(f, "hit at fraction {fraction} (t = {time} s)")?;
                writeln!(f, "point   ({}, {})", point[0], point[1])?;
                writeln!(f, "normal  ({}, {}) from a toward b", normal[0], normal[1])?;
                writeln!(f, "a at    ({}, {}), angle {}", a.x, a.y, a.angle)?;
                write!(f, "b at    ({}, {}), angle {}", b.x, b.y, b.angle)
            }
            Self::Overlapping => write!(f, "overlapping at the start"),
            Self::Separated => write!(f, "separated: no impact in the interval"),
            Self::NotConverged {
                safe_fraction,
                safe_time,
            } => write!(
                f,
                "not converged: apart up to fraction {safe_fraction} (t = {safe_time} s)"
            ),
        }
    }
}
