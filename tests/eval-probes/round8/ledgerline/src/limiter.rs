//! A fixed-window rate limiter for posting tools.

use std::sync::Mutex;
use std::time::{Duration, Instant};

#[derive(Debug)]
pub struct PostLimiter {
    per_minute: u32,
    window: Mutex<(Instant, u32)>,
}

impl PostLimiter {
    pub fn new(per_minute: u32) -> Self {
        Self {
            per_minute,
            window: Mutex::new((Instant::now(), 0)),
        }
    }

    /// Take one slot; `false` when the current minute is used up.
    pub fn try_acquire(&self) -> bool {
        let mut window = self.window.lock().unwrap_or_else(|e| e.into_inner());
        if window.0.elapsed() >= Duration::from_secs(60) {
            *window = (Instant::now(), 0);
        }
        if window.1 >= self.per_minute {
            return false;
        }
        window.1 += 1;
        true
    }

    pub fn seconds_left(&self) -> u64 {
        let window = self.window.lock().unwrap_or_else(|e| e.into_inner());
        60u64.saturating_sub(window.0.elapsed().as_secs())
    }
}
