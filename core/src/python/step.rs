//! `AndaCore`: an Anda position held whole in the core, the base class of the Python state
//! `CoreAndaState` (engine/games/anda/compiled.py). Its analysed board stays in the core
//! between plies, so the step API's hot calls are one call each, with no Python frame:
//! `outcome`, `random_action` (the draw, the placement and the child, kept for `play`),
//! `play` of a placement or a pass, `legal_cells`. The stones (`black`, `white`) become
//! Python ints only when read. Actions are the shared Python objects `bind` hands over (one
//! `Place` per site, one `Pass`), so an action crosses the boundary without parsing.
//!
//! Random draws: held.rs (the core's generator, seeded once per `random.Random` and handed
//! from each state to the child it draws).
//!
//! What the core does not hold here (the pie's offer and answer, refusals and their reasons,
//! positions) the Python subclass answers with the Python rules: `play` and `random_action`
//! call its `_play_python` / `_random_python` for them.

use std::cell::RefCell;
use std::mem::ManuallyDrop;
use std::sync::OnceLock;

use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyBytes, PyList};

use super::held::{draw_kept, instance, once, play_kept, Draws, Stream};

use crate::anda::board::Verdict;
use crate::anda::{Anda, Phase, Termination};
use crate::bitboard::Bb;
use crate::geometry::words;
use crate::input::{bits, board, colour};
use crate::rng::Rng;

/// The Python objects the states hand out, bound once (`AndaCore.bind`).
struct Consts {
    colours: [Py<PyAny>; 2],
    phases: [Py<PyAny>; 3],
    /// The colours still owing their first turn, by bits (1 Black, 2 White).
    firsts: [Py<PyAny>; 4],
    /// [winner][0 no moves, 1 eliminated]
    outcomes: [[Py<PyAny>; 2]; 2],
    places: Vec<Py<PyAny>>,
    place_type: Py<PyAny>,
    pass_type: Py<PyAny>,
    pass_action: Py<PyAny>,
    pair_type: Py<PyAny>,
    from_bytes: Py<PyAny>,
}

static CONSTS: GILOnceCell<Consts> = GILOnceCell::new();

fn consts(py: Python<'_>) -> PyResult<&Consts> {
    CONSTS.get(py).ok_or_else(|| PyValueError::new_err("AndaCore.bind was not called"))
}

/// The position at each word count of `input::by_size`.
#[derive(Clone)]
enum Sized {
    W2(Box<Anda<2>>),
    W3(Box<Anda<3>>),
    W5(Box<Anda<5>>),
    W8(Box<Anda<8>>),
    W11(Box<Anda<11>>),
}

macro_rules! each {
    ($s:expr, $g:ident => $body:expr) => {
        match $s {
            Sized::W2($g) => $body,
            Sized::W3($g) => $body,
            Sized::W5($g) => $body,
            Sized::W8($g) => $body,
            Sized::W11($g) => $body,
        }
    };
}

/// Boards of dropped states, by word count, reused by the next copies (`clone_from` keeps
/// their buffers): a game played ply by ply allocates no board per ply. The boards stay boxed:
/// a state holds its board as a `Box`, and the pool hands that box back, not a moved board.
#[derive(Default)]
#[allow(clippy::vec_box)]
struct Pool {
    w2: Vec<Box<Anda<2>>>,
    w3: Vec<Box<Anda<3>>>,
    w5: Vec<Box<Anda<5>>>,
    w8: Vec<Box<Anda<8>>>,
    w11: Vec<Box<Anda<11>>>,
}

/// The most boards a pool keeps per word count.
const POOLED: usize = 64;

thread_local! {
    static POOL: RefCell<Pool> = RefCell::new(Pool::default());
}

/// The boards of one word count in the pool.
trait Pooled: Clone + 'static {
    fn shelf(p: &mut Pool) -> &mut Vec<Box<Self>>;
}

macro_rules! pooled {
    ($N:literal, $f:ident) => {
        impl Pooled for Anda<$N> {
            fn shelf(p: &mut Pool) -> &mut Vec<Box<Self>> {
                &mut p.$f
            }
        }
    };
}
pooled!(2, w2);
pooled!(3, w3);
pooled!(5, w5);
pooled!(8, w8);
pooled!(11, w11);

/// A copy of `g`, on a pooled board when there is one.
fn copy<T: Pooled>(g: &T) -> Box<T> {
    let spare = POOL.try_with(|p| p.try_borrow_mut().ok().and_then(|mut p| T::shelf(&mut p).pop())).ok().flatten();
    match spare {
        Some(mut b) => {
            (*b).clone_from(g);
            b
        }
        None => Box::new(g.clone()),
    }
}

