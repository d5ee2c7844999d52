"""Shared drawing for e-ink screens: fonts, palette roles, measured layout, QR codes."""
