"""A Go score that disagrees with the area count (ING-6) but is what another ruleset counts on the same final
position: territory counting (Japanese) or the handicap compensation of the AGA or Chinese rules. The verdict stays
what the rules decide (ING-9); the note and `result.explained` say which counting gives the declared score."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from boardrecords.records.reader import read_bytes
from boardrecords.verifier.judging.results import COMPENSATION, MARKED, TERRITORY, Explanation
from boardrecords.verifier.judging.status import ResultStatus, VerdictClass
from boardrecords.verifier.judging.verdict import Verdict, verify
from boardrecords.verifier.rules.engine import Score

from ..shared import CORPUS, run

# 9x9: a black wall on column d, a white one on column f; column e is neutral. Black owns columns a-c (27 points),
# White columns g-i. Then Black plays ha inside White's side and White captures it (one prisoner for White, three
# white stones on White's own territory), and White's bb is left dead in Black's side, removed by the agreement.
WALLS = "".join(f";B[d{r}];W[f{r}]" for r in "abcdefghi")
ENDING = ";B[ha];W[ga];B[];W[ia];B[];W[hb];B[];W[bb];B[];W[]TB[bb]"
# Area (ING-6): Black 9 stones + 27, White 12 stones + 24: 36 to 36, with komi 6.5 W+6.5.
# Territory: Black 27 points and 1 prisoner (bb), White 24 points and 1 prisoner (ha): 28 to 25, W+3.5.


def judged(text: str) -> Verdict:
    records = read_bytes(text.encode(), "test.sgf")
    assert len(records) == 1
    return verify(records[0])


def game(header: str) -> Verdict:
    return judged(f"(;GM[1]SZ[9]KM[6.5]{header}{WALLS}{ENDING})")


# White moves first after Black's three handicap stones bb, be, bh on Black's side; both walls, then the agreement.
HANDICAP_WALLS = "".join(f";W[f{r}];B[d{r}]" for r in "abcdefghi")
# Area: Black 12 stones + 24, White 9 + 27: 36 to 36, KM 0.5: W+0.5. The AGA rules give White 2 more (W+2.5), the
# Chinese rules 3 more (W+3.5); territory counting gives 24 to 27 (W+3.5).


def handicap_game(header: str) -> Verdict:
    return judged(f"(;GM[1]SZ[9]HA[3]AB[bb][be][bh]KM[0.5]{header}{HANDICAP_WALLS};W[];B[]TB[])")


def test_a_territory_count_is_explained_and_names_ru_japanese():
    v = game("RE[W+3.5]")
    assert v.computed == "W+6.5" and (v.score.black, v.score.white) == (36, 36)
    assert v.verdict is VerdictClass.WRONG_RESULT and v.status is ResultStatus.DISAGREES  # the rules decide
    assert v.result_note == (
        "the score gives W+6.5; W+3.5 is what territory counting gives on this final position (Black 27 points of "
        "territory and 1 prisoner, White 24 and 1, komi 6.5): with RU[Japanese] the record would agree (ING-9)")
    assert v.result_explained == Explanation("Japanese", TERRITORY, Score(28, 25, 6.5), True)
    # What the sentence says holds: under RU[Japanese] the same record passes (ING-9 judges the form only).
    japanese = game("RU[Japanese]RE[W+3.5]")
    assert japanese.status is ResultStatus.KIND_ONLY and japanese.passes and japanese.result_explained is None


def test_a_territory_count_under_an_area_ruleset_is_explained_too():
    v = game("RU[Chinese]RE[W+3.5]")
    assert v.verdict is VerdictClass.WRONG_RESULT and v.result_explained is not None
    assert v.result_explained.ruleset == "Japanese" and "with RU[Japanese] the record would agree" in v.result_note


def test_an_aga_handicap_count_is_explained_and_names_ru_aga():
    v = handicap_game("RU[AGA]RE[W+2.5]")
    assert v.computed == "W+0.5"
    assert v.verdict is VerdictClass.WRONG_RESULT and v.status is ResultStatus.DISAGREES  # ING-9 checks AGA by ING-6
    assert v.result_note == (
        "the score gives W+0.5; W+2.5 is what the AGA rules' handicap compensation gives on this final position (the "
        "area count, Black 36 and White 36, and White 2 more, one point for each handicap stone after the first; "
        "komi 0.5): RU[AGA] counts so, but ING-9 checks its scores by the area count with komi alone (ING-6)")
    assert v.result_explained == Explanation("AGA", COMPENSATION, Score(36, 38, 0.5), False)
    # Without RU the record is judged the same way, and the AGA count still explains it.
    bare = handicap_game("RE[W+2.5]")
    assert bare.verdict is VerdictClass.WRONG_RESULT and bare.result_explained == v.result_explained


def test_the_ruleset_the_record_names_is_tried_first():
    # W+3.5 is both the Chinese compensation and the territory count: RU[Chinese] names the Chinese one.
    chinese = handicap_game("RU[Chinese]RE[W+3.5]")
    assert chinese.result_explained is not None and chinese.result_explained.ruleset == "Chinese"
    assert "one point for each handicap stone; komi 0.5): RU[Chinese] counts so" in (chinese.result_note or "")
    # Without RU, territory counting comes first.
    bare = handicap_game("RE[W+3.5]")
    assert bare.result_explained is not None and bare.result_explained.counting == TERRITORY


def test_a_disagreement_no_counting_explains_says_what_it_said():
    v = game("RE[W+4.5]")
    assert v.verdict is VerdictClass.WRONG_RESULT
    assert v.result_note == "the score gives W+6.5" and v.result_explained is None
    # No handicap: the compensations are not tried (HA below 2 gives none).
    assert handicap_game("RE[W+1.5]").result_explained is None
    # A resignation declared on a game ended by passes is another matter: nothing is counted for it.
    resigned = game("RE[B+R]")
    assert resigned.status is ResultStatus.DISAGREES and resigned.result_explained is None


def test_the_territory_the_agreements_marks_state_explains_a_score():
    # ING-7: the marks state Black's territory as bb and ab only (the TW marks none): 2 + 1 prisoner to 0 + 1.
    v = judged(f"(;GM[1]SZ[9]KM[6.5]RE[W+4.5]{WALLS};B[ha];W[ga];B[];W[ia];B[];W[hb];B[];W[bb];B[];W[]TB[bb][ab])")
    assert v.result_explained == Explanation("Japanese", MARKED, Score(3, 1, 6.5), True)
    assert "(the TB/TW marks give Black 2 points of territory and White 0; prisoners 1 and 1, komi 6.5)" in (
        v.result_note or "")
    # Marks that name only the dead stone they remove (TB[bb]) state no territory: 1 + 1 to 0 + 1 is not tried.
    assert game("RE[W+5.5]").result_explained is None


def test_an_unmarked_stop_stays_unconfirmed_with_its_note():
    # GEN-8 (b): without TB/TW marks nothing is known of the removals; no other counting is offered.
    v = judged(f"(;GM[1]SZ[9]KM[6.5]RE[W+3.5]{WALLS};B[];W[])")
    assert v.status is ResultStatus.UNCONFIRMED and v.result_explained is None


def test_verify_json_carries_the_explanation(tmp_path: Path):
    path = tmp_path / "territory.sgf"
    path.write_text(f"(;GM[1]SZ[9]KM[6.5]RE[W+3.5]{WALLS}{ENDING})")
    done = run("verify", "--json", path)
    assert done.exit_code == 1
    result = json.loads(done.stdout)["result"]
    assert result["explained"] == {"ruleset": "Japanese", "counting": "territory", "gives": "W+3.5",
                                   "ru_agrees": True, "score": {"black": 28, "white": 25, "komi": 6.5}}
    assert "with RU[Japanese] the record would agree (ING-9)" in result["note"]
    path.write_text(f"(;GM[1]SZ[9]KM[6.5]RE[W+4.5]{WALLS}{ENDING})")
    assert json.loads(run("verify", "--json", path).stdout)["result"]["explained"] is None


def test_the_explanation_survives_the_verdicts_json():
    v = game("RE[W+3.5]")
    again = Verdict.from_json(v.to_json())
    assert again.result_explained == v.result_explained and again.to_json() == v.to_json()


@pytest.mark.corpus
@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"Go corpus absent ({CORPUS})")
def test_the_corpus_wrong_results_that_other_countings_explain(capsys):
    done = run("verify", "--json", CORPUS)
    found = [json.loads(line) for line in done.stdout.splitlines()]
    wrong = [v for v in found if v["verdict"] == "wrong-result"]
    by = Counter((v["result"]["explained"] or {}).get("ruleset", "none") for v in wrong)
    with capsys.disabled():
        print(f"\ncorpus wrong-result records: {len(wrong)}; explained by: {dict(by)}")
    assert len(wrong) == 16  # the verdicts stay what the rules decide
    # KGS's AGA handicap games: the margin is the area count with White's handicap compensation.
    aga = [v for v in wrong if "/kgs/" in v["file"] and v["result"]["declared"][:2] in ("B+", "W+")
           and v["result"]["checked"]]
    assert len(aga) == 9 and all(v["result"]["explained"]["ruleset"] == "AGA" for v in aga)
    # A Japanese professional game without RU (the 27th Meijin): territory counting, as its marks state it.
    meijin = next(v for v in wrong if v["file"].endswith("meijin27-g4.sgf"))
    assert meijin["result"]["explained"]["ruleset"] == "Japanese"
    assert "with RU[Japanese] the record would agree (ING-9)" in meijin["result"]["note"]
    assert by == {"AGA": 9, "Japanese": 3, "none": 4}
    # What is left unexplained is not a score: a resignation declared on a game ended by passes.
    assert all(not v["result"]["declared"][-1].isdigit() for v in wrong if v["result"]["explained"] is None)
