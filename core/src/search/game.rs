//! The contract between the compiled MCTS (`search/tree.rs`) and a game.
//!
//! Colours are 0 (Black) and 1 (White), as everywhere in the crate. Values are Black's
//! expected score in [0, 1] in the colours of the state they were computed in (a `swap`
//! exchanges them on the way up, as players/tree.py says).

use crate::rng::Rng;

/// 0: Black, 1: White.
pub type Colour = usize;

/// One game as the compiled MCTS sees it: a complete state (every phase and variant of
/// the Python rules), cheap to clone.
pub trait SearchGame: Clone + PartialEq + Send + 'static {
    /// An action of the game, small and copyable.
    type Action: Copy + Eq + std::hash::Hash + std::fmt::Debug + Send + 'static;

    /// The colour to move.
    fn to_move(&self) -> Colour;
    /// Plies played since the start (the Python state's `ply`).
    fn ply(&self) -> u32;
    /// None while the game goes on; `Some(winner)` (`Some(None)`: a draw) once it is over
    /// by the rules, or when it has reached the game's ply cap (then the Python state's
    /// `adjudicate()`).
    fn outcome(&self) -> Option<Option<Colour>>;
    /// Every legal action into `out` (cleared first), when there are at most `cap`;
    /// false when there are more (then `out` holds nothing useful).
    fn list(&self, cap: usize, out: &mut Vec<Self::Action>) -> bool;
    /// The game's MCTS candidates (players/games KNOWLEDGE.candidates): a superset of the
    /// legal actions in the order to try them, **last first** (the tree pops from the end),
    /// drawn with `rng` where the game shuffles. False: the game has none (list the legal
    /// actions instead).
    fn candidates(&self, _rng: &mut Rng, _out: &mut Vec<Self::Action>) -> bool {
        false
    }
    /// A uniformly random legal action, drawn as the Python state's `random_action` draws
    /// it (None when there is none).
    fn random_action(&self, rng: &mut Rng) -> Option<Self::Action>;
    /// How many sites could take a placement now (the Python state's
    /// `legal_cells().bit_count()`): sizes the root's first pool of draws.
    fn legal_cell_count(&self) -> u32;
    /// The state after `action`, or None when the action is illegal here (a candidate
    /// that fails the full check).
    fn play(&self, action: Self::Action) -> Option<Self>;
    /// Whether `action` is the pie rule's `swap` (the colours change hands).
    fn is_swap(action: Self::Action) -> bool;
    /// Black's expected score in [0, 1] of this state (not over) by the game's MCTS
    /// evaluator (players/games KNOWLEDGE.evaluator, the same values), for a searching
    /// player who holds `searcher` at the root (searcher-relative terms); when `trace` is
    /// given, each simulated `(mover, action)` is appended to it (RAVE).
    fn evaluate(&self, searcher: Colour, rng: &mut Rng, trace: Option<&mut Vec<(Colour, Self::Action)>>) -> f64;
    /// The action in HGP notation, as the Python rules write it (`str(action)` /
    /// `state.format_action`), so that Python can parse it back.
    fn notation(&self, action: Self::Action) -> String;
    /// Whether `evaluate` depends on `searcher` (a searcher-relative term): then a tree grown
    /// while the searching player held the other colour is not reused (players/mcts.py).
    const SEARCHER_RELATIVE: bool = false;
}

/// The search's settings, taken from the Python player (players/games KNOWLEDGE).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// UCT's (or RAVE's) exploration constant.
    pub exploration: f64,
    /// RAVE's equivalence parameter; None: plain UCT.
    pub rave: Option<f64>,
    /// Listed inner nodes grow by progressive widening (KNOWLEDGE.narrow).
    pub narrow: bool,
}

/// A game state of any game, ready to root a search (`search/tree.rs` implements it for
/// every [`SearchGame`]; a game's `open` returns its state boxed as this).
pub trait Rooted: Send {
    /// The search rooted at this state, its random draws seeded by `seed`.
    fn into_search(self: Box<Self>, config: Config, seed: u64) -> Box<dyn Searcher>;
}

/// One move's search of any game (`search/tree.rs`'s `Search<G>` behind a trait object):
/// what the Python class `Search` (`search/python.rs`) calls.
pub trait Searcher: Send {
    /// Takes the tree of `previous` (a search of the same game) when one of its nodes within
    /// `REUSE_DEPTH` actions of its root holds this search's root state, with its statistics;
    /// whether it did. Not when the game's evaluator is searcher-relative and the previous
    /// root's mover held the other colour.
    fn reuse(&mut self, previous: Box<dyn Searcher>) -> bool;
    /// Iterates until `iterations` (None: no bound), `seconds` (None: no bound, else also the
    /// settled early stop) or a proof of the root; the iterations run.
    fn run(&mut self, iterations: Option<u64>, seconds: Option<f64>) -> u64;
    /// The action to play (a proven win, the pie decision by value, else the most visited child
    /// that is not a proven loss, checked against a refutation in one) in notation; None
    /// without a root child. The checks stop at `1 + REFUTATION_GRACE` times the seconds of
    /// the last `run`.
    fn choose(&mut self) -> Option<String>;
    /// (The chosen child's value for its mover (exact when solved, else its mean), the
    /// principal variation in notation: the chosen action, then the most visited child while
    /// it has visits, at most `plies` actions); None before `choose`.
    fn chosen(&self, plies: usize) -> Option<(f64, Vec<String>)>;
    /// The iterations of the last `run`, the most plies below the root an iteration reached,
    /// the root's visits (those of a reused tree included).
    fn counts(&self) -> (u64, u32, u32);
    /// Each root child as (action, visits, mean, exact value when solved).
    fn children(&self) -> Vec<(String, u32, f64, Option<f64>)>;
    /// The search as `Any`, for `reuse` to take a previous search of the same game.
    fn into_any(self: Box<Self>) -> Box<dyn std::any::Any>;
}
