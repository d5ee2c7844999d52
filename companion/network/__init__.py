"""The table's network: join the venue's Wi-Fi, or be the network with a hotspot of its own."""
