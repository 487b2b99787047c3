//! The engine kit: the rules of the five hexarena games as a library for engine authors.
//!
//! [`Game`] is one game's state under one variant: its legal actions, playing an action
//! (with the rules' reason for a refusal), the end and the winner, action notation both
//! ways, position strings both ways (HGP's `position` / `set_position`) and random
//! playouts. It answers exactly as hexarena's Python rules (`engine/`) do; a differential
//! test holds the two together.
//!
//! ```
//! use hexarena_core::kit::{Game, Colour};
//! let mut g = Game::new("spelde", 5, "nopie").unwrap();
//! let first = g.legal_actions().unwrap()[0].clone();
//! g.play(&first).unwrap();
//! assert_eq!(g.to_move(), Colour::White);
//! let again = Game::from_position(&g.position()).unwrap();
//! assert_eq!(again.position(), g.position());
//! ```
//!
//! Versioning: [`API_VERSION`] is the one number of the three kits (Rust, C, Python);
//! see docs/engines.md.

mod action;
mod position;
mod rules;

pub use action::{Action, Refusal, Site};
pub use position::Position;

use crate::geometry::{hexagon, Hexagon};
use crate::rng::Rng;
use rules::{Rules, SPECS};

/// The kits' API version, `MAJOR.MINOR`: a minor step adds to the API, a major step
/// changes or removes something an engine may use.
pub const API_VERSION: &str = "1.1";

/// The games' ids, in HGP `list_games` order.
pub const GAMES: [&str; 5] = ["anda", "anda-prison", "spelde", "vaxandis", "marbanta"];

/// The answer to `legal_moves` holds at most this many actions (HGP `too many moves`).
pub const MAX_ACTIONS: usize = 100_000;

/// The answer to `legal_moves` holds at most this many bytes (HGP `too many moves`: Spelde's
/// flip sets reach it with fewer than [`MAX_ACTIONS`] actions).
pub const MAX_LEGAL_BYTES: usize = 1_000_000;

/// A player's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    Black,
    White,
}

impl Colour {
    /// 0 for Black, 1 for White.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The colour of index 0 (Black) or 1 (White).
    pub fn from_index(i: usize) -> Colour {
        if i == 0 { Colour::Black } else { Colour::White }
    }

    /// `b` or `w`.
    pub fn letter(self) -> char {
        if self == Colour::Black { 'b' } else { 'w' }
    }
}

/// How a game ended: the winner (None: a draw) and, for an agreed Anda-prison ending,
/// twice the margin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub winner: Option<usize>,
    pub margin2: Option<u32>,
}

impl Outcome {
    /// The winner's colour, None for a draw.
    pub fn winner(&self) -> Option<Colour> {
        self.winner.map(Colour::from_index)
    }

    /// HGP's `final_score`: `B+`, `W+`, `B+2.5`, or `0` for a draw.
    pub fn score(&self) -> String {
        let Some(w) = self.winner else { return "0".into() };
        let side = if w == 0 { 'B' } else { 'W' };
        match self.margin2 {
            Some(m) if m % 2 == 0 => format!("{side}+{}", m / 2),
            Some(m) => format!("{side}+{}.5", m / 2),
            None => format!("{side}+"),
        }
    }
}

/// Why a game could not be made: HGP's `unknown game`, `unknown variant`,
/// `unacceptable size`, `invalid position`, with the detail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    UnknownGame(String),
    UnknownVariant(String),
    UnacceptableSize(usize),
    InvalidPosition(String),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::UnknownGame(g) => write!(f, "unknown game: {g:?}"),
            Error::UnknownVariant(why) => write!(f, "unknown variant: {why}"),
            Error::UnacceptableSize(n) => write!(f, "unacceptable size: {n} outside 2..13"),
            Error::InvalidPosition(why) => write!(f, "invalid position: {why}"),
        }
    }
}

impl std::error::Error for Error {}

