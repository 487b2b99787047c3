//! `replay_record`: a whole SGF record replayed in one call, for the HTML report's viewer
//! (crate::replay says what it returns and when it declines).

use std::collections::HashMap;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use crate::replay::{replay, Replayed, Stop};

type Statuses = Vec<(usize, Vec<String>, Option<Vec<String>>)>;
type Answer<'py> = (&'static str, usize, Bound<'py, PyList>, Vec<Option<f64>>, String, Bound<'py, PyList>,
                    Bound<'py, PyList>, Statuses);

/// The viewer's data of the SGF record `text`: (game, size, tokens, think times (None where
/// not a number), the initial position's sites, per ply the changed sites, per ply the
/// action's sites where they differ (`""` where not), the statuses as (ply, (mover, phase,
/// *shown), the previous ply's or None)); `shown`: per game id, the keys its status shows
/// beside the phase. None
/// when the record is not one the core reads exactly as the Python reader does (the caller
/// replays it in Python); ValueError `ply N: 'TOKEN': REASON` for an action the rules refuse.
#[pyfunction]
pub fn replay_record<'py>(py: Python<'py>, text: &str, shown: HashMap<String, Vec<String>>)
    -> PyResult<Option<Bound<'py, PyTuple>>> {
    let done = py.allow_threads(|| replay(text, &shown));
    let r: Replayed = match done {
        Ok(r) => r,
        Err(Stop::Unsure) => return Ok(None),
        Err(Stop::Illegal { ply, token, why }) => {
            return Err(PyValueError::new_err(format!("ply {ply}: '{token}': {why}")))
        }
    };
    let answer: Answer = (r.game, r.size, PyList::new(py, r.tokens)?, r.seconds, r.first, PyList::new(py, r.changes)?,
                          PyList::new(py, r.marks)?, r.statuses);
    Ok(Some(answer.into_pyobject(py)?))
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(replay_record, m)?)
}
