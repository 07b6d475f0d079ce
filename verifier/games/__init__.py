"""One module per game, each exposing one Engine subclass."""
