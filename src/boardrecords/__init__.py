"""records: verify, archive and replay game records of Go (Simplified Ing Rules), Conversion Go, Cation, Quentin
and Squer."""
