//! Anda-prison's whole state (docs/rules/anda-prison.md): the dual pie, the komi pie, the
//! corner pairs, two-stone first turns, the annihilation ban, the prison and releases,
//! proposals of ending and their answers, the agreement score and the referee's ply cap.
//! `engine/games/anda_prison/` (state.py, phases.py, pairs.py) is the specification; the
//! differential test holds this to it. Two-stone turns: `pairs.rs`; random actions and
//! playouts: `random.rs`.

use super::{has_placement, legal_cells, place, place_all, Check, Placed};
use crate::anda::board::Board;
use crate::bitboard::Bb;
use crate::geometry::Hexagon;

pub const BLACK: usize = 0;
pub const WHITE: usize = 1;

/// The phases, in phases.py's order (`Phase::ALL[k]`: the Python binding's code k).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Phase {
    Pair,
    PairSwap,
    Swap,
    Komi,
    KomiSwap,
    Corners,
    Play,
    Proposed,
    Declined,
    Agreed,
}

impl Phase {
    pub const ALL: [Phase; 10] = [Phase::Pair, Phase::PairSwap, Phase::Swap, Phase::Komi, Phase::KomiSwap,
                                  Phase::Corners, Phase::Play, Phase::Proposed, Phase::Declined, Phase::Agreed];

    /// The protocol's word (`phase=`).
    pub fn word(self) -> &'static str {
        ["pair", "pair-swap", "swap", "komi", "komi-swap", "corners", "play", "proposed", "declined", "agreed"]
            [self as usize]
    }
}

/// An action; a pair's sites in notation order.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Action {
    Place(u16),
    Pair(u16, u16),
    Komi(u16),
    Swap,
    Keep,
    Release,
    Propose,
    Accept,
    Decline,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Termination {
    NoMoves,
    Agreement,
    PlyCap,
}

/// The end of a game: the winner (None: a draw), why, and twice the margin of a score.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Outcome {
    pub winner: Option<usize>,
    pub termination: Termination,
    pub margin2: u32,
}

/// Everything but the board (state.py's fields after `black` and `white`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Fields {
    pub to_move: usize,
    pub ply: u32,
    pub phase: Phase,
    /// Colours whose two-stone first turn is still to come.
    pub first: [bool; 2],
    /// Stones of each colour in the prison.
    pub prison: [u32; 2],
    /// Colours that have annihilated.
    pub annihilated: [bool; 2],
    pub komi: u32,
    /// The colour of the last placement (a pair counts) or release.
    pub last: Option<usize>,
}

#[derive(Clone)]
pub struct Prison<const N: usize> {
    pub board: Board<N>,
    pub f: Fields,
    /// The end by the rules (state.py's `outcome()`), found when the state is made.
    end: Option<Outcome>,
}

impl<const N: usize> PartialEq for Prison<N> {
    fn eq(&self, o: &Self) -> bool {
        self.f == o.f && self.board.st == o.board.st && self.board.geo.n == o.board.geo.n
    }
}

/// The phase after a placement (phases.py `after_placement`).
fn after_placement(phase: Phase, first_left: bool) -> Phase {
    match phase {
        Phase::Pair | Phase::PairSwap if first_left => Phase::PairSwap,
        Phase::Pair | Phase::PairSwap => Phase::Swap,
        Phase::Corners if first_left => Phase::Corners,
        _ => Phase::Play,
    }
}

/// (colour to move, phase) after a one-word decision (phases.py `after_word`), None when
/// the word is not an action of `phase`.
fn after_word(phase: Phase, action: Action, mover: usize) -> Option<(usize, Phase)> {
    match (action, phase) {
        (Action::Propose, Phase::Play) => Some((1 - mover, Phase::Proposed)),
        (Action::Accept, Phase::Proposed) => Some((1 - mover, Phase::Agreed)),
        (Action::Decline, Phase::Proposed) => Some((1 - mover, Phase::Declined)),
        (Action::Swap, Phase::PairSwap) => Some((WHITE, Phase::Pair)),
        (Action::Swap | Action::Keep, Phase::Swap) => Some((BLACK, Phase::Komi)),
        (Action::Swap | Action::Keep, Phase::KomiSwap) => Some((BLACK, Phase::Play)),
        _ => None,
    }
}

impl<const N: usize> Prison<N> {
    /// The state of these stones and fields, taken as written.
    pub fn new(geo: &'static Hexagon, st: [Bb<N>; 2], f: Fields) -> Prison<N> {
        Self::with_board(Board::new(geo, st[0], st[1]), f)
    }

    fn with_board(board: Board<N>, f: Fields) -> Prison<N> {
        let mut g = Prison { board, f, end: None };
        g.end = g.find_end();
        g
    }

