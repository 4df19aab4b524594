"""docs/errors.md lists exactly the identifiers nnbridge/error.h declares, with the same numbers, and each
number's hundreds digit is its code (the rule docs/errors.md states)."""

import re

from conftest import ROOT

HEADER = ROOT / "sdk" / "core" / "include" / "nnbridge" / "error.h"
DOC = ROOT / "docs" / "errors.md"
CODE_OF_HUNDRED = {1: "io", 2: "malformed", 3: "unsupported", 4: "invalid", 5: "backend"}


def declared():
    text = HEADER.read_text()
    body = text[text.index("enum class ErrorId"):]
    body = body[: body.index("};")]
    return {name: int(num) for name, num in re.findall(r"^\s*(\w+) = (\d+),", body, re.M)}


def documented():
    rows = re.findall(r"^\| `nnbridge\.(\w+)\.(\d+)` \| `(\w+)` \| (.+?) \|$", DOC.read_text(), re.M)
    return {name: (code, int(num), meaning) for code, num, name, meaning in rows}


def test_every_declared_identifier_is_documented_with_its_number():
    ids, doc = declared(), documented()
    assert len(ids) >= 30  # the enum parsed (a regex that matched nothing would pass the rest)
    assert set(ids) == set(doc)
    for name, num in ids.items():
        code, doc_num, meaning = doc[name]
        assert doc_num == num, name
        assert code == CODE_OF_HUNDRED[num // 100], name
        assert meaning.strip()


def test_numbers_are_unique_and_each_code_has_an_other():
    ids = declared()
    assert len(set(ids.values())) == len(ids)
    assert {n for n in ids.values() if n % 100 == 0} == {100, 200, 300, 400, 500}
