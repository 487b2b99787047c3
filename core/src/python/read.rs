//! Python game states (engine/games/*/state.py or their core forms) read by attribute into
//! the core's states: the roots of `search_open`, and the evaluations the tests hold to
//! players/games/*.py.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::anda::{Anda, Phase as APhase, BLACK, WHITE};
use crate::anda_prison::Phase as PrisonPhase;
use crate::geometry::Hexagon;
use crate::input::{self, bits, board, by_size, marbanta_phase, PrisonFields};
use crate::marbanta::Marbanta;
use crate::rng::Rng;
use crate::search::{self, Colour, Rooted, SearchGame};

/// A Python int bitboard as `k` little-endian bytes.
fn to_bytes(x: &Bound<'_, PyAny>, k: usize) -> PyResult<Vec<u8>> {
    x.call_method1("to_bytes", (k, "little"))?.extract()
}

/// A Python `Colour` as 0 (black) / 1 (white).
fn colour(c: &Bound<'_, PyAny>) -> PyResult<usize> {
    Ok(usize::from(c.getattr("value")?.extract::<String>()? == "w"))
}

/// A set of Python colours as bits (bit 0 black, bit 1 white).
fn colours(s: &Bound<'_, PyAny>, what: &str) -> PyResult<u8> {
    let mut out = 0;
    for c in s.getattr(what)?.try_iter()? {
        out |= 1 << colour(&c?)?;
    }
    Ok(out)
}

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
        let (black, white) = (to_bytes(&state.getattr("black")?, k)?, to_bytes(&state.getattr("white")?, k)?);
        let ply = state.getattr("ply")?.extract()?;
        let phase = state.getattr("phase")?.getattr("value")?.extract()?;
        Ok(Fields { variant, geo, black, white, to_move: colour(&state.getattr("to_move")?)?, ply, phase })
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

    /// A variant option's value (`variant.option(name)`).
    fn option(&self, name: &str) -> PyResult<String> {
        self.variant.call_method1("option", (name,))?.extract()
    }
}

/// A Python Spelde state as the search's state.
pub fn spelde<const N: usize>(f: &Fields<'_>) -> PyResult<search::spelde::Game<N>> {
    let rule = match f.option("flips")?.as_str() {
        "literal" => 0,
        "dense" => 1,
        _ => 2,
    };
    let g = input::spelde::<N>(f.geo, rule, &f.black, &f.white, f.to_move, f.ply, f.phase_code("open")?)?;
    Ok(search::spelde::Game::new(g))
}

/// A Python Marbanta state as the search's state.
pub fn marbanta<const N: usize>(f: &Fields<'_>) -> PyResult<search::marbanta::Game<N>> {
    let pie = f.variant.getattr("balance")?.extract::<String>()? == "pie";
    let st = [bits::<N>(f.geo, "black", &f.black)?, bits::<N>(f.geo, "white", &f.white)?];
    let phase = marbanta_phase(f.phase_code("pie")?)?;
    Ok(search::marbanta::Game::new(Marbanta::new(f.geo, pie, st, f.to_move, f.ply, phase)))
}

pub fn spelde_root(state: &Bound<'_, PyAny>) -> PyResult<Box<dyn Rooted>> {
    let f = Fields::read(state)?;
    by_size!(f.geo.n, N => Ok(Box::new(spelde::<N>(&f)?) as Box<dyn Rooted>))
}

pub fn marbanta_root(state: &Bound<'_, PyAny>) -> PyResult<Box<dyn Rooted>> {
    let f = Fields::read(state)?;
    by_size!(f.geo.n, N => Ok(Box::new(marbanta::<N>(&f)?) as Box<dyn Rooted>))
}

/// The side of a Python state's board.
fn size(state: &Bound<PyAny>) -> PyResult<usize> {
    state.getattr("variant")?.getattr("size")?.extract()
}

/// A Python `AndaState` as the core's state.
fn anda<const N: usize>(geo: &'static Hexagon, state: &Bound<PyAny>) -> PyResult<Anda<N>> {
    let k = geo.bits().div_ceil(8);
    let stones = |what: &str| -> PyResult<_> { Ok(bits::<N>(geo, what, &to_bytes(&state.getattr(what)?, k)?)?) };
    let cells = state.getattr("variant")?.call_method1("option", ("opening",))?.extract::<String>()? == "cells";
    let phase = match state.getattr("phase")?.extract::<String>()?.as_str() {
        "offer" => APhase::Offer,
        "answer" => APhase::Answer,
        _ => APhase::Play,
    };
    let first = colours(state, "first")?;
    let to_move = if colour(&state.getattr("to_move")?)? == 0 { BLACK } else { WHITE };
    Ok(Anda::new(geo, cells, stones("black")?, stones("white")?, to_move, state.getattr("ply")?.extract()?,
                 state.getattr("komi")?.extract()?, [first & 1 == 1, first & 2 == 2], phase))
}

pub fn anda_root(state: &Bound<PyAny>) -> PyResult<Box<dyn Rooted>> {
    let n = size(state)?;
    let geo = board(n)?;
    by_size!(n, N => Ok(Box::new(anda::<N>(geo, state)?) as Box<dyn Rooted>))
}