/// `g` back to the pool (dropped when the pool is full or gone).
fn recycle<T: Pooled>(g: Box<T>) {
    let _ = POOL.try_with(|p| {
        if let Ok(mut p) = p.try_borrow_mut() {
            let shelf = T::shelf(&mut p);
            if shelf.len() < POOLED {
                shelf.push(g);
            }
        }
    });
}

/// An Anda position (every phase), analysed once; see the module docs.
#[pyclass(subclass, frozen, module = "hexarena_core")]
pub struct AndaCore {
    g: ManuallyDrop<Sized>,
    variant: Py<PyAny>,
    out: OnceLock<Option<(usize, Termination)>>,
    black: OnceLock<Py<PyAny>>,
    white: OnceLock<Py<PyAny>>,
    draws: Draws,
}

/// What a turn of this position is: 0 the pie's offer or answer, 1 a first turn (a pair),
/// 2 a placing turn, 3 none (the game is over by elimination).
fn turn<const N: usize>(g: &Anda<N>) -> u8 {
    if g.phase != Phase::Play {
        0
    } else if g.first[g.to_move] {
        1
    } else if g.placing() {
        2
    } else {
        3
    }
}

/// The drawn action of `g` played on a copy: (the action, the child), or None without one.
fn draw<'py, const N: usize>(
    py: Python<'py>,
    g: &Anda<N>,
    rng: &mut Rng,
    c: &Consts,
    wrap: fn(Box<Anda<N>>) -> Sized,
) -> PyResult<Option<(Bound<'py, PyAny>, Sized)>>
where
    Anda<N>: Pooled,
{
    let mut child = copy(g);
    let action = if child.first[child.to_move] {
        let Some((a, b)) = child.random_pair(rng) else { return Ok(None) };
        child.pair(a, b);
        c.pair_type.bind(py).call1((a, b))?
    } else {
        match child.random_turn(rng) {
            None => return Ok(None),
            Some(None) => c.pass_action.bind(py).clone(),
            Some(Some(s)) => c.places[s].bind(py).clone(),
        }
    };
    Ok(Some((action, wrap(child))))
}

/// The state after a placement on `s` (a placing turn), None unless it is legal.
fn placed<const N: usize>(g: &Anda<N>, s: usize, wrap: fn(Box<Anda<N>>) -> Sized) -> Option<Sized>
where
    Anda<N>: Pooled,
{
    if s >= g.geo.bits() || !g.board.empty.has(s) {
        return None;
    }
    if g.board.probe(g.to_move, s).verdict != Verdict::Legal {
        return None;
    }
    let mut child = copy(g);
    child.place(s);
    Some(wrap(child))
}

/// The state after White's pass, None unless White may pass.
fn passed<const N: usize>(g: &Anda<N>, wrap: fn(Box<Anda<N>>) -> Sized) -> Option<Sized>
where
    Anda<N>: Pooled,
{
    g.can_pass().then(|| {
        let mut child = copy(g);
        child.pass();
        wrap(child)
    })
}

fn int<const N: usize>(py: Python<'_>, c: &Consts, bb: Bb<N>) -> PyResult<Py<PyAny>> {
    super::held::int(py, &c.from_bytes, bb)
}

impl AndaCore {
    fn of(g: Sized, variant: Py<PyAny>, stream: Stream) -> AndaCore {
        AndaCore {
            g: ManuallyDrop::new(g),
            variant,
            out: OnceLock::new(),
            black: OnceLock::new(),
            white: OnceLock::new(),
            draws: Draws::new(stream),
        }
    }

    /// A state of `slf`'s Python class (the subclass) holding `g`.
    fn child<'py>(slf: &Bound<'py, Self>, g: Sized, stream: Stream) -> PyResult<Bound<'py, PyAny>> {
        instance(&slf.get_type(), AndaCore::of(g, slf.get().variant.clone_ref(slf.py()), stream))
    }

    fn stones(&self, py: Python<'_>, colour: usize) -> PyResult<Py<PyAny>> {
        let cell = if colour == 0 { &self.black } else { &self.white };
        once(py, cell, || each!(&*self.g, g => int(py, consts(py)?, g.board.st[colour])))
    }

    fn end(&self) -> Option<(usize, Termination)> {
        *self.out.get_or_init(|| each!(&*self.g, g => g.outcome()))
    }
}

