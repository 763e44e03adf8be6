//! A hanging chain of 40 box links on revolute joints: under its own weight it stretches
//! less than 1% of its length, and less than 2% with a body of 100 links' mass at its end
//! (links of 1 m); the stretch is the static deflection of the joints' soft rows (springs
//! of `SolverSettings::joint_hertz` on each joint's effective mass, whatever the links'
//! length), which an oracle predicts; a chain dropped from the horizontal keeps its links
//! together.

mod common;

use common::{JointScene, anchor_body, boxed, disc};
use impact_geometry::{Point, Real, Vector};
use impact_solver::{BodyHandle, RevoluteJoint};

const LINKS: usize = 40;
const G: Real = 10.0;

/// A chain of `LINKS` boxes of length `link` (a tenth as wide) hanging from the origin along
/// `direction`, with a disc of `end_mass` links' mass (if any) jointed at its free end by
/// its centre; returns the scene, the links and the end body (the last link without one).
fn chain(
    link: Real,
    direction: Vector,
    end_mass: Option<Real>,
) -> (JointScene, Vec<BodyHandle>, BodyHandle) {
    let mut scene = JointScene::new(Vector::new(0.0, -G));
    let top = scene.add(anchor_body(Point::origin()));
    let angle = direction.y.atan2(direction.x);
    let mut links = Vec::new();
    let mut previous = top;
    for i in 0..LINKS {
        let center = Point::from(direction * (link * (i as Real + 0.5)));
        let body = scene.add(boxed(0.5 * link, 0.05 * link, center, angle));
        let joint_at = Point::from(direction * (link * i as Real));
        scene.join(previous, body, joint_at, RevoluteJoint::default().into());
        links.push(body);
        previous = body;
    }
    let end = Point::from(direction * (link * LINKS as Real));
    let last = match end_mass {
        Some(factor) => {
            let link_mass = scene.body(links[0]).mass();
            let radius = 0.1 * link;
            let density = factor * link_mass / (core::f64::consts::PI * radius * radius);
            let weight = scene.add(disc(radius, density, end, Vector::zeros()));
            scene.join(previous, weight, end, RevoluteJoint::default().into());
            weight
        }
        None => previous,
    };
    (scene, links, last)
}

/// How far the chain's free end (the end body's centre, or the far end of the last link)
/// hangs below the top anchor after 5 s, hanging straight down from the start.
fn hanging_length(link: Real, end_mass: Option<Real>) -> Real {
    let (mut scene, _, last) = chain(link, Vector::new(0.0, -1.0), end_mass);
    for _ in 0..300 {
        scene.step();
    }
    let end = match end_mass {
        Some(_) => scene.center(last),
        None => scene.point_of(last, Point::new(0.5 * link, 0.0)),
    };
    end.coords.norm()
}

#[test]
fn a_hanging_chain_stretches_less_than_one_percent() {
    let stretch = hanging_length(1.0, None) / LINKS as Real - 1.0;
    println!(
        "40 links of 1 m, own weight: stretch {:.4}%",
        stretch * 100.0
    );
    assert!(stretch.abs() < 0.01, "stretch {stretch}");
}

#[test]
fn a_chain_with_a_heavy_end_stretches_less_than_two_percent() {
    let stretch = hanging_length(1.0, Some(100.0)) / LINKS as Real - 1.0;
    println!(
        "40 links of 1 m, end body of 100 links' mass: stretch {:.4}%",
        stretch * 100.0
    );
    assert!(stretch.abs() < 0.02, "stretch {stretch}");
}

/// The oracle: each joint is a spring of `omega = 2 pi joint_hertz` on its effective mass
/// along the chain (a link's mass at the top joint, half of it between two links, no
/// rotation along the links' axis), so the joint that carries `n` links deflects by
/// `n m g / (m_eff omega^2)`: in all `(40 + 2 (1 + ... + 39)) g / omega^2 = 1600 g /
/// omega^2`, the same absolute stretch (11.3 cm) for links of any length: 1.1% of a chain
/// of 0.25 m links, 0.28% of one of 1 m links.
#[test]
fn the_stretch_is_the_static_deflection_of_the_soft_joints() {
    let omega = 2.0 * core::f64::consts::PI * impact_solver::SolverSettings::default().joint_hertz;
    let predicted = 1600.0 * G / (omega * omega);
    for link in [0.25, 1.0] {
        let stretch = hanging_length(link, None) - link * LINKS as Real;
        println!(
            "40 links of {link} m: stretch {stretch:.5} m ({:.3}%), predicted {predicted:.5} m",
            100.0 * stretch / (link * LINKS as Real)
        );
        assert!(
            (stretch / predicted - 1.0).abs() < 0.05,
            "stretch {stretch}"
        );
    }
}

#[test]
fn a_chain_dropped_from_the_horizontal_keeps_its_links_together() {
    let link = 1.0;
    let (mut scene, links, _) = chain(link, Vector::new(1.0, 0.0), None);
    let mut widest: Real = 0.0;
    for _ in 0..300 {
        scene.step();
        for pair in links.windows(2) {
            let a = scene.point_of(pair[0], Point::new(0.5 * link, 0.0));
            let b = scene.point_of(pair[1], Point::new(-0.5 * link, 0.0));
            widest = widest.max((b - a).norm());
        }
    }
    println!("40 links of 1 m dropped from the horizontal: widest gap {widest:.4} m");
    assert!(widest < 0.1 * link, "gap {widest}");
}
