//! The threads a step runs on with the `parallel` feature.
//!
//! The stages that share work out (manifolds, times of impact, the solver's colours, the
//! broadphase's joins) call rayon from the stepping thread. Called from outside any rayon
//! pool, each call would hand its work to the pool and wait asleep, so a 2-core machine runs
//! three threads and pays a wake-up per call (dozens per step); the pyramid of 5,050 boxes
//! then steps no faster than on one thread. So a thread that steps a world outside any pool
//! becomes worker 0 of a pool of its own (rayon's `use_current_thread`), kept for the
//! thread's life: the stepping thread works its share, and the other workers steal the rest.
//! The pool has `RAYON_NUM_THREADS` threads, or as many as the machine runs at once. To
//! share threads with other work, step inside `ThreadPool::install`; the step then uses that
//! pool as it is.
//!
//! Nothing here changes a result: every shared stage gives the same bits for any number of
//! threads.

use std::cell::OnceCell;

thread_local! {
    /// The stepping thread's own pool, once it stepped outside any pool.
    static OWN_POOL: OnceCell<Option<rayon::ThreadPool>> = const { OnceCell::new() };
}

/// Makes the calling thread a rayon worker, of its own pool, unless it already is one (or
/// the pool cannot be built, when the step's stages hand their work to rayon's global pool
/// instead, with the same results).
pub(crate) fn enter() {
    if rayon::current_thread_index().is_some() {
        return;
    }
    OWN_POOL.with(|pool| {
        pool.get_or_init(|| {
            let threads = std::env::var("RAYON_NUM_THREADS")
                .ok()
                .and_then(|n| n.parse::<usize>().ok())
                .filter(|&n| n > 0)
                .or_else(|| std::thread::available_parallelism().ok().map(|n| n.get()))
                .unwrap_or(1);
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .use_current_thread()
                .thread_name(|i| format!("impact-step-{i}"))
                .build()
                .ok()
        });
    });
}
