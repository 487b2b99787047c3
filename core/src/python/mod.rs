//! The Python face of the core: the module `hexarena_core` (cargo feature `python`), the one
//! layer of the crate that uses pyo3.
//!
//! Functions take a position as plain values: the board side, bitboards as little-endian
//! `bytes` in engine.geometry's layout (Python: `x.to_bytes(k, "little")`), colours as
//! 0 (black) / 1 (white). Bitboards come back as `bytes` of the same layout. A bad
//! argument (a side outside 2..13, a bit off the board) raises ValueError naming it.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::anda::board::{Board, Verdict};
use crate::anda::{Anda, Phase, Termination};
use crate::anda_prison::{self as prison, Check};
use crate::marbanta::{Marbanta, Phase as MPhase};
use crate::spelde::{self, Action as SAction, Phase as SPhase};
use crate::vaxandis::{Phase as VPhase, Vaxandis};
use crate::bitboard::Bb;
use crate::input::{self, bits, board, by_size, colour, marbanta_phase, site, InputError};
use crate::rng::Rng;

mod evaluation;
mod held;
mod marbanta_step;
mod prison_state;
mod prison_step;
mod probe;
mod read;
mod replay;
mod search;
mod spelde_step;
mod step;
mod vaxandis_step;

impl From<InputError> for PyErr {
    fn from(e: InputError) -> PyErr {
        PyValueError::new_err(e.0)
    }
}


pub(crate) fn out<const N: usize>(py: Python<'_>, bb: Bb<N>) -> Bound<'_, PyBytes> {
    PyBytes::new(py, &bb.to_le_bytes())
}

/// The legal single placements of colour `me` (a placing turn), as a bitboard.
#[pyfunction]
fn anda_legal_cells<'py>(py: Python<'py>, n: usize, black: &[u8], white: &[u8], me: usize) -> PyResult<Bound<'py, PyBytes>> {
    let geo = board(n)?;
    let me = colour(me)?;
    by_size!(n, N => {
        let b = Board::<N>::new(geo, bits(geo, "black", black)?, bits(geo, "white", white)?);
        Ok(out(py, b.legal_cells(me)))
    })
}

/// A stone of colour `me` on `site` with both removal steps: (verdict, black, white);
/// verdict 0 legal, 1 occupied, 2 the opponent's territory, 3 it would remove only itself
/// (the stones are those after the turn when legal, else unchanged).
#[pyfunction]
fn anda_place<'py>(
    py: Python<'py>,
    n: usize,
    black: &[u8],
    white: &[u8],
    me: usize,
    site: usize,
) -> PyResult<(u8, Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let geo = board(n)?;
    let me = colour(me)?;
    let s = input::site(geo, site)?;
    by_size!(n, N => {
        let b = Board::<N>::new(geo, bits(geo, "black", black)?, bits(geo, "white", white)?);
        let pr = b.probe(me, s);
        let code = match pr.verdict {
            Verdict::Legal => 0,
            Verdict::Occupied => 1,
            Verdict::Territory => 2,
            Verdict::Suicide => 3,
        };
        Ok((code, out(py, pr.st[0]), out(py, pr.st[1])))
    })
}

/// A first-turn pair of colour `me` on empty sites a, b with both removal steps: (black, white).
#[pyfunction]
fn anda_pair<'py>(
    py: Python<'py>,
    n: usize,
    black: &[u8],
    white: &[u8],
    me: usize,
    a: usize,
    b: usize,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let geo = board(n)?;
    let me = colour(me)?;
    let (a, b) = (site(geo, a)?, site(geo, b)?);
    by_size!(n, N => {
        let mut g = Anda::<N>::new(geo, false, bits(geo, "black", black)?, bits(geo, "white", white)?,
                                   me, 0, 0, [true; 2], Phase::Play);
        if !g.board.empty.has(a) || !g.board.empty.has(b) || a == b {
            return Err(PyValueError::new_err("a pair needs two distinct empty sites"));
        }
        g.pair(a, b);
        Ok((out(py, g.board.st[0]), out(py, g.board.st[1])))
    })
}

