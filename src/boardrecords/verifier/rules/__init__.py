"""The rules engines: the interface every engine implements (engine.py), which engine plays which game
(registry.py), what every engine needs of a board size (grid.py), the connection games' chains (chains.py), and
one module per game, each exposing one Engine subclass."""
