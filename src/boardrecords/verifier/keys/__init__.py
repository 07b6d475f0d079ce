"""Keys for finding games again: canonical position keys (the same under every move order and symmetry), the
board symmetries, the Dyer signature, patterns and their scan, and the positions a user asks for."""
