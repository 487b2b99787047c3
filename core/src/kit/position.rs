//! The position string (HGP "Position string") both ways: `GAME SIZE TO_MOVE BOARD
//! [KEY=VALUE ...]`. Reading checks form only (HGP "Well-formed"); the game's keys and
//! their defaults are declared per game ([`Spec`]).

use crate::geometry::{hexagon, MAX_SIZE, MIN_SIZE};

use super::action::{quoted, shown, Site};
use super::Error;

/// A decoded position: the stones (site, colour 0/1, height) and every key of the game with
/// its value as text (defaults filled in), in print order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub game: String,
    pub size: usize,
    pub to_move: usize,
    pub stacks: Vec<(Site, usize, u32)>,
    pub keys: Vec<(&'static str, String)>,
}

impl Position {
    /// The value of key `name` (its default when absent).
    pub fn key(&self, name: &str) -> &str {
        self.keys.iter().find(|(k, _)| *k == name).map_or("", |(_, v)| v.as_str())
    }

    /// Sets key `name` to `value`.
    pub fn set(&mut self, name: &'static str, value: impl Into<String>) {
        let value = value.into();
        match self.keys.iter_mut().find(|(k, _)| *k == name) {
            Some(slot) => slot.1 = value,
            None => self.keys.push((name, value)),
        }
    }
}

/// What a game declares of its position strings: its keys in print order with their
/// defaults, its phases, its balances and options, whether sites hold stacks.
pub(crate) struct Spec {
    pub id: &'static str,
    pub balances: &'static [&'static str],
    pub options: &'static [(&'static str, &'static [&'static str])],
    pub phases: &'static [&'static str],
    /// (name, default) of the game's own keys after `variant`, the options and `phase`.
    pub keys: &'static [(&'static str, &'static str)],
    pub stacks: bool,
}

/// The largest `ply` a position may give: far beyond any game's ply cap (the largest, Anda's
/// and Anda-prison's 10 x sites, is 4,690 at side 13), so that no count overflows.
pub(crate) const MAX_PLY: u32 = 1_000_000;

/// The most stones a side's prison may hold in a position on `sites` sites: the komi (at most
/// `sites`) and captured stones, of which there are at most as many as stones placed, two a
/// ply at most, over at most [`MAX_PLY`] plies.
pub(crate) fn max_prison(sites: usize) -> u32 {
    sites as u32 + 2 * MAX_PLY
}

impl Spec {
    /// Every key in print order with its default.
    pub fn defaults(&self) -> Vec<(&'static str, String)> {
        let mut out = vec![("variant", self.balances[0].to_string())];
        out.extend(self.options.iter().map(|(k, v)| (*k, v[0].to_string())));
        out.push(("phase", "play".to_string()));
        out.extend(self.keys.iter().map(|(k, v)| (*k, v.to_string())));
        out
    }

    /// Checks a key's value for form (HGP "Well-formed").
    fn check(&self, name: &str, value: &str, sites: usize) -> Result<(), Error> {
        let bad = |why: String| Err(Error::InvalidPosition(format!("{}={}: {why}", shown(name), shown(value))));
        let whole = |v: &str| v.parse::<u32>().ok().filter(|_| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()));
        match name {
            "variant" if !self.balances.contains(&value) => bad(format!("expected one of {}", self.balances.join(", "))),
            "phase" if !self.phases.contains(&value) => bad(format!("{} phases are {}", self.id, self.phases.join(", "))),
            "ply" => match whole(value) {
                Some(p) if p <= MAX_PLY => Ok(()),
                _ => bad(format!("expected a whole number 0..{MAX_PLY}")),
            },
            "komi" => match whole(value) {
                Some(k) if k as usize <= sites => Ok(()),
                _ => bad(format!("expected 0..{sites}")),
            },
            "prison" => {
                let most = max_prison(sites);
                match value.split_once(',') {
                    Some((a, b)) if [a, b].iter().all(|v| whole(v).is_some_and(|v| v <= most)) => Ok(()),
                    _ => bad(format!("expected B,W (two whole numbers 0..{most})")),
                }
            }
            // as engine.position reads a colour set: `wb` is `bw` (and is written so)
            "first" | "annihilated" if !["-", "b", "w", "bw", "wb"].contains(&value) => bad("expected b, w, bw or -".into()),
            "last" if !["-", "b", "w"].contains(&value) => bad("expected b, w or -".into()),
            _ => match self.options.iter().find(|(k, _)| *k == name) {
                Some((_, values)) if !values.contains(&value) => bad(format!("expected one of {}", values.join(", "))),
                _ => Ok(()),
            },
        }
    }
}