/// The first-turn pairs (canonical, in canonical order) whose sites are both free of `taken`.
#[pyfunction]
fn anda_free_pairs(n: usize, cells: bool, taken: &[u8]) -> PyResult<Vec<(usize, usize)>> {
    let geo = board(n)?;
    by_size!(n, N => {
        let taken = bits::<N>(geo, "taken", taken)?;
        Ok(geo.pairs[cells as usize].iter().copied().filter(|&(a, b)| !taken.has(a) && !taken.has(b)).collect())
    })
}

/// Anda-prison: stones of colour `me` on the empty sites `cells` (one, or a two-stone turn),
/// resolved: (verdict, black, white, black stones jailed, white stones jailed); verdict 0
/// legal, 1 a placed group smothered right after placing, 2 smothered at the end of the turn.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn prison_place<'py>(
    py: Python<'py>,
    n: usize,
    black: &[u8],
    white: &[u8],
    me: usize,
    cells: Vec<usize>,
) -> PyResult<(u8, Bound<'py, PyBytes>, Bound<'py, PyBytes>, u32, u32)> {
    let geo = board(n)?;
    let me = colour(me)?;
    if cells.is_empty() || cells.len() > 2 || (cells.len() == 2 && cells[0] == cells[1]) {
        return Err(PyValueError::new_err("cells: one site or two distinct sites"));
    }
    for &s in &cells {
        site(geo, s)?;
    }
    by_size!(n, N => {
        let st = [bits::<N>(geo, "black", black)?, bits::<N>(geo, "white", white)?];
        if cells.iter().any(|&s| st[0].or(st[1]).has(s)) {
            return Err(PyValueError::new_err("cells: a site is occupied"));
        }
        let r = if cells.len() == 1 {
            prison::place(&Board::new(geo, st[0], st[1]), me, cells[0])
        } else {
            prison::place_all(geo, st, me, &cells)
        };
        let code = match r.check {
            Check::Legal => 0,
            Check::SmotheredAtOnce => 1,
            Check::SmotheredAtEnd => 2,
        };
        Ok((code, out(py, r.st[0]), out(py, r.st[1]), r.jailed[0], r.jailed[1]))
    })
}

/// Anda-prison: the legal single placements of colour `me` (a normal turn); `ban`: `me`
/// may not annihilate.
#[pyfunction]
fn prison_legal_cells<'py>(py: Python<'py>, n: usize, black: &[u8], white: &[u8], me: usize, ban: bool)
    -> PyResult<Bound<'py, PyBytes>> {
    let geo = board(n)?;
    let me = colour(me)?;
    by_size!(n, N => {
        let b = Board::<N>::new(geo, bits(geo, "black", black)?, bits(geo, "white", white)?);
        Ok(out(py, prison::legal_cells(&b, me, ban)))
    })
}

/// Anda-prison: whether colour `me` has a legal single placement (stops at the first).
#[pyfunction]
fn prison_has_placement(n: usize, black: &[u8], white: &[u8], me: usize, ban: bool) -> PyResult<bool> {
    let geo = board(n)?;
    let me = colour(me)?;
    by_size!(n, N => {
        let b = Board::<N>::new(geo, bits(geo, "black", black)?, bits(geo, "white", white)?);
        Ok(prison::has_placement(&b, me, ban))
    })
}

type Played<'py> = (Bound<'py, PyBytes>, Bound<'py, PyBytes>, usize, u32, u32, u8, u8, i8, u8, u32);

