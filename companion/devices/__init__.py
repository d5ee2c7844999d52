"""The device's parts: buttons, LED dice and e-ink panels, real on a Pi and simulated elsewhere."""
