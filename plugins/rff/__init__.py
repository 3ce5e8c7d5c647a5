"""Regimental Fire and Fury (QRS II, 6mm) with its optional rules."""
