//! `impact ray`: one ray cast through a scene's world, answered.

use impact_geometry::{Point, Real, Vector};
use impact_narrowphase::ray::Ray;
use impact_scene::AnyWorld;
use impact_stepper::{Interior, QueryError, QueryFilter, RayHit};
use serde::Serialize;
use std::fmt;

/// One hit as `impact ray` reports it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RayHitOut {
    /// The body hit: its slot in the world, which is its place in the scene's `bodies` while
    /// no body has been removed.
    pub body: u32,
    /// The shape hit: its place in the body's list of shapes (`shapes[k]` in the scene
    /// file); left out of the JSON when 0, the only shape of a body of one.
    #[serde(skip_serializing_if = "is_zero")]
    pub shape: u32,
    /// How far along the ray (world units).
    pub distance: Real,
    /// The same as a fraction of the ray's length.
    pub fraction: Real,
    /// The point hit.
    pub point: [Real; 2],
    /// The unit normal of the surface there, facing the ray.
    pub normal: [Real; 2],
}

impl From<&RayHit> for RayHitOut {
    fn from(hit: &RayHit) -> Self {
        Self {
            body: hit.body.index,
            shape: hit.shape.index,
            distance: hit.distance,
            fraction: hit.fraction,
            // Adding zero turns a `-0` into `0`, which reads better and means the same.
            point: [hit.point.x + 0.0, hit.point.y + 0.0],
            normal: [hit.normal.x + 0.0, hit.normal.y + 0.0],
        }
    }
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's `skip_serializing_if` passes a reference
fn is_zero(k: &u32) -> bool {
    *k == 0
}

/// What `impact ray` prints: the hits (the nearest only, unless every one was asked for),
/// nearest first, or with `--json` the same as JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RayAnswer {
    /// The hits, nearest first; empty if the ray hits nothing.
    pub hits: Vec<RayHitOut>,
}

impl RayAnswer {
    /// Casts the ray from `origin` along `translation` through `world` (sensors left out):
    /// every hit if `all`, else the nearest; `hollow` lets a ray that starts in a shape leave
    /// it.
    ///
    /// # Errors
    /// The [`QueryError`] naming the bad field and value (`ray.origin.x: must be finite`,
    /// `ray.translation: must not be zero`, `settings.domain: ...` for a periodic scene).
    pub fn cast(
        world: &dyn AnyWorld,
        origin: [Real; 2],
        translation: [Real; 2],
        all: bool,
        hollow: bool,
    ) -> Result<Self, QueryError> {
        let ray = Ray::new(
            Point::new(origin[0], origin[1]),
            Vector::new(translation[0], translation[1]),
        );
        let interior = if hollow {
            Interior::Hollow
        } else {
            Interior::Solid
        };
        let mut hits = world.cast_ray_all(&ray, interior, &QueryFilter::new())?;
        if !all {
            hits.truncate(1);
        }
        Ok(Self {
            hits: hits.iter().map(RayHitOut::from).collect(),
        })
    }
}

impl fmt::Display for RayAnswer {
    /// The text answer `impact ray` prints: one line per hit.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.hits.is_empty() {
            return write!(f, "no hit");
        }
        for (i, h) in self.hits.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            let shape = if h.shape > 0 {
                format!(" shape {}", h.shape)
            } else {
                String::new()
            };
            write!(
                f,
                "hit body {}{shape} at distance {} (fraction {}), point ({}, {}), normal ({}, {})",
                h.body, h.distance, h.fraction, h.point[0], h.point[1], h.normal[0], h.normal[1]
            )?;
        }
        Ok(())
    }
}