/// Uniformly random actions from a position until the rules end the game or the ply
/// reaches `cap`. `first`: bit 0 black, bit 1 white still owe their first turn; `phase`:
/// 0 offer, 1 answer, 2 play. Returns the final position (black, white, to_move, ply,
/// komi, first, phase), the winner (-1 none, at the cap), the termination (0 none,
/// 1 no moves, 2 eliminated) and the number of swaps played.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn anda_playout<'py>(
    py: Python<'py>,
    n: usize,
    cells: bool,
    black: &[u8],
    white: &[u8],
    to_move: usize,
    ply: u32,
    komi: u32,
    first: u8,
    phase: u8,
    cap: u32,
    seed: u64,
) -> PyResult<Played<'py>> {
    let geo = board(n)?;
    let to_move = colour(to_move)?;
    let phase = match phase {
        0 => Phase::Offer,
        1 => Phase::Answer,
        2 => Phase::Play,
        _ => return Err(PyValueError::new_err(format!("phase {phase}: expected 0, 1 or 2"))),
    };
    let first = [first & 1 == 1, first & 2 == 2];
    by_size!(n, N => {
        let mut g = Anda::<N>::new(geo, cells, bits(geo, "black", black)?, bits(geo, "white", white)?,
                                   to_move, ply, komi, first, phase);
        let end = py.allow_threads(|| g.playout(cap, &mut Rng::new(seed)));
        let (winner, why) = match end.result {
            None => (-1, 0),
            Some((w, Termination::NoMoves)) => (w as i8, 1),
            Some((w, Termination::Eliminated)) => (w as i8, 2),
        };
        let phase = match g.phase {
            Phase::Offer => 0,
            Phase::Answer => 1,
            Phase::Play => 2,
        };
        let first = u8::from(g.first[0]) | u8::from(g.first[1]) << 1;
        Ok((out(py, g.board.st[0]), out(py, g.board.st[1]), g.to_move, g.ply, g.komi, first, phase,
            winner, why, end.swaps))
    })
}

/// Marbanta: every legal root of the mover (phase play) with its N, in bit order.
#[pyfunction]
fn marbanta_roots(n: usize, black: &[u8], white: &[u8], to_move: usize) -> PyResult<Vec<(usize, u32)>> {
    let geo = board(n)?;
    let to_move = colour(to_move)?;
    by_size!(n, N => {
        let st = [bits::<N>(geo, "black", black)?, bits::<N>(geo, "white", white)?];
        Ok(Marbanta::new(geo, true, st, to_move, 0, MPhase::Play).roots())
    })
}

type MarbantaPlayed<'py> = (Bound<'py, PyBytes>, Bound<'py, PyBytes>, usize, u32, u8, i8, u32);

/// Marbanta: whether the mover has a legal root (phase play; stops at the first).
#[pyfunction]
fn marbanta_has_turn(n: usize, black: &[u8], white: &[u8], to_move: usize) -> PyResult<bool> {
    let geo = board(n)?;
    let to_move = colour(to_move)?;
    by_size!(n, N => {
        let st = [bits::<N>(geo, "black", black)?, bits::<N>(geo, "white", white)?];
        Ok(Marbanta::new(geo, true, st, to_move, 0, MPhase::Play).has_turn())
    })
}

/// Marbanta: uniformly random actions (state.py's distribution) until the mover has no
/// turn or the ply reaches `cap`. `phase`: 0 pie, 1 swap, 2 play. Returns (black, white,
/// to_move, ply, phase, winner: -1 none (at the cap), else the colour unable to move, swaps).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn marbanta_playout<'py>(
    py: Python<'py>,
    n: usize,
    pie: bool,
    black: &[u8],
    white: &[u8],
    to_move: usize,
    ply: u32,
    phase: u8,
    cap: u32,
    seed: u64,
) -> PyResult<MarbantaPlayed<'py>> {
    let geo = board(n)?;
    let to_move = colour(to_move)?;
    let phase = marbanta_phase(phase)?;
    by_size!(n, N => {
        let st = [bits::<N>(geo, "black", black)?, bits::<N>(geo, "white", white)?];
        let mut g = Marbanta::new(geo, pie, st, to_move, ply, phase);
        let (winner, swaps) = py.allow_threads(|| g.playout(cap, &mut Rng::new(seed)));
        let phase = match g.phase {
            MPhase::Pie => 0,
            MPhase::Swap => 1,
            MPhase::Play => 2,
        };
        Ok((out(py, g.st[0]), out(py, g.st[1]), g.to_move, g.ply, phase, winner.map_or(-1, |w| w as i8), swaps))
    })
}

type Levels<'py> = Vec<(u32, Bound<'py, PyBytes>)>;

fn levels_out<'py, const N: usize>(py: Python<'py>, g: &Vaxandis<N>) -> Levels<'py> {
    let mut by: std::collections::BTreeMap<u32, Bb<N>> = std::collections::BTreeMap::new();
    for x in g.st[0].or(g.st[1]).iter() {
        by.entry(g.height[x]).or_default().set(x);
    }
    by.into_iter().map(|(h, bb)| (h, out(py, bb))).collect()
}

