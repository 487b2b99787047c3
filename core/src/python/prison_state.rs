//! The Python face of Anda-prison's whole state (`anda_prison::Prison`), for the
//! differential test and the playouts. A state is (n, black, white, fields); fields are
//! (to_move, ply, phase (phases.py's order, 0 `pair` .. 9 `agreed`), first (bit 0 black,
//! bit 1 white), prison_black, prison_white, annihilated (bits as first), komi, last
//! (-1 none)). An outcome is (winner: -1 a draw, termination: 0 no moves, 1 agreement,
//! 2 the ply cap, twice the margin). Other arguments as in `python/mod.rs`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::out;
use crate::anda_prison::{Action, Fields, Outcome, Prison, Termination};
use crate::input::{board, by_size, prison as state, PrisonFields as PyFields};
use crate::rng::Rng;

type PyOutcome = (i8, u8, u32);
type PyState<'py> = (Bound<'py, PyBytes>, Bound<'py, PyBytes>, PyFields);

fn fields_out(f: &Fields) -> PyFields {
    let bits = |b: [bool; 2]| u8::from(b[0]) | u8::from(b[1]) << 1;
    (f.to_move, f.ply, f.phase as u8, bits(f.first), f.prison[0], f.prison[1], bits(f.annihilated), f.komi,
     f.last.map_or(-1, |c| c as i8))
}

fn outcome_out(o: Outcome) -> PyOutcome {
    let why = match o.termination {
        Termination::NoMoves => 0,
        Termination::Agreement => 1,
        Termination::PlyCap => 2,
    };
    (o.winner.map_or(-1, |c| c as i8), why, o.margin2)
}

fn state_out<'py, const N: usize>(py: Python<'py>, g: &Prison<N>) -> PyState<'py> {
    (out(py, g.board.st[0]), out(py, g.board.st[1]), fields_out(&g.f))
}

/// Anda-prison: (the end by the rules or None, the legal single placements, every legal
/// action in state.py's order, in notation).
#[pyfunction]
fn prison_state<'py>(py: Python<'py>, n: usize, black: &[u8], white: &[u8], fields: PyFields)
    -> PyResult<(Option<PyOutcome>, Bound<'py, PyBytes>, Vec<String>)> {
    let geo = board(n)?;
    by_size!(n, N => {
        let g = state::<N>(geo, black, white, fields)?;
        let mut actions = Vec::new();
        g.actions(usize::MAX, &mut actions);
        Ok((g.outcome().map(outcome_out), out(py, g.legal_cells()),
            actions.into_iter().map(|a| g.notation(a)).collect()))
    })
}

/// Anda-prison: the state after an action, None when it is illegal. The action is (kind, a,
/// b): kind 0 a placement on a, 1 the pair a, b, 2 `komi=a`, 3 swap, 4 keep, 5 release,
/// 6 propose, 7 accept, 8 decline.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn prison_play<'py>(py: Python<'py>, n: usize, black: &[u8], white: &[u8], fields: PyFields, kind: u8, a: u16,
                    b: u16) -> PyResult<Option<PyState<'py>>> {
    let geo = board(n)?;
    let action = match kind {
        0 => Action::Place(a),
        1 => Action::Pair(a, b),
        2 => Action::Komi(a),
        3 => Action::Swap,
        4 => Action::Keep,
        5 => Action::Release,
        6 => Action::Propose,
        7 => Action::Accept,
        8 => Action::Decline,
        _ => return Err(PyValueError::new_err(format!("action kind {kind}: expected 0..8"))),
    };
    by_size!(n, N => {
        let g = state::<N>(geo, black, white, fields)?;
        Ok(g.play(action).map(|next| state_out(py, &next)))
    })
}

/// Anda-prison: uniformly random actions until the rules end the game or the ply reaches
/// `cap`: (the final state, its outcome (the adjudication at the cap), the swaps played).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn prison_playout<'py>(py: Python<'py>, n: usize, black: &[u8], white: &[u8], fields: PyFields, cap: u32, seed: u64)
    -> PyResult<(PyState<'py>, PyOutcome, u32)> {
    let geo = board(n)?;
    by_size!(n, N => {
        let g = state::<N>(geo, black, white, fields)?;
        let (end, outcome, swaps) = py.allow_threads(|| g.playout(cap, &mut Rng::new(seed)));
        Ok((state_out(py, &end), outcome_out(outcome), swaps))
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(prison_state, m)?)?;
    m.add_function(wrap_pyfunction!(prison_play, m)?)?;
    m.add_function(wrap_pyfunction!(prison_playout, m)?)?;
    m.add_function(wrap_pyfunction!(super::read::prison_search_value, m)?)?;
    Ok(())
}
