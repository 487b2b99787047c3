"""The errors of the rules layer, each naming who is at fault."""


class RulesError(ValueError):
    """Base class of everything the rules layer raises on bad input."""


class InvalidNotation(RulesError):
    """A token is not one of the forms the current game defines (`syntax error`)."""


class IllegalMove(RulesError):
    """A well-formed action that the rules forbid now (`illegal move`)."""


class InvalidPosition(RulesError):
    """A position string that cannot be read or describes no legal state."""


class UnknownGame(RulesError):
    """A game id that is not one of the five, or not playable yet."""


class UnknownVariant(RulesError):
    """A balance, option or value the game does not define."""
