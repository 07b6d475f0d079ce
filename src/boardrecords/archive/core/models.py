"""The archive's tables: one row per record (`game`) and one per problem of its verdict (`problem`).

A game row keeps the record's original bytes (export gives them back byte for byte), the header as written, the
same names normalised for search, and the verdict. Every column a search filters or sorts on has an index.
"""

# No `from __future__ import annotations` here: SQLModel reads the annotations at class creation.

import datetime as dt

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    SmallInteger,
    String,
    Text,
    text,
)
from sqlmodel import Field, Relationship, SQLModel

# How much of the main line the indexed `opening` column keeps (about 40 moves): a B-tree entry must stay small
# (PostgreSQL refuses index rows over ~2.7 kB), and longer `--opening` prefixes are checked on `moves` itself.
OPENING_CHARS = 240


def _byte_ordered(length: int | None = None) -> String:
    """A text type compared byte by byte, so that a range on it is exactly a prefix search on both databases.

    SQLite compares with BINARY already; PostgreSQL's default collation (e.g. en_US) does not, hence "C" there.
    """
    base = String(length) if length else Text()
    return base.with_variant(String(length, collation="C") if length else Text(collation="C"), "postgresql")


# The columns of free text from a record (names, event, round) that searches compare for equality. A record may
# hold a name of any length, and PostgreSQL's B-tree cannot index a value past about 2,700 bytes (a third of a
# page): there these are hash indexes, which hold a 4-byte hash of the value whatever its length and serve `=` and
# `IN` as well (what the searches ask of them); the whole value is stored and compared. SQLite has no such limit:
# plain indexes there. (A sort by one of these columns is made by PostgreSQL from the rows, not read from an index.)
LONG_TEXT_COLUMNS = ("black_norm", "white_norm", "black_final_norm", "white_final_norm", "event_norm", "round",
                     "winner_norm")


def long_text_indexes() -> tuple[Index, ...]:
    return tuple(Index(f"ix_game_{c}", c, postgresql_using="hash") for c in LONG_TEXT_COLUMNS)


# Every winner of a game and size read from the index alone (a pattern search counts the wins of most games): the
# rows themselves would be read past the record's bytes, on the overflow pages of a long record.
WINNERS_INDEX = Index("ix_game_winners", "game", "size", "winner_colour", postgresql_include=["id"])


