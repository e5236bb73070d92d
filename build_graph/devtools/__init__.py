"""Tools for developing the atlas (benchmark inputs, measurements); not used by a build."""
