"""Text and TCP protocols: the engine protocol (`engine`) that other programs
drive the library with, and the tournament protocols games declare
(`network`; Hadron's in `hadron`)."""
