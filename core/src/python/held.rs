//! What the core states of the step API share (`AndaCore`, step.rs; `SpeldeCore`,
//! spelde_step.rs): the random stream handed from a state to the child it draws, the drawn
//! action kept with its child for `play`, a child built as an instance of the caller's
//! Python subclass, and bitboards to and from Python ints.
//!
//! Random draws come from a generator of the core (xoshiro256++) seeded from the caller's
//! `random.Random` once (`getrandbits(64)`) and handed from each state to the child it draws,
//! reseeded from the parent's stream: consecutive plies drawn with the same `rng` object do
//! not call back into Python, and repeated draws from one state are independent.

use std::sync::{Mutex, OnceLock};

use pyo3::exceptions::PyValueError;
use pyo3::impl_::pyclass_init::PyObjectInit;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::pyclass_init::PyClassInitializer;
use pyo3::PyClass;
use pyo3::types::{PyBytes, PyType};

use crate::bitboard::Bb;
use crate::geometry::Hexagon;
use crate::rng::Rng;

/// The generator of the draws and the `random.Random` it was seeded from.
pub(super) type Stream = Option<(Py<PyAny>, Rng)>;

/// A state's random stream and the last action drawn from it with the state it leads to.
pub(super) struct Draws {
    stream: Mutex<Stream>,
    next: Mutex<Option<(Py<PyAny>, Py<PyAny>)>>,
}

impl Draws {
    pub(super) fn new(stream: Stream) -> Draws {
        Draws { stream: Mutex::new(stream), next: Mutex::new(None) }
    }

    /// `draw` with this state's generator, (re)seeded from `rng` unless it was seeded from that
    /// object; its answer and the stream of the child it draws.
    pub(super) fn with<T>(&self, rng: &Bound<'_, PyAny>, draw: impl FnOnce(&mut Rng) -> PyResult<T>)
        -> PyResult<(T, Stream)> {
        let py = rng.py();
        let mut guard = self.stream.lock().map_err(|_| PyValueError::new_err("a draw failed before"))?;
        let stream = match &mut *guard {
            Some((r, s)) if r.is(rng) => s,
            slot => {
                let seed: u64 = rng.call_method1(intern!(py, "getrandbits"), (64,))?.extract()?;
                &mut slot.insert((rng.clone().unbind(), Rng::new(seed))).1
            }
        };
        let drawn = draw(stream)?;
        let child = Some((rng.clone().unbind(), Rng::new(stream.next_u64())));
        Ok((drawn, child))
    }

    /// Keep `action` and the state it leads to for `play`.
    pub(super) fn keep(&self, action: &Bound<'_, PyAny>, child: &Bound<'_, PyAny>) {
        if let Ok(mut next) = self.next.lock() {
            *next = Some((action.clone().unbind(), child.clone().unbind()));
        }
    }

    /// The state kept for `action` (the very object drawn), if any, given away: the parent
    /// does not hold its child once played.
    pub(super) fn kept<'py>(&self, action: &Bound<'py, PyAny>) -> Option<Bound<'py, PyAny>> {
        let mut next = self.next.lock().ok()?;
        match next.take() {
            Some((a, child)) if a.is(action) => Some(child.into_bound(action.py())),
            other => {
                *next = other;
                None
            }
        }
    }
}

/// An instance of `ty` (a Python subclass of `T`'s class, or that class) holding `value`.
pub(super) fn instance<'py, T>(ty: &Bound<'py, PyType>, value: T) -> PyResult<Bound<'py, PyAny>>
where
    T: PyClass,
    PyClassInitializer<T>: From<T>,
{
    let py = ty.py();
    // Safety: callers pass the type of an instance of `T`, so `T`'s class or a subclass of it.
    unsafe {
        let ptr = PyObjectInit::into_new_object(PyClassInitializer::from(value), py, ty.as_type_ptr())?;
        Ok(Bound::from_owned_ptr(py, ptr))
    }
}

/// A bitboard as a Python int (`from_bytes`: `int.from_bytes`).
pub(super) fn int<const N: usize>(py: Python<'_>, from_bytes: &Py<PyAny>, bb: Bb<N>) -> PyResult<Py<PyAny>> {
    if bb.0[1..].iter().all(|&w| w == 0) {
        return Ok(bb.0[0].into_pyobject(py)?.into_any().unbind());
    }
    Ok(from_bytes.bind(py).call1((PyBytes::new(py, &bb.to_le_bytes()), intern!(py, "little")))?.unbind())
}

/// A Python int as a bitboard of sites of `geo`; None when it is not one (negative, a bit off
/// the board, not an int).
pub(super) fn bits_of<const N: usize>(geo: &Hexagon, x: &Bound<'_, PyAny>) -> Option<Bb<N>> {
    let py = x.py();
    let k = geo.bits().div_ceil(8);
    let bytes = x.call_method1(intern!(py, "to_bytes"), (k, intern!(py, "little"))).ok()?;
    let bb = Bb::<N>::from_le_bytes(bytes.downcast::<PyBytes>().ok()?.as_bytes())?;
    bb.within(&geo.mask::<N>()).then_some(bb)
}

/// `enum $E { W2($P<2>), W3($P<3>), W5($P<5>), W8($P<8>), W11($P<11>) }`: a position at each
/// word count of `input::by_size`.
macro_rules! sized_enum {
    ($E:ident, $P:ident) => {
        /// The position at each word count of `input::by_size`.
        #[derive(Clone)]
        enum $E {
            W2($P<2>),
            W3($P<3>),
            W5($P<5>),
            W8($P<8>),
            W11($P<11>),
        }
    };
}

