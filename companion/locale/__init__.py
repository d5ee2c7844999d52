"""Gettext catalogs: English msgids in the code and templates, French in fr/LC_MESSAGES."""
