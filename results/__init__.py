"""Game records and everything computed from them (ratings, tables). Never imports trio."""
