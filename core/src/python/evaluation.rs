//! The Python face of what the players' search reads from the core (players/): traced
//! random playouts for RAVE and the board summaries of the leaf evaluations. Arguments
//! as in `python/mod.rs`.

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::bitboard::Bb;
use crate::evaluation::{anda_summary as summary, vaxandis_summary as vsummary, Groups};
use crate::geometry::Hexagon;
use crate::marbanta::{Marbanta, Phase as MPhase, Played};
use super::out;
use crate::input::{bits, board, by_size, colour, marbanta_phase, vaxandis};
use crate::rng::Rng;

/// One traced action: (mover, kind, a, b, branches). Kinds: 0 the pie stones (a black's
/// site, b white's), 1 `swap`, 2 `keep`, 3 a new group (a its root, `branches` its other
/// stones in notation order; none: a single stone).
type Step = (usize, u8, usize, usize, Vec<usize>);
type TracedPlayout<'py> = (Bound<'py, PyBytes>, Bound<'py, PyBytes>, usize, u32, u8, i8, u32, Vec<Step>);

fn step<const N: usize>(geo: &Hexagon, mover: usize, played: Played<N>) -> Step {
    match played {
        Played::Pie(b, w) => (mover, 0, b, w, Vec::new()),
        Played::Swap(swap) => (mover, if swap { 1 } else { 2 }, 0, 0, Vec::new()),
        Played::Group(r, group) => (mover, 3, r, 0, branches(geo, r, group)),
    }
}

/// Marbanta: `marbanta_playout` with the actions played, in order (see `Step`).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn marbanta_traced_playout<'py>(
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
) -> PyResult<TracedPlayout<'py>> {
    let geo = board(n)?;
    let to_move = colour(to_move)?;
    let phase = marbanta_phase(phase)?;
    by_size!(n, N => {
        let st = [bits::<N>(geo, "black", black)?, bits::<N>(geo, "white", white)?];
        let mut g = Marbanta::new(geo, pie, st, to_move, ply, phase);
        let mut trace = Vec::new();
        let (winner, swaps) = g.traced_playout(cap, &mut Rng::new(seed), &mut trace);
        let phase = match g.phase {
            MPhase::Pie => 0,
            MPhase::Swap => 1,
            MPhase::Play => 2,
        };
        let steps = trace.into_iter().map(|(mover, played)| step(geo, mover, played)).collect();
        Ok((out(py, g.st[0]), out(py, g.st[1]), g.to_move, g.ply, phase, winner.map_or(-1, |w| w as i8), swaps,
            steps))
    })
}

/// Marbanta: the first `limit` actions of the mover's turn (phase play) in state.py's order,
/// each as (root, the group's other stones in notation order; none: a single stone).
#[pyfunction]
fn marbanta_actions(n: usize, black: &[u8], white: &[u8], to_move: usize, limit: usize)
                    -> PyResult<Vec<(usize, Vec<usize>)>> {
    let geo = board(n)?;
    let to_move = colour(to_move)?;
    by_size!(n, N => {
        let st = [bits::<N>(geo, "black", black)?, bits::<N>(geo, "white", white)?];
        let g = Marbanta::new(geo, true, st, to_move, 0, MPhase::Play);
        Ok(g.groups(limit).into_iter().map(|(r, group)| (r, branches(geo, r, group))).collect())
    })
}

/// A group's stones but its root `r`, in notation order.
fn branches<const N: usize>(geo: &Hexagon, r: usize, group: Bb<N>) -> Vec<usize> {
    let mut out: Vec<usize> = group.iter().filter(|&x| x != r).collect();
    out.sort_by_key(|&x| geo.rank[x]);
    out
}

/// The Anda games: (Black's territory, White's, Black's groups, White's groups), each group
/// as (stones, safe breaths) (`evaluation::anda_summary`).
#[pyfunction]
fn anda_summary(n: usize, black: &[u8], white: &[u8]) -> PyResult<(u32, u32, Groups, Groups)> {
    let geo = board(n)?;
    by_size!(n, N => {
        let (b, w) = (bits::<N>(geo, "black", black)?, bits::<N>(geo, "white", white)?);
        Ok(summary(geo, b, w))
    })
}

type VaxandisSummary = (u32, u32, Vec<u32>, Vec<u32>, u32, u32);

/// Vaxandis: (Black's frozen stacks, White's, the `ranks` tallest heights of each, the actions
/// each would have) (`evaluation::vaxandis_summary`). Arguments as `vaxandis_playout`'s first seven.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn vaxandis_summary(n: usize, freeze_group: bool, touch_path: bool, black: &[u8], white: &[u8],
                    levels: Vec<(u32, Vec<u8>)>, to_move: usize, ranks: usize) -> PyResult<VaxandisSummary> {
    let geo = board(n)?;
    let to_move = colour(to_move)?;
    by_size!(n, N => {
        let g = vaxandis::<N>(geo, freeze_group, touch_path, black, white, levels, to_move, 0, 2)?;
        Ok(vsummary(&g, ranks))
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(marbanta_traced_playout, m)?)?;
    m.add_function(wrap_pyfunction!(anda_summary, m)?)?;
    m.add_function(wrap_pyfunction!(marbanta_actions, m)?)?;
    m.add_function(wrap_pyfunction!(vaxandis_summary, m)?)?;
    m.add_function(wrap_pyfunction!(super::read::anda_search_score, m)?)?;
    Ok(())
}
