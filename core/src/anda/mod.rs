//! Anda (RULES.md section 2, docs/rules/anda.md): the turn structure over [`board::Board`],
//! and uniformly random playouts. `engine/games/anda/` is the specification; the
//! differential test (tests/engine/test_core_differential.py) holds this to it.

pub mod board;

use crate::bitboard::Bb;
use crate::geometry::Hexagon;
use crate::rng::Rng;
use board::{smothered_stones, Board, Verdict};

pub const BLACK: usize = 0;
pub const WHITE: usize = 1;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Phase {
    Offer,
    Answer,
    Play,
}

/// Why a game ended by the rules.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Termination {
    NoMoves,
    Eliminated,
}

/// The end of a playout: the winner and why (None at the ply cap), and how many `swap`s
/// it played (the players exchange colours at each).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct End {
    pub result: Option<(usize, Termination)>,
    pub swaps: u32,
}

pub struct Anda<const N: usize> {
    pub geo: &'static Hexagon,
    /// `opening=cells` (else `features`).
    pub cells: bool,
    pub to_move: usize,
    pub ply: u32,
    /// White's passes left (during `answer`: the komi offered).
    pub komi: u32,
    /// Colours whose two-stone first turn is still to come.
    pub first: [bool; 2],
    pub phase: Phase,
    pub board: Board<N>,
}

/// `clone_from` reuses the target board's buffers.
impl<const N: usize> Clone for Anda<N> {
    fn clone(&self) -> Self {
        Anda { board: self.board.clone(), ..*self }
    }

    fn clone_from(&mut self, o: &Self) {
        let Anda { geo, cells, to_move, ply, komi, first, phase, board: _ } = *o;
        (self.geo, self.cells, self.to_move, self.ply, self.komi, self.first, self.phase) =
            (geo, cells, to_move, ply, komi, first, phase);
        self.board.clone_from(&o.board);
    }
}

/// Two states are equal when their positions are (the Python state's equality).
impl<const N: usize> PartialEq for Anda<N> {
    fn eq(&self, o: &Self) -> bool {
        (self.geo.n, self.cells, self.to_move, self.ply, self.komi, self.first, self.phase, self.board.st)
            == (o.geo.n, o.cells, o.to_move, o.ply, o.komi, o.first, o.phase, o.board.st)
    }
}

