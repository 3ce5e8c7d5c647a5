"""Rule tables as TOML data, one folder per ruleset."""