impl Drop for AndaCore {
    fn drop(&mut self) {
        // Safety: `g` is not used after this.
        match unsafe { ManuallyDrop::take(&mut self.g) } {
            Sized::W2(g) => recycle(g),
            Sized::W3(g) => recycle(g),
            Sized::W5(g) => recycle(g),
            Sized::W8(g) => recycle(g),
            Sized::W11(g) => recycle(g),
        }
    }
}

#[pymethods]
impl AndaCore {
    /// The position of side `n` (`cells`: opening=cells) with these stones (little-endian
    /// bytes), colour `to_move` to move (0 black, 1 white), `komi` White's passes left (the
    /// offer during `answer`), `first` the first turns still to come (bit 0 Black's, bit 1
    /// White's) and `phase` 0 offer, 1 answer, 2 play; `variant` is what `variant` answers.
    #[new]
    #[allow(clippy::too_many_arguments)]
    fn new(
        variant: Py<PyAny>,
        n: usize,
        cells: bool,
        black: &[u8],
        white: &[u8],
        to_move: usize,
        ply: u32,
        komi: u32,
        first: u8,
        phase: u8,
    ) -> PyResult<AndaCore> {
        let geo = board(n)?;
        let me = colour(to_move)?;
        let first = [first & 1 == 1, first & 2 == 2];
        let phase = match phase {
            0 => Phase::Offer,
            1 => Phase::Answer,
            2 => Phase::Play,
            _ => return Err(PyValueError::new_err(format!("phase {phase} is not 0, 1 or 2"))),
        };
        macro_rules! make {
            ($N:literal, $v:ident) => {
                Sized::$v(Box::new(Anda::<$N>::new(geo, cells, bits(geo, "black", black)?, bits(geo, "white", white)?,
                                                   me, ply, komi, first, phase)))
            };
        }
        let g = match words(n) {
            1 | 2 => make!(2, W2),
            3 => make!(3, W3),
            4 | 5 => make!(5, W5),
            6..=8 => make!(8, W8),
            _ => make!(11, W11),
        };
        Ok(AndaCore::of(g, variant, None))
    }

    /// Hand the core the Python objects its states answer with: the two colours (black,
    /// white), the three phases (offer, answer, play), the four sets of colours owing a
    /// first turn (by bits: none, Black, White, both), the four outcomes ((Black by no
    /// moves, Black by elimination), (White ...)), one `Place` per site bit of the largest
    /// board, the classes `Place`, `Pass`, `Pair`, and one `Pass`. The first call binds them;
    /// later calls change nothing.
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    fn bind(
        py: Python<'_>,
        colours: [Py<PyAny>; 2],
        phases: [Py<PyAny>; 3],
        firsts: [Py<PyAny>; 4],
        outcomes: [[Py<PyAny>; 2]; 2],
        places: Vec<Py<PyAny>>,
        place_type: Py<PyAny>,
        pass_type: Py<PyAny>,
        pair_type: Py<PyAny>,
        pass_action: Py<PyAny>,
    ) -> PyResult<()> {
        let from_bytes = py.get_type::<pyo3::types::PyInt>().getattr("from_bytes")?.unbind();
        let _ = CONSTS.set(py, Consts {
            colours, phases, firsts, outcomes, places, place_type, pass_type, pass_action, pair_type, from_bytes,
        });
        Ok(())
    }

    #[getter]
    fn variant(&self, py: Python<'_>) -> Py<PyAny> {
        self.variant.clone_ref(py)
    }

    #[getter]
    fn to_move(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(consts(py)?.colours[each!(&*self.g, g => g.to_move)].clone_ref(py))
    }

    #[getter]
    fn ply(&self) -> u32 {
        each!(&*self.g, g => g.ply)
    }

    #[getter]
    fn komi(&self) -> u32 {
        each!(&*self.g, g => g.komi)
    }

    #[getter]
    fn first(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let [b, w] = each!(&*self.g, g => g.first);
        Ok(consts(py)?.firsts[b as usize | (w as usize) << 1].clone_ref(py))
    }

    #[getter]
    fn phase(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let k = match each!(&*self.g, g => g.phase) {
            Phase::Offer => 0,
            Phase::Answer => 1,
            Phase::Play => 2,
        };
        Ok(consts(py)?.phases[k].clone_ref(py))
    }

    /// Black's stones as a bitboard (an int, built at the first read).
    #[getter]
    fn black(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        self.stones(py, 0)
    }

    /// White's stones as a bitboard.
    #[getter]
    fn white(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        self.stones(py, 1)
    }