impl<const N: usize> Anda<N> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        geo: &'static Hexagon,
        cells: bool,
        black: Bb<N>,
        white: Bb<N>,
        to_move: usize,
        ply: u32,
        komi: u32,
        first: [bool; 2],
        phase: Phase,
    ) -> Anda<N> {
        Anda { geo, cells, to_move, ply, komi, first, phase, board: Board::new(geo, black, white) }
    }

    fn first_turns_done(&self) -> bool {
        self.phase == Phase::Play && !self.first[0] && !self.first[1]
    }

    /// The winner by elimination (checked only after both first turns).
    pub fn eliminated(&self) -> Option<usize> {
        if !self.first_turns_done() {
            None
        } else if self.board.st[BLACK].is_zero() {
            Some(WHITE)
        } else if self.board.st[WHITE].is_zero() {
            Some(BLACK)
        } else {
            None
        }
    }

    /// A normal turn: single placements (and White's passes).
    pub fn placing(&self) -> bool {
        self.phase == Phase::Play && !self.first[self.to_move] && self.eliminated().is_none()
    }

    pub fn can_pass(&self) -> bool {
        self.to_move == WHITE && self.komi > 0 && self.placing()
    }

    /// The first-turn pairs of the board whose two sites are both empty.
    pub fn free_pairs(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let empty = self.board.empty;
        self.geo.pairs[self.cells as usize].iter().copied().filter(move |&(a, b)| empty.has(a) && empty.has(b))
    }

    fn has_action(&self) -> bool {
        if self.first[self.to_move] {
            return self.free_pairs().next().is_some();
        }
        let own = self.board.st[self.to_move];
        own.grow(self.geo.width).meets(&self.board.empty)
            || self.can_pass()
            || self.board.legal_cells(self.to_move).any()
    }

    /// The end by the rules, None while the game goes on (phase play only).
    pub fn outcome(&self) -> Option<(usize, Termination)> {
        if self.phase != Phase::Play {
            return None;
        }
        if let Some(w) = self.eliminated() {
            return Some((w, Termination::Eliminated));
        }
        if !self.has_action() {
            return Some((1 - self.to_move, Termination::NoMoves));
        }
        None
    }

    /// The legal single placements of the side to move (none outside a placing turn).
    pub fn legal_cells(&self) -> Bb<N> {
        if self.placing() {
            self.board.legal_cells(self.to_move)
        } else {
            Bb::ZERO
        }
    }

    fn next_turn(&mut self) {
        self.to_move = 1 - self.to_move;
        self.ply = self.ply.saturating_add(1);
    }

    /// A placement on a placing turn: the verdict, the board changed only when legal.
    pub fn place(&mut self, s: usize) -> Verdict {
        let pr = self.board.probe(self.to_move, s);
        if pr.verdict == Verdict::Legal {
            self.board.apply(&pr);
            self.next_turn();
        }
        pr.verdict
    }

    /// A first-turn pair (a, b canonical and free): both stones, then both removal steps.
    pub fn pair(&mut self, a: usize, b: usize) {
        let p = self.to_move;
        let mut st = self.board.st;
        st[p] = st[p].or(Bb::bit(a)).or(Bb::bit(b));
        let mask = self.geo.mask::<N>();
        let mut empty = mask.andnot(st[0].or(st[1]));
        let dead = smothered_stones(self.geo, st[1 - p], st[p], empty);
        st[1 - p] = st[1 - p].andnot(dead);
        empty = empty.or(dead);
        st[p] = st[p].andnot(smothered_stones(self.geo, st[p], st[1 - p], empty));
        self.board.reset(st[0], st[1]);
        self.first[p] = false;
        self.next_turn();
    }

    pub fn pass(&mut self) {
        self.komi -= 1;
        self.next_turn();
    }

    pub fn offer(&mut self, k: u32) {
        self.komi = k;
        self.phase = Phase::Answer;
        self.next_turn();
    }

    pub fn answer(&mut self) {
        self.phase = Phase::Play;
        self.next_turn();
    }

    /// One uniformly random action (the random player's distribution); false when the
    /// side to move has none. `swaps` counts the swaps played.
    pub fn random_step(&mut self, rng: &mut Rng, swaps: &mut u32) -> bool {
        match self.phase {
            Phase::Offer => {
                let k = rng.below(self.geo.site_count() as u32 + 1);
                self.offer(k);
            }
            Phase::Answer => {
                *swaps += rng.below(2);
                self.answer();
            }
            Phase::Play if self.first[self.to_move] => match self.random_pair(rng) {
                Some((a, b)) => self.pair(a, b),
                None => return false,
            },
            Phase::Play => return self.random_turn(rng).is_some(),
        }
        true
    }

    /// A uniformly random free first-turn pair (canonical), None when there is none.
    pub fn random_pair(&self, rng: &mut Rng) -> Option<(usize, usize)> {
        let pairs = &self.geo.pairs[self.cells as usize];
        let empty = self.board.empty;
        if !pairs.is_empty() {
            for _ in 0..1000 {
                let (a, b) = pairs[rng.below(pairs.len() as u32) as usize];
                if empty.has(a) && empty.has(b) {
                    return Some((a, b));
                }
            }
        }
        let free: Vec<(usize, usize)> = self.free_pairs().collect();
        if free.is_empty() {
            return None;
        }
        Some(free[rng.below(free.len() as u32) as usize])
    }

    /// One uniformly random action of a placing turn, played: Some(Some(site)) a placement,
    /// Some(None) White's pass, None when the side to move has none (nothing changes).
    pub fn random_turn(&mut self, rng: &mut Rng) -> Option<Option<usize>> {
        // uniform over the legal actions: draw among the untried candidate sites
        // (and the pass) until one is legal
        let p = self.to_move;
        let mut cand = self.board.candidates(p);
        let pass = u32::from(self.can_pass());
        loop {
            let k = cand.count();
            if k + pass == 0 {
                return None;
            }
            let i = rng.below(k + pass);
            if i == k {
                self.pass();
                return Some(None);
            }
            let s = cand.nth(i);
            let pr = self.board.probe(p, s);
            if pr.verdict == Verdict::Legal {
                self.board.apply(&pr);
                self.next_turn();
                return Some(Some(s));
            }
            cand.clear(s);
        }
    }

    /// Random actions until the rules end the game or the ply reaches `cap`.
    pub fn playout(&mut self, cap: u32, rng: &mut Rng) -> End {
        let mut swaps = 0;
        loop {
            if let Some(w) = self.eliminated() {
                return End { result: Some((w, Termination::Eliminated)), swaps };
            }
            if self.ply >= cap {
                let result = self.outcome();
                return End { result, swaps };
            }
            if !self.random_step(rng, &mut swaps) {
                return End { result: Some((1 - self.to_move, Termination::NoMoves)), swaps };
            }
        }
    }
}

#[cfg(test)]
mod tests;
