//! Core Candle completion domain types
//!
//! Contains domain types for Candle completion functionality.
//!
//! Note: Completion traits are in capability/traits.rs (`TextToTextCapable`)
//! and domain/model/traits.rs (`CandleModel`)
