# ML4M Arcade firmware. Shown on the About screen.
VERSION = "0.1.0"
