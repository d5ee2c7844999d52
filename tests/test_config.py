"""Config files: good ones load, bad ones are refused with the file, the key and the reason."""

import pytest

from companion.config import Config, ConfigError, load


def write(tmp_path, text):
    path = tmp_path / "companion.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_suit_the_impression_build():
    config = load(None)
    assert (config.panel, config.profile, config.language, config.port, config.dice) == (
        "impression-7.3", "impression-7in3", "fr", 8080, 2)


def test_a_full_file_loads(tmp_path):
    path = write(tmp_path, 'panel = "what-red"\nprofile = "what-buttons"\nlanguage = "en"\n'
                           f'state_dir = "{tmp_path}"\nport = 9000\ndice = 3\n')
    config = load(path)
    assert (config.panel, config.profile, config.language, config.port, config.dice) == (
        "what-red", "what-buttons", "en", 9000, 3)


@pytest.mark.parametrize("text, key, reason", [
    ('colour = "red"\n', "colour", "unknown field"),
    ('port = "eighty"\n', "port", "Expected `int`, got `str`"),
    ("port = 70000\n", "port", "<= 65535"),
    ("dice = 4\n", "dice", "<= 3"),
    ('language = "de"\n', "language", "not one of fr, en"),
    ('panel = "kindle"\n', "panel", "unknown panel"),
    ('game = "chess"\n', "game", "unknown game"),
    ('profile = "nope"\n', "profile", "nope"),
    ('panel = "spectra-13.3"\nprofile = "impression-7in3"\n', "profile", "16"),
])
def test_bad_values_name_file_key_and_reason(tmp_path, text, key, reason):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load(path)
    message = str(caught.value)
    assert str(path) in message
    assert f"'{key}'" in message
    assert reason in message


def test_broken_toml_names_the_file(tmp_path):
    path = write(tmp_path, "port = \n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load(path)


def test_missing_file(tmp_path):
    with pytest.raises(ConfigError, match="file not found"):
        load(tmp_path / "absent.toml")


def test_environment_port_wins_over_the_default(monkeypatch):
    monkeypatch.setenv("COMPANION_PORT", "9123")
    assert load(None).port == 9123


def test_bad_environment_port_is_refused(monkeypatch):
    monkeypatch.setenv("COMPANION_PORT", "http")
    with pytest.raises(ConfigError, match="COMPANION_PORT"):
        load(None)


def test_public_url_defaults_to_mdns_name():
    assert Config(port=8181).public_url().endswith(".local:8181/")
    assert Config(url="http://table.example/").public_url() == "http://table.example/"


def test_environment_port_applies_when_no_port_flag_was_given(monkeypatch):
    monkeypatch.setenv("COMPANION_PORT", "9124")
    assert load(None, port=None).port == 9124
    assert load(None, port=9200).port == 9200
