//! A Python `AndaState` read into the core's state: the root of a compiled search.

use pyo3::prelude::*;

use crate::anda::{Anda, Phase, BLACK, WHITE};
use crate::bitboard::Bb;
use crate::geometry::Hexagon;
use crate::python::{bits, board, by_size};
use crate::search::game::Rooted;

use super::value::static_score;

/// A Python `AndaState` (engine/games/anda/state.py or its core form) as the core's state.
pub fn read<const N: usize>(geo: &'static Hexagon, state: &Bound<PyAny>) -> PyResult<Anda<N>> {
    let bytes = geo.bits().div_ceil(8);
    let stones = |what: &str| -> PyResult<Bb<N>> {
        let bytes: Vec<u8> = state.getattr(what)?.call_method1("to_bytes", (bytes, "little"))?.extract()?;
        bits::<N>(geo, what, &bytes)
    };
    let colour = |c: Bound<PyAny>| -> PyResult<usize> {
        Ok(if c.getattr("value")?.extract::<String>()? == "b" { BLACK } else { WHITE })
    };
    let variant = state.getattr("variant")?;
    let cells = variant.call_method1("option", ("opening",))?.extract::<String>()? == "cells";
    let phase = match state.getattr("phase")?.extract::<String>()?.as_str() {
        "offer" => Phase::Offer,
        "answer" => Phase::Answer,
        _ => Phase::Play,
    };
    let mut first = [false; 2];
    for c in state.getattr("first")?.try_iter()? {
        first[colour(c?)?] = true;
    }
    Ok(Anda::new(geo, cells, stones("black")?, stones("white")?, colour(state.getattr("to_move")?)?,
                 state.getattr("ply")?.extract()?, state.getattr("komi")?.extract()?, first, phase))
}

/// The side of a Python Anda state's board.
pub fn size(state: &Bound<PyAny>) -> PyResult<usize> {
    state.getattr("variant")?.getattr("size")?.extract()
}

/// The search's root from a Python Anda state.
pub fn open(state: &Bound<PyAny>) -> PyResult<Box<dyn Rooted>> {
    let n = size(state)?;
    let geo = board(n)?;
    by_size!(n, N => Ok(Box::new(read::<N>(geo, state)?) as Box<dyn Rooted>))
}

/// `evaluate` of a Python Anda state, as the compiled search computes it (the tests hold it
/// to players/games/anda.py).
#[pyfunction]
pub fn anda_search_score(state: &Bound<PyAny>) -> PyResult<f64> {
    let n = size(state)?;
    let geo = board(n)?;
    by_size!(n, N => Ok(static_score(&read::<N>(geo, state)?)))
}
