//! The compiled MCTS's choice at the root (players/mcts.py `_checked_child`, `_refute`; the
//! rules of players/choice.py are in `node.rs`) and [`Searcher`], the search behind a
//! trait object for Python (`python.rs`).

use std::time::Instant;

use super::game::{Config, Rooted, SearchGame, Searcher};
use super::node::{best_child, most_visited, Id};
use super::tree::{Search, REFUTATION_CHECKS, ROOT};

impl<G: SearchGame> Search<G> {
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