    /// (side, black, white): the board as the core's functions take it (little-endian bytes).
    fn core_args<'py>(&self, py: Python<'py>) -> (usize, Bound<'py, PyBytes>, Bound<'py, PyBytes>) {
        each!(&*self.g, g => (g.geo.n, super::out(py, g.board.st[0]), super::out(py, g.board.st[1])))
    }

    /// None while the game goes on, else the bound Outcome.
    fn outcome(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(match self.end() {
            None => py.None(),
            Some((w, why)) => consts(py)?.outcomes[w][(why == Termination::Eliminated) as usize].clone_ref(py),
        })
    }

    /// Whether the side to move may place single stones now.
    fn placing(&self) -> bool {
        each!(&*self.g, g => g.placing())
    }

    /// Whether White may spend a komi point now.
    fn can_pass(&self) -> bool {
        each!(&*self.g, g => g.can_pass())
    }

    /// Bitboard (an int) of the legal single placements (0 outside a placing turn).
    fn legal_cells(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let c = consts(py)?;
        each!(&*self.g, g => int(py, c, g.legal_cells()))
    }

    /// The legal actions of a placing turn in the rules' order: the placements in notation
    /// order (shared `Place`s), then White's pass when she may; empty on any other turn.
    fn legal_list<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let c = consts(py)?;
        let (sites, pass) = each!(&*self.g, g => {
            let cells = g.legal_cells();
            (g.geo.sites.iter().filter(|&&s| cells.has(s)).copied().collect::<Vec<usize>>(), g.can_pass())
        });
        let mut out: Vec<&Py<PyAny>> = sites.into_iter().map(|s| &c.places[s]).collect();
        if pass {
            out.push(&c.pass_action);
        }
        PyList::new(py, out)
    }

    /// A uniformly random legal action (the random player's distribution), drawn in the
    /// core (see the module docs); the state it leads to is kept for `play`. ValueError when
    /// the game is over. The pie's offer and answer are drawn by `_random_python`.
    fn random_action<'py>(slf: &Bound<'py, Self>, rng: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let me = slf.get();
        if me.end().is_some() {
            return Err(PyValueError::new_err("the game is over"));
        }
        if each!(&*me.g, g => turn(g)) == 0 {
            return slf.call_method1(intern!(py, "_random_python"), (rng,));
        }
        let c = consts(py)?;
        let draw = |r: &mut Rng| match &*me.g {
            Sized::W2(g) => draw(py, g, r, c, Sized::W2),
            Sized::W3(g) => draw(py, g, r, c, Sized::W3),
            Sized::W5(g) => draw(py, g, r, c, Sized::W5),
            Sized::W8(g) => draw(py, g, r, c, Sized::W8),
            Sized::W11(g) => draw(py, g, r, c, Sized::W11),
        };
        draw_kept(&me.draws, rng, "no legal action", draw, |g, stream| AndaCore::child(slf, g, stream))
    }

    /// The state after `action`: the state `random_action` kept for it, a legal placement
    /// or pass played in the core, else what `_play_python` answers (IllegalMove with the
    /// Python rules' reason for anything they forbid).
    fn play<'py>(slf: &Bound<'py, Self>, action: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let me = slf.get();
        play_kept(slf.as_any(), &me.draws, action, || {
            let c = consts(py)?;
            let kind = action.get_type();
            let mut played = None;
            if kind.is(&c.place_type) {
                if let Ok(s) = action.getattr(intern!(py, "cell"))?.extract::<usize>() {
                    played = match &*me.g {
                        Sized::W2(g) if g.placing() => placed(g, s, Sized::W2),
                        Sized::W3(g) if g.placing() => placed(g, s, Sized::W3),
                        Sized::W5(g) if g.placing() => placed(g, s, Sized::W5),
                        Sized::W8(g) if g.placing() => placed(g, s, Sized::W8),
                        Sized::W11(g) if g.placing() => placed(g, s, Sized::W11),
                        _ => None,
                    };
                }
            } else if kind.is(&c.pass_type) {
                played = match &*me.g {
                    Sized::W2(g) => passed(g, Sized::W2),
                    Sized::W3(g) => passed(g, Sized::W3),
                    Sized::W5(g) => passed(g, Sized::W5),
                    Sized::W8(g) => passed(g, Sized::W8),
                    Sized::W11(g) => passed(g, Sized::W11),
                };
            }
            played.map(|g| AndaCore::child(slf, g, None)).transpose()
        })
    }
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<AndaCore>()
}
