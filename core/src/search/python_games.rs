//! The stone games' Python states read for a compiled search (Spelde's and Marbanta's
//! `open`), and `search_probe`: what a compiled search sees of a Python state (its listed
//! actions, its leaf evaluation), for the tests that hold it to the Python rules.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::game::{Colour, SearchGame};
use super::{marbanta, spelde};
use crate::geometry::Hexagon;
use crate::python::{board, by_size};
use crate::rng::Rng;

/// The fields every Python stone state begins with (engine/game.py `StoneState`), the
/// bitboards as little-endian bytes.
pub struct Fields<'py> {
    pub variant: Bound<'py, PyAny>,
    pub geo: &'static Hexagon,
    pub black: Vec<u8>,
    pub white: Vec<u8>,
    pub to_move: Colour,
    pub ply: u32,
    /// The `phase` field's protocol word.
    pub phase: String,
}

impl<'py> Fields<'py> {
    pub fn read(state: &Bound<'py, PyAny>) -> PyResult<Fields<'py>> {
        let variant = state.getattr("variant")?;
        let geo = board(variant.getattr("size")?.extract()?)?;
        let k = geo.bits().div_ceil(8);
        let bytes = |name: &str| -> PyResult<Vec<u8>> { state.getattr(name)?.call_method1("to_bytes", (k, "little"))?.extract() };
        let (black, white) = (bytes("black")?, bytes("white")?);
        let to_move: String = state.getattr("to_move")?.getattr("value")?.extract()?;
        let ply = state.getattr("ply")?.extract()?;
        let phase = state.getattr("phase")?.getattr("value")?.extract()?;
        Ok(Fields { variant, geo, black, white, to_move: usize::from(to_move == "w"), ply, phase })
    }

    /// The phase as the core's functions take it: 0 the first (`open`, `pie`), 1 `swap`, 2 `play`.
    pub fn phase_code(&self, first: &str) -> PyResult<u8> {
        match self.phase.as_str() {
            p if p == first => Ok(0),
            "swap" => Ok(1),
            "play" => Ok(2),
            p => Err(PyValueError::new_err(format!("phase {p:?}: expected {first}, swap or play"))),
        }
    }
}

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
        "spelde" => by_size!(f.geo.n, N => Ok(probe(&spelde::game::<N>(&f)?, cap, seed))),
        "marbanta" => by_size!(f.geo.n, N => Ok(probe(&marbanta::game::<N>(&f)?, cap, seed))),
        _ => Err(PyValueError::new_err(format!("no probe for the game {game_id:?}"))),
    }
}
