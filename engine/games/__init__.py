"""The five games, one subpackage each; each exports ``RULES`` (its GameInfo)."""
