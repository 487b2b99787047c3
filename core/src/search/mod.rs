//! MCTS in the core: the tree of `players/mcts.py` over any game that implements
//! [`SearchGame`]. The Python player (players/mcts.py) stays the specification of the
//! search's behaviour; this module runs a whole iteration (descent, expansion, the leaf's
//! evaluation, the backup) without crossing into Python.
//!
//! * `game.rs` (this contract): what the tree asks of a game.
//! * `node.rs`: the arena's nodes and the choice at the root (players/tree.py, choice.py).
//! * `tree.rs`: the search itself (budgets, the root's opening, listing, expansion,
//!   progressive widening, reuse between moves); `descent.rs`: an iteration (UCT and
//!   RAVE, the backup, the solver); `choice.rs`: the refutation check and the `Searcher`.
//! * one file per game (`anda.rs`, `anda_prison.rs`, `spelde.rs`, `vaxandis.rs`,
//!   `marbanta.rs`): its `SearchGame`.
//!
//! Nothing here knows Python: the binding layer (`crate::python`) reads Python states
//! into these games' states and roots a search at them.

pub mod anda;
pub mod anda_prison;
mod common;
mod choice;
mod descent;
pub mod game;
pub mod marbanta;
mod node;
pub mod spelde;
pub mod tree;
pub mod vaxandis;

pub use game::{Colour, Config, Rooted, SearchGame, Searcher};