/// One game's state under one variant. Cheap to clone; `play` changes it in place.
pub struct Game {
    rules: Box<dyn Rules>,
    /// `variant` and the options, as position keys.
    variant: Vec<(&'static str, String)>,
    spec: &'static position::Spec,
}

impl Clone for Game {
    fn clone(&self) -> Game {
        Game { rules: self.rules.boxed(), variant: self.variant.clone(), spec: self.spec }
    }
}

impl std::fmt::Debug for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Game({})", self.position())
    }
}

fn spec(id: &str) -> Result<&'static position::Spec, Error> {
    let id = id.to_ascii_lowercase();
    SPECS.iter().copied().find(|s| s.id == id).ok_or_else(|| Error::UnknownGame(action::shown(&id)))
}

impl Game {
    /// The initial position of `game` (an id of [`GAMES`]) on the board of side `size`
    /// under `variant`: HGP `game` arguments, a balance and OPTION=VALUE tokens in any
    /// order (`""` for the defaults, `"nopie opening=cells"`). Komi 0.
    pub fn new(game: &str, size: usize, variant: &str) -> Result<Game, Error> {
        Game::with_komi(game, size, variant, 0)
    }

    /// [`Game::new`] with HGP's `komi` setting (Anda: White's passes, Anda-prison: black
    /// stones in the prison at the start; it counts without the pie only).
    pub fn with_komi(game: &str, size: usize, variant: &str, komi: u32) -> Result<Game, Error> {
        let spec = spec(game)?;
        if !(2..=13).contains(&size) {
            return Err(Error::UnacceptableSize(size));
        }
        let chosen = variant_keys(spec, variant)?;
        let balance = chosen[0].1.clone();
        let mut pos = Position { game: spec.id.into(), size, to_move: 0, stacks: Vec::new(), keys: spec.defaults() };
        for (k, v) in &chosen {
            pos.set(k, v.clone());
        }
        let pie = balance == "pie";
        let sites = hexagon(size).site_count() as u32;
        match spec.id {
            "anda" => {
                pos.set("phase", if pie { "offer" } else { "play" });
                pos.set("first", "bw");
                if !pie {
                    pos.set("komi", komi.min(sites).to_string());
                }
            }
            "anda-prison" => {
                pos.set("first", "bw");
                match balance.as_str() {
                    "pie" => pos.set("phase", "pair"),
                    b => {
                        pos.set("phase", if b == "corners" { "corners" } else { "play" });
                        pos.set("komi", komi.min(sites).to_string());
                        pos.set("prison", format!("{},0", komi.min(sites)));
                    }
                }
            }
            "marbanta" => pos.set("phase", "pie"),
            _ => pos.set("phase", if pie { "open" } else { "play" }),
        }
        Game::from_parts(spec, &pos)
    }

    /// The game a position string describes (HGP `set_position`): any well-formed position,
    /// reachable or not, taken as written.
    pub fn from_position(text: &str) -> Result<Game, Error> {
        let id = text.split_whitespace().next().ok_or_else(|| {
            Error::InvalidPosition("expected GAME SIZE TO_MOVE BOARD [KEY=VALUE ...]".into())
        })?;
        let spec = spec(id).map_err(|_| Error::InvalidPosition(format!("unknown game {}", action::quoted(id))))?;
        let pos = position::parse(text, spec)?;
        Game::from_parts(spec, &pos)
    }

    fn from_parts(spec: &'static position::Spec, pos: &Position) -> Result<Game, Error> {
        let rules = rules::from_position(pos)?;
        let n_opts = 1 + spec.options.len();
        let variant = pos.keys.iter().take(n_opts).map(|(k, v)| (*k, v.clone())).collect();
        Ok(Game { rules, variant, spec })
    }

    /// The canonical position string (HGP `position`).
    pub fn position(&self) -> String {
        position::format(&self.to_position(), self.spec)
    }

