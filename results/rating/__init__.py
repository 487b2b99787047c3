"""Ratings from game records: the games frame (``load``: journals and CSV files), their counts
(``counts``), the joint maximum-likelihood fit with its error bars (``ratings``,
``finite_maximum``), the tables (``tables``), the grouped text reports (``report``) and the
repeated-games warning (``repeats``). pandas and numpy; no trio, no referee."""
