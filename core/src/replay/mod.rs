//! A whole game record replayed in one call: what the HTML report's viewer draws per ply
//! (results/page/replay_data.py says the data; this module computes the same).
//!
//! [`replay`] reads an SGF record of the plain form the referee writes ([`sgf::plain`]),
//! plays each action through the kit's rules ([`crate::kit::Game`]) and returns per ply the
//! sites that changed (`e5b g7w3 f6`, notation order), the sites the action names when they
//! differ, and the status keys (mover, phase, the shown keys) wherever the status is not the
//! previous one with the other side to move. It answers only where it is sure to agree with
//! the Python reader and rules (results/page/replay.py): any record it does not read as
//! they would (another SGF form, a game or variant it does not know, a token not in
//! canonical lower case, a number out of its range) is [`Stop::Unsure`], and the caller
//! replays it in Python. An action the rules refuse is [`Stop::Illegal`] with its ply.

pub mod sgf;

use std::collections::HashMap;
use std::fmt::Write;

use crate::geometry::{hexagon, Hexagon};
use crate::kit::{Action, Game, Site, GAMES};

/// Why a record was not replayed.
#[derive(Debug, PartialEq, Eq)]
pub enum Stop {
    /// Not a record this module reads exactly as the Python reader does.
    Unsure,
    /// The action of ply `ply` (1 = the first) is refused by the rules.
    Illegal { ply: usize, token: String, why: String },
}

/// A status: the mover's letter, the phase, the shown keys' values (in the order asked).
pub type Status = Vec<String>;

/// A replayed record: what the viewer needs, per ply.
#[derive(Debug)]
pub struct Replayed<'a> {
    pub game: &'static str,
    pub size: usize,
    /// The action tokens as the record writes them.
    pub tokens: Vec<&'a str>,
    /// Each action's think time (`XT`), when it is a decimal number.
    pub seconds: Vec<Option<f64>>,
    /// The occupied sites of the initial position (`e5b g7w3`).
    pub first: String,
    /// Per ply: the sites that changed, with what they hold now (`f6` for emptied).
    pub changes: Vec<String>,
    /// Per ply: `""` when the action names exactly the changed sites, else the sites it
    /// names (`-` for none).
    pub marks: Vec<String>,
    /// (ply, status, the previous ply's status): at ply 0 and wherever the status is not
    /// the previous one with the other side to move.
    pub statuses: Vec<(usize, Status, Option<Status>)>,
}

/// A whole number as `engine.numbers.whole` reads it (ASCII digits, at most 9 here).
fn whole(text: &str) -> Option<u32> {
    (!text.is_empty() && text.len() <= 9 && text.bytes().all(|b| b.is_ascii_digit())).then(|| text.parse().ok())?
}

/// A decimal as `engine.numbers.decimal` reads it: digits, at most one point between
/// digits, at most 20 digits; None otherwise (a think time that is not a number).
fn decimal(text: &str) -> Option<f64> {
    let (int, frac) = text.split_once('.').unwrap_or((text, "1"));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(int) || !digits(frac) || text.len() - usize::from(text.contains('.')) > 20 {
        return None;
    }
    text.parse().ok()
}

/// A token both readers read alike: canonical lower-case notation, no white space, no
/// leading zero in a number (`e05`).
fn plain_token(t: &str) -> bool {
    let b = t.as_bytes();
    !b.is_empty() && b.len() <= 4096
        && b.iter().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || b",/-:=".contains(c))
        && b.windows(3).all(|w| !(w[1] == b'0' && !w[0].is_ascii_digit() && w[2].is_ascii_digit()))
}

fn action_sites(a: &Action) -> Vec<Site> {
    match a {
        Action::Place(s) => vec![*s],
        Action::Pair(x, y) | Action::Move(x, y) | Action::Pie(x, y) => vec![*x, *y],
        Action::Flip(c, f) | Action::Group(c, f) => std::iter::once(*c).chain(f.iter().copied()).collect(),
        _ => Vec::new(),
    }
}

struct Board {
    geo: &'static Hexagon,
    names: Vec<String>,
}

impl Board {
    /// The changed sites' text and the changed sites (notation order).
    fn diff(&self, before: &[u32], now: &[u32], out: &mut Vec<Site>) -> String {
        out.clear();
        out.extend((0..now.len()).filter(|&s| before[s] != now[s]).map(|s| s as Site));
        if out.len() > 1 {
            out.sort_unstable_by_key(|&s| self.geo.rank[usize::from(s)]);
        }
        let mut text = String::with_capacity(5 * out.len());
        for &s in out.iter() {
            let s = usize::from(s);
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(&self.names[s]);
            let v = now[s];
            if v != 0 {
                text.push(if v & 3 == 1 { 'b' } else { 'w' });
                if v >> 2 > 1 {
                    let _ = write!(text, "{}", v >> 2);
                }
            }
        }
        text
    }