    /// The initial state of `balance` (`pie`, `nopie`, `corners`); the komi applies to
    /// `nopie` and `corners` (state.py `new_game`).
    pub fn new_game(geo: &'static Hexagon, balance: &str, komi: u32) -> Prison<N> {
        let mut f = Fields { to_move: BLACK, ply: 0, phase: Phase::Play, first: [true; 2], prison: [0; 2],
                             annihilated: [false; 2], komi: 0, last: None };
        match balance {
            "pie" => f.phase = Phase::Pair,
            _ => {
                f.phase = if balance == "corners" { Phase::Corners } else { Phase::Play };
                f.prison[BLACK] = komi;
                f.komi = komi;
            }
        }
        Self::new(geo, [Bb::ZERO; 2], f)
    }

    pub fn geo(&self) -> &'static Hexagon {
        self.board.geo
    }

    /// The referee's cap: 10 x sites.
    pub fn ply_cap(&self) -> u32 {
        10 * self.geo().site_count() as u32
    }

    /// A two-stone first turn or setup pair is due.
    pub fn pairing(&self) -> bool {
        let f = &self.f;
        matches!(f.phase, Phase::Pair | Phase::PairSwap | Phase::Corners)
            || ((f.first[0] || f.first[1]) && matches!(f.phase, Phase::Play | Phase::Declined))
    }

    /// A normal turn: a placement or a release is due.
    pub fn normal(&self) -> bool {
        matches!(self.f.phase, Phase::Play | Phase::Declined) && !self.f.first[0] && !self.f.first[1]
    }

    pub fn can_release(&self) -> bool {
        self.normal() && self.f.prison[1 - self.f.to_move] > 0
    }

    /// The mover may not annihilate: the opponent has annihilated before.
    pub(crate) fn ban(&self) -> bool {
        self.f.annihilated[1 - self.f.to_move]
    }

    /// The legal single placements (none outside a normal turn).
    pub fn legal_cells(&self) -> Bb<N> {
        if self.normal() {
            legal_cells(&self.board, self.f.to_move, self.ban())
        } else {
            Bb::ZERO
        }
    }

    /// The child of a turn whose placement checks gave `r` (state.py `_resolved`), None when
    /// refused by a check or by the annihilation ban.
    pub(crate) fn resolved(&self, r: Placed<N>) -> Option<Prison<N>> {
        if r.check != Check::Legal {
            return None;
        }
        let me = self.f.to_move;
        let mut f = self.f;
        if self.board.st[1 - me].any() && r.st[1 - me].is_zero() {
            if self.ban() {
                return None;
            }
            f.annihilated[me] = true;
        }
        f.first[me] = false;
        f.phase = after_placement(f.phase, f.first[0] || f.first[1]);
        f.to_move = 1 - me;
        f.ply = f.ply.saturating_add(1);
        f.prison[0] = f.prison[0].saturating_add(r.jailed[0]);
        f.prison[1] = f.prison[1].saturating_add(r.jailed[1]);
        f.last = Some(me);
        Some(Self::new(self.geo(), r.st, f))
    }

    /// The child of a legal placement on the empty site s, else None.
    pub(crate) fn placement(&self, s: usize) -> Option<Prison<N>> {
        self.resolved(place(&self.board, self.f.to_move, s))
    }

    /// The child of the pair (a, b) (shape checked), else None.
    pub(crate) fn pair(&self, a: usize, b: usize) -> Option<Prison<N>> {
        self.resolved(place_all(self.geo(), self.board.st, self.f.to_move, &[a, b]))
    }

    /// The next state for an action that leaves the board as it is (state.py `_child`).
    fn child(&self, to_move: usize, phase: Phase, edit: impl FnOnce(&mut Fields)) -> Prison<N> {
        let mut f = Fields { to_move, phase, ply: self.f.ply.saturating_add(1), ..self.f };
        edit(&mut f);
        Self::with_board(self.board.clone(), f)
    }

    /// The state after `action`, None when it is illegal here (state.py `play`).
    pub fn play(&self, action: Action) -> Option<Prison<N>> {
        if self.end.is_some() {
            return None;
        }
        let geo = self.geo();
        let empty = |s: usize| geo.is_site(s) && self.board.empty.has(s);
        match action {
            Action::Place(s) => {
                let s = s as usize;
                (self.normal() && empty(s)).then(|| self.placement(s)).flatten()
            }
            Action::Pair(a, b) => {
                let (a, b) = (a as usize, b as usize);
                if !self.pairing() || !empty(a) || !empty(b) {
                    return None;
                }
                let (a, b) = if geo.rank[a] <= geo.rank[b] { (a, b) } else { (b, a) };
                (self.shape_ok(a, b)).then(|| self.pair(a, b)).flatten()
            }
            Action::Release => {
                if !self.can_release() {
                    return None;
                }
                let me = self.f.to_move;
                Some(self.child(1 - me, Phase::Play, |f| {
                    f.prison[1 - me] -= 1;
                    f.last = Some(me);
                }))
            }
            Action::Komi(k) => (self.f.phase == Phase::Komi && k as usize <= geo.site_count()).then(|| {
                self.child(WHITE, Phase::KomiSwap, |f| {
                    f.prison[BLACK] = f.prison[BLACK].saturating_add(k as u32);
                    f.komi = k as u32;
                })
            }),
            _ => {
                if action == Action::Propose && (self.f.first[0] || self.f.first[1]) {
                    return None;
                }
                after_word(self.f.phase, action, self.f.to_move).map(|(c, p)| self.child(c, p, |_| ()))
            }
        }
    }

    /// The end by the rules; None while the game goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        self.end
    }

    fn find_end(&self) -> Option<Outcome> {
        if self.f.phase == Phase::Agreed {
            return Some(self.score(Termination::Agreement));
        }
        let alive = if self.normal() {
            self.can_release() || has_placement(&self.board, self.f.to_move, self.ban())
        } else if self.pairing() {
            self.f.phase == Phase::PairSwap || self.each_pair(|_, _| false)
        } else {
            true
        };
        (!alive).then_some(Outcome { winner: Some(1 - self.f.to_move), termination: Termination::NoMoves, margin2: 0 })
    }

    /// The agreement score now (phases.py `agreement_score`): territory + enemy stones in
    /// the prison + 1/2 to `last`; equal scores are a draw.
    pub fn score(&self, termination: Termination) -> Outcome {
        let geo = self.geo();
        let w = geo.width;
        let st = self.board.st;
        let empty = self.board.empty;
        let touched = |c: usize| st[c].grow(w).and(empty).flood(empty, w);
        let (tb, tw) = (touched(0), touched(1));
        // in u64: a prison given by a caller may hold up to u32::MAX stones
        let mut score = [0u64; 2];
        for c in 0..2 {
            let terr = [tb, tw][c].andnot([tw, tb][c]).count();
            score[c] = 2 * (u64::from(terr) + u64::from(self.f.prison[1 - c])) + u64::from(self.f.last == Some(c));
        }
        let winner = match score[0].cmp(&score[1]) {
            std::cmp::Ordering::Equal => None,
            std::cmp::Ordering::Greater => Some(BLACK),
            std::cmp::Ordering::Less => Some(WHITE),
        };
        Outcome { winner, termination, margin2: u32::try_from(score[0].abs_diff(score[1])).unwrap_or(u32::MAX) }
    }

    /// The referee's verdict at its ply cap: the agreement score as if accepted now.
    pub fn adjudicate(&self) -> Outcome {
        self.score(Termination::PlyCap)
    }

    /// The end by the rules, or the adjudication once the ply reaches the cap.
    pub fn end_or_cap(&self, cap: u32) -> Option<Outcome> {
        self.end.or_else(|| (self.f.ply >= cap).then(|| self.adjudicate()))
    }

    /// The legal actions in state.py's order, into `out` (cleared first) while there are at
    /// most `cap`; false when there are more.
    pub fn actions(&self, cap: usize, out: &mut Vec<Action>) -> bool {
        out.clear();
        if self.end.is_some() {
            return true;
        }
        let geo = self.geo();
        match self.f.phase {
            Phase::Proposed => out.extend([Action::Accept, Action::Decline]),
            Phase::Swap | Phase::KomiSwap => out.extend([Action::Swap, Action::Keep]),
            Phase::Komi => out.extend((0..=geo.site_count()).map(|k| Action::Komi(k as u16))),
            _ if self.pairing() => {
                let more = self.each_pair(|a, b| {
                    out.push(Action::Pair(a as u16, b as u16));
                    out.len() <= cap
                });
                if more {
                    return false;
                }
                if self.f.phase == Phase::PairSwap {
                    out.push(Action::Swap);
                }
            }
            _ => {
                let mut cells: Vec<usize> = self.legal_cells().iter().collect();
                cells.sort_unstable_by_key(|&s| geo.rank[s]);
                out.extend(cells.into_iter().map(|s| Action::Place(s as u16)));
                if self.can_release() {
                    out.push(Action::Release);
                }
                if self.f.phase == Phase::Play {
                    out.push(Action::Propose);
                }
            }
        }
        out.len() <= cap
    }

    /// The action in HGP notation (engine/notation.py `format_action`).
    pub fn notation(&self, action: Action) -> String {
        let name = |s: u16| self.geo().name(s as usize);
        match action {
            Action::Place(s) => name(s),
            Action::Pair(a, b) => format!("{},{}", name(a), name(b)),
            Action::Komi(k) => format!("komi={k}"),
            Action::Swap => "swap".into(),
            Action::Keep => "keep".into(),
            Action::Release => "release".into(),
            Action::Propose => "propose".into(),
            Action::Accept => "accept".into(),
            Action::Decline => "decline".into(),
        }
    }
}