class GameRow(SQLModel, table=True):
    __tablename__ = "game"
    __table_args__ = (*long_text_indexes(), WINNERS_INDEX)

    id: int | None = Field(default=None, primary_key=True)
    sha256: str = Field(sa_column=Column(String(64), nullable=False, unique=True))
    raw: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    encoding: str = ""

    game: str = Field(index=True)
    size: int | None = Field(default=None, index=True)

    # Players as written: at the start (PB/PW) and at the end, after any pie swap.
    black: str | None = None
    white: str | None = None
    black_final: str | None = None
    white_final: str | None = None
    # The same names normalised for search (NFKC, casefold, collapsed spacing).
    black_norm: str | None = None  # indexed: LONG_TEXT_INDEXES
    white_norm: str | None = None  # indexed: LONG_TEXT_INDEXES
    black_final_norm: str | None = None  # indexed: LONG_TEXT_INDEXES
    white_final_norm: str | None = None  # indexed: LONG_TEXT_INDEXES
    black_rank: str | None = None
    white_rank: str | None = None

    event: str | None = None
    event_norm: str | None = None  # indexed: LONG_TEXT_INDEXES
    round: str | None = None  # indexed: LONG_TEXT_INDEXES
    date_raw: str | None = None  # DT exactly as written
    date_first: dt.date | None = Field(default=None, index=True)
    date_last: dt.date | None = Field(default=None, index=True)
    # Days from the first to the last date: its maximum bounds a date-range search on the `date_first` index.
    date_days: int | None = Field(default=None, index=True)
    place: str | None = None
    name: str | None = None  # GN
    komi: float | None = None
    handicap: int | None = None
    rules: str | None = None

    # Declared result: raw text, canonical form, method and winner; the computed result from the replay.
    result: str | None = None
    result_canonical: str | None = Field(default=None, index=True)
    result_method: str = Field(default="unknown", index=True)
    result_winner: str | None = None
    computed_result: str = "?"
    agrees: bool | None = None
    result_status: str = Field(default="undeclared", index=True)  # GEN-8: agrees, disagrees, unconfirmed, ...
    result_checked: bool = True
    result_note: str | None = None
    score_black: float | None = None  # the area score of the end (Go, Conversion Go)
    score_white: float | None = None

    winner_colour: str | None = Field(default=None, index=True)
    winner_player: str | None = None
    winner_norm: str | None = None  # indexed: LONG_TEXT_INDEXES
    swapped: bool = Field(default=False, index=True)
    swapper_colour: str | None = None  # the colour the swapper holds after the swap

    move_count: int = Field(default=0, index=True)
    moves_replayed: int = 0
    replayed: bool = True  # False when header errors kept the record from being replayed
    valid: bool = Field(default=False, index=True)
    passes: bool = False
    verdict: str = Field(default="invalid", index=True)  # pass, invalid, wrong-result (verifier/judging/status.py)
    end: str | None = None
    problem_count: int = 0  # the number of `problem` rows: lets a check prove no record was stored half

    source_file: str | None = None
    source_index: int = 0
    # Where `raw` starts in its file (line, column): the frame of the problems' positions, which `records reindex`
    # keeps (None: imported before it was kept; read as 1, 1).
    source_line: int | None = None
    source_column: int | None = None
    # The Dyer signature (verifier/keys/signature.py), normalised over the board's symmetries: Go and Conversion Go.
    signature: str | None = Field(default=None, index=True)
    # The keys of the same game stored twice (archive/core/line_keys.py): a 64-bit hash of the main line in its
    # canonical symmetry, and one of its first 20 moves (of the whole line when shorter), on which every copy and
    # every beginning meets its longer copy: only the head is indexed, the line's own hash is compared among the
    # few records that share a head. Both None for a line of no move.
    line_hash: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    head_hash: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True, index=True))

    moves: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))  # "B[pd];W[dp];..."
    opening: str = Field(default="", sa_column=Column(_byte_ordered(OPENING_CHARS), nullable=False, default="",
                                                      index=True))
    search_text: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))  # casefolded
    imported_at: dt.datetime = Field(default_factory=lambda: dt.datetime.now(dt.UTC))

    problems: list["ProblemRow"] = Relationship(
        back_populates="game_row",
        sa_relationship_kwargs={"order_by": "ProblemRow.id", "cascade": "all, delete-orphan"},
    )


class ProblemRow(SQLModel, table=True):
    __tablename__ = "problem"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(sa_column=Column(Integer, ForeignKey("game.id", ondelete="CASCADE"), nullable=False,
                                          index=True))
    code: str = Field(index=True)
    severity: str = "error"
    move: int | None = None
    point: str | None = None
    rule: str | None = Field(default=None, index=True)
    message: str = ""
    line: int | None = None
    column: int | None = None

    game_row: GameRow | None = Relationship(back_populates="problems")


class PositionRow(SQLModel, table=True):
    """One position of a record's main line (archive/positions/, docs/positions.md): its canonical key (game and
    size are part of it), the move number, the move played next in the key's frame, and what the explorer counts
    (`outcome` bits) and shows (`day`, the first date as YYYYMMDD), so that it reads no game row unless filtered.

    Clustered by key (SQLite: WITHOUT ROWID; the primary key leads with the key), so a position's rows lie
    together. Nothing else indexes it: a game's rows are found again by their keys when it is deleted (a game's
    count of rows and its opening are in `position_game`), and the table has no foreign key, which SQLite would
    follow by reading the whole table for every deleted game; a trigger on `game` stands in for it.
    """

    __tablename__ = "position"
    __table_args__ = ({"sqlite_with_rowid": False},)

    key: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    game_id: int = Field(sa_column=Column(Integer, primary_key=True, autoincrement=False))
    ply: int = Field(sa_column=Column(SmallInteger, primary_key=True, autoincrement=False))
    next: str | None = Field(default=None, sa_column=Column(String, nullable=True))
    outcome: int = Field(default=0, sa_column=Column(SmallInteger, nullable=False, default=0))
    day: int | None = Field(default=None, sa_column=Column(Integer, nullable=True))


