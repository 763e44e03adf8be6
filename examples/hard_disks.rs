//! The hard-disk gas: event-driven molecular dynamics with the first-time-of-impact stepper,
//! checked against a published equation of state.
//!
//! N equal discs (diameter 1, mass 1, restitution 1, no friction, no gravity) in a periodic
//! square at packing fraction eta, started on a jittered lattice with Gaussian velocities
//! (zero total momentum, kT = 1 with kT the kinetic energy per disc). After equilibration
//! the compressibility factor Z = PA / (N kT) is measured two independent ways, in blocks
//! with standard errors:
//!
//! - **collisional virial**: `Z = 1 + sigma * sum(J) / (2 t N kT)`, summed over the
//!   collisions of a block of duration `t`, `J` the normal impulse of each collision;
//! - **collision rate** (contact theorem, `Z = 1 + 2 eta g(sigma)` in 2D, with the collision
//!   rate per disc `Gamma = 2 sigma rho g(sigma) sqrt(pi kT / m)`):
//!   `Z = 1 + (sigma Gamma / 4) sqrt(pi m / kT)`.
//!
//! The reference is Liu's fluid equation of state (H. Liu, arXiv:2010.10624, 2020, eq. 1),
//! `Z = (1 + eta^2/8 + eta^3/18 - 4 eta^4/21) / (1 - eta)^2`; Henderson's
//! `(1 + eta^2/8) / (1 - eta)^2` is printed alongside. See `docs/guides/event-driven.md`.
//!
//! `cargo run --release --example hard_disks -- [--n 1024] [--eta 0.1,0.2,0.3,0.4,0.5,0.6]
//! [--collisions 1000000] [--equilibrate 50] [--blocks 10] [--seed 1] [--per-step 5]
//! [--reach-skin R] [--json]`
//!
//! `--collisions` is per packing fraction, after `--equilibrate` collisions per disc.
//! `--per-step` is the step length in collisions per disc, capped in dilute gases so that
//! swept boxes fit the periodic box (the step is only an output interval: it changes the
//! cost, not the physics); `--reach-skin` overrides
//! `FirstTimeOfImpactSettings::reach_skin` of `scenes::hard_disk_stepper()`.

use impact_testkit::scenes;
use impact2d::broadphase::RTreeBroadphase;
use impact2d::prelude::*;
use impact2d::stepper::{Domain, FirstTimeOfImpact, World};
use std::f64::consts::PI;
use std::time::Instant;

const SIGMA: Real = scenes::HARD_DISK_DIAMETER;
const MASS: Real = 1.0;

struct Options {
    n: usize,
    etas: Vec<Real>,
    collisions: u64,
    equilibrate: u64,
    blocks: usize,
    seed: u64,
    per_step: Real,
    reach_skin: Option<Real>,
    json: bool,
}