type VaxandisPlayed<'py> = (Bound<'py, PyBytes>, Bound<'py, PyBytes>, Levels<'py>, usize, u32, u8, i8, u32);

/// Vaxandis: uniformly random actions until the mover has none or the ply reaches `cap`.
/// `phase`: 0 open, 1 swap, 2 play. Returns (black, white, levels, to_move, ply, phase,
/// winner: -1 none, swaps).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn vaxandis_playout<'py>(
    py: Python<'py>,
    n: usize,
    freeze_group: bool,
    touch_path: bool,
    black: &[u8],
    white: &[u8],
    levels: Vec<(u32, Vec<u8>)>,
    to_move: usize,
    ply: u32,
    phase: u8,
    cap: u32,
    seed: u64,
) -> PyResult<VaxandisPlayed<'py>> {
    let geo = board(n)?;
    let to_move = colour(to_move)?;
    by_size!(n, N => {
        let mut g = input::vaxandis::<N>(geo, freeze_group, touch_path, black, white, levels, to_move, ply, phase)?;
        let (winner, swaps) = py.allow_threads(|| g.playout(cap, &mut Rng::new(seed)));
        let phase = match g.phase {
            VPhase::Open => 0,
            VPhase::Swap => 1,
            VPhase::Play => 2,
        };
        Ok((out(py, g.st[0]), out(py, g.st[1]), levels_out(py, &g), g.to_move, g.ply, phase,
            winner.map_or(-1, |w| w as i8), swaps))
    })
}

/// Spelde: the legal placement cells of colour `me` (`rule`: 0 literal, 1 dense, 2 standard).
#[pyfunction]
fn spelde_legal_cells<'py>(py: Python<'py>, n: usize, rule: u8, black: &[u8], white: &[u8], me: usize)
    -> PyResult<Bound<'py, PyBytes>> {
    let geo = board(n)?;
    by_size!(n, N => {
        let g = input::spelde::<N>(geo, rule, black, white, me, 0, 2)?;
        Ok(out(py, g.legal_cells()))
    })
}

/// Spelde: whether colour `me` (in `phase`: 0 open, 1 swap, 2 play) may place on `cell` and
/// flip `named` (the reasons of a refusal are state.py's).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn spelde_allows(n: usize, rule: u8, black: &[u8], white: &[u8], me: usize, phase: u8, cell: usize, named: &[u8])
    -> PyResult<bool> {
    let geo = board(n)?;
    let cell = site(geo, cell)?;
    by_size!(n, N => {
        let g = input::spelde::<N>(geo, rule, black, white, me, 0, phase)?;
        Ok(g.allows(cell, bits::<N>(geo, "named", named)?))
    })
}

/// Spelde: a uniformly random action of colour `me` (state.py's distribution): (cell, flips),
/// cell -1 for `swap`; None when there is none.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn spelde_random_action<'py>(py: Python<'py>, n: usize, rule: u8, black: &[u8], white: &[u8], me: usize, phase: u8,
                             seed: u64) -> PyResult<Option<(i64, Bound<'py, PyBytes>)>> {
    let geo = board(n)?;
    by_size!(n, N => {
        let g = input::spelde::<N>(geo, rule, black, white, me, 0, phase)?;
        Ok(match g.random_action(&mut Rng::new(seed)) {
            None => None,
            Some(SAction::Swap) => Some((-1, out(py, Bb::<N>::ZERO))),
            Some(SAction::Place(c, f)) => Some((c as i64, out(py, f))),
        })
    })
}

/// Spelde, `flips=literal`: the first `limit` legal placements of colour `me` (no `swap`) in
/// state.py's order, as (cell, flips) (flips empty: a plain placement).
#[pyfunction]
fn spelde_literal_actions<'py>(py: Python<'py>, n: usize, black: &[u8], white: &[u8], me: usize, limit: usize)
    -> PyResult<Vec<(usize, Bound<'py, PyBytes>)>> {
    let geo = board(n)?;
    by_size!(n, N => {
        let g = input::spelde::<N>(geo, 0, black, white, me, 0, 2)?;
        Ok(g.literal_actions(limit).into_iter().map(|(c, f)| (c, out(py, f))).collect())
    })
}

