//! The Python face of the compiled MCTS: the class `Search` (one move's search of any game
//! with a compiled search, `SEARCH_GAMES`) and `search_open`, which roots one at a Python
//! state (players/compiled_search.py drives it).

use std::sync::{Mutex, MutexGuard, TryLockError};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use super::read;
use crate::search::{Config, Rooted, Searcher};

/// The longest time budget `run` takes (about 31 years): the budget stays an ordinary duration.
const MAX_SECONDS: f64 = 1e9;

/// The games with a compiled search, by their ids.
pub const SEARCH_GAMES: &[&str] = &["anda", "anda-prison", "marbanta", "spelde", "vaxandis"];

/// A root child: (action, visits, mean, exact value when solved).
type Child = (String, u32, f64, Option<f64>);

/// One move's MCTS in the core, rooted at a state (`search_open`).
#[pyclass(name = "Search", module = "hexarena_core")]
pub struct PySearch {
    game: String,
    inner: Mutex<Slot>,
}

fn gone() -> PyErr {
    PyRuntimeError::new_err("this search's tree went to a later search (reuse)")
}

type Slot = Option<Box<dyn Searcher>>;

impl PySearch {
    /// The search, or RuntimeError while another thread runs it (waiting for it with the GIL
    /// held could deadlock: the running thread takes the GIL back before it lets go).
    fn lock(&self) -> PyResult<MutexGuard<'_, Slot>> {
        self.inner.try_lock().map_err(|e| match e {
            TryLockError::WouldBlock => PyRuntimeError::new_err("the search is running in another thread"),
            TryLockError::Poisoned(_) => PyRuntimeError::new_err("a search panicked"),
        })
    }

    fn with<T>(&self, f: impl FnOnce(&mut dyn Searcher) -> T) -> PyResult<T> {
        let mut guard = self.lock()?;
        let searcher = guard.as_mut().ok_or_else(gone)?;
        Ok(f(searcher.as_mut()))
    }
}

#[pymethods]
impl PySearch {
    /// The game's id.
    #[getter]
    fn game(&self) -> String {
        self.game.clone()
    }

    /// Take the tree of `previous` (a search of the same game) when one of its nodes within
    /// REUSE_DEPTH actions of its root holds this root's state; whether it did. `previous`
    /// gives its tree away either way.
    fn reuse(&self, previous: &Bound<'_, PySearch>) -> PyResult<bool> {
        let previous = previous.borrow();
        if std::ptr::eq(&*previous, self) || previous.game != self.game {
            return Ok(false);
        }
        let taken = previous.lock()?.take();
        match taken {
            None => Ok(false),
            Some(tree) => self.with(|s| s.reuse(tree)),
        }
    }

    /// Iterate until `iterations` or `seconds` (None: no bound of that kind; with seconds, the
    /// settled early stop too) or a proof of the root, without the GIL; the iterations run.
    #[pyo3(signature = (iterations=None, seconds=None))]
    fn run(&self, py: Python<'_>, iterations: Option<u64>, seconds: Option<f64>) -> PyResult<u64> {
        if iterations.is_none() && seconds.is_none() {
            return Err(PyValueError::new_err("a search needs an iteration or a time budget"));
        }
        if let Some(s) = seconds {
            if !(0.0..=MAX_SECONDS).contains(&s) {
                return Err(PyValueError::new_err(format!("seconds must be a number from 0 to {MAX_SECONDS}, got {s}")));
            }
        }
        let mut guard = self.lock()?;
        let searcher = guard.as_mut().ok_or_else(gone)?;
        Ok(py.allow_threads(|| searcher.run(iterations, seconds)))
    }

    /// The action to play, in notation, checked against a refutation in one; None when the
    /// root has no child.
    fn choose(&self, py: Python<'_>) -> PyResult<Option<String>> {
        let mut guard = self.lock()?;
        let searcher = guard.as_mut().ok_or_else(gone)?;
        Ok(py.allow_threads(|| searcher.choose()))
    }

    /// (The chosen child's value for its mover, the principal variation of at most `plies`
    /// actions in notation); None before `choose`.
    fn chosen(&self, plies: usize) -> PyResult<Option<(f64, Vec<String>)>> {
        self.with(|s| s.chosen(plies))
    }

    /// The iterations of the last `run`.
    #[getter]
    fn iterations(&self) -> PyResult<u64> {
        self.with(|s| s.counts().0)
    }

    /// The most plies below the root an iteration reached.
    #[getter]
    fn depth(&self) -> PyResult<u32> {
        self.with(|s| s.counts().1)
    }

    /// The root's visits (those of a reused tree included).
    #[getter]
    fn visits(&self) -> PyResult<u32> {
        self.with(|s| s.counts().2)
    }

    /// Each root child as (action, visits, mean, exact value when solved else None).
    fn children(&self) -> PyResult<Vec<Child>> {
        self.with(|s| s.children())
    }
}

fn open(game_id: &str, state: &Bound<'_, PyAny>) -> PyResult<Box<dyn Rooted>> {
    let game: String = state.getattr("variant")?.getattr("game")?.extract()?;
    if game != game_id {
        return Err(PyValueError::new_err(format!("a {game} state given to the {game_id} search")));
    }
    match game_id {
        "anda" => read::anda_root(state),
        "anda-prison" => read::prison_root(state),
        "marbanta" => read::marbanta_root(state),
        "spelde" => read::spelde_root(state),
        "vaxandis" => read::vaxandis_root(state),
        _ => Err(PyValueError::new_err(format!("no compiled search for the game {game_id:?}"))),
    }
}

/// A search rooted at the Python state `state` of the game `game_id` (one of SEARCH_GAMES):
/// UCT with `exploration`, RAVE when `rave` (its equivalence) is given, progressive widening
/// of listed nodes when `narrow`; its random draws seeded by `seed`. ValueError for a state of
/// another game, or an `exploration` or `rave` that is not a finite number of at least 0.
#[pyfunction]
#[pyo3(signature = (game_id, state, exploration, rave, narrow, seed))]
fn search_open(game_id: &str, state: &Bound<'_, PyAny>, exploration: f64, rave: Option<f64>, narrow: bool, seed: u64)
               -> PyResult<PySearch> {
    for (name, value) in [("exploration", Some(exploration)), ("rave", rave)] {
        if let Some(v) = value {
            if !(v.is_finite() && v >= 0.0) {
                return Err(PyValueError::new_err(format!("{name} must be a finite number of at least 0, got {v}")));
            }
        }
    }
    let rooted = open(game_id, state)?;
    let inner = rooted.into_search(Config { exploration, rave, narrow }, seed);
    Ok(PySearch { game: game_id.to_string(), inner: Mutex::new(Some(inner)) })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("SEARCH_GAMES", SEARCH_GAMES.to_vec())?;
    m.add_class::<PySearch>()?;
    m.add_function(wrap_pyfunction!(search_open, m)?)?;
    m.add_function(wrap_pyfunction!(read::vaxandis_search_score, m)?)?;
    m.add_function(wrap_pyfunction!(super::probe::search_probe, m)?)?;
    Ok(())
}
