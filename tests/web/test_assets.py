"""Static checks of the client's files: tile SVGs and the three dictionaries (no browser)."""

from __future__ import annotations

import importlib.util
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

from server.engine.riichi.yaku import YAKU_HAN, YAKUMAN_IDS

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web"
LANGS = ("en", "ja", "zh")
SVG_NS = "{http://www.w3.org/2000/svg}"

TILE_NAMES = (
    [f"{n}{s}" for s in "mps" for n in range(10)] + [f"{n}z" for n in range(1, 8)] + ["back"]
)


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("tile_generate", WEB / "tiles" / "generate.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _dicts() -> dict[str, dict[str, str]]:
    return {
        lang: json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        for lang in LANGS
    }


def test_r1_every_tile_face_has_an_svg_matching_the_generator(tmp_path: Path) -> None:
    # 34 faces + 3 red fives + the back; the committed files are the generator's output.
    assert len(TILE_NAMES) == 38
    written = _generator().write_all(tmp_path)
    assert sorted(written) == sorted(TILE_NAMES)
    for name in TILE_NAMES:
        committed = (WEB / "tiles" / f"{name}.svg").read_bytes()
        assert committed == (tmp_path / f"{name}.svg").read_bytes(), name


@pytest.mark.parametrize("name", TILE_NAMES)
def test_tile_svg_is_self_contained_vector_art(name: str) -> None:
    text = (WEB / "tiles" / f"{name}.svg").read_text(encoding="utf-8")
    root = ET.fromstring(text)
    assert root.tag == f"{SVG_NS}svg"
    assert root.get("viewBox") == "0 0 60 80"
    # No text (fonts differ between machines) and nothing fetched from elsewhere.
    assert root.find(f".//{SVG_NS}text") is None
    assert "href" not in text and "url(" not in text


def test_red_fives_differ_from_plain_fives() -> None:
    for s in "mps":
        plain = (WEB / "tiles" / f"5{s}.svg").read_text(encoding="utf-8")
        red = (WEB / "tiles" / f"0{s}.svg").read_text(encoding="utf-8")
        body = re.sub(r"<title>.*?</title>|aria-label=\"[^\"]*\"", "", red)
        assert body != re.sub(r"<title>.*?</title>|aria-label=\"[^\"]*\"", "", plain)


def test_dictionaries_have_the_same_keys_and_placeholders() -> None:
    d = _dicts()
    keys = set(d["en"])
    for lang in LANGS:
        assert set(d[lang]) == keys, (lang, set(d[lang]) ^ keys)
        for k, v in d[lang].items():
            assert v.strip(), (lang, k)
            assert set(re.findall(r"\{(\w+)\}", v)) == set(re.findall(r"\{(\w+)\}", d["en"][k])), (
                lang,
                k,
            )


def _rules_md_yaku_ids() -> set[str]:
    """Every canonical id in the rules reference's yaku section."""
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    section = text.split("## Canonical yaku ids", 1)[1].split("\n## ", 1)[0]
    ids: set[str] = set()
    for line in section.splitlines():
        if line.startswith("|") and not line.startswith("|---") and "han closed" not in line:
            cells = [c.strip() for c in line.strip("|").split("|")]
            for cell in cells[0::2]:
                for part in cell.split(","):
                    m = re.match(r"([a-z_]+)", part.strip())
                    if m:
                        ids.add(m.group(1))
    # The yakuman paragraph: "Yakuman (multiplier): kokushi (1; ...), suuankou (1; ...), ..."
    para = section.split("Yakuman (multiplier):", 1)[1].split("With double yakuman", 1)[0]
    ids.update(re.findall(r"([a-z_]+) \(", para))
    return ids


def test_every_canonical_yaku_id_is_translated() -> None:
    from_rules = _rules_md_yaku_ids()
    from_engine = set(YAKU_HAN) | set(YAKUMAN_IDS) | {"nagashi_mangan", "dora", "aka", "ura"}
    # The rules page and the engine agree on the ids; a miss here is a doc or code bug.
    assert from_engine <= from_rules, from_engine - from_rules
    assert len(from_rules) >= 46
    for lang, d in _dicts().items():
        missing = {y for y in from_rules | from_engine if f"yaku.{y}" not in d}
        assert not missing, (lang, missing)


def test_every_nanchang_scoring_element_and_preset_is_translated() -> None:
    """The result card names each element of server/engine/nanchang/scoring.py (shapes,
    ways of winning, 德国, payer factors) and of the settlement (冲关, 霸王精, joker kan)."""
    from server.engine import VARIANTS
    from server.engine.nanchang import scoring

    src = Path(scoring.__file__).read_text(encoding="utf-8")
    ids = set(scoring.FACTORS) | set(re.findall(r'Element\("([a-z_]+)"', src))
    ids |= set(re.findall(r'\("(tianhu|dihu)"', src)) | {"chongguan", "bawang", "joker_kan"}
    assert {"deguo", "jingdiao", "shisanlan", "zhuang", "dianpao", "tianhu"} <= ids
    presets = {p for v in VARIANTS.values() for p in v.presets}
    for lang, d in _dicts().items():
        assert {i for i in ids if f"nc_el.{i}" not in d} == set(), lang
        assert {p for p in presets if f"preset.{p}" not in d} == set(), lang
        assert {k for k in VARIANTS if f"game.{k}" not in d} == set(), lang
    zh = _dicts()["zh"]
    for i, name in (("deguo", "德国"), ("chongguan", "冲关"), ("bawang", "霸王精")):
        assert name in zh[f"nc_el.{i}"]
    assert zh["nc_el.jingdiao"] == "精吊"


def test_every_draw_reason_and_limit_is_translated() -> None:
    engine_md = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    line = next(ln for ln in engine_md.splitlines() if '{"reason": "exhaustive"' in ln)
    reasons = set(re.findall(r'"([a-z_]+)"', line)) - {"reason"}
    assert len(reasons) == 7
    limits = {"mangan", "haneman", "baiman", "sanbaiman", "yakuman", "kazoe"}
    for lang, d in _dicts().items():
        assert {r for r in reasons if f"draw.{r}" not in d} == set(), lang
        assert {x for x in limits if f"limit.{x}" not in d} == set(), lang


def test_every_literal_key_used_by_the_client_exists() -> None:
    en = _dicts()["en"]
    used: set[str] = set()
    history: set[str] = set()
    for js in (WEB / "js").glob("*.js"):
        text = js.read_text(encoding="utf-8")
        used |= set(re.findall(r"\bt\(\"([a-z_]+\.[a-z_0-9]+)\"", text))
        # The history and replay pages' s("key") is t("history.key").
        history |= {f"history.{k}" for k in re.findall(r"\bs\(\"([a-z_0-9]+)\"", text)}
    assert len(used) > 60 and len(history) > 30
    assert used - set(en) == set()
    assert history - set(en) == set()


def _server_error_codes() -> set[str]:
    """Every error code a route or the table sends (the client translates them by code)."""
    codes: set[str] = set()
    for py in (ROOT / "server").rglob("*.py"):
        text = py.read_text(encoding="utf-8")
        codes |= set(re.findall(r"api_error\(\s*\d+,\s*\"([a-z_]+)\"", text))
        codes |= set(re.findall(r"error_frame\(\s*\"([a-z_]+)\"", text))
        codes |= set(re.findall(r"LobbyError\(\s*\"([a-z_]+)\"", text))
    from server.api.lobbies import STATUS

    return codes | set(STATUS)


def test_every_user_facing_server_error_is_translated() -> None:
    # Codes a person can meet (the socket's protocol errors are the client's own bugs).
    protocol_only = {"bad_json", "unknown_type", "hello_required", "already_hello"}
    protocol_only |= {"hello_timeout"}
    codes = _server_error_codes() - protocol_only
    assert {"not_ready", "not_open", "lobby_full", "illegal_action", "bad_input"} <= codes
    for lang, d in _dicts().items():
        assert {c for c in codes if f"error.{c}" not in d} == set(), lang


def test_every_preset_and_bot_level_is_translated() -> None:
    from server.bots import LEVELS
    from server.engine.registry import VARIANTS

    presets = {p for v in VARIANTS.values() for p in v.presets}
    assert {"standard", "tenhou-sanma", "nanchang"} <= presets
    for lang, d in _dicts().items():
        assert {p for p in presets if f"preset.{p}" not in d} == set(), lang
        levels = {b for game in LEVELS.values() for b in game}
        assert {b for b in levels if f"bot.{b}" not in d} == set(), lang


def test_every_game_end_reason_is_translated() -> None:
    # the final screen says why the game ended: t(`end.${reason}`) (finalsummary.js)
    from server.engine.events import END_REASONS

    assert {"tobi", "last_round", "extension_limit", "rounds_done"} <= set(END_REASONS)
    for lang, d in _dicts().items():
        assert {r for r in END_REASONS if f"end.{r}" not in d} == set(), lang
