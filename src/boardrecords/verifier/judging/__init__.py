"""Judging a record: the replay driver that plays a line through its game's engine, the declared result checked
against it, the verdict with its problems, the verdict vocabulary, and the one analysis every view renders."""
