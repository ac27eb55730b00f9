"""Files of the workspace: opened beneath the root (`beneath`), the workspace and its parse
cache (`workspace`), secrets and private files, trust, and the config with its defaults."""
