//! [`hard_disks`]: the hard-disk gas of event-driven simulation.

use super::Scene;
use crate::SplitMix64;
use impact_geometry::{Circle, Isometry, Point, Real, Vector};
use impact_solver::RigidBodyDef;
use impact_stepper::{Domain, FirstTimeOfImpactSettings, WorldError, WorldSettings};

/// The diameter of the discs of [`hard_disks`] (world units).
pub const HARD_DISK_DIAMETER: Real = 1.0;

/// The side of the periodic square holding `n` discs of [`HARD_DISK_DIAMETER`] at packing
/// fraction `eta` (the fraction of the area the discs cover): `sqrt(n pi sigma^2 / (4 eta))`.
pub fn hard_disk_box_side(n: usize, eta: Real) -> Real {
    let sigma = HARD_DISK_DIAMETER;
    (n as Real * core::f64::consts::PI * sigma * sigma / (4.0 * eta)).sqrt()
}

/// The hard-disk gas: `n` equal discs (diameter 1, mass 1, restitution 1, no friction, the
/// `ccd` flag on) in a periodic square at packing fraction `eta` (in `(0, 0.75]`), without
/// gravity, with kinetic energy `n` (so `kT = 1` with `kT` the kinetic energy per disc) and
/// zero total momentum.
///
/// The discs start on a lattice of `ceil(sqrt(n))` columns, every other row shifted by half
/// a column (a triangular lattice, stretched to fill the square), each moved by a seeded
/// jitter small enough that no two overlap; velocities are seeded Gaussians, their mean
/// removed and then scaled to the kinetic energy. Run it with
/// [`hard_disk_stepper`]'s settings, which make every
/// meeting of two discs an exact elastic event.
///
/// # Errors
/// [`WorldError::OutOfRange`] naming `eta` outside `(0, 0.75]` (the lattice would overlap
/// above about 0.78), or `n` below 2.
pub fn hard_disks(n: usize, eta: Real, seed: u64) -> Result<Scene, WorldError> {
    if !(eta > 0.0 && eta <= 0.75) {
        return Err(WorldError::OutOfRange {
            field: "eta".to_owned(),
            value: eta,
            expected: "in (0, 0.75]",
        });
    }
    if n < 2 {
        return Err(WorldError::OutOfRange {
            field: "n".to_owned(),
            value: n as Real,
            expected: "at least 2",
        });
    }
    let side = hard_disk_box_side(n, eta);
    let columns = (n as Real).sqrt().ceil() as usize;
    let rows = n.div_ceil(columns);
    let (ax, ay) = (side / columns as Real, side / rows as Real);
    // Closest lattice neighbours: along a row, or to the next (shifted) row.
    let spacing = ax.min((0.25 * ax * ax + ay * ay).sqrt());
    let sigma = HARD_DISK_DIAMETER;
    // Each coordinate moves at most `jitter`, so two centres come at most 2 sqrt(2) jitter
    // closer: they stay apart.
    let jitter = 0.45 * (spacing - sigma).max(0.0) / core::f64::consts::SQRT_2;
    let mut rng = SplitMix64::new(seed);
    let mut positions = Vec::with_capacity(n);
    'rows: for row in 0..rows {
        for column in 0..columns {
            if positions.len() == n {
                break 'rows;
            }
            let shift = if row % 2 == 1 { 0.5 * ax } else { 0.0 };
            let x = (column as Real + 0.25) * ax + shift + rng.range(-jitter, jitter);
            let y = (row as Real + 0.5) * ay + rng.range(-jitter, jitter);
            positions.push(Point::new(x, y));
        }
    }
    // Box-Muller pairs of standard normals.
    let mut velocities: Vec<Vector> = (0..n)
        .map(|_| {
            let u1 = 1.0 - rng.range(0.0, 1.0);
            let u2 = rng.range(0.0, 1.0);
            let r = (-2.0 * u1.ln()).sqrt();
            let phi = core::f64::consts::TAU * u2;
            Vector::new(r * phi.cos(), r * phi.sin())
        })
        .collect();
    let mean = velocities.iter().sum::<Vector>() / n as Real;
    let mut kinetic = 0.0;
    for v in &mut velocities {
        *v -= mean;
        kinetic += 0.5 * v.norm_squared();
    }
    let scale = (n as Real / kinetic).sqrt();
    let radius = 0.5 * sigma;
    let density = 1.0 / (core::f64::consts::PI * radius * radius);
    let bodies = positions
        .iter()
        .zip(&velocities)
        .map(|(p, v)| {
            RigidBodyDef::new(Circle::new(radius).expect("a positive radius").into())
                .pose(Isometry::translation(p.x, p.y))
                .linvel(v * scale)
                .density(density)
                .restitution(1.0)
                .friction(0.0)
                .ccd(true)
        })
        .collect();
    Ok(Scene {
        name: format!("hard_disks_{n}_{eta}"),
        settings: WorldSettings {
            gravity: Vector::zeros(),
            speculative_distance: 0.0,
            domain: Domain::periodic_square(side)?,
            // An elastic gas keeps its energy: a disc slow for half a second is not at
            // rest, and one asleep would send every step off the disc path.
            sleeping: false,
            ..WorldSettings::default()
        },
        bodies,
    })
}

/// The stepper settings [`hard_disks`] runs with:
/// [`FirstTimeOfImpactSettings::elastic`], which makes every meeting of two discs an exact
/// elastic event.
pub fn hard_disk_stepper() -> FirstTimeOfImpactSettings {
    FirstTimeOfImpactSettings::elastic()
}