class PositionGameRow(SQLModel, table=True):
    """What the position index holds of one game (archive/positions/stage.py): how many rows, so that a delete that
    finds the rows again by their keys knows it found them all, and the key after the opening turns
    (`OPENING_PLY`), which the opening table of Conversion Go reads instead of looking the game's rows up by game.
    Written by the merge for the games whose rows it moves into `position`; gone with those rows."""

    __tablename__ = "position_game"

    game_id: int = Field(sa_column=Column(Integer, primary_key=True, autoincrement=False))
    rows: int = Field(sa_column=Column(Integer, nullable=False))
    opening: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))


class PositionStageRow(SQLModel, table=True):
    """Position rows an import has stored beside their game rows but not yet merged into `position` and
    `position_count` (archive/positions/stage.py): appended in game order, which costs little, and merged in key order
    once the import run ends (or by the next command that writes, after an interrupted import)."""

    __tablename__ = "position_stage"
    __table_args__ = ({"sqlite_with_rowid": False},)

    game_id: int = Field(sa_column=Column(Integer, ForeignKey("game.id", ondelete="CASCADE"), primary_key=True,
                                          autoincrement=False))
    ply: int = Field(sa_column=Column(SmallInteger, primary_key=True, autoincrement=False))
    key: int = Field(sa_column=Column(BigInteger, nullable=False))
    next: str | None = Field(default=None, sa_column=Column(String, nullable=True))
    outcome: int = Field(default=0, sa_column=Column(SmallInteger, nullable=False, default=0))
    day: int | None = Field(default=None, sa_column=Column(Integer, nullable=True))


class PositionCountRow(SQLModel, table=True):
    """The position index summed per position and next move (archive/positions/counts.py): what an unfiltered `explore`
    shows, read in one indexed range however many games reached the position. `next` is '' where games ended.
    Kept by the import (added in the same transaction as the position rows) and by a trigger on deleted rows."""

    __tablename__ = "position_count"
    __table_args__ = ({"sqlite_with_rowid": False},)

    key: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    next: str = Field(sa_column=Column(String, primary_key=True))
    games: int = Field(default=0, sa_column=Column(Integer, nullable=False, default=0))
    black_wins: int = Field(default=0, sa_column=Column(Integer, nullable=False, default=0))
    white_wins: int = Field(default=0, sa_column=Column(Integer, nullable=False, default=0))
    draws: int = Field(default=0, sa_column=Column(Integer, nullable=False, default=0))
    mover_wins: int = Field(default=0, sa_column=Column(Integer, nullable=False, default=0))
    swapped: int = Field(default=0, sa_column=Column(Integer, nullable=False, default=0))
    swapper_wins: int = Field(default=0, sa_column=Column(Integer, nullable=False, default=0))
    last_day: int | None = Field(default=None, sa_column=Column(Integer, nullable=True))


class AliasRow(SQLModel, table=True):
    """One spelling made another player's (`records alias`): its identity key and the key of the player it is."""

    __tablename__ = "alias"

    key: str = Field(sa_column=Column(String(400), primary_key=True))
    canonical: str = Field(sa_column=Column(String(400), nullable=False, index=True))
    name: str = ""  # the spelling as the user gave it
    player: str = ""  # the player's name as the user gave it
    created_at: dt.datetime = Field(default_factory=lambda: dt.datetime.now(dt.UTC))


class GameVersionRow(SQLModel, table=True):
    """A version of a record that `records fix` replaced: its bytes as they were and the change that replaced
    them (version 1 is the record as imported)."""

    __tablename__ = "game_version"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(sa_column=Column(Integer, ForeignKey("game.id", ondelete="CASCADE"), nullable=False,
                                          index=True))
    version: int
    sha256: str = Field(sa_column=Column(String(64), nullable=False))
    raw: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    encoding: str = ""
    verdict: str = ""
    result_status: str = ""
    change: str = ""  # what replaced this version: "PB=Lee Sedol; RO=3"
    replaced_at: dt.datetime = Field(default_factory=lambda: dt.datetime.now(dt.UTC))


