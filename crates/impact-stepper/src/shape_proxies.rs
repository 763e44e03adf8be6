//! [`ShapeProxies`]: which broadphase proxy stands for which shape of which body.
//!
//! Every shape of a body is its own proxy. The first shape's proxy is the body's slot index
//! ([`BodyHandle::index`]), as it always was for bodies of one shape, so a world of such
//! bodies names its proxies exactly as a bare broadphase plus body set do; each further shape
//! takes an index the body set holds back for it ([`BodySet::reserve_index`]), so every
//! proxy index is a slot of the set, per-proxy tables stay dense, and no body ever gets a
//! further shape's index.

use impact_broadphase::ProxyId;
use impact_solver::{BodyHandle, BodySet, ShapeId};

/// The shape each proxy stands for, and the proxies of each body's shapes.
///
/// Kept by a [`World`](crate::World) and in its snapshots; given to a stepper in
/// [`StepContext::shapes`](crate::StepContext::shapes).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ShapeProxies {
    /// By proxy index: the shape, or `None` for an index with no proxy.
    shapes: Vec<Option<ShapeId>>,
    /// By body slot: the proxy indices of the body's shapes after the first, in order.
    further: Vec<Vec<u32>>,
}

impl ShapeProxies {
    /// The shape `proxy` stands for, if any.
    #[inline]
    pub fn shape_of(&self, proxy: ProxyId) -> Option<ShapeId> {
        self.shapes.get(proxy.index()).copied().flatten()
    }

    /// The proxy of `shape`, if it has one.
    #[inline]
    pub fn proxy_of(&self, shape: ShapeId) -> Option<ProxyId> {
        let slot = shape.body.index as usize;
        let proxy = match shape.index {
            0 => shape.body.index,
            k => *self.further.get(slot)?.get(k as usize - 1)?,
        };
        (self.shape_of(ProxyId(proxy)) == Some(shape)).then_some(ProxyId(proxy))
    }

    /// The proxies of the shapes of the body in `slot`, its first shape's (the slot itself)
    /// first; `count` is how many shapes it has.
    pub fn proxies_of(&self, slot: u32, count: usize) -> impl Iterator<Item = ProxyId> + '_ {
        let further = self
            .further
            .get(slot as usize)
            .map_or(&[][..], Vec::as_slice);
        core::iter::once(ProxyId(slot))
            .chain(further.iter().map(|&p| ProxyId(p)))
            .take(count)
    }

    /// One past the largest proxy index in use or held: the length of a per-proxy table.
    #[inline]
    pub fn len(&self) -> usize {
        self.shapes.len()
    }

    /// Whether no proxy was ever named.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.shapes.is_empty()
    }

    /// Names the proxies of the `count` shapes of `body`: its slot for the first, indices
    /// reserved in `bodies` for the others. Returns them in shape order.
    pub(crate) fn attach(
        &mut self,
        bodies: &mut BodySet,
        body: BodyHandle,
        count: usize,
    ) -> Vec<ProxyId> {
        let slot = body.index as usize;
        if self.further.len() <= slot {
            self.further.resize_with(slot + 1, Vec::new);
        }
        let mut proxies = vec![ProxyId(body.index)];
        let mut further = Vec::with_capacity(count.saturating_sub(1));
        for _ in 1..count {
            let index = bodies.reserve_index();
            further.push(index);
            proxies.push(ProxyId(index));
        }
        self.further[slot] = further;
        for (k, proxy) in proxies.iter().enumerate() {
            self.set(
                *proxy,
                Some(ShapeId {
                    body,
                    index: k as u32,
                }),
            );
        }
        proxies
    }

    /// Forgets the proxies of `body`'s shapes and gives their reserved indices back to
    /// `bodies`. Returns the proxies, in shape order.
    pub(crate) fn detach(&mut self, bodies: &mut BodySet, body: BodyHandle) -> Vec<ProxyId> {
        let slot = body.index as usize;
        let further = self
            .further
            .get_mut(slot)
            .map(core::mem::take)
            .unwrap_or_default();
        let mut proxies = vec![ProxyId(body.index)];
        proxies.extend(further.iter().map(|&p| ProxyId(p)));
        for &proxy in &proxies {
            self.set(proxy, None);
        }
        for index in further {
            let released = bodies.release_index(index);
            debug_assert!(released, "a further shape's proxy index is reserved");
        }
        proxies
    }

    fn set(&mut self, proxy: ProxyId, shape: Option<ShapeId>) {
        if self.shapes.len() <= proxy.index() {
            self.shapes.resize(proxy.index() + 1, None);
        }
        self.shapes[proxy.index()] = shape;
    }

    /// The proxies `bodies` implies when every body has one shape and nothing is reserved:
    /// a snapshot written without the table.
    #[cfg(any(feature = "serde", test))]
    pub(crate) fn of_single_shapes(bodies: &BodySet) -> Self {
        let mut out = Self::default();
        for (handle, _) in bodies.iter() {
            out.set(ProxyId(handle.index), Some(ShapeId::first_of(handle)));
        }
        out
    }
}