fn parse() -> Result<Options, String> {
    let mut o = Options {
        n: 1024,
        etas: vec![0.1, 0.2, 0.3, 0.4, 0.5, 0.6],
        collisions: 1_000_000,
        equilibrate: 50,
        blocks: 10,
        seed: 1,
        per_step: 5.0,
        reach_skin: None,
        json: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name}: missing value"));
        let bad = |name: &str, v: &str| format!("{name}: cannot read {v:?}");
        match flag.as_str() {
            "--n" => {
                let v = value("--n")?;
                o.n = v.parse().map_err(|_| bad("--n", &v))?;
            }
            "--eta" => {
                let v = value("--eta")?;
                o.etas = v
                    .split(',')
                    .map(|e| e.trim().parse().map_err(|_| bad("--eta", e)))
                    .collect::<Result<_, _>>()?;
            }
            "--collisions" => {
                let v = value("--collisions")?;
                o.collisions = v.parse().map_err(|_| bad("--collisions", &v))?;
            }
            "--equilibrate" => {
                let v = value("--equilibrate")?;
                o.equilibrate = v.parse().map_err(|_| bad("--equilibrate", &v))?;
            }
            "--blocks" => {
                let v = value("--blocks")?;
                o.blocks = v.parse().map_err(|_| bad("--blocks", &v))?;
            }
            "--seed" => {
                let v = value("--seed")?;
                o.seed = v.parse().map_err(|_| bad("--seed", &v))?;
            }
            "--per-step" => {
                let v = value("--per-step")?;
                o.per_step = v.parse().map_err(|_| bad("--per-step", &v))?;
                if !(o.per_step.is_finite() && o.per_step > 0.0) {
                    return Err(format!("--per-step: positive, not {v}"));
                }
            }
            "--reach-skin" => {
                let v = value("--reach-skin")?;
                o.reach_skin = Some(v.parse().map_err(|_| bad("--reach-skin", &v))?);
            }
            "--json" => o.json = true,
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if o.blocks < 2 {
        return Err("--blocks: at least 2, for an error bar".to_owned());
    }
    Ok(o)
}

/// Liu (2020), eq. 1: the stable-fluid branch.
fn z_liu(eta: Real) -> Real {
    (1.0 + eta * eta / 8.0 + eta.powi(3) / 18.0 - 4.0 * eta.powi(4) / 21.0) / (1.0 - eta).powi(2)
}

/// Henderson (1975).
fn z_henderson(eta: Real) -> Real {
    (1.0 + eta * eta / 8.0) / (1.0 - eta).powi(2)
}

type Gas = World<RTreeBroadphase, FirstTimeOfImpact>;

fn kinetic_and_momentum(world: &Gas) -> (Real, Vector) {
    world
        .bodies()
        .fold((0.0, Vector::zeros()), |(e, p), (_, b)| {
            (
                e + 0.5 * b.mass() * b.linvel().norm_squared(),
                p + b.mass() * b.linvel(),
            )
        })
}

/// The smallest centre distance over minimum images, with a cell list of cells at least
/// one diameter wide (only neighbouring cells can hold a pair closer than a diameter).
fn closest_pair(world: &Gas) -> Real {
    let domain = world.settings().domain;
    let size = domain.size().expect("a periodic gas");
    let cells = ((size.x / SIGMA).floor() as usize).max(1);
    let width = size.x / cells as Real;
    let Domain::Periodic { min, .. } = domain else {
        unreachable!("a periodic gas")
    };
    let centres: Vec<Vector> = world
        .bodies()
        .map(|(_, b)| b.pose().translation.vector)
        .collect();
    let cell_of = |c: &Vector| {
        let i = (((c.x - min.x) / width) as usize).min(cells - 1);
        let j = (((c.y - min.y) / width) as usize).min(cells - 1);
        (i, j)
    };
    let mut grid: Vec<Vec<usize>> = vec![Vec::new(); cells * cells];
    for (k, c) in centres.iter().enumerate() {
        let (i, j) = cell_of(c);
        grid[i * cells + j].push(k);
    }
    let mut closest = Real::INFINITY;
    for (k, c) in centres.iter().enumerate() {
        let (i, j) = cell_of(c);
        for di in [cells - 1, 0, 1] {
            for dj in [cells - 1, 0, 1] {
                let cell = ((i + di) % cells) * cells + (j + dj) % cells;
                for &other in &grid[cell] {
                    if other > k {
                        let d = domain.minimum_image(centres[other] - c).norm();
                        closest = closest.min(d);
                    }
                }
            }
        }
    }
    closest
}

/// What one packing fraction gave.
struct Row {
    eta: Real,
    z_virial: (Real, Real),
    z_rate: (Real, Real),
    collisions: u64,
    simulated_time: Real,
    wall_seconds: Real,
    energy_drift: Real,
    momentum_drift: Real,
    closest: Real,
    lost_time: Real,
}

fn mean_and_error(xs: &[Real]) -> (Real, Real) {
    let n = xs.len() as Real;
    let mean = xs.iter().sum::<Real>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<Real>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

fn run(o: &Options, eta: Real) -> Result<Row, WorldError> {
    let scene = scenes::hard_disks(o.n, eta, o.seed)?;
    let mut stepper = scenes::hard_disk_stepper();
    if let Some(skin) = o.reach_skin {
        stepper.reach_skin = skin;
    }
    let mut world = Gas::with_parts(
        scene.settings,
        RTreeBroadphase::default(),
        FirstTimeOfImpact::new(stepper)?,
    )?;
    for def in &scene.bodies {
        world.create_body(def.clone())?;
    }
    let n = o.n as Real;
    let (kinetic0, momentum0) = kinetic_and_momentum(&world);
    let kt = kinetic0 / n;
    // A step of `--per-step` collisions per disc (Henderson's g(sigma) for the estimate):
    // the step is only an output interval, and a long one spreads the world's per-step
    // work over many events (the stepper's reach skin keeps its own work per event the
    // same). Capped so that a disc several times faster than average still sweeps less
    // than a third of the box, which a periodic world requires below a half (it matters in
    // dilute gases, where the mean free time is long).
    let g_estimate = (z_henderson(eta) - 1.0) / (2.0 * eta);
    let rho = 4.0 * eta / (PI * SIGMA * SIGMA);
    let rate = 2.0 * SIGMA * rho * g_estimate * (PI * kt / MASS).sqrt();
    let side = world
        .settings()
        .domain
        .size()
        .map_or(Real::INFINITY, |s| s.x.min(s.y));
    let dt = (o.per_step / rate).min(side / (12.0 * (2.0 * kt / MASS).sqrt()));

    let mut lost_time = 0.0;
    let mut collisions = 0;
    while collisions < o.equilibrate * o.n as u64 {
        let report = world.step(dt)?;
        collisions += report.events as u64;
        lost_time += report.stepper.time_lost;
    }

    let per_block = o.collisions.div_ceil(o.blocks as u64);
    let (mut z_virial, mut z_rate) = (Vec::new(), Vec::new());
    let mut closest = Real::INFINITY;
    let (mut total_collisions, mut total_time) = (0, 0.0);
    let start = Instant::now();
    for _ in 0..o.blocks {
        let (mut count, mut impulse, mut time) = (0u64, 0.0, 0.0);
        while count < per_block {
            let report = world.step(dt)?;
            lost_time += report.stepper.time_lost;
            time += dt;
            for e in world.events() {
                count += 1;
                impulse += e.impulse.normal;
            }
        }
        closest = closest.min(closest_pair(&world));
        z_virial.push(1.0 + SIGMA * impulse / (2.0 * time * n * kt));
        let gamma = 2.0 * count as Real / (n * time);
        z_rate.push(1.0 + 0.25 * SIGMA * gamma * (PI * MASS / kt).sqrt());
        total_collisions += count;
        total_time += time;
    }
    let wall_seconds = start.elapsed().as_secs_f64();
    let (kinetic1, momentum1) = kinetic_and_momentum(&world);
    Ok(Row {
        eta,
        z_virial: mean_and_error(&z_virial),
        z_rate: mean_and_error(&z_rate),
        collisions: total_collisions,
        simulated_time: total_time,
        wall_seconds,
        energy_drift: (kinetic1 - kinetic0).abs() / kinetic0,
        momentum_drift: (momentum1 - momentum0).norm(),
        closest,
        lost_time,
    })
}

fn main() {
    let o = match parse() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("hard_disks: {e}");
            std::process::exit(2);
        }
    };
    let mut rows = Vec::new();
    for &eta in &o.etas {
        match run(&o, eta) {
            Ok(row) => rows.push(row),
            Err(e) => {
                eprintln!("hard_disks: eta {eta}: {e}");
                std::process::exit(1);
            }
        }
    }
    if o.json {
        let items: Vec<String> = rows
            .iter()
            .map(|r| {
                format!(
                    "{{\"eta\":{},\"n\":{},\"z_virial\":{},\"z_virial_error\":{},\"z_rate\":{},\"z_rate_error\":{},\"z_liu\":{},\"z_henderson\":{},\"collisions\":{},\"simulated_time\":{},\"wall_seconds\":{},\"collisions_per_second\":{},\"energy_drift\":{:e},\"momentum_drift\":{:e},\"min_distance\":{},\"time_lost\":{}}}",
                    r.eta,
                    o.n,
                    r.z_virial.0,
                    r.z_virial.1,
                    r.z_rate.0,
                    r.z_rate.1,
                    z_liu(r.eta),
                    z_henderson(r.eta),
                    r.collisions,
                    r.simulated_time,
                    r.wall_seconds,
                    r.collisions as Real / r.wall_seconds,
                    r.energy_drift,
                    r.momentum_drift,
                    r.closest,
                    r.lost_time,
                )
            })
            .collect();
        println!("[{}]", items.join(",\n "));
        return;
    }
    println!(
        "hard disks: N = {}, {} collisions per eta in {} blocks after {} per disc",
        o.n, o.collisions, o.blocks, o.equilibrate
    );
    println!(
        "{:>5} {:>17} {:>17} {:>8} {:>8} {:>9} {:>9} {:>10} {:>9} {:>9} {:>12}",
        "eta",
        "Z virial",
        "Z rate",
        "Liu",
        "Hend.",
        "dev.vir",
        "dev.rate",
        "coll/s",
        "dE/E",
        "|dP|",
        "min dist-1"
    );
    for r in &rows {
        let liu = z_liu(r.eta);
        println!(
            "{:>5.2} {:>9.4} ± {:<6.4} {:>9.4} ± {:<6.4} {:>8.4} {:>8.4} {:>8.3}% {:>8.3}% {:>10.0} {:>9.1e} {:>9.1e} {:>12.1e}",
            r.eta,
            r.z_virial.0,
            r.z_virial.1,
            r.z_rate.0,
            r.z_rate.1,
            liu,
            z_henderson(r.eta),
            100.0 * (r.z_virial.0 / liu - 1.0),
            100.0 * (r.z_rate.0 / liu - 1.0),
            r.collisions as Real / r.wall_seconds,
            r.energy_drift,
            r.momentum_drift,
            r.closest - SIGMA,
        );
        if r.lost_time != 0.0 {
            println!("      time lost: {} (should be 0)", r.lost_time);
        }
    }
}