/// `evaluate` of a Python Anda state, as the compiled search computes it (the tests hold it
/// to players/games/anda.py).
#[pyfunction]
pub fn anda_search_score(state: &Bound<PyAny>) -> PyResult<f64> {
    let n = size(state)?;
    let geo = board(n)?;
    by_size!(n, N => Ok(search::anda::static_score(&anda::<N>(geo, state)?)))
}

/// A Python `AndaPrisonState` as (side, black, white, fields) for `input::prison`.
fn prison_fields(s: &Bound<PyAny>) -> PyResult<(usize, Vec<u8>, Vec<u8>, PrisonFields)> {
    let n = size(s)?;
    let k = board(n)?.bits().div_ceil(8);
    let phase: String = s.getattr("phase")?.extract()?;
    let phase = PrisonPhase::ALL.iter().position(|p| p.word() == phase)
        .ok_or_else(|| PyValueError::new_err(format!("not a phase of Anda-prison: {phase:?}")))? as u8;
    let last = s.getattr("last")?;
    let last = if last.is_none() { -1 } else { colour(&last)? as i8 };
    let fields = (colour(&s.getattr("to_move")?)?, s.getattr("ply")?.extract()?, phase, colours(s, "first")?,
                  s.getattr("prison_black")?.extract()?, s.getattr("prison_white")?.extract()?,
                  colours(s, "annihilated")?, s.getattr("komi")?.extract()?, last);
    Ok((n, to_bytes(&s.getattr("black")?, k)?, to_bytes(&s.getattr("white")?, k)?, fields))
}

pub fn prison_root(s: &Bound<PyAny>) -> PyResult<Box<dyn Rooted>> {
    let (n, black, white, fields) = prison_fields(s)?;
    let geo = board(n)?;
    by_size!(n, N => Ok(Box::new(input::prison::<N>(geo, &black, &white, fields)?) as Box<dyn Rooted>))
}

/// (`evaluate`, the leaf value) of a Python Anda-prison state, as the compiled search
/// computes them (the tests hold them to players/games/anda_prison.py).
#[pyfunction]
pub fn prison_search_value(s: &Bound<PyAny>) -> PyResult<(f64, f64)> {
    let (n, black, white, fields) = prison_fields(s)?;
    let geo = board(n)?;
    by_size!(n, N => {
        let g = input::prison::<N>(geo, &black, &white, fields)?;
        Ok((search::anda_prison::static_score(&g), g.evaluate(0, &mut Rng::new(0), None)))
    })
}

/// A Python Vaxandis state's fields as `input::vaxandis` takes them.
struct VFields {
    n: usize,
    group: bool,
    path: bool,
    black: Vec<u8>,
    white: Vec<u8>,
    levels: Vec<(u32, Vec<u8>)>,
    to_move: usize,
    ply: u32,
    phase: u8,
}

impl VFields {
    fn read(state: &Bound<'_, PyAny>) -> PyResult<VFields> {
        let variant = state.getattr("variant")?;
        let n: usize = variant.getattr("size")?.extract()?;
        let option = |name: &str| -> PyResult<String> { variant.call_method1("option", (name,))?.extract() };
        let (group, path) = (option("freeze")? == "group", option("touch")? == "path");
        let k = board(n)?.bits().div_ceil(8);
        let black = to_bytes(&state.getattr("black")?, k)?;
        let white = to_bytes(&state.getattr("white")?, k)?;
        let mut levels = Vec::new();
        for item in state.getattr("levels")?.try_iter()? {
            let (h, bb): (u32, Bound<'_, PyAny>) = item?.extract()?;
            levels.push((h, to_bytes(&bb, k)?));
        }
        let ply: u32 = state.getattr("ply")?.extract()?;
        let phase: String = state.getattr("phase")?.getattr("value")?.extract()?;
        let phase = match phase.as_str() {
            "open" => 0,
            "swap" => 1,
            _ => 2,
        };
        Ok(VFields { n, group, path, black, white, levels, to_move: colour(&state.getattr("to_move")?)?, ply, phase })
    }

    fn game<const N: usize>(self) -> PyResult<search::vaxandis::Game<N>> {
        let geo = board(self.n)?;
        let g = input::vaxandis::<N>(geo, self.group, self.path, &self.black, &self.white, self.levels,
                                     self.to_move, self.ply, self.phase)?;
        Ok(search::vaxandis::Game::new(g))
    }
}

pub fn vaxandis_root(state: &Bound<'_, PyAny>) -> PyResult<Box<dyn Rooted>> {
    let f = VFields::read(state)?;
    by_size!(f.n, N => Ok(Box::new(f.game::<N>()?) as Box<dyn Rooted>))
}

/// Vaxandis: the search's cut-off score of a Python state (`Game::score`: `evaluate_search` plus
/// `trailing` for the searcher holding `searcher`), for the tests against players/games/vaxandis.py.
#[pyfunction]
pub fn vaxandis_search_score(state: &Bound<'_, PyAny>, searcher: usize) -> PyResult<f64> {
    let f = VFields::read(state)?;
    let searcher = input::colour(searcher)?;
    by_size!(f.n, N => Ok(f.game::<N>()?.score(searcher)))
}
