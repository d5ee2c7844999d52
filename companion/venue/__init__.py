"""Venue mode: tables publish their public updates over MQTT to one dashboard (docs/venue.md)."""
