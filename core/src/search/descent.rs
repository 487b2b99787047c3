//! The iteration of the compiled MCTS (players/mcts.py `_iterate`, `_update_amaf`, `_select`,
//! `_propagate`): descend by UCT or RAVE, expand one child, value it (exactly when it ends
//! the game), back the value up, exchanging the colours across every `swap`.

use std::collections::HashSet;

use super::game::{Colour, SearchGame};
use super::node::Id;
use super::tree::{black_value, Search, ROOT};

impl<G: SearchGame> Search<G> {
    pub(super) fn iterate(&mut self) {
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
    pub(super) fn propagate(&mut self, path: &[Id]) {
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
}
