//! `search_probe`: what a compiled search sees of a Python state (its listed
//! actions, its leaf evaluation), for the tests that hold it to the Python rules.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::read::{marbanta, spelde, Fields};
use crate::input::by_size;
use crate::rng::Rng;
use crate::search::SearchGame;

/// The actions in notation when there are at most `cap`, else None; the leaf evaluation
/// for a searcher holding the colour to move, its random draws seeded by `seed`.
fn probe<G: SearchGame>(g: &G, cap: usize, seed: u64) -> (Option<Vec<String>>, f64) {
    let mut actions = Vec::new();
    let listed = g.list(cap, &mut actions).then(|| actions.iter().map(|&a| g.notation(a)).collect());
    (listed, g.evaluate(g.to_move(), &mut Rng::new(seed), None))
}

/// What a compiled search sees of the Python state `state` of `game_id` (spelde or
/// marbanta): (its legal actions in notation when at most `cap`, else None; its leaf
/// evaluation, Black's expected score, with random draws seeded by `seed`).
#[pyfunction]
pub fn search_probe(game_id: &str, state: &Bound<'_, PyAny>, cap: usize, seed: u64) -> PyResult<(Option<Vec<String>>, f64)> {
    let f = Fields::read(state)?;
    let game: String = f.variant.getattr("game")?.extract()?;
    if game != game_id {
        return Err(PyValueError::new_err(format!("a {game} state given to the {game_id} probe")));
    }
    match game_id {
        "spelde" => by_size!(f.geo.n, N => Ok(probe(&spelde::<N>(&f)?, cap, seed))),
        "marbanta" => by_size!(f.geo.n, N => Ok(probe(&marbanta::<N>(&f)?, cap, seed))),
        _ => Err(PyValueError::new_err(format!("no probe for the game {game_id:?}"))),
    }
}