/// Reads a position string of the game `spec` (its id already matched).
pub(crate) fn parse(text: &str, spec: &Spec) -> Result<Position, Error> {
    let invalid = |why: String| Error::InvalidPosition(why);
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() < 4 {
        return Err(invalid("expected GAME SIZE TO_MOVE BOARD [KEY=VALUE ...]".into()));
    }
    let size: usize = fields[1].parse().map_err(|_| invalid(format!("size {} is not a whole number", quoted(fields[1]))))?;
    if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
        return Err(invalid(format!("size {size} outside {MIN_SIZE}..{MAX_SIZE}")));
    }
    let to_move = match fields[2].to_ascii_lowercase().as_str() {
        "b" => 0,
        "w" => 1,
        other => return Err(invalid(format!("side to move {} is not b or w", quoted(other)))),
    };
    let stacks = board(&fields[3].to_ascii_lowercase(), size)?;
    let mut keys = spec.defaults();
    let mut given: Vec<String> = Vec::new();
    let sites = hexagon(size).site_count();
    for item in &fields[4..] {
        let item = item.to_ascii_lowercase();
        let Some((name, value)) = item.split_once('=').filter(|(k, v)| !k.is_empty() && !v.is_empty()) else {
            return Err(invalid(format!("{} is not KEY=VALUE", quoted(&item))));
        };
        if given.iter().any(|g| g == name) {
            return Err(invalid(format!("key {} given twice", quoted(name))));
        }
        given.push(name.to_string());
        let Some(slot) = keys.iter_mut().find(|(k, _)| *k == name) else {
            return Err(invalid(format!("{} has no key {}", spec.id, quoted(name))));
        };
        spec.check(name, value, sites)?;
        slot.1 = value.to_string();
    }
    Ok(Position { game: spec.id.to_string(), size, to_move, stacks, keys })
}

fn board(board: &str, n: usize) -> Result<Vec<(Site, usize, u32)>, Error> {
    let geo = hexagon(n);
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != 2 * n - 1 {
        return Err(Error::InvalidPosition(format!("board has {} rows, side {n} needs {}", rows.len(), 2 * n - 1)));
    }
    let mut out = Vec::new();
    for (ri, row) in rows.iter().enumerate() {
        let cols: Vec<usize> = (0..2 * n - 1).filter(|&ci| ci.abs_diff(ri) < n).collect();
        let bytes = row.as_bytes();
        let (mut i, mut k) = (0, 0);
        while i < bytes.len() {
            let ch = bytes[i];
            i += 1;
            if ch != b'.' && ch != b'b' && ch != b'w' {
                return Err(Error::InvalidPosition(format!("row {}: unexpected character in {row:?}", ri + 1)));
            }
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            if ch == b'.' && i > start {
                return Err(Error::InvalidPosition(format!("row {}: unexpected character in {row:?}", ri + 1)));
            }
            let height = if i > start {
                row[start..i].parse::<u32>().map_err(|_| Error::InvalidPosition(format!("row {}: height", ri + 1)))?
            } else {
                1
            };
            if let Some(&ci) = cols.get(k) {
                if ch != b'.' {
                    if height < 1 {
                        return Err(Error::InvalidPosition(format!("row {}: height {height} at {}", ri + 1,
                                                                  geo.name(ri * geo.width + ci))));
                    }
                    out.push(((ri * geo.width + ci) as Site, usize::from(ch == b'w'), height));
                }
            }
            k += 1;
        }
        if k != cols.len() {
            return Err(Error::InvalidPosition(format!("row {} has {k} sites, expected {}", ri + 1, cols.len())));
        }
    }
    Ok(out)
}

/// The canonical string: the keys off their default, in print order.
pub(crate) fn format(pos: &Position, spec: &Spec) -> String {
    let geo = hexagon(pos.size);
    let n = pos.size;
    let mut rows = Vec::with_capacity(2 * n - 1);
    for ri in 0..2 * n - 1 {
        let mut row = String::new();
        for ci in (0..2 * n - 1).filter(|&ci| ci.abs_diff(ri) < n) {
            let bit = (ri * geo.width + ci) as Site;
            match pos.stacks.iter().find(|s| s.0 == bit) {
                None => row.push('.'),
                Some(&(_, c, h)) => {
                    row.push(if c == 0 { 'b' } else { 'w' });
                    if spec.stacks {
                        row.push_str(&h.to_string());
                    }
                }
            }
        }
        rows.push(row);
    }
    let mut out = vec![pos.game.clone(), n.to_string(), (if pos.to_move == 0 { "b" } else { "w" }).to_string(),
                       rows.join("/")];
    for (name, default) in spec.defaults() {
        let value = pos.key(name);
        if value != default {
            out.push(format!("{name}={value}"));
        }
    }
    out.join(" ")
}

/// A colour set key's bits (bit 0 black, bit 1 white) and back.
pub(crate) fn colours(text: &str) -> u8 {
    u8::from(text.contains('b')) | u8::from(text.contains('w')) << 1
}

pub(crate) fn colours_text(bits: u8) -> String {
    match bits & 3 {
        0 => "-".into(),
        1 => "b".into(),
        2 => "w".into(),
        _ => "bw".into(),
    }
}