    /// The position as a value: the stones and every key.
    pub fn to_position(&self) -> Position {
        let mut pos = Position {
            game: self.spec.id.into(), size: self.size(), to_move: self.rules.to_move(), stacks: Vec::new(),
            keys: self.spec.defaults(),
        };
        for (k, v) in &self.variant {
            pos.set(k, v.clone());
        }
        self.rules.describe(&mut pos);
        pos
    }

    /// The stones into `now` (one entry per bit of the board: 0 empty, else colour + 1 +
    /// (height << 2)) and the phase's word (the position's `phase` key): a replay's reading of
    /// each ply, cheaper than [`Game::to_position`].
    pub(crate) fn glance(&self, now: &mut [u32]) -> &'static str {
        self.rules.glance(now)
    }

    /// The value of the position key `name` (its default when the game has it unset).
    pub(crate) fn key(&self, name: &str) -> String {
        self.rules.key(name).unwrap_or_else(|| self.to_position().key(name).to_string())
    }

    /// The game's id.
    pub fn id(&self) -> &'static str {
        self.spec.id
    }

    /// The board's side.
    pub fn size(&self) -> usize {
        self.rules.geo().n
    }

    /// HGP `game` with no arguments: `ID BALANCE [OPTION=VALUE ...]`, options off their default.
    pub fn variant(&self) -> String {
        let mut out = vec![self.spec.id.to_string(), self.variant[0].1.clone()];
        for ((k, v), (_, values)) in self.variant[1..].iter().zip(self.spec.options) {
            if v != values[0] {
                out.push(format!("{k}={v}"));
            }
        }
        out.join(" ")
    }

    /// The colour to move.
    pub fn to_move(&self) -> Colour {
        Colour::from_index(self.rules.to_move())
    }

    /// Actions played since the start (the position's `ply`).
    pub fn ply(&self) -> u32 {
        self.rules.ply()
    }

    /// None while the game goes on, else how it ended by the rules.
    pub fn outcome(&self) -> Option<Outcome> {
        self.rules.outcome()
    }

    /// Every legal action of the side to move (empty once the game is over); None when there
    /// are more than [`MAX_ACTIONS`] (Spelde's flip sets).
    pub fn legal_actions(&self) -> Option<Vec<Action>> {
        self.rules.actions(MAX_ACTIONS)
    }

    /// HGP's answer to `legal_moves`: every legal action's canonical token, separated by single
    /// spaces (empty once the game is over); None (HGP `too many moves`) when there are more than
    /// [`MAX_ACTIONS`] actions or the answer would hold more than [`MAX_LEGAL_BYTES`] bytes.
    pub fn legal_moves(&self) -> Option<String> {
        let mut out = String::new();
        for a in self.legal_actions()? {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&self.format(&a));
            if out.len() > MAX_LEGAL_BYTES {
                return None;
            }
        }
        Some(out)
    }

    /// The legal actions when there are at most `cap`, else None.
    pub fn legal_actions_upto(&self, cap: usize) -> Option<Vec<Action>> {
        self.rules.actions(cap)
    }

    /// The sites where the side to move can place a single stone now (HGP `legal_cells`),
    /// in notation order.
    pub fn legal_cells(&self) -> Vec<Site> {
        self.rules.legal_cells()
    }

    /// The action a token names (HGP notation, any case); a [`Refusal`] when the token is
    /// not a form of this game (`Syntax`) or names a site off the board or twice (`Illegal`).
    /// Parsing does not judge legality now: [`Game::check`] does.
    pub fn parse(&self, token: &str) -> Result<Action, Refusal> {
        action::parse(self.geo(), self.rules.forms(), token)
    }

    /// The action's canonical token.
    pub fn format(&self, action: &Action) -> String {
        action::format(self.geo(), action)
    }

    /// The site's name (`e5`); None for a bit that is no cell of this board (see [`Game::is_site`]).
    pub fn site_name(&self, site: Site) -> Option<String> {
        self.is_site(site).then(|| action::name(self.geo(), site))
    }

    /// Whether `site` (a bit, `row * 2n + column`) is a cell of this board: the bits
    /// between the rows' ends, and past the last, name none.
    pub fn is_site(&self, site: Site) -> bool {
        self.geo().is_site(usize::from(site))
    }

    /// Whether the rules allow `action` now; the refusal when they do not.
    pub fn check(&self, action: &Action) -> Result<(), Refusal> {
        self.next(action).map(|_| ())
    }

    fn next(&self, action: &Action) -> Result<Box<dyn Rules>, Refusal> {
        // before the rules, which index their boards by the sites
        if let Some(site) = action::off_board(self.geo(), action) {
            return Err(Refusal::Illegal(format!("{site} is not a site of this board")));
        }
        let over = self.outcome().is_some();
        if let Some(next) = (!over).then(|| self.rules.play(action)).flatten() {
            return Ok(next);
        }
        Err(Refusal::Illegal(self.rules.why(action).unwrap_or_else(|| match over {
            true => "the game is over".into(),
            false => format!("{} is not a legal action of {} now", self.format(action),
                             if self.rules.to_move() == 0 { "black" } else { "white" }),
        })))
    }

    /// Plays `action` for the side to move; on a refusal the game is unchanged.
    pub fn play(&mut self, action: &Action) -> Result<(), Refusal> {
        self.rules = self.next(action)?;
        Ok(())
    }

    /// Parses and plays a token.
    pub fn play_token(&mut self, token: &str) -> Result<Action, Refusal> {
        let action = self.parse(token)?;
        self.play(&action)?;
        Ok(action)
    }

    /// A random legal action by the built-in random player's distribution (uniform over the
    /// turn's choices), seeded; None once the game is over.
    pub fn random_action(&self, seed: u64) -> Option<Action> {
        self.rules.random_action(&mut Rng::new(seed))
    }

    /// Random actions from this position until the rules end the game or the ply reaches
    /// `cap`; the game is left at the last position. Returns the outcome (None at the cap)
    /// and the number of `swap`s played.
    pub fn random_playout(&mut self, cap: u32, seed: u64) -> (Option<Outcome>, u32) {
        let swaps = self.rules.playout(cap, &mut Rng::new(seed));
        (self.outcome(), swaps)
    }

    fn geo(&self) -> &'static Hexagon {
        self.rules.geo()
    }
}