class PatternLineRow(SQLModel, table=True):
    """The change list of a record's main line for pattern search (archive/patterns/, docs/patterns.md): every
    change of a point's state with its move number, packed (`changes`), and the points each colour ever held
    (`black`, `white`: bit masks, little-endian), which let a search skip the games that cannot hold a pattern.
    One row per record that was replayed; `game` and `size` repeat the game row's so that a search reads this
    table alone when no other filter is given."""

    __tablename__ = "pattern_line"
    __table_args__ = (Index("ix_pattern_line_game_size", "game", "size"),)

    game_id: int = Field(sa_column=Column(Integer, ForeignKey("game.id", ondelete="CASCADE"), primary_key=True,
                                          autoincrement=False))
    game: str = Field(sa_column=Column(String, nullable=False))
    size: int = Field(sa_column=Column(SmallInteger, nullable=False))
    plies: int = Field(default=0, sa_column=Column(Integer, nullable=False, default=0))
    black: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    white: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    changes: bytes = Field(sa_column=Column(LargeBinary, nullable=False))


class ArchiveStateRow(SQLModel, table=True):
    """The archive's change marker: one row (id 1) whose `version` every writer moves in the transaction of its
    change (archive/core/state.py), so that a reader keeping answers knows by one small query whether they hold."""

    __tablename__ = "archive_state"

    id: int = Field(sa_column=Column(Integer, primary_key=True, autoincrement=False))
    version: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))


class PlayerNameRow(SQLModel, table=True):
    """Every normalised player name some record holds (in `black_norm`, `white_norm`, `black_final_norm`,
    `white_final_norm` or `winner_norm`), once: what a player-name wildcard is first matched against, through a
    trigram index (SQLite: the FTS5 table `player_name_text`; PostgreSQL: pg_trgm), before the games are read
    through the name columns' own indexes. Kept by triggers on `game` (archive/core/db.py) in the transaction of
    every import, fix and delete; a name no record holds any longer leaves with its last record."""

    __tablename__ = "player_name"
    # One row per name: on PostgreSQL by the MD5 of the name (a B-tree of the name itself could not hold a long
    # one, LONG_TEXT_COLUMNS), with a hash index for the lookups by name; on SQLite by the name.
    __table_args__ = (
        Index("player_name_name_key", "name", unique=True).ddl_if(dialect="sqlite"),
        Index("uq_player_name_md5", text("md5(name)"), unique=True).ddl_if(dialect="postgresql"),
        Index("ix_player_name_name", "name", postgresql_using="hash").ddl_if(dialect="postgresql"),
    )

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(sa_column=Column(Text, nullable=False))


class AccountRow(SQLModel, table=True):
    """A person who may sign in to a served archive (archive/store/accounts.py, docs/serve.md): a name, a role
    (`viewer`, `editor`, `admin`) and the argon2id hash of the password, never the password itself."""

    __tablename__ = "account"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(sa_column=Column(String(64), nullable=False, unique=True))
    role: str = Field(sa_column=Column(String(16), nullable=False))
    password_hash: str = Field(sa_column=Column(String(256), nullable=False))
    created_at: dt.datetime = Field(default_factory=lambda: dt.datetime.now(dt.UTC))
    # Moved by every change of the password: a session or a token made before it no longer holds.
    password_changed_at: dt.datetime = Field(default_factory=lambda: dt.datetime.now(dt.UTC))


class AccountKeyRow(SQLModel, table=True):
    """A key that stands for an account (archive/store/accounts.py): a browser's session (`kind` "session", with
    its CSRF token and an end) or a program's API token ("token", one per account, until it is replaced). Only the
    SHA-256 of each random key is stored: the key itself is given once, to whoever signed in."""

    __tablename__ = "account_key"

    id: int | None = Field(default=None, primary_key=True)
    account_id: int = Field(sa_column=Column(Integer, ForeignKey("account.id", ondelete="CASCADE"), nullable=False,
                                             index=True))
    kind: str = Field(sa_column=Column(String(16), nullable=False))
    key_hash: str = Field(sa_column=Column(String(64), nullable=False, unique=True))
    csrf_hash: str = Field(default="", sa_column=Column(String(64), nullable=False, default=""))
    created_at: dt.datetime = Field(default_factory=lambda: dt.datetime.now(dt.UTC))
    expires_at: dt.datetime | None = None  # None: until replaced or removed (an API token)


class ArchiveSettingRow(SQLModel, table=True):
    """A setting the archive keeps for whoever serves it (archive/store/accounts.py): `visibility` ("public": the
    anonymous visitor of `records serve --accounts` reads what a viewer reads; "private": nothing without signing
    in)."""

    __tablename__ = "archive_setting"

    name: str = Field(sa_column=Column(String(64), primary_key=True))
    value: str = Field(sa_column=Column(String(400), nullable=False))


