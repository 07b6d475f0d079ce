"""The archive as a whole, above its core and its indexes: the one analysis of a record that fills every part of
it."""
