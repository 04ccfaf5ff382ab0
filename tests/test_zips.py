"""The zip core both zip policies share: safe names and bounded copies."""
import zipfile

import pytest

from autograder.zips import TooLarge, copy_member, member_name, safe_parts


@pytest.mark.parametrize("name", ["../evil.py", "/etc/passwd", "a/../../b.py", "C:/x.py", ""])
def test_is_a_member_leaving_its_folder_refused(name):
    assert safe_parts(name) is None


def test_is_a_nested_member_kept_as_its_parts():
    assert safe_parts("hw/micrograd/engine.py") == ("hw", "micrograd", "engine.py")


def test_is_a_utf8_name_without_the_flag_mended(tmp_path):
    info = zipfile.ZipInfo("Zoë/engine.py".encode("utf-8").decode("cp437"))
    assert member_name(info) == "Zoë/engine.py"


def test_does_a_copy_stop_at_its_limit_whatever_the_header_says(tmp_path):
    archive = tmp_path / "a.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("big.py", "0" * 100_000)
    with zipfile.ZipFile(archive) as zf:
        with pytest.raises(TooLarge):
            copy_member(zf, zf.infolist()[0], tmp_path / "out" / "big.py", limit=10_000)
        assert copy_member(zf, zf.infolist()[0], tmp_path / "ok.py", limit=100_000) == 100_000
