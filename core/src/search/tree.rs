//! One move's MCTS over a [`SearchGame`]: players/mcts.py's `_Search` (the specification:
//! the same listing and sampling of actions, progressive widening, solver, UCT and RAVE
//! arithmetic, budgets, early stop and refutation check), with the nodes in an arena
//! (`node.rs`). Values are Black's score in the colours of the state they were computed in,
//! exchanged across every `swap` on the way up. Here: the search's state, its budgets, the
//! root's opening, the listing, expansion and widening of nodes; the iteration is in
//! `descent.rs`, the choice in `choice.rs`.

use std::time::Instant;

use super::game::{Colour, Config, SearchGame};
use super::node::{find, settled, subtree, Id, Node};
use crate::rng::Rng;

/// Above this many legal actions a node samples candidates instead of listing them.
pub const ENUMERATION_CAP: usize = 256;
/// Children of a sampling node: at most 1 + WIDENING * sqrt(visits).
pub const WIDENING: f64 = 2.0;
/// Fresh draws tried per widening step before giving up on finding a new action.
pub const DRAW_ATTEMPTS: usize = 4;
/// Root candidates checked for a reply that wins at once before one is played.
pub const REFUTATION_CHECKS: usize = 12;
/// The checks stop once the move has taken this fraction more than its time.
pub const REFUTATION_GRACE: f64 = 0.1;
/// A time-bounded search asks every this many iterations whether its choice is settled.
pub const SETTLED_CHECK: u64 = 32;

pub(super) const ROOT: Id = 0;

/// The search rooted at one state of `G` (see the module docstring).
pub struct Search<G: SearchGame> {
    pub nodes: Vec<Node<G>>,
    pub(super) config: Config,
    pub(super) rng: Rng,
    /// The colour the searching player holds at the root.
    pub(super) searcher: Colour,
    /// The iterations of the last `run`, the most plies below the root one reached.
    pub done: u64,
    pub depth: u32,
    /// When the refutation checks stop (set by `run` with seconds).
    pub(super) checks_until: Option<Instant>,
    pub(super) chosen: Option<Id>,
    scratch: Vec<G::Action>,
}

pub(super) fn black_value(winner: Option<Colour>) -> f64 {
    match winner {
        None => 0.5,
        Some(0) => 1.0,
        Some(_) => 0.0,
    }
}

impl<G: SearchGame> Search<G> {
    pub fn new(state: G, config: Config, seed: u64) -> Search<G> {
        let searcher = state.to_move();
        Search {
            nodes: vec![Node::new(state, None, None)], config, rng: Rng::new(seed), searcher, done: 0, depth: 0,
            checks_until: None, chosen: None, scratch: Vec::new(),
        }
    }

    /// The root of `previous` moved to its node holding this root's state, if any.
    pub fn take_tree(&mut self, mut previous: Search<G>) -> bool {
        if G::SEARCHER_RELATIVE && previous.searcher != self.searcher {
            return false;
        }
        let Some(top) = find(&previous.nodes, ROOT, &self.nodes[ROOT].state) else {
            return false;
        };
        let mut nodes = subtree(std::mem::take(&mut previous.nodes), top);
        nodes[ROOT].holder = None;
        nodes[ROOT].action = None;
        self.nodes = nodes;
        self.chosen = None;
        true
    }

    /// Iterate until `iterations`, the time `seconds` or a proof of the root; the iterations.
    pub fn run(&mut self, iterations: Option<u64>, seconds: Option<f64>) -> u64 {
        let begin = Instant::now();
        let deadline = seconds.map(|s| begin + std::time::Duration::from_secs_f64(s.max(0.0)));
        self.checks_until = seconds.map(|s| begin + std::time::Duration::from_secs_f64((1.0 + REFUTATION_GRACE) * s.max(0.0)));
        self.chosen = None;
        self.open_root();
        let start = Instant::now();
        let mut done = 0u64;
        while !self.nodes[ROOT].solved {
            if iterations.is_some_and(|n| done >= n) {
                break;
            }
            if let Some(deadline) = deadline {
                let now = Instant::now();
                if now >= deadline {
                    break;
                }
                if done > 0 && done.is_multiple_of(SETTLED_CHECK) {
                    let elapsed = (now - start).as_secs_f64();
                    let more = done as f64 * (deadline - now).as_secs_f64() / elapsed.max(1e-9);
                    if settled(&self.nodes, ROOT, more) {
                        break;
                    }
                }
            }
            self.iterate();
            done += 1;
        }
        self.done = done;
        done
    }