/// `$body` with `$p` bound to the position inside `$s` (an `$E` of `sized_enum!`).
macro_rules! each_size {
    ($E:ident, $s:expr, $p:ident => $body:expr) => {
        match $s {
            $E::W2($p) => $body,
            $E::W3($p) => $body,
            $E::W5($p) => $body,
            $E::W8($p) => $body,
            $E::W11($p) => $body,
        }
    };
}

/// `$body` (an `Option` of a position, or of (something, a position)) mapped back into `$E`,
/// at the size of `$s`.
macro_rules! rewrap_size {
    ($E:ident, $s:expr, $p:ident => $body:expr) => {
        match $s {
            $E::W2($p) => $body.map($E::W2),
            $E::W3($p) => $body.map($E::W3),
            $E::W5($p) => $body.map($E::W5),
            $E::W8($p) => $body.map($E::W8),
            $E::W11($p) => $body.map($E::W11),
        }
    };
    ($E:ident, $s:expr, $p:ident => $body:expr, pair) => {
        match $s {
            $E::W2($p) => $body.map(|(a, p)| (a, $E::W2(p))),
            $E::W3($p) => $body.map(|(a, p)| (a, $E::W3(p))),
            $E::W5($p) => $body.map(|(a, p)| (a, $E::W5(p))),
            $E::W8($p) => $body.map(|(a, p)| (a, $E::W8(p))),
            $E::W11($p) => $body.map(|(a, p)| (a, $E::W11(p))),
        }
    };
}

/// `$body` (a position of `$N` words) in `$E`, `$N` bound to the word count of side `$n`.
macro_rules! make_sized {
    ($E:ident, $n:expr, $N:ident => $body:expr) => {
        match $crate::geometry::words($n) {
            1 | 2 => {
                const $N: usize = 2;
                $E::W2($body)
            }
            3 => {
                const $N: usize = 3;
                $E::W3($body)
            }
            4 | 5 => {
                const $N: usize = 5;
                $E::W5($body)
            }
            6..=8 => {
                const $N: usize = 8;
                $E::W8($body)
            }
            _ => {
                const $N: usize = 11;
                $E::W11($body)
            }
        }
    };
}

pub(super) use {each_size, make_sized, rewrap_size, sized_enum};

/// `random_action` of a core-object state: `draw` (with the state's generator, `Draws::with`)
/// gives the action and the child's position, `child` builds the child with its stream; the
/// child is kept for `play`. ValueError `over` when `draw` finds no action.
pub(super) fn draw_kept<'py, G>(
    draws: &Draws,
    rng: &Bound<'py, PyAny>,
    over: &'static str,
    draw: impl FnOnce(&mut Rng) -> PyResult<Option<(Bound<'py, PyAny>, G)>>,
    child: impl FnOnce(G, Stream) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let (drawn, stream) = draws.with(rng, draw)?;
    let Some((action, g)) = drawn else {
        return Err(PyValueError::new_err(over));
    };
    let child = child(g, stream)?;
    draws.keep(&action, &child);
    Ok(action)
}

/// `play` of a core-object state `slf`: the child kept for `action`, else the child `play`
/// builds, else what the Python subclass's `_play_python` answers.
pub(super) fn play_kept<'py>(
    slf: &Bound<'py, PyAny>,
    draws: &Draws,
    action: &Bound<'py, PyAny>,
    play: impl FnOnce() -> PyResult<Option<Bound<'py, PyAny>>>,
) -> PyResult<Bound<'py, PyAny>> {
    if let Some(child) = draws.kept(action) {
        return Ok(child);
    }
    match play()? {
        Some(child) => Ok(child),
        None => slf.call_method1(intern!(slf.py(), "_play_python"), (action,)),
    }
}

/// The value in `cell`, made by `make` at the first read.
pub(super) fn once(py: Python<'_>, cell: &OnceLock<Py<PyAny>>, make: impl FnOnce() -> PyResult<Py<PyAny>>)
    -> PyResult<Py<PyAny>> {
    if let Some(v) = cell.get() {
        return Ok(v.clone_ref(py));
    }
    let v = make()?;
    Ok(cell.get_or_init(|| v).clone_ref(py))
}

/// A core-object state `$Name` over the module's `Sized` positions (`sized_enum!`) and its
/// `consts()`: the class (a base for a Python subclass), `of` (a state holding a position,
/// its stream), `child` (a state of the caller's Python class) and `stones` (a colour's
/// stones as an int, made at the first read; `$p` a position, `$colour` the colour, `$stones`
/// its bitboard).
macro_rules! core_state {
    ($(#[$meta:meta])* $Name:ident, $p:ident, $colour:ident => $stones:expr) => {
        $(#[$meta])*
        #[pyclass(subclass, frozen, module = "hexarena_core")]
        pub struct $Name {
            g: Sized,
            variant: Py<PyAny>,
            black: OnceLock<Py<PyAny>>,
            white: OnceLock<Py<PyAny>>,
            draws: Draws,
        }

        impl $Name {
            fn of(g: Sized, variant: Py<PyAny>, stream: Stream) -> $Name {
                $Name { g, variant, black: OnceLock::new(), white: OnceLock::new(), draws: Draws::new(stream) }
            }

            /// A state of `slf`'s Python class (the subclass) holding `g`.
            fn child<'py>(slf: &Bound<'py, Self>, g: Sized, stream: Stream) -> PyResult<Bound<'py, PyAny>> {
                instance(&slf.get_type(), $Name::of(g, slf.get().variant.clone_ref(slf.py()), stream))
            }

            fn stones(&self, py: Python<'_>, $colour: usize) -> PyResult<Py<PyAny>> {
                let cell = if $colour == 0 { &self.black } else { &self.white };
                once(py, cell, || each_size!(Sized, &self.g, $p => int(py, &consts(py)?.from_bytes, $stones)))
            }
        }
    };
}

pub(super) use core_state;
