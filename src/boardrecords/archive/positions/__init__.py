"""The position index (docs/positions.md): every position of each record's main line under its canonical key, the
counts summed per position and next move, and the questions `records explore` asks of them.

values.py makes a record's rows (in the import's workers), stage.py writes them (through a stage merged in key
order), counts.py holds the statements of the counts table, explore.py answers the questions.
"""