    /// Expand every root candidate at once, so that an immediate win is never missed.
    fn open_root(&mut self) {
        if self.nodes[ROOT].untried.is_none() {
            self.look(ROOT);
        }
        if !self.nodes[ROOT].listed {
            let draws = 64.max(4 * self.nodes[ROOT].state.legal_cell_count() as usize);
            for _ in 0..draws {
                let Some(action) = self.nodes[ROOT].state.random_action(&mut self.rng) else { break };
                let root = &mut self.nodes[ROOT];
                if root.tried.insert(action) {
                    root.untried.get_or_insert_with(Vec::new).push(action);
                }
            }
        }
        while self.has_untried(ROOT) && !self.nodes[ROOT].solved {
            let Some(child) = self.expand(ROOT) else { break };
            if self.nodes[child].solved {
                self.propagate(&[ROOT, child]);
            }
        }
    }

    pub(super) fn has_untried(&self, id: Id) -> bool {
        self.nodes[id].untried.as_ref().is_some_and(|u| !u.is_empty())
    }

    /// List the node's actions (shuffled) when there are few, else mark it as sampling; the
    /// game's candidates, when it has them, stand in for its legal actions.
    pub(super) fn look(&mut self, id: Id) {
        let mut actions = std::mem::take(&mut self.scratch);
        let node = &mut self.nodes[id];
        let listed = if node.state.candidates(&mut self.rng, &mut actions) {
            actions.len() <= ENUMERATION_CAP
        } else if node.state.list(ENUMERATION_CAP, &mut actions) && actions.len() <= ENUMERATION_CAP {
            for i in (1..actions.len()).rev() {
                let j = self.rng.below(i as u32 + 1) as usize;
                actions.swap(i, j);
            }
            true
        } else {
            false
        };
        if listed {
            node.untried = Some(actions);
            node.listed = true;
        } else {
            actions.clear();
            self.scratch = actions;
            node.untried = Some(Vec::new());
        }
    }

    /// A new child from the node's untried actions, solved if it ends the game; None when
    /// every action left there is an illegal candidate (all dropped).
    pub(super) fn expand(&mut self, id: Id) -> Option<Id> {
        let node = &mut self.nodes[id];
        let untried = node.untried.as_mut()?;
        let (action, state) = loop {
            let action = untried.pop()?;
            if let Some(state) = node.state.play(action) {
                break (action, state);
            }
        };
        let mover = node.state.to_move();
        let holder = if G::is_swap(action) { 1 - mover } else { mover };
        let mut child = Node::new(state, Some(action), Some(holder));
        if let Some(winner) = child.state.outcome() {
            child.solved = true;
            child.winner = winner;
        }
        let cid = self.nodes.len();
        self.nodes[id].children.push(cid);
        self.nodes.push(child);
        Some(cid)
    }

    /// Whether progressive widening allows the node another child.
    pub(super) fn has_room(&self, id: Id) -> bool {
        let n = &self.nodes[id];
        (n.children.len() as f64) < 1.0 + WIDENING * (n.visits as f64).sqrt()
    }

    /// Queue a new distinct draw on a sampling node if its width allows; false if not.
    pub(super) fn widen(&mut self, id: Id) -> bool {
        if !self.has_room(id) {
            return false;
        }
        for _ in 0..DRAW_ATTEMPTS {
            let node = &mut self.nodes[id];
            let Some(action) = node.state.random_action(&mut self.rng) else { return false };
            if node.tried.insert(action) {
                node.untried.get_or_insert_with(Vec::new).push(action);
                return true;
            }
        }
        false
    }
}
