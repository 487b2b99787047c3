//! The search tree's nodes in an arena, and the choice at the root: players/tree.py and
//! players/choice.py (the specification; the same statistics and the same rules).
//!
//! A node holds a state, the action that led to it and `holder`, the colour its mover holds
//! after that action (after `swap`, the other one). `wins / visits` is the holder's mean
//! score; `amaf_*` are the all-moves-as-first statistics of its action (RAVE). A solved node
//! knows the winner with best play, in the colours of its own state.

use std::collections::HashSet;

use super::game::{Colour, SearchGame};

/// How many actions after the last search's root a reusable node may lie.
pub const REUSE_DEPTH: usize = 4;

/// An index into the arena.
pub type Id = usize;

pub struct Node<G: SearchGame> {
    pub state: G,
    pub action: Option<G::Action>,
    pub holder: Option<Colour>,
    pub visits: u32,
    pub wins: f64,
    pub amaf_visits: u32,
    pub amaf_wins: f64,
    pub children: Vec<Id>,
    /// None: actions not looked at yet.
    pub untried: Option<Vec<G::Action>>,
    /// Every legal action is a child or untried.
    pub listed: bool,
    /// The actions drawn for a sampling node.
    pub tried: HashSet<G::Action>,
    pub solved: bool,
    /// When solved: the winner with best play (None: a draw).
    pub winner: Option<Colour>,
}

impl<G: SearchGame> Node<G> {
    pub fn new(state: G, action: Option<G::Action>, holder: Option<Colour>) -> Node<G> {
        Node {
            state, action, holder, visits: 0, wins: 0.0, amaf_visits: 0, amaf_wins: 0.0, children: Vec::new(),
            untried: None, listed: false, tried: HashSet::new(), solved: false, winner: None,
        }
    }

    /// The holder's mean score so far (1/2 before any visit).
    pub fn mean(&self) -> f64 {
        if self.visits > 0 { self.wins / self.visits as f64 } else { 0.5 }
    }

    /// A solved node's worth to its holder: 1 win, 1/2 draw, 0 loss.
    pub fn value(&self) -> f64 {
        match self.winner {
            None => 0.5,
            Some(w) if Some(w) == self.holder => 1.0,
            Some(_) => 0.0,
        }
    }

    /// A solved node's winner in the colours of its parent's state (a swap exchanges them).
    pub fn winner_above(&self) -> Option<Colour> {
        match (self.winner, self.action) {
            (Some(w), Some(a)) if G::is_swap(a) => Some(1 - w),
            (w, _) => w,
        }
    }

    pub fn is_swap(&self) -> bool {
        self.action.is_some_and(G::is_swap)
    }

    /// A proven loss for the node's holder.
    pub fn lost(&self) -> bool {
        self.solved && self.value() == 0.0
    }

    fn worth(&self) -> f64 {
        if self.solved { self.value() } else { self.mean() }
    }
}

/// The first of `ids` with the most visits, ties broken by the most wins (Python's `max`).
pub fn most_visited<G: SearchGame>(nodes: &[Node<G>], ids: impl Iterator<Item = Id>) -> Option<Id> {
    let mut best: Option<Id> = None;
    for id in ids {
        let better = match best {
            None => true,
            Some(b) => {
                let (n, m) = (&nodes[id], &nodes[b]);
                n.visits > m.visits || (n.visits == m.visits && n.wins > m.wins)
            }
        };
        if better {
            best = Some(id);
        }
    }
    best
}

/// The child to play (choice.py `best_child`): a proven win; else, among the children that are
/// not proven losses, the most visited, except at a pie decision, where the swap child is
/// chosen when its value (exact if solved, else its mean) is at least the best other one's.
pub fn best_child<G: SearchGame>(nodes: &[Node<G>], root: Id) -> Option<Id> {
    let children = &nodes[root].children;
    if let Some(&win) = children.iter().find(|&&c| nodes[c].solved && nodes[c].value() == 1.0) {
        return Some(win);
    }
    let mut alive: Vec<Id> = children.iter().copied().filter(|&c| !nodes[c].lost()).collect();
    if alive.is_empty() {
        alive.clone_from(children);
    }
    let swap = alive.iter().copied().find(|&c| nodes[c].is_swap());
    let best_other = most_visited(nodes, alive.iter().copied().filter(|&c| !nodes[c].is_swap()));
    if let (Some(s), Some(o)) = (swap, best_other) {
        let (sn, on) = (&nodes[s], &nodes[o]);
        if (sn.visits > 0 || sn.solved) && (on.visits > 0 || on.solved) {
            return Some(if sn.worth() >= on.worth() { s } else { o });
        }
    }
    most_visited(nodes, alive.into_iter())
}

/// Whether `more` iterations cannot change the most visited root child that is not a proven
/// loss, or one such child is left of a fully listed root; never at a root offering `swap`.
pub fn settled<G: SearchGame>(nodes: &[Node<G>], root: Id, more: f64) -> bool {
    let (mut first, mut second, mut alive) = (0u32, 0u32, 0);
    for &c in &nodes[root].children {
        let child = &nodes[c];
        if child.is_swap() {
            return false;
        }
        if child.lost() {
            continue;
        }
        alive += 1;
        if child.visits > first {
            (first, second) = (child.visits, first);
        } else if child.visits > second {
            second = child.visits;
        }
    }
    let r = &nodes[root];
    if alive <= 1 && r.listed && r.untried.as_ref().is_none_or(|u| u.is_empty()) {
        return true;
    }
    (first - second) as f64 > more
}

/// The descendant of `root` (itself included, at most REUSE_DEPTH actions below) whose state
/// equals `state` (tree.py `Tree.advance`).
pub fn find<G: SearchGame>(nodes: &[Node<G>], root: Id, state: &G) -> Option<Id> {
    let mut frontier = vec![root];
    for _ in 0..=REUSE_DEPTH {
        let mut next = Vec::new();
        for &id in &frontier {
            let n = &nodes[id];
            if n.state.ply() == state.ply() && n.state == *state {
                return Some(id);
            }
            next.extend_from_slice(&n.children);
        }
        frontier = next;
    }
    None
}

/// The subtree of `top` alone, as a new arena whose root (index 0) is `top`, the rest dropped.
pub fn subtree<G: SearchGame>(nodes: Vec<Node<G>>, top: Id) -> Vec<Node<G>> {
    let mut slots: Vec<Option<Node<G>>> = nodes.into_iter().map(Some).collect();
    let mut out: Vec<Node<G>> = Vec::new();
    let mut queue = vec![top];
    let mut at = 0;
    while at < queue.len() {
        let mut node = slots[queue[at]].take().expect("a tree: each node has one parent");
        let first = queue.len();
        queue.extend_from_slice(&node.children);
        node.children = (first..queue.len()).collect();
        out.push(node);
        at += 1;
    }
    out
}