class LoginFailureRow(SQLModel, table=True):
    """The failed logins of one account name or one address (archive/store/accounts.py, `records serve
    --accounts`): kept in the archive so that every process of a server counts them together. `key_hash` is the
    SHA-256 of `name:NAME` or `address:ADDRESS` (no address is stored in clear); `last_at` the time of the last
    failure (seconds since the epoch)."""

    __tablename__ = "login_failure"

    key_hash: str = Field(sa_column=Column(String(64), primary_key=True))
    failures: int = Field(sa_column=Column(Integer, nullable=False))
    last_at: float = Field(sa_column=Column(Float, nullable=False, index=True))


class AuditRow(SQLModel, table=True):
    """One change made through a served archive (archive/store/audit.py): who (an account's name), when, what
    (`action`: "login", "logout", "import"...), the records it concerned and what it found and left (JSON)."""

    __tablename__ = "audit"

    id: int | None = Field(default=None, primary_key=True)
    at: dt.datetime = Field(default_factory=lambda: dt.datetime.now(dt.UTC), index=True)
    who: str = Field(sa_column=Column(String(64), nullable=False, index=True))
    action: str = Field(sa_column=Column(String(32), nullable=False))
    ids: str = Field(default="[]", sa_column=Column(Text, nullable=False, default="[]"))  # JSON list of record ids
    before: str = Field(default="null", sa_column=Column(Text, nullable=False, default="null"))  # JSON
    after: str = Field(default="null", sa_column=Column(Text, nullable=False, default="null"))  # JSON


class RecordingRow(SQLModel, table=True):
    """A game being recorded as it is played (archive/store/recordings.py): its game, board and header (the root
    properties as JSON), where the line played stands (`tip`: its last move's row, None before the first move;
    `moves`: how many moves that line holds) and `revision`, moved by every change so that two writers of one
    game cannot both change the same position. Once finished, `record_id` is the archive's record."""

    __tablename__ = "recording"

    id: int | None = Field(default=None, primary_key=True)
    game: str = Field(sa_column=Column(String(32), nullable=False))
    size: int = Field(sa_column=Column(Integer, nullable=False))
    header: str = Field(default="{}", sa_column=Column(Text, nullable=False, default="{}"))  # JSON: ident -> values
    state: str = Field(default="playing", sa_column=Column(String(16), nullable=False, index=True))
    tip: int | None = None
    moves: int = 0
    revision: int = 0
    record_id: int | None = None
    verdict: str | None = None
    created_by: str | None = Field(default=None, sa_column=Column(String(64)))
    created_at: dt.datetime = Field(default_factory=lambda: dt.datetime.now(dt.UTC))
    updated_at: dt.datetime = Field(default_factory=lambda: dt.datetime.now(dt.UTC))


class RecordingMoveRow(SQLModel, table=True):
    """One move entered in a recording: a node of its tree (`parent`: the move before it, None for the first), so
    that a move undone and replaced stays as a variation. The value as the record format writes it (FMT-12), with
    what the node may carry beside it: a comment, the clocks after the move (`BL`/`WL`, seconds), the time of day
    it was entered, and the end-of-game marks of a final pass (`TB`/`TW`, SGF points)."""

    __tablename__ = "recording_move"

    id: int | None = Field(default=None, primary_key=True)
    recording_id: int = Field(sa_column=Column(Integer, ForeignKey("recording.id", ondelete="CASCADE"),
                                               nullable=False, index=True))
    parent: int | None = None
    number: int = Field(sa_column=Column(Integer, nullable=False))
    colour: str = Field(sa_column=Column(String(1), nullable=False))
    value: str = Field(default="", sa_column=Column(String(16), nullable=False, default=""))
    comment: str | None = Field(default=None, sa_column=Column(Text))
    black_time: float | None = None
    white_time: float | None = None
    marks_black: str | None = Field(default=None, sa_column=Column(Text))  # SGF points, space-separated
    marks_white: str | None = Field(default=None, sa_column=Column(Text))
    entered_at: dt.datetime = Field(default_factory=lambda: dt.datetime.now(dt.UTC))