type SpeldePlayed<'py> = (Bound<'py, PyBytes>, Bound<'py, PyBytes>, usize, u32, u8, i8, u32);

/// Spelde: uniformly random actions until the mover has none or the ply reaches `cap`.
/// Returns (black, white, to_move, ply, phase, winner: -1 none (at the cap), swaps).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn spelde_playout<'py>(py: Python<'py>, n: usize, rule: u8, black: &[u8], white: &[u8], to_move: usize, ply: u32,
                       phase: u8, cap: u32, seed: u64) -> PyResult<SpeldePlayed<'py>> {
    let geo = board(n)?;
    by_size!(n, N => {
        let mut g = input::spelde::<N>(geo, rule, black, white, to_move, ply, phase)?;
        let (winner, swaps) = py.allow_threads(|| g.playout(cap, &mut Rng::new(seed)));
        let phase = match g.phase {
            SPhase::Open => 0,
            SPhase::Swap => 1,
            SPhase::Play => 2,
        };
        Ok((out(py, g.st[0]), out(py, g.st[1]), g.to_move, g.ply, phase, winner.map_or(-1, |w| w as i8), swaps))
    })
}

/// Spelde: (Black's, White's) open sites: empty, and next to no enemy group that no flip set
/// can split (a singleton, a pair, a triangle); the players' evaluation.
#[pyfunction]
fn spelde_open_sites<'py>(py: Python<'py>, n: usize, black: &[u8], white: &[u8])
    -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let geo = board(n)?;
    by_size!(n, N => {
        let (b, w) = (bits::<N>(geo, "black", black)?, bits::<N>(geo, "white", white)?);
        let empty = geo.mask::<N>().andnot(b.or(w));
        let open = |enemy: Bb<N>| empty.andnot(spelde::bad_stones(geo.width, enemy).grow(geo.width));
        Ok((out(py, open(w)), out(py, open(b))))
    })
}

/// The number of bytes of a bitboard of the board of side n.
#[pyfunction]
fn board_bytes(n: usize) -> PyResult<usize> {
    let geo = board(n)?;
    Ok(geo.bits().div_ceil(8))
}

#[pymodule]
fn hexarena_core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("GAMES", vec!["anda", "anda-prison", "marbanta", "spelde", "vaxandis"])?;
    m.add_function(wrap_pyfunction!(board_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(anda_legal_cells, m)?)?;
    m.add_function(wrap_pyfunction!(anda_place, m)?)?;
    m.add_function(wrap_pyfunction!(anda_pair, m)?)?;
    m.add_function(wrap_pyfunction!(anda_free_pairs, m)?)?;
    m.add_function(wrap_pyfunction!(anda_playout, m)?)?;
    m.add_function(wrap_pyfunction!(prison_place, m)?)?;
    m.add_function(wrap_pyfunction!(prison_legal_cells, m)?)?;
    m.add_function(wrap_pyfunction!(prison_has_placement, m)?)?;
    m.add_function(wrap_pyfunction!(marbanta_roots, m)?)?;
    m.add_function(wrap_pyfunction!(marbanta_has_turn, m)?)?;
    m.add_function(wrap_pyfunction!(marbanta_playout, m)?)?;
    m.add_function(wrap_pyfunction!(spelde_legal_cells, m)?)?;
    m.add_function(wrap_pyfunction!(spelde_allows, m)?)?;
    m.add_function(wrap_pyfunction!(spelde_literal_actions, m)?)?;
    m.add_function(wrap_pyfunction!(spelde_random_action, m)?)?;
    m.add_function(wrap_pyfunction!(spelde_playout, m)?)?;
    m.add_function(wrap_pyfunction!(spelde_open_sites, m)?)?;
    m.add_function(wrap_pyfunction!(vaxandis_playout, m)?)?;
    prison_state::register(m)?;
    evaluation::register(m)?;
    step::register(m)?;
    replay::register(m)?;
    spelde_step::register(m)?;
    marbanta_step::register(m)?;
    prison_step::register(m)?;
    vaxandis_step::register(m)?;
    search::register(m)
}
