"""The result cache's store (``promolint.driver.cache.ResultCache``) on its own: entries found again
by a later store of the same version and settings, none for other settings or another version,
a damaged file read as empty, an unwritable place costing nothing but the cache.  What a cached
run reports is tests/driver/test_cache.py's."""

from __future__ import annotations

import hashlib
import json

import pytest

import promolint.driver.cache
from promolint.driver.cache import ResultCache, content_key

ROWS = [["a.py", 2, 5, "PRM006", "1000 does not fit int8"]]


def test_an_entry_saved_is_found_by_the_next_store_of_the_same_settings(tmp_path) -> None:
    store = ResultCache(tmp_path, "x64=off")
    store.put("k1", ROWS)
    store.save()
    again = ResultCache(tmp_path, "x64=off")
    assert "k1" in again and again.get("k1") == ROWS


def test_a_key_never_put_is_a_miss(tmp_path) -> None:
    store = ResultCache(tmp_path, "x64=off")
    assert "k1" not in store and store.get("k1") is None


def test_other_settings_read_another_file(tmp_path) -> None:
    store = ResultCache(tmp_path, "x64=off")
    store.put("k1", ROWS)
    store.save()
    other = ResultCache(tmp_path, "x64=on")
    assert other.path != store.path and other.get("k1") is None


def test_another_promolint_version_reads_another_file(tmp_path, monkeypatch) -> None:
    store = ResultCache(tmp_path, "x64=off")
    store.put("k1", ROWS)
    store.save()
    monkeypatch.setattr(promolint.driver.cache, "__version__", "0.0.0-another")
    upgraded = ResultCache(tmp_path, "x64=off")
    assert upgraded.path != store.path and upgraded.get("k1") is None


@pytest.mark.parametrize("damage", ["{not json", "[1, 2]", '{"results": [1]}', '{"files": "x"}', ""])
def test_a_damaged_file_reads_as_empty_and_is_written_whole_again(tmp_path, damage) -> None:
    store = ResultCache(tmp_path, "x64=off")
    store.path.parent.mkdir(parents=True, exist_ok=True)
    store.path.write_text(damage, encoding="utf-8")
    damaged = ResultCache(tmp_path, "x64=off")
    assert damaged.get("k1") is None and damaged.files == {} and damaged.run == {}
    damaged.put("k1", ROWS)
    damaged.save()
    assert json.loads(store.path.read_text(encoding="utf-8"))["results"] == {"k1": ROWS}


def test_a_store_that_cannot_be_written_costs_only_the_cache(tmp_path) -> None:
    (tmp_path / "a file").write_text("in the way")
    store = ResultCache(tmp_path / "a file" / "cache", "x64=off")  # its folder cannot be made
    store.put("k1", ROWS)
    store.save()  # no exception: a read-only tree lints fine without a cache
    assert ResultCache(tmp_path / "a file" / "cache", "x64=off").get("k1") is None


def test_the_cache_folder_tells_git_to_ignore_it(tmp_path) -> None:
    store = ResultCache(tmp_path / "cache", "x64=off")
    store.put("k1", ROWS)
    store.save()
    assert (tmp_path / "cache" / ".gitignore").read_text() == "# Automatically created by promolint.\n*\n"


def test_a_store_without_changes_writes_nothing(tmp_path) -> None:
    store = ResultCache(tmp_path / "cache", "x64=off")
    store.save()
    assert not (tmp_path / "cache").exists()
    store.put("k1", ROWS)
    store.save()
    store.path.write_text("{}", encoding="utf-8")  # a mark: a second save of the same entry must not write
    store.put("k1", list(ROWS))
    store.save()
    assert store.path.read_text(encoding="utf-8") == "{}"


def test_retain_forgets_the_entries_of_files_no_longer_seen(tmp_path) -> None:
    store = ResultCache(tmp_path, "x64=off")
    store.put("kept", ROWS)
    store.put("gone", ROWS)
    store.retain({"kept"})
    store.save()
    again = ResultCache(tmp_path, "x64=off")
    assert again.get("kept") == ROWS and "gone" not in again


def test_the_index_of_the_last_run_is_saved_beside_the_entries(tmp_path) -> None:
    store = ResultCache(tmp_path, "x64=off")
    store.index({"a.py": [1, 2, 3]}, {"found": "digest"})
    store.save()
    again = ResultCache(tmp_path, "x64=off")
    assert again.files == {"a.py": [1, 2, 3]} and again.run == {"found": "digest"}


def test_an_entry_is_keyed_by_the_sha256_of_the_files_bytes() -> None:
    assert content_key(b"x = 1\n") == hashlib.sha256(b"x = 1\n").hexdigest()
    assert content_key(b"x = 1\n") != content_key(b"x = 1 \n")