/// The position keys of `game` arguments (HGP "Variants"): variant, then the options.
fn variant_keys(spec: &position::Spec, text: &str) -> Result<Vec<(&'static str, String)>, Error> {
    let mut balance: Option<String> = None;
    let mut chosen: Vec<(&'static str, String)> = Vec::new();
    for tok in text.split_whitespace() {
        let t = tok.to_ascii_lowercase();
        if let Some((key, value)) = t.split_once('=') {
            let Some((name, values)) = spec.options.iter().find(|(k, _)| *k == key) else {
                return Err(Error::UnknownVariant(format!("{} has no option {}", spec.id, action::quoted(key))));
            };
            if !values.contains(&value) {
                return Err(Error::UnknownVariant(format!("{}={}: expected one of {}", action::shown(key), action::shown(value), values.join(", "))));
            }
            if chosen.iter().any(|(k, _)| k == name) {
                return Err(Error::UnknownVariant(format!("option {} given twice", action::quoted(key))));
            }
            chosen.push((name, value.to_string()));
        } else if spec.balances.contains(&t.as_str()) {
            if balance.is_some() {
                return Err(Error::UnknownVariant("balance given twice".into()));
            }
            balance = Some(t);
        } else {
            return Err(Error::UnknownVariant(format!("{} is neither a balance ({}) nor an option",
                                                     action::quoted(tok), spec.balances.join(", "))));
        }
    }
    let mut out = vec![("variant", balance.unwrap_or_else(|| spec.balances[0].to_string()))];
    for (name, values) in spec.options {
        let v = chosen.iter().find(|(k, _)| k == name).map_or(values[0].to_string(), |(_, v)| v.clone());
        out.push((name, v));
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