    fn mark(&self, action: &Action, changed: &[Site]) -> String {
        let mut sites = action_sites(action);
        sites.sort_by_key(|&s| self.geo.rank[usize::from(s)]);
        sites.dedup();
        if sites == changed {
            return String::new();
        }
        if sites.is_empty() {
            return "-".into();
        }
        sites.iter().map(|&s| self.names[usize::from(s)].as_str()).collect::<Vec<_>>().join(" ")
    }
}

/// A ply's status as read: the mover, the phase, the shown keys' values.
#[derive(PartialEq, Eq)]
struct Seen {
    mover: usize,
    phase: &'static str,
    shown: Vec<String>,
}

impl Seen {
    /// The state's status; `now` receives its stones (what a site holds, as one number: 0
    /// empty, else colour + 1 + (height << 2); a height above 1 is written after the colour,
    /// and only stacks have one).
    fn read(g: &Game, shown: &[String], now: &mut [u32]) -> Seen {
        let phase = g.glance(now);
        let shown = shown.iter().map(|k| g.key(k)).collect();
        Seen { mover: g.to_move().index(), phase, shown }
    }

    /// Whether `self` is `before` with the other side to move.
    fn follows(&self, before: &Seen) -> bool {
        self.mover != before.mover && self.phase == before.phase && self.shown == before.shown
    }

    fn status(&self) -> Status {
        let mut out = vec![["b", "w"][self.mover].to_string(), self.phase.to_string()];
        out.extend(self.shown.iter().cloned());
        out
    }
}

/// Replays the SGF record `text`; `shown`: per game id, the position keys its status shows
/// beside the phase (`GameInfo.shown_keys`; a game not in it shows none).
pub fn replay<'a>(text: &'a str, shown: &HashMap<String, Vec<String>>) -> Result<Replayed<'a>, Stop> {
    let nodes = sgf::plain(text).ok_or(Stop::Unsure)?;
    let root = &nodes[0];
    let game = root.get("XG").and_then(|g| GAMES.iter().find(|&&id| id == g)).ok_or(Stop::Unsure)?;
    let size = root.get("SZ").and_then(whole).filter(|n| (2..=13).contains(n)).ok_or(Stop::Unsure)? as usize;
    let variant = root.get("XV").unwrap_or("");
    if !variant.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'=' || b == b'-' || b == b' ') {
        return Err(Stop::Unsure);
    }
    let komi = whole(root.get("XK").unwrap_or("0")).ok_or(Stop::Unsure)?;
    let geo = hexagon(size);
    if komi as usize > geo.site_count() {
        return Err(Stop::Unsure); // the kit takes the board's sites, the Python Anda-prison the number as written
    }
    let shown = shown.get(*game).map_or(&[][..], Vec::as_slice);
    let mut g = Game::with_komi(game, size, variant, komi).map_err(|_| Stop::Unsure)?;
    let board = Board { geo, names: (0..geo.bits()).map(|s| geo.name(s)).collect() };
    let plies = nodes.len() - 1;
    let mut out = Replayed {
        game, size, tokens: Vec::with_capacity(plies), seconds: Vec::with_capacity(plies), first: String::new(),
        changes: Vec::with_capacity(plies), marks: Vec::with_capacity(plies), statuses: Vec::new(),
    };
    let mut before = vec![0u32; geo.bits()];
    let mut now = before.clone();
    let mut changed = Vec::new();
    let mut last = Seen::read(&g, shown, &mut now);
    out.first = board.diff(&before, &now, &mut changed);
    out.statuses.push((0, last.status(), None));
    for (ply, node) in nodes[1..].iter().enumerate().map(|(i, n)| (i + 1, n)) {
        let (letter, token) = match (node.get("B"), node.get("W")) {
            (Some(t), None) => (0, t),
            (None, Some(t)) => (1, t),
            _ => return Err(Stop::Unsure),
        };
        if letter != g.to_move().index() || !plain_token(token) {
            return Err(Stop::Unsure);
        }
        let action = g.play_token(token).map_err(|r| Stop::Illegal { ply, token: token.into(), why: r.to_string() })?;
        std::mem::swap(&mut before, &mut now);
        let current = Seen::read(&g, shown, &mut now);
        out.changes.push(board.diff(&before, &now, &mut changed));
        out.marks.push(board.mark(&action, &changed));
        if !current.follows(&last) {
            out.statuses.push((ply, current.status(), Some(last.status())));
        }
        last = current;
        out.tokens.push(token);
        out.seconds.push(node.get("XT").and_then(decimal));
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
