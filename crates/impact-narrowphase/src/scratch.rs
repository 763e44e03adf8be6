//! A vector that lives on the stack up to a small size, so queries on typical shapes never
//! allocate; only polygons with many vertices spill to the heap.

/// Up to `N` values inline, more on the heap.
pub(crate) struct Scratch<T: Copy + Default, const N: usize> {
    inline: [T; N],
    heap: Vec<T>,
    len: usize,
}

impl<T: Copy + Default, const N: usize> Scratch<T, N> {
    /// An empty buffer.
    #[inline]
    pub(crate) fn new() -> Self {
        Self {
            inline: [T::default(); N],
            heap: Vec::new(),
            len: 0,
        }
    }

    /// Appends `value`.
    #[inline]
    pub(crate) fn push(&mut self, value: T) {
        if self.len < N {
            self.inline[self.len] = value;
        } else {
            if self.heap.is_empty() {
                self.heap.extend_from_slice(&self.inline);
            }
            self.heap.push(value);
        }
        self.len += 1;
    }

    /// Forgets the values, keeping any heap capacity.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.heap.clear();
        self.len = 0;
    }

    /// The values pushed so far.
    #[inline]
    pub(crate) fn as_slice(&self) -> &[T] {
        if self.len <= N {
            &self.inline[..self.len]
        } else {
            &self.heap
        }
    }
}
