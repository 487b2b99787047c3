//! hexarena_core: the rules of the hexarena games in Rust, the Python extension module
//! `hexarena_core`. The Python rules in `engine/` are the specification; this crate
//! answers the same questions faster and is held to them by a differential test.

pub mod anda;
pub mod anda_prison;
pub mod bitboard;
pub mod evaluation;
pub mod geometry;
pub mod marbanta;
pub mod rng;
pub mod search;
pub mod spelde;
pub mod vaxandis;
pub mod input;
pub mod kit;
pub mod replay;
#[cfg(feature = "capi")]
pub mod capi;
#[cfg(feature = "python")]
mod python;
