//! One move's MCTS over a [`SearchGame`]: players/mcts.py's `_Search` (the specification:
//! the same listing and sampling of actions, progressive widening, solver, UCT and RAVE
//! arithmetic, budgets, early stop and refutation check), with the nodes in an arena
//! (`node.rs`). Values are Black's score in the colours of the state they were computed in,
//! exchanged across every `swap` on the way up.

use std::collections::HashSet;
use std::time::Instant;

use super::game::{Colour, Config, Rooted, SearchGame, Searcher};
use super::node::{best_child, find, most_visited, settled, subtree, Id, Node};
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

const ROOT: Id = 0;

/// The search rooted at one state of `G` (see the module docstring).
pub struct Search<G: SearchGame> {
    pub nodes: Vec<Node<G>>,
    config: Config,
    rng: Rng,
    /// The colour the searching player holds at the root.
    searcher: Colour,
    /// The iterations of the last `run`, the most plies below the root one reached.
    pub done: u64,
    pub depth: u32,
    /// When the refutation checks stop (set by `run` with seconds).
    checks_until: Option<Instant>,
    chosen: Option<Id>,
    scratch: Vec<G::Action>,
}

fn black_value(winner: Option<Colour>) -> f64 {
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

    fn has_untried(&self, id: Id) -> bool {
        self.nodes[id].untried.as_ref().is_some_and(|u| !u.is_empty())
    }

    /// List the node's actions (shuffled) when there are few, else mark it as sampling; the
    /// game's candidates, when it has them, stand in for its legal actions.
    fn look(&mut self, id: Id) {
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
    fn expand(&mut self, id: Id) -> Option<Id> {
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
    fn has_room(&self, id: Id) -> bool {
        let n = &self.nodes[id];
        (n.children.len() as f64) < 1.0 + WIDENING * (n.visits as f64).sqrt()
    }

    /// Queue a new distinct draw on a sampling node if its width allows; false if not.
    fn widen(&mut self, id: Id) -> bool {
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

    fn iterate(&mut self) {
        let mut node = ROOT;
        let mut path = vec![ROOT];
        let mut trace: Option<Vec<(Colour, G::Action)>> = self.config.rave.map(|_| Vec::new());
        let black = loop {
            if self.nodes[node].solved {
                break black_value(self.nodes[node].winner);
            }
            if self.nodes[node].untried.is_none() {
                self.look(node);
            }
            let mut child = None;
            let n = &self.nodes[node];
            let untried = self.has_untried(node);
            if untried && self.config.narrow && !n.children.is_empty() && node != ROOT {
                if self.has_room(node) || n.children.iter().all(|&c| self.nodes[c].lost()) {
                    child = self.expand(node);
                }
            } else if untried || (!n.listed && self.widen(node)) {
                child = self.expand(node);
            }
            if let Some(c) = child {
                path.push(c);
                let cn = &self.nodes[c];
                if cn.solved {
                    let v = black_value(cn.winner);
                    self.propagate(&path);
                    break v;
                }
                break cn.state.evaluate(self.searcher, &mut self.rng, trace.as_mut());
            }
            match self.select(node) {
                Some(next) => {
                    node = next;
                    path.push(node);
                }
                // no child and none to make (every candidate illegal): value the node itself
                None => break self.nodes[node].state.evaluate(self.searcher, &mut self.rng, trace.as_mut()),
            }
        };
        self.depth = self.depth.max(path.len() as u32 - 1);
        let mut values = vec![0.0; if trace.is_some() { path.len() } else { 0 }];
        let mut black = black;
        for (i, &id) in path.iter().enumerate().rev() {
            if !values.is_empty() {
                values[i] = black;
            }
            let n = &mut self.nodes[id];
            n.visits += 1;
            n.wins += if n.holder == Some(0) { black } else { 1.0 - black };
            if n.is_swap() {
                black = 1.0 - black;
            }
        }
        if let Some(trace) = trace {
            self.update_amaf(&path, &trace, &values);
        }
    }

    /// Credit, below each node of the path, the children whose action its mover played later
    /// (`values`: Black's score in the colours of each path node's state).
    fn update_amaf(&mut self, path: &[Id], trace: &[(Colour, G::Action)], values: &[f64]) {
        let mut played: [HashSet<G::Action>; 2] = [HashSet::new(), HashSet::new()];
        for &(mover, action) in trace {
            played[mover].insert(action);
        }
        for i in (0..path.len()).rev() {
            let mover = self.nodes[path[i]].state.to_move();
            if let Some(&next) = path.get(i + 1) {
                if let Some(a) = self.nodes[next].action {
                    played[mover].insert(a);
                }
            }
            let later = &played[mover];
            for k in 0..self.nodes[path[i]].children.len() {
                let c = self.nodes[path[i]].children[k];
                let child = &mut self.nodes[c];
                if child.action.is_some_and(|a| later.contains(&a)) {
                    let black = if child.is_swap() { 1.0 - values[i] } else { values[i] };
                    child.amaf_visits += 1;
                    child.amaf_wins += if child.holder == Some(0) { black } else { 1.0 - black };
                }
            }
        }
    }

    /// The child with the best score, unvisited ones first, in order; a solved child counts
    /// at its exact value, a proven loss below everything else.
    fn select(&self, id: Id) -> Option<Id> {
        let node = &self.nodes[id];
        let c = self.config.exploration;
        let log_n = (node.visits.max(1) as f64).ln();
        let mut best = *node.children.first()?;
        let mut best_score = f64::NEG_INFINITY;
        for &cid in &node.children {
            let child = &self.nodes[cid];
            let score = if child.solved {
                let v = child.value();
                if v == 0.0 { -1.0 } else { v }
            } else if child.visits == 0 {
                return Some(cid);
            } else {
                let visits = child.visits as f64;
                let mut mean = child.wins / visits;
                if let Some(k) = self.config.rave {
                    if child.amaf_visits > 0 {
                        let beta = k / (k + 3.0 * visits);
                        mean = (1.0 - beta) * mean + beta * child.amaf_wins / child.amaf_visits as f64;
                    }
                }
                mean + c * (log_n / visits).sqrt()
            };
            if score > best_score {
                best = cid;
                best_score = score;
            }
        }
        Some(best)
    }

    /// Solve the ancestors of a newly solved node while the proof carries upward.
    fn propagate(&mut self, path: &[Id]) {
        for i in (0..path.len() - 1).rev() {
            let (id, child) = (path[i], path[i + 1]);
            if self.nodes[child].value() == 1.0 {
                let w = self.nodes[child].winner_above();
                let n = &mut self.nodes[id];
                (n.solved, n.winner) = (true, w);
                continue;
            }
            let n = &self.nodes[id];
            if !n.listed || self.has_untried(id) || !n.children.iter().all(|&c| self.nodes[c].solved) {
                return;
            }
            let mut best = n.children[0];
            for &c in &n.children {
                if self.nodes[c].value() > self.nodes[best].value() {
                    best = c;
                }
            }
            let w = self.nodes[best].winner_above();
            let n = &mut self.nodes[id];
            (n.solved, n.winner) = (true, w);
        }
    }

    /// The best child after making sure it does not hand the opponent a win at once: up to
    /// REFUTATION_CHECKS candidates, best first, get every reply expanded; a candidate refuted
    /// that way is a proven loss, and the next best is checked.
    pub fn checked_child(&mut self) -> Option<Id> {
        for _ in 0..REFUTATION_CHECKS {
            let child = best_child(&self.nodes, ROOT)?;
            if self.nodes[child].solved || self.checks_until.is_some_and(|t| Instant::now() > t) {
                return Some(child);
            }
            self.refute(child);
            if !self.nodes[child].lost() {
                return Some(child);
            }
        }
        best_child(&self.nodes, ROOT)
    }

    /// Expand every reply of a root child whose replies are listed (not sampled); a reply
    /// that ends the game proves the child.
    fn refute(&mut self, child: Id) {
        if self.nodes[child].untried.is_none() {
            self.look(child);
        }
        if !self.nodes[child].listed {
            return;
        }
        while self.has_untried(child) && !self.nodes[child].solved {
            let Some(reply) = self.expand(child) else { break };
            if self.nodes[reply].solved {
                self.propagate(&[ROOT, child, reply]);
            }
        }
    }
}

impl<G: SearchGame> Searcher for Search<G> {
    fn reuse(&mut self, previous: Box<dyn Searcher>) -> bool {
        match previous.into_any().downcast::<Search<G>>() {
            Ok(previous) => self.take_tree(*previous),
            Err(_) => false,
        }
    }

    fn run(&mut self, iterations: Option<u64>, seconds: Option<f64>) -> u64 {
        Search::run(self, iterations, seconds)
    }

    fn choose(&mut self) -> Option<String> {
        let child = self.checked_child()?;
        self.chosen = Some(child);
        let action = self.nodes[child].action?;
        Some(self.nodes[ROOT].state.notation(action))
    }

    fn chosen(&self, plies: usize) -> Option<(f64, Vec<String>)> {
        let child = self.chosen?;
        let c = &self.nodes[child];
        let value = if c.solved { c.value() } else { c.mean() };
        let mut pv = vec![self.nodes[ROOT].state.notation(c.action?)];
        let mut node = child;
        while pv.len() < plies {
            let n = &self.nodes[node];
            let Some(best) = most_visited(&self.nodes, n.children.iter().copied().filter(|&c| self.nodes[c].visits > 0))
            else {
                break;
            };
            pv.push(n.state.notation(self.nodes[best].action?));
            node = best;
        }
        Some((value, pv))
    }

    fn counts(&self) -> (u64, u32, u32) {
        (self.done, self.depth, self.nodes[ROOT].visits)
    }

    fn children(&self) -> Vec<(String, u32, f64, Option<f64>)> {
        let root = &self.nodes[ROOT];
        root.children.iter().filter_map(|&c| {
            let n = &self.nodes[c];
            Some((root.state.notation(n.action?), n.visits, n.mean(), n.solved.then(|| n.value())))
        }).collect()
    }

    fn into_any(self: Box<Self>) -> Box<dyn std::any::Any> {
        self
    }
}

impl<G: SearchGame> Rooted for G {
    fn into_search(self: Box<Self>, config: Config, seed: u64) -> Box<dyn Searcher> {
        Box::new(Search::new(*self, config, seed))
    }
}
